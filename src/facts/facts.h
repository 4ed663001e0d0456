/* The facts about one machine: one plain data model, filled by probes, by the parser of
 * pasted text (parse/text_facts.c) or from a saved report (facts_json.c), read by rules,
 * the planner and renderers. Its shape is described once, in
 * schema.c, and that description drives the JSON form (both ways), freeing and the text
 * view, so the three can never disagree. */
#ifndef DLENV_FACTS_FACTS_H
#define DLENV_FACTS_FACTS_H

#include "facts/value.h"

#define DL_REPORT_SCHEMA "dlenv.report/1"
#define DL_REPORT_SCHEMA_MAJOR 1 /* the newest major version this dlenv reads */

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

/* A virtual machine: the CPU's hypervisor bit and vendor leaf, the firmware's (DMI) maker
 * and product names. */
typedef struct dl_virtualization_facts {
    dl_flag detected;
    dl_text hypervisor;   /* kvm, vmware, hyper-v, xen, virtualbox, qemu, parallels, bhyve ... */
    dl_list evidence;     /* text */
} dl_virtualization_facts;

/* Windows settings that cost speed (issue 25): the power scheme, the power source and the
 * NVIDIA driver's power-management mode (probe/windows/power*.c). */
typedef struct dl_windows_power_facts {
    dl_text scheme;               /* power_saver, balanced, high_performance, ultimate, custom */
    dl_text scheme_guid;          /* ActivePowerScheme: 381b4222-f694-41f0-9685-ff5bb260df2e */
    dl_text scheme_name;          /* its friendly name, as the registry gives it */
    dl_text power_mode;           /* the AC power mode over it: best_efficiency, balanced, best_performance */
    dl_flag on_battery;           /* GetSystemPowerStatus: ACLineStatus = 0 */
    dl_flag battery_present;      /* BatteryFlag lacks 128 (no system battery): a laptop */
    dl_text nvidia_power_mode;    /* NVAPI global profile PREFERRED_PSTATE: optimal_power ... */
    dl_text memory_compression;   /* unknown: only WMI says (Get-MMAgent) */
} dl_windows_power_facts;

/* Windows settings that decide whether torch loads and runs well (issue 8). */
typedef struct dl_windows_facts {
    dl_text product_name;         /* Windows 11 Pro (the registry says 10 on 11: probe/windows/os.c) */
    dl_text display_version;      /* 23H2 */
    dl_text build;                /* 22631.4037: build and update revision */
    dl_text edition;              /* Professional, Core ... */
    dl_flag hags;                 /* hardware-accelerated GPU scheduling (HwSchMode = 2) */
    dl_flag long_paths;           /* LongPathsEnabled */
    dl_flag developer_mode;       /* AllowDevelopmentWithoutDevLicense */
    dl_text vc_runtime_version;   /* VC++ 2015-2022 x64 runtime: 14.40.33810 */
    dl_text msvcp140;             /* System32's msvcp140.dll file version */
    dl_text pagefile;             /* the PagingFiles setting, as read */
    dl_flag pagefile_system_managed;
    dl_int pagefile_max_bytes;    /* the most the configured files may grow to */
    dl_int commit_limit_bytes;    /* RAM + paging file now */
    dl_list python_registry;      /* text: PEP 514 entries, Company\Tag = executable */
    dl_windows_power_facts power; /* settings that cost speed */
} dl_windows_facts;

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
    dl_virtualization_facts virtualization;
    dl_windows_facts windows;
} dl_os_facts;

typedef struct dl_cpu_facts {
    dl_text vendor;
    dl_text model;
    dl_int sockets;
    dl_int physical_cores;
    dl_int logical_threads;
    dl_list isa;          /* text: sse4_2 avx avx2 fma avx512f ... amx_tile neon sve */
    dl_text isa_source;   /* cpuid, /proc/cpuinfo */
    /* Linux cpufreq (probe/system/cpufreq.c): the scaling driver (intel_pstate,
     * amd-pstate-epp, acpi-cpufreq ...), and the distinct governors and energy/performance
     * preferences its CPUs are set to, in CPU order. */
    dl_text frequency_driver;
    dl_list frequency_governors;   /* text: performance, powersave, schedutil ... */
    dl_list energy_preferences;    /* text: performance, balance_performance, power ... */
} dl_cpu_facts;

