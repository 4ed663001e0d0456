/* The one table of rules, the engine that runs it, and the root cause. */
#include "rules/rules.h"

#include "facts/query.h"
#include "rules/catalog.h"

#include <string.h>

/* Within a layer, the specific causes come before the general ones that defer to them. */
static const dl_rule rules[] = {
    {"no_gpu", "PCI display controllers, WSL's /dev/dxg", dl_rule_no_gpu},
    {"non_nvidia_gpu", "PCI vendor ids", dl_rule_non_nvidia_gpu},
    {"nouveau_loaded", "loaded modules, the GPU's bound driver", dl_rule_nouveau_loaded},
    {"no_driver_installed", "NVIDIA GPU without module, module file or NVML",
     dl_rule_no_driver_installed},
    {"secure_boot_blocks_module", "Secure Boot on, module built, not loaded",
     dl_rule_secure_boot_blocks_module},
    {"kernel_module_not_built", "no nvidia.ko for the running kernel",
     dl_rule_kernel_module_not_built},
    {"driver_not_loaded", "driver libraries present, module or nodes absent",
     dl_rule_driver_not_loaded},
    {"driver_library_mismatch", "NVML init, NVML vs kernel version, cuInit 803",
     dl_rule_driver_library_mismatch},
    {"forward_compat_unsupported", "cuInit = 804", dl_rule_forward_compat_unsupported},
    {"fabricmanager_missing", "cuInit = 802", dl_rule_fabricmanager_missing},
    {"suspend_resume_uvm", "cuInit = 999", dl_rule_suspend_resume_uvm},
    {"driver_too_old", "the driver's CUDA vs torch's, minor-version compat.",
     dl_rule_driver_too_old},
    {"device_permission_denied", "access to /dev/nvidia*", dl_rule_device_permission_denied},
    {"gpu_measure_failed", "verify: the GPU measuring child failed or hung",
     dl_rule_gpu_measure_failed},
    {"gpu_kernel_check_failed", "verify: dlenv's kernel's result and launches",
     dl_rule_gpu_kernel_check_failed},
    {"docker_no_gpu_passthrough", "container without /dev/nvidia*",
     dl_rule_docker_no_gpu_passthrough},
    {"wsl_libcuda_path", "WSL and where libcuda.so.1 resolves", dl_rule_wsl_libcuda_path},
    {"wsl_memory_limit", "the WSL2 VM's memory", dl_rule_wsl_memory_limit},
    {"shm_too_small", "/dev/shm's size", dl_rule_shm_too_small},
    {"cuda_visible_devices", "CUDA_VISIBLE_DEVICES vs the GPUs", dl_rule_cuda_visible_devices},
    {"libcuda_stub_on_path", "the loaded libcuda, cuInit = 34", dl_rule_libcuda_stub_on_path},
    {"libcuda_not_found", "libcuda.so.1 on the loader path", dl_rule_libcuda_not_found},
    {"ld_library_path_conflict",
     "LD_LIBRARY_PATH copies of libraries torch bundles", dl_rule_ld_library_path_conflict},
    {"vc_redist_missing", "VC++ runtime in the registry, msvcp140.dll",
     dl_rule_vc_redist_missing},
    {"win_dll_dependency_missing", "PE imports of torch\\lib\\*.dll",
     dl_rule_win_dll_dependency_missing},
    {"pagefile_too_small", "the paging file's settings", dl_rule_pagefile_too_small},
    {"omp_duplicate_runtime", "libiomp5md.dll copies torch can load",
     dl_rule_omp_duplicate_runtime},
    {"mkl_incompatible", "conda MKL >= 2024.1 with conda pytorch", dl_rule_mkl_incompatible},
    {"numpy_incompatible", "NumPy 2 beside a torch built against NumPy 1.x",
     dl_rule_numpy_incompatible},
    {"no_python", "an interpreter that runs (PATH, registry, conda, pyenv)", dl_rule_no_python},
    {"python_32bit", "the interpreter's bits", dl_rule_python_32bit},
    {"python_unsupported", "Python version vs the wheels of torch_wheels",
     dl_rule_python_unsupported},
    {"pip_python_mismatch", "torch in another interpreter than `python`",
     dl_rule_pip_python_mismatch},
    {"torch_shadowed", "where the imported torch came from (PYTHONPATH, .pth)",
     dl_rule_torch_shadowed},
    {"torch_not_installed", "torch in `python`'s site-packages, import",
     dl_rule_torch_not_installed},
    {"torch_not_pytorch", "torch's API after import, its package folder",
     dl_rule_torch_not_pytorch},
    {"cpu_only_build", "torch.version.cuda on a machine with a GPU", dl_rule_cpu_only_build},
    {"arch_not_in_wheel", "GPU compute capability vs the wheel's targets",
     dl_rule_arch_not_in_wheel},
    {"gpu_arch_dropped", "GPU compute capability vs the wheel's targets",
     dl_rule_gpu_arch_dropped},
    {"conda_cpu_build_selected", "cpuonly / pytorch-mutex in conda-meta",
     dl_rule_conda_cpu_build_selected},
    {"torchvision_mismatch", "torchvision's torch pin and local tag",
     dl_rule_torchvision_mismatch},
    {"extension_mismatch", "extension packages' torch pin, variant tag, wheel name, libraries",
     dl_rule_extension_mismatch},
    {"known_bad_release", "torch version vs known_bad_releases", dl_rule_known_bad_release},
    {"torch_import_failed", "import torch: failed, crashed, hung", dl_rule_torch_import_failed},
    {"extension_import_failed", "import of each extension package after torch: failed, crashed, hung",
     dl_rule_extension_import_failed},
    {"no_gpu_visible", "torch.cuda.is_available() on a CUDA build", dl_rule_no_gpu_visible},
    {"gpu_memory_held_by_other_process",
     "NVML processes and GPU memory", dl_rule_gpu_memory_held_by_other_process},
    {"gpu_matmul_wrong_result", "verify: torch's GPU products against float64",
     dl_rule_gpu_matmul_wrong_result},
    {"gpu_throttled", "NVML clock-event reasons", dl_rule_gpu_throttled},
    {"pcie_link_degraded", "PCIe generation and width vs maximum", dl_rule_pcie_link_degraded},
    {"cpu_matmul_slow", "torch's BLAS", dl_rule_cpu_matmul_slow},
    {"hags_enabled", "HwSchMode in the registry", dl_rule_hags_enabled},
    {"power_plan_saving", "Windows power scheme, battery, NVIDIA power management mode",
     dl_rule_power_plan_saving_windows},
    {"power_plan_saving", "Linux CPU governor and energy preference, NVML power limit vs default",
     dl_rule_power_plan_saving_cpu_gpu},
    {"gpu_persistence_off", "NVML persistence mode on a GPU without a display",
     dl_rule_gpu_persistence_off},
    {"gpu_clocks_locked_low", "NVML applications clocks vs defaults, locked clocks",
     dl_rule_gpu_clocks_locked_low},
    {"gpu_below_peak", "verify: dlenv's kernels and copies vs the hardware's limits",
     dl_rule_gpu_below_peak},
    {"gpu_matmul_slow", "verify: torch's GPU products vs the tensor peak",
     dl_rule_gpu_matmul_slow},
    {"gpu_matmul_not_measured", "verify: torch's GPU products ran",
     dl_rule_gpu_matmul_not_measured},
};

