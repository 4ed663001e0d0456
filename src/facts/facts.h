/* The facts about one machine: one plain data model, filled by probes (or, later, by
 * parsers of pasted text), read by rules and renderers. Its shape is described once, in
 * schema.c, and that description drives the JSON form (both ways), freeing and the text
 * view, so the three can never disagree. */
#ifndef DLENV_FACTS_FACTS_H
#define DLENV_FACTS_FACTS_H

#include "facts/value.h"

#define DL_REPORT_SCHEMA "dlenv.report/1"

typedef struct dl_probe_run {
    dl_text name;
    dl_text status;       /* ok, not_present, no_permission, failed, timed_out, skipped */
    dl_text detail;       /* why, when not ok */
    dl_num duration_ms;
} dl_probe_run;

typedef struct dl_tool_facts {
    dl_text name;
    dl_text version;
    dl_text root;
    dl_list probes;       /* dl_probe_run */
} dl_tool_facts;

typedef struct dl_wsl_facts {
    dl_flag detected;
    dl_int version;       /* 1 or 2 */
    dl_flag dev_dxg;      /* /dev/dxg: the GPU paravirtualisation device of WSL2 */
    dl_flag lib_dir;      /* /usr/lib/wsl/lib: where WSL puts libcuda and nvidia-smi */
    dl_list evidence;     /* text */
} dl_wsl_facts;

typedef struct dl_container_facts {
    dl_flag detected;
    dl_text runtime;      /* docker, podman, kubernetes, lxc, containerd, unknown */
    dl_list evidence;     /* text */
} dl_container_facts;

typedef struct dl_os_facts {
    dl_text family;       /* linux, windows, macos */
    dl_text distro_id;    /* os-release ID */
    dl_text distro_name;  /* NAME */
    dl_text distro_version; /* VERSION_ID */
    dl_text pretty_name;
    dl_text kernel_release;
    dl_text kernel_version;
    dl_text arch;
    dl_text libc_name;
    dl_text libc_version;
    dl_wsl_facts wsl;
    dl_container_facts container;
} dl_os_facts;

typedef struct dl_cpu_facts {
    dl_text vendor;
    dl_text model;
    dl_int sockets;
    dl_int physical_cores;
    dl_int logical_threads;
    dl_list isa;          /* text: sse4_2 avx avx2 fma avx512f ... amx_tile neon sve */
    dl_text isa_source;   /* cpuid, /proc/cpuinfo */
} dl_cpu_facts;

typedef struct dl_memory_facts {
    dl_int total_bytes;
    dl_int available_bytes;
    dl_int swap_total_bytes;
    dl_int swap_free_bytes;
} dl_memory_facts;

typedef struct dl_pci_gpu {
    dl_text address;      /* 0000:01:00.0 */
    dl_int class_code;    /* 0x030000 */
    dl_text class_name;   /* VGA compatible controller, 3D controller, ... */
    dl_int vendor_id;
    dl_int device_id;
    dl_int subsystem_vendor_id;
    dl_int subsystem_device_id;
    dl_text vendor_name;
    dl_text device_name;
    dl_text subsystem_name;
    dl_text driver;       /* bound kernel driver, or "none" */
    dl_flag boot_vga;     /* the firmware's primary display */
} dl_pci_gpu;

typedef struct dl_facts {
    dl_text schema;
    dl_tool_facts tool;
    dl_os_facts os;
    dl_cpu_facts cpu;
    dl_memory_facts memory;
    dl_list gpus;         /* dl_pci_gpu */
    dl_text pci_ids;      /* which name database was used */
    dl_list environment;  /* dl_pair, the allowlisted variables that are set */
} dl_facts;

void dl_facts_init(dl_facts *f);
void dl_facts_free(dl_facts *f);

#endif