typedef struct dl_memory_facts {
    dl_int total_bytes;
    dl_int available_bytes;
    dl_int swap_total_bytes;
    dl_int swap_free_bytes;
    dl_int shm_bytes;     /* /dev/shm's size (Linux): DataLoader workers and NCCL use it */
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
    dl_text source;       /* sysfs, dxgi, registry (where the adapter was seen) */
    dl_text driver_version;       /* Windows: 31.0.15.3598 */
    dl_text nvidia_driver_version;/* the same as NVIDIA numbers it: 535.98 */
    dl_text driver_date;
    dl_int dedicated_memory_bytes;/* DXGI's dedicated video memory */
    dl_text luid;                 /* DXGI adapter LUID, as CUDA reports it */
} dl_pci_gpu;

/* ---- the NVIDIA layer below Python (issue 3) ---------------------------------------- */

typedef struct dl_device_node {
    dl_text path;         /* /dev/nvidia0, /dev/nvidiactl, /dev/nvidia-uvm ... */
    dl_flag accessible;   /* this user can open it read-write */
} dl_device_node;

typedef struct dl_nvidia_kernel_facts {
    dl_text proc_version;     /* first line of /proc/driver/nvidia/version */
    dl_text driver_version;   /* the version in it, or /sys/module/nvidia/version */
    dl_list loaded_modules;   /* text: nvidia, nvidia_uvm, nvidia_drm, nvidia_modeset, nouveau */
    dl_list device_nodes;     /* dl_device_node */
    dl_flag module_file;      /* an nvidia module exists for the running kernel */
    dl_text module_path;      /* where it was found */
    dl_flag secure_boot;      /* from the SecureBoot EFI variable */
    dl_flag persistenced;     /* nvidia-persistenced is running */
    dl_flag fabricmanager;    /* nv-fabricmanager is installed */
} dl_nvidia_kernel_facts;

typedef struct dl_cuda_toolkit {
    dl_text path;             /* the toolkit's root directory, real path */
    dl_text found_by;         /* CUDA_HOME, CUDA_PATH, nvcc on PATH, /usr/local/cuda, ... */
    dl_text link_target;      /* for a symbolic link such as /usr/local/cuda: its target */
    dl_text version;          /* 13.0.88 */
    dl_text version_source;   /* version.json, version.txt, cuda.h, nvcc */
    dl_text cudnn_version;    /* from cudnn_version.h */
    dl_list cudnn_libraries;  /* text: file names */
    dl_text nccl_version;     /* from nccl.h */
} dl_cuda_toolkit;

typedef struct dl_library_copy {
    dl_text path;             /* the file (link path as found) */
    dl_text real_path;        /* what it resolves to */
    dl_text version;          /* from the file name (libcudart.so.12.4.127) */
    dl_text directory_kind;   /* LD_LIBRARY_PATH, ld.so.cache, default, wsl, stubs ... */
    dl_flag chosen;           /* the copy the dynamic loader would load */
    dl_flag stub;             /* lives in a stubs/ directory */
} dl_library_copy;

typedef struct dl_library_lookup {
    dl_text name;             /* libcuda.so.1 */
    dl_text chosen;           /* the path the loader would pick, or unknown: not found */
    dl_list copies;           /* dl_library_copy, in search order */
} dl_library_lookup;

typedef struct dl_gpu_process {
    dl_int pid;
    dl_int used_memory_bytes;
} dl_gpu_process;

typedef struct dl_nvml_gpu {
    dl_int index;
    dl_text name;
    dl_text uuid;
    dl_text pci_bus_id;
    dl_int minor_number;          /* N of /dev/nvidiaN (Linux); not always the index */
    dl_text compute_capability;   /* "8.9" */
    dl_int memory_total_bytes;
    dl_int memory_used_bytes;
    dl_int pcie_generation;
    dl_int pcie_generation_max;
    dl_int pcie_width;
    dl_int pcie_width_max;
    dl_int sm_clock_mhz;
    dl_int sm_clock_max_mhz;
    dl_int memory_clock_mhz;
    dl_int memory_clock_max_mhz;
    dl_int app_clock_graphics_mhz;          /* applications clocks as set ... */
    dl_int app_clock_graphics_default_mhz;  /* ... and as the board ships */
    dl_int app_clock_memory_mhz;
    dl_int app_clock_memory_default_mhz;
    dl_flag display_active;       /* a display (an X server) is initialised on it */
    dl_flag display_connected;    /* a monitor is plugged into it */
    dl_num power_draw_watts;
    dl_num power_limit_watts;
    dl_num power_limit_default_watts; /* the limit the board boots with */
    dl_int performance_state;     /* P0 .. P15 */
    dl_list throttle_reasons;     /* text: sw_power_cap, hw_slowdown, sw_thermal ... */
    dl_flag persistence_mode;
    dl_flag mig_enabled;
    dl_flag ecc_enabled;
    dl_text compute_mode;         /* default, exclusive_process, prohibited */
    dl_text driver_model;         /* Windows: wddm, tcc, mcdm */
    dl_list processes;            /* dl_gpu_process */
} dl_nvml_gpu;