const dl_rule *dl_rule_table(size_t *count)
{
    *count = sizeof rules / sizeof rules[0];
    return rules;
}

dl_layer dl_rule_layer(const dl_rule *r)
{
    const dl_diagnosis *d = dl_diagnosis_find(r->id);
    return d ? d->layer : DL_LAYER_COUNT;
}

const dl_rule *dl_rule_find(const char *id)
{
    size_t i;
    for (i = 0; id && i < sizeof rules / sizeof rules[0]; i++)
        if (strcmp(rules[i].id, id) == 0)
            return &rules[i];
    return NULL;
}

void dl_rules_run_memo(const dl_rule_input *in, const char *only, struct dl_rule_memo *memo,
                       dl_findings *out)
{
    dl_rule_input with;
    size_t i;
    /* the caller's memo field is never read: callers set facts and know only */
    with.facts = in->facts;
    with.know = in->know;
    with.memo = memo;
    dl_list_known(&out->items);
    for (i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (!only || strcmp(rules[i].id, only) == 0)
            rules[i].run(&with, out);
    dl_findings_mark_root(out);
}

void dl_rules_run(const dl_rule_input *in, const char *only, dl_findings *out)
{
    dl_rules_run_memo(in, only, NULL, out);
}

void dl_findings_mark_root(dl_findings *f)
{
    const dl_finding *root = NULL;
    int root_layer = DL_LAYER_COUNT;
    size_t i;
    for (i = 0; i < f->items.count; i++) {
        const dl_finding *x = &DL_LIST_AT(f->items, dl_finding, i);
        int layer = dl_layer_of_name(x->layer.value);
        if (dl_q_failure(x) && layer >= 0 && layer < root_layer) {
            root = x;
            root_layer = layer;
        }
    }
    if (!root)
        return;
    dl_text_set(&f->root_cause, root->id.value);
    for (i = 0; i < f->items.count; i++) {
        dl_finding *x = &DL_LIST_AT(f->items, dl_finding, i);
        if (x != root && dl_q_failure(x) && dl_layer_of_name(x->layer.value) >= root_layer)
            dl_flag_set(&x->consequence, true);
    }
}
