/* Probes gather facts and nothing else: they never print and never judge. Each probe is
 * one file with one entry point, reads the machine only through src/os, and says how it
 * went in the words of what failed. */
#ifndef DLENV_PROBE_PROBE_H
#define DLENV_PROBE_PROBE_H

#include "facts/facts.h"
#include "os/os.h"

typedef enum dl_probe_status {
    DL_PROBE_OK,
    DL_PROBE_NOT_PRESENT,
    DL_PROBE_NO_PERMISSION,
    DL_PROBE_FAILED,
    DL_PROBE_TIMED_OUT,
    DL_PROBE_SKIPPED
} dl_probe_status;

typedef struct dl_probe_outcome {
    dl_probe_status status;
    char *detail;   /* set when status is not ok */
} dl_probe_outcome;

typedef void (*dl_probe_fn)(const dl_machine *m, dl_facts *f, dl_probe_outcome *out);

typedef struct dl_probe {
    const char *name;
    dl_probe_fn run;
} dl_probe;

const char *dl_probe_status_name(dl_probe_status s);
dl_probe_status dl_probe_status_from_name(const char *name);   /* unknown names: failed */
/* The isolated driver probes start this executable again under this timeout. */
void dl_probe_configure_children(const char *self_path, int timeout_ms);
/* --python, --no-runtime and --import-timeout for the Python probe. */
void dl_probe_configure_python(const char *chosen, bool runtime, int timeout_ms);
/* dlenv verify: the runtime probe also times torch's matrix products (CPU, and each dtype on
 * its CUDA device) at a level: quick, default or full; NULL: not at all. The string must
 * outlive the probes. */
void dl_probe_configure_measure(const char *level);
/* Sets the outcome once: the first problem a probe meets is the one reported. */
void dl_probe_note(dl_probe_outcome *out, dl_probe_status s, const char *detail);
/* Maps a file error to the probe status it means. */
dl_probe_status dl_probe_status_of_io(dl_io_status s);

/* Every probe, in the order they run. */
void dl_probe_os(const dl_machine *m, dl_facts *f, dl_probe_outcome *out);
void dl_probe_wsl(const dl_machine *m, dl_facts *f, dl_probe_outcome *out);
void dl_probe_container(const dl_machine *m, dl_facts *f, dl_probe_outcome *out);
void dl_probe_virtualization(const dl_machine *m, dl_facts *f, dl_probe_outcome *out);
void dl_probe_user(const dl_machine *m, dl_facts *f, dl_probe_outcome *out);
void dl_probe_cpu(const dl_machine *m, dl_facts *f, dl_probe_outcome *out);
void dl_probe_memory(const dl_machine *m, dl_facts *f, dl_probe_outcome *out);
void dl_probe_pci(const dl_machine *m, dl_facts *f, dl_probe_outcome *out);
void dl_probe_environment(const dl_machine *m, dl_facts *f, dl_probe_outcome *out);
void dl_probe_nvidia_kernel(const dl_machine *m, dl_facts *f, dl_probe_outcome *out);
void dl_probe_nvml(const dl_machine *m, dl_facts *f, dl_probe_outcome *out);
void dl_probe_cuda_driver(const dl_machine *m, dl_facts *f, dl_probe_outcome *out);
/* dlenv verify: every CUDA device measured (src/measure/gpu_measure.h) in the isolated
 * child, at a level (quick, default, full), killed after timeout_ms. */
void dl_probe_gpu_measure(const dl_machine *m, const char *level, int timeout_ms,
                          dl_gpu_measure_facts *f, dl_probe_outcome *out);
void dl_probe_cuda_toolkits(const dl_machine *m, dl_facts *f, dl_probe_outcome *out);
void dl_probe_libraries(const dl_machine *m, dl_facts *f, dl_probe_outcome *out);
void dl_probe_python(const dl_machine *m, dl_facts *f, dl_probe_outcome *out);
/* Windows only (*_win.c): this machine's registry, DXGI and loader. */
void dl_probe_os_windows(const dl_machine *m, dl_facts *f, dl_probe_outcome *out);
void dl_probe_windows_settings(const dl_machine *m, dl_facts *f, dl_probe_outcome *out);
void dl_probe_memory_windows(const dl_machine *m, dl_facts *f, dl_probe_outcome *out);
void dl_probe_gpus_windows(const dl_machine *m, dl_facts *f, dl_probe_outcome *out);
void dl_probe_libraries_windows(const dl_machine *m, dl_facts *f, dl_probe_outcome *out);

/* Runs every probe and records each one's status and duration in f->tool.probes. */
void dl_probe_all(const dl_machine *m, dl_facts *f);

#endif