typedef struct dl_gpu_link {
    dl_int gpu_a;
    dl_int gpu_b;
    dl_text path;                 /* nvlink, same_board, pcie_switch, pcie_switches,
                                     host_bridge, numa_node, system */
    dl_int nvlinks;               /* active NVLinks between the two */
} dl_gpu_link;

typedef struct dl_nvml_facts {
    dl_text library;              /* the real path of the libnvidia-ml that loaded */
    dl_text init_result;          /* nvmlErrorString of the init call */
    dl_text driver_version;
    dl_int cuda_driver_version;   /* 12040: the newest CUDA this driver runs */
    dl_text nvml_version;
    dl_list missing_symbols;      /* optional functions this (old) library lacks */
    dl_list gpus;                 /* dl_nvml_gpu */
    dl_list topology;             /* dl_gpu_link, for every pair when there are several */
} dl_nvml_facts;

typedef struct dl_cuda_device {
    dl_int index;
    dl_text name;
    dl_text compute_capability;
    dl_int sm_count;
    dl_int memory_bytes;
    dl_int clock_khz;
    dl_int memory_clock_khz;
    dl_int memory_bus_width_bits;
    dl_flag ecc_enabled;
    dl_flag tcc_driver;           /* Windows: TCC rather than WDDM */
    dl_text pci_bus_id;
} dl_cuda_device;

typedef struct dl_cuda_driver_facts {
    dl_text library;              /* the real path of the libcuda that loaded */
    dl_int init_code;             /* cuInit's result */
    dl_text init_result;          /* its name: CUDA_SUCCESS, CUDA_ERROR_STUB_LIBRARY ... */
    dl_int driver_version;        /* cuDriverGetVersion: 12040 */
    dl_int device_count;
    dl_list devices;              /* dl_cuda_device */
} dl_cuda_driver_facts;

/* ---- the Python layer (issue 4) -------------------------------------------------------- */

typedef struct dl_py_package {
    dl_text name;                 /* as its metadata spells it: torch, nvidia-cudnn-cu12 */
    dl_text version;              /* 2.3.1+cu121 */
    dl_text installer;            /* pip, uv, conda (INSTALLER file / conda-meta) */
    dl_text channel;              /* conda: the channel its record names (pytorch,
                                   * conda-forge, defaults, or the channel's URL) */
    dl_text source;               /* where the metadata was read: a dist-info or conda-meta */
    dl_text direct_url;           /* direct_url.json: a local wheel file or URL, when any */
    dl_text requires_torch;       /* the torch requirement it declares ("torch==2.3.1") */
    dl_text requires_triton;      /* torch's own pin on triton ("triton==2.3.1; ...") */
    dl_list libraries;            /* text: native libraries in an extension package's folder
                                   * (bitsandbytes/libbitsandbytes_cuda121.so) */
    dl_text built_with;           /* the package's own record of the torch it was built with
                                   * (deepspeed's torch_info line) */
} dl_py_package;

/* A DLL that a torch DLL imports and that Windows would not find. */
typedef struct dl_missing_dll {
    dl_text name;                 /* cudnn64_9.dll */
    dl_text needed_by;            /* torch\lib\torch_cuda.dll */
} dl_missing_dll;

typedef struct dl_torch_install {
    dl_text location;             /* the torch/ package directory */
    dl_text version;              /* torch/version.py __version__: 2.3.1+cu121 */
    dl_text local_tag;            /* cu121, cpu, rocm6.0, xpu, or none */
    dl_text cuda;                 /* torch.version.cuda as built: 12.1 */
    dl_text hip;
    dl_text git_version;
    dl_list bundled_libraries;    /* text: torch/lib/libcudnn.so.9, cudnn64_9.dll ... */
    dl_list dll_search;           /* Windows: text, the folders torch's DLLs load from */
    dl_list missing_dlls;         /* Windows: dl_missing_dll */
    dl_list openmp_runtimes;      /* Windows: text, every libiomp5md.dll those folders hold */
} dl_torch_install;

