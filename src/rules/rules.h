/* The rules: pure functions from facts (and the knowledge tables) to findings, listed in
 * one table (rules.c) with the stable ids of DIAGNOSES.md. Rules never touch the OS. */
#ifndef DLENV_RULES_RULES_H
#define DLENV_RULES_RULES_H

#include "rules/finding.h"

struct dl_knowledge;
struct dl_rule_memo;

/* Measured by dlenv verify: torch's CPU product below this share of the CPU's own measured
 * fp32 peak is a reference BLAS, a generic kernel or a single thread (optimised BLAS with
 * the right kernel reach 50-90%; the reference BLAS 1-3%). cpu_matmul_slow warns there;
 * setup's proof fails there. */
#define DL_VERIFY_CPU_MATMUL_MIN_PCT 10.0

typedef struct dl_rule_input {
    const dl_facts *facts;
    const struct dl_knowledge *know;   /* may be NULL: rules that need it then stay quiet */
    /* Answers worked out from the tables for earlier machines (rules/rule_memo.h), or
     * NULL. Set by dl_rules_run_memo only: dl_rules_run does not read it, so callers that
     * fill facts and know alone stay correct. */
    struct dl_rule_memo *memo;
} dl_rule_input;

typedef void (*dl_rule_fn)(const dl_rule_input *in, dl_findings *out);

typedef struct dl_rule {
    const char *id;         /* its layer is the catalog's (rules/catalog.c) */
    const char *checks;     /* one line: what it looks at */
    dl_rule_fn run;
} dl_rule;

const dl_rule *dl_rule_table(size_t *count);
const dl_rule *dl_rule_find(const char *id);
dl_layer dl_rule_layer(const dl_rule *r);
/* Runs every rule (or only the one named), then marks the root cause: the first failure
 * in the lowest failing layer; failures above it become consequences. */
void dl_rules_run(const dl_rule_input *in, const char *only, dl_findings *out);
/* The same, for a caller that judges many machines on one thread (fleet report): memo
 * (rules/rule_memo.h; NULL: none) keeps what the tables answer from one machine to the
 * next. The findings are those of dl_rules_run. */
void dl_rules_run_memo(const dl_rule_input *in, const char *only, struct dl_rule_memo *memo,
                       dl_findings *out);
void dl_findings_mark_root(dl_findings *f);

