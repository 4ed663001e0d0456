/* Probes gather facts and nothing else: they never print and never judge. Each probe is
 * one file under probe/<subject>/ (system, gpu, python, windows) with one entry point,
 * reads the machine only through src/os and its dl_probe_ctx, and says how it went in the
 * words of what failed. Which probes run, and in which order, is the table of
 * probe/platform.c (one for Linux and --root trees, one for a live Windows machine). */
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

/* What the caller chose about how to look (--python, --no-runtime, the timeouts, verify's
 * level). It travels with the machine to every probe, as --root does, so no probe keeps a
 * setting of its own. Zero means the default for each. */
typedef struct dl_probe_settings {
    const char *self_path;   /* this executable, started again for the driver probes; NULL: "dlenv" */
    int child_timeout_ms;    /* the driver probes' children; 0: 15 s */
    const char *python;      /* --python: the interpreter to look at first */
    bool no_runtime;         /* --no-runtime: do not import torch */
    int import_timeout_ms;   /* --import-timeout; 0: 60 s */
    bool no_ext_import;      /* --no-ext-import: no extension package imported after torch */
    const char *skip_ext_import; /* --skip-ext-import: comma-separated packages not imported */
    const char *measure;     /* dlenv verify: time torch's products at quick, default or
                              * full; NULL: not at all */
} dl_probe_settings;

/* The probe context: the machine looked at and how. */
typedef struct dl_probe_ctx {
    const dl_machine *machine;
    dl_probe_settings settings;
} dl_probe_ctx;

typedef void (*dl_probe_fn)(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out);

typedef struct dl_probe {
    const char *name;
    dl_probe_fn run;
} dl_probe;

const char *dl_probe_status_name(dl_probe_status s);
dl_probe_status dl_probe_status_from_name(const char *name);   /* unknown names: failed */
/* Sets the outcome once: the first problem a probe meets is the one reported. */
void dl_probe_note(dl_probe_outcome *out, dl_probe_status s, const char *detail);
/* Maps a file error to the probe status it means. */
dl_probe_status dl_probe_status_of_io(dl_io_status s);

/* The probes' entry points; the run order is platform.c's. */
void dl_probe_os(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out);
void dl_probe_wsl(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out);
void dl_probe_container(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out);
void dl_probe_virtualization(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out);
void dl_probe_user(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out);
void dl_probe_cpu(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out);
void dl_probe_cpufreq(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out);
void dl_probe_memory(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out);
void dl_probe_shared_memory(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out);
void dl_probe_pci(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out);
void dl_probe_environment(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out);
void dl_probe_nvidia_kernel(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out);
void dl_probe_nvml(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out);
void dl_probe_cuda_driver(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out);
/* dlenv verify: every CUDA device measured (src/measure/gpu_measure.h) in the isolated
 * child, at a level (quick, default, full), killed after timeout_ms. */
void dl_probe_gpu_measure(const dl_probe_ctx *ctx, const char *level, int timeout_ms,
                          dl_gpu_measure_facts *f, dl_probe_outcome *out);
void dl_probe_cuda_toolkits(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out);
void dl_probe_libraries(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out);
void dl_probe_python(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out);
/* A Windows machine, through its registry (probe/windows/os.c, settings.c, gpus.c): built
 * and tested everywhere, on a fixture registry off Windows. */
void dl_probe_os_windows(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out);
void dl_probe_windows_settings(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out);
void dl_probe_windows_power(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out);
void dl_probe_gpus_windows(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out);
/* This Windows machine only (*_win.c): memory and the loader. */
void dl_probe_memory_windows(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out);
void dl_probe_libraries_windows(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out);

/* Runs every probe and records each one's status and duration in f->tool.probes. */
void dl_probe_all(const dl_probe_ctx *ctx, dl_facts *f);

#endif