typedef struct dl_site_packages {
    dl_text path;
    dl_text scope;                /* prefix, user, system, path (PYTHONPATH) */
    dl_list packages;             /* dl_py_package: torch and what goes with it */
    dl_list torches;              /* dl_torch_install found in this directory */
} dl_site_packages;

typedef struct dl_torch_device {
    dl_int index;
    dl_text name;
    dl_text capability;           /* "8.9" */
    dl_int memory_bytes;
} dl_torch_device;

/* dlenv verify: one matrix product torch ran on its CUDA device. */
typedef struct dl_torch_gpu_matmul {
    dl_text dtype;                /* fp32 (TF32 off), tf32, fp16, bf16 */
    dl_int device;                /* torch's device index */
    dl_int size;                  /* n */
    dl_num tflops;                /* median of 3 timed with CUDA events */
    dl_num spread_pct;
    dl_text check;                /* passed, or how far from float64 on the CPU */
} dl_torch_gpu_matmul;

/* One extension package imported after torch, in its own child (ext_probe.py). */
typedef struct dl_ext_import {
    dl_text package;              /* as its metadata spells it: xformers, flash_attn */
    dl_text module;               /* what was imported: flash_attn, triton, mmcv */
    dl_text status;               /* imported, import_failed, timed_out, crashed (its
                                     interpreter died), not_found (metadata, no module),
                                     not_run (the time ran out first), skipped (asked) */
    dl_text error;                /* the exception (type: first and last lines), or why it
                                     was stopped or died, with the stack it printed */
    dl_text output;               /* what the import printed (warnings: xFormers' "built
                                     for"), first and last lines, cleaned */
    dl_int signal;                /* the signal that killed it (crashed, POSIX) */
    dl_num import_ms;
} dl_ext_import;

typedef struct dl_torch_runtime {
    dl_text status;               /* imported; incomplete (imported, but it lacks PyTorch's
                                     API); import_failed, timed_out, crashed, failed (the
                                     interpreter gave no answer), not_runnable (it could not
                                     be started); skipped (--no-runtime), not_run (under
                                     --root, or nothing to import) */
    dl_text error;                /* the exception (type: message) when import failed, or
                                     the last lines the interpreter wrote when it died */
    dl_text version;
    dl_text file;                 /* torch.__file__: which torch was imported */
    dl_text origin;               /* how torch's folder got onto sys.path: own_site,
                                     base_site (a venv's --system-site-packages),
                                     user_site, pythonpath, pth_file, current_directory,
                                     other */
    dl_text origin_detail;        /* that folder, or the .pth file that names it */
    dl_text cuda;                 /* torch.version.cuda */
    dl_text hip;
    dl_flag cuda_available;
    dl_text cuda_warning;         /* what is_available() warned, when it did */
    dl_int device_count;
    dl_list devices;              /* dl_torch_device */
    dl_list arch_list;            /* text: sm_50 ... compute_90 */
    dl_int cudnn_version;
    dl_flag mkl;
    dl_flag mkldnn;
    dl_flag openmp;
    dl_text blas;                 /* BLAS_INFO from the build configuration */
    dl_text blas_core;            /* the kernel a mapped OpenBLAS chose: Prescott, SkylakeX */
    dl_int blas_threads;          /* openblas_get_num_threads() */
    dl_text blas_config;          /* openblas_get_config(): "OpenBLAS 0.3.21 DYNAMIC_ARCH ..." */
    dl_int threads;
    dl_int interop_threads;
    dl_flag mps_available;
    dl_flag xpu_available;
    dl_list loaded_libraries;     /* text: the CUDA, cuDNN, BLAS, OpenMP files the process mapped */
    dl_num matmul_gflops;         /* dlenv verify: an fp32 matrix product, median of 3 */
    dl_int matmul_size;           /* its n (n x n times n x n) */
    dl_num matmul_spread_pct;     /* (slowest - fastest) / median */
    dl_list gpu_matmul;           /* dlenv verify: dl_torch_gpu_matmul */
    dl_num import_ms;
    dl_list extensions;           /* dl_ext_import: each installed extension package,
                                     imported after torch (--no-ext-import skips) */
} dl_torch_runtime;

/* What typing `pip` runs: the first pip (or pip3) on PATH and the interpreter it installs
 * into (its #! line), which is not always the one `python` runs. */
typedef struct dl_pip_command {
    dl_text path;                 /* /home/u/b/bin/pip */
    dl_text python;               /* the interpreter it runs, real path */
    dl_text prefix;               /* that interpreter's installation (a venv's folder) */
} dl_pip_command;