/* One function per id, one file per layer (rules/<layer>.c). */
void dl_rule_no_gpu(const dl_rule_input *in, dl_findings *out);
void dl_rule_vc_redist_missing(const dl_rule_input *in, dl_findings *out);
void dl_rule_win_dll_dependency_missing(const dl_rule_input *in, dl_findings *out);
void dl_rule_pagefile_too_small(const dl_rule_input *in, dl_findings *out);
void dl_rule_omp_duplicate_runtime(const dl_rule_input *in, dl_findings *out);
void dl_rule_hags_enabled(const dl_rule_input *in, dl_findings *out);
/* power_plan_saving on Windows (rules/power_settings_windows.c). */
void dl_rule_power_plan_saving_windows(const dl_rule_input *in, dl_findings *out);
/* rules/power_settings.c */
void dl_rule_power_plan_saving_cpu_gpu(const dl_rule_input *in, dl_findings *out);
void dl_rule_gpu_persistence_off(const dl_rule_input *in, dl_findings *out);
void dl_rule_gpu_clocks_locked_low(const dl_rule_input *in, dl_findings *out);
void dl_rule_non_nvidia_gpu(const dl_rule_input *in, dl_findings *out);
void dl_rule_no_driver_installed(const dl_rule_input *in, dl_findings *out);
void dl_rule_nouveau_loaded(const dl_rule_input *in, dl_findings *out);
void dl_rule_secure_boot_blocks_module(const dl_rule_input *in, dl_findings *out);
void dl_rule_kernel_module_not_built(const dl_rule_input *in, dl_findings *out);
void dl_rule_driver_not_loaded(const dl_rule_input *in, dl_findings *out);
void dl_rule_driver_library_mismatch(const dl_rule_input *in, dl_findings *out);
void dl_rule_forward_compat_unsupported(const dl_rule_input *in, dl_findings *out);
void dl_rule_fabricmanager_missing(const dl_rule_input *in, dl_findings *out);
void dl_rule_suspend_resume_uvm(const dl_rule_input *in, dl_findings *out);
void dl_rule_device_permission_denied(const dl_rule_input *in, dl_findings *out);
void dl_rule_docker_no_gpu_passthrough(const dl_rule_input *in, dl_findings *out);
void dl_rule_wsl_libcuda_path(const dl_rule_input *in, dl_findings *out);
void dl_rule_cuda_visible_devices(const dl_rule_input *in, dl_findings *out);
void dl_rule_libcuda_stub_on_path(const dl_rule_input *in, dl_findings *out);
void dl_rule_libcuda_not_found(const dl_rule_input *in, dl_findings *out);
void dl_rule_torch_not_installed(const dl_rule_input *in, dl_findings *out);
void dl_rule_pip_python_mismatch(const dl_rule_input *in, dl_findings *out);
void dl_rule_python_32bit(const dl_rule_input *in, dl_findings *out);
void dl_rule_no_python(const dl_rule_input *in, dl_findings *out);
void dl_rule_torch_shadowed(const dl_rule_input *in, dl_findings *out);
void dl_rule_extension_mismatch(const dl_rule_input *in, dl_findings *out);
void dl_rule_torch_not_pytorch(const dl_rule_input *in, dl_findings *out);
void dl_rule_torch_import_failed(const dl_rule_input *in, dl_findings *out);
void dl_rule_extension_import_failed(const dl_rule_input *in, dl_findings *out);
void dl_rule_cpu_only_build(const dl_rule_input *in, dl_findings *out);
void dl_rule_conda_cpu_build_selected(const dl_rule_input *in, dl_findings *out);
void dl_rule_torchvision_mismatch(const dl_rule_input *in, dl_findings *out);
void dl_rule_no_gpu_visible(const dl_rule_input *in, dl_findings *out);
void dl_rule_gpu_throttled(const dl_rule_input *in, dl_findings *out);
void dl_rule_pcie_link_degraded(const dl_rule_input *in, dl_findings *out);
void dl_rule_cpu_matmul_slow(const dl_rule_input *in, dl_findings *out);
void dl_rule_driver_too_old(const dl_rule_input *in, dl_findings *out);
void dl_rule_arch_not_in_wheel(const dl_rule_input *in, dl_findings *out);
void dl_rule_gpu_arch_dropped(const dl_rule_input *in, dl_findings *out);
void dl_rule_python_unsupported(const dl_rule_input *in, dl_findings *out);
void dl_rule_known_bad_release(const dl_rule_input *in, dl_findings *out);
void dl_rule_ld_library_path_conflict(const dl_rule_input *in, dl_findings *out);
void dl_rule_wsl_memory_limit(const dl_rule_input *in, dl_findings *out);
void dl_rule_shm_too_small(const dl_rule_input *in, dl_findings *out);
void dl_rule_mkl_incompatible(const dl_rule_input *in, dl_findings *out);
void dl_rule_numpy_incompatible(const dl_rule_input *in, dl_findings *out);
void dl_rule_gpu_memory_held_by_other_process(const dl_rule_input *in, dl_findings *out);
/* verify's own (rules/gpu_measured.c): quiet where nothing was measured. */
void dl_rule_gpu_measure_failed(const dl_rule_input *in, dl_findings *out);
void dl_rule_gpu_kernel_check_failed(const dl_rule_input *in, dl_findings *out);
void dl_rule_gpu_matmul_wrong_result(const dl_rule_input *in, dl_findings *out);
void dl_rule_gpu_below_peak(const dl_rule_input *in, dl_findings *out);
void dl_rule_gpu_matmul_slow(const dl_rule_input *in, dl_findings *out);
void dl_rule_gpu_matmul_not_measured(const dl_rule_input *in, dl_findings *out);
/* The same finding from a pasted out-of-memory message's numbers (for explain). */
struct dl_paste;
void dl_rule_oom_message(const struct dl_paste *p, dl_findings *out);

#endif