/* Who runs dlenv, for the fixes it writes: an administrator needs no sudo. */
typedef struct dl_user_facts {
    dl_flag admin;                /* root (POSIX) or an elevated administrator (Windows) */
    dl_flag sudo;                 /* sudo is on PATH */
} dl_user_facts;

typedef struct dl_python {
    dl_text path;                 /* as found */
    dl_text real_path;
    dl_list found_by;             /* text: "python3 on PATH (1st)", VIRTUAL_ENV, --python ... */
    dl_text version;              /* 3.11.2 */
    dl_text implementation;       /* cpython, pypy */
    dl_int bits;                  /* 64 or 32 */
    dl_text kind;                 /* system, venv, conda, pyenv, uv */
    dl_text prefix;
    dl_text pip;                  /* the pip on PATH that belongs to this interpreter */
    dl_list site_packages;        /* dl_site_packages, in import order */
    dl_torch_runtime runtime;
} dl_python;

/* dlenv verify: what this CPU really does (src/measure/), the limit torch is held to. */
typedef struct dl_cpu_measure {
    dl_text isa;                  /* the kernel that ran: avx512f, avx2_fma, sse2, generic */
    dl_int threads;
    dl_num fp32_gflops_1core;
    dl_num fp64_gflops_1core;
    dl_num fp32_gflops_all;
    dl_num fp64_gflops_all;
    dl_num peak_spread_pct;
    dl_num triad_gbps;            /* STREAM triad, 3 x 8 bytes per element */
    dl_int triad_array_bytes;
} dl_cpu_measure;

/* dlenv verify: one GPU measured natively through the CUDA driver API with dlenv's own PTX
 * kernels (src/measure/gpu_*.c), in a child process; what NVML said while it was busy. */
typedef struct dl_gpu_measure {
    dl_int index;                 /* the CUDA device ordinal (cuda_driver.devices) */
    dl_text pci_bus_id;
    dl_text status;               /* measured, failed */
    dl_text error;                /* the first call that failed, in CUDA's words */
    dl_text check;                /* passed, or what differed from the CPU */
    dl_int check_elements;
    dl_num fp32_tflops;           /* the FMA kernel, median */
    dl_num fp32_spread_pct;
    dl_num copy_kernel_gbps;      /* bytes read + written per second */
    dl_num dtod_gbps;             /* cuMemcpyDtoD, read + written */
    dl_int copy_buffer_bytes;
    dl_num h2d_pinned_gbps;
    dl_num d2h_pinned_gbps;
    dl_num h2d_pageable_gbps;
    dl_num d2h_pageable_gbps;
    dl_int transfer_bytes;
    dl_int memory_free_bytes;     /* cuMemGetInfo before the search */
    dl_int memory_total_bytes;
    dl_int max_alloc_bytes;       /* the largest single cuMemAlloc that succeeded */
    dl_int load_sm_clock_mhz;     /* NVML while the FMA kernel ran */
    dl_int load_sm_clock_max_mhz;
    dl_list load_throttle_reasons;
    dl_num load_power_watts;
    dl_int load_pcie_generation;  /* NVML while host-to-device copies ran */
    dl_int load_pcie_width;
    dl_int pcie_generation_max;
    dl_int pcie_width_max;
} dl_gpu_measure;

typedef struct dl_gpu_measure_facts {
    dl_text status;               /* measured, skipped, failed, timed_out */
    dl_text detail;
    dl_list devices;              /* dl_gpu_measure */
} dl_gpu_measure_facts;

typedef struct dl_facts {
    dl_text schema;
    dl_tool_facts tool;
    dl_os_facts os;
    dl_cpu_facts cpu;
    dl_memory_facts memory;
    dl_list gpus;         /* dl_pci_gpu */
    dl_text pci_ids;      /* which name database was used */
    dl_list environment;  /* dl_pair, the allowlisted variables that are set */
    dl_nvidia_kernel_facts nvidia_kernel;
    dl_nvml_facts nvml;
    dl_cuda_driver_facts cuda_driver;
    dl_list cuda_toolkits;    /* dl_cuda_toolkit */
    dl_list libraries;        /* dl_library_lookup */
    dl_list pythons;          /* dl_python: every interpreter a user might run */
    dl_pip_command pip;       /* what `pip` on PATH installs into */
    dl_user_facts user;
    dl_cpu_measure cpu_measure; /* only from dlenv verify */
    dl_gpu_measure_facts gpu_measure; /* only from dlenv verify */
} dl_facts;

void dl_facts_init(dl_facts *f);
void dl_facts_free(dl_facts *f);

#endif
