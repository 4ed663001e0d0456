/* Every finding id with its layer, bottom layer first, in DIAGNOSES.md's order (no_gpu_visible
 * is judged where torch runs, as the signatures have it); verify's
 * own ids (what dlenv's kernels and torch's products measured) close their layer. */
#include "rules/catalog.h"

#include <string.h>

static const dl_diagnosis catalog[] = {
    {"no_gpu", DL_LAYER_HARDWARE},
    {"non_nvidia_gpu", DL_LAYER_HARDWARE},
    {"no_cuda_on_macos", DL_LAYER_HARDWARE},
    {"no_driver_installed", DL_LAYER_DRIVER},
    {"driver_not_loaded", DL_LAYER_DRIVER},
    {"nouveau_loaded", DL_LAYER_DRIVER},
    {"secure_boot_blocks_module", DL_LAYER_DRIVER},
    {"kernel_module_not_built", DL_LAYER_DRIVER},
    {"driver_library_mismatch", DL_LAYER_DRIVER},
    {"driver_too_old", DL_LAYER_DRIVER},
    {"forward_compat_unsupported", DL_LAYER_DRIVER},
    {"fabricmanager_missing", DL_LAYER_DRIVER},
    {"suspend_resume_uvm", DL_LAYER_DRIVER},
    {"device_permission_denied", DL_LAYER_DRIVER},
    {"gpu_measure_failed", DL_LAYER_DRIVER},
    {"gpu_kernel_check_failed", DL_LAYER_DRIVER},
    {"docker_no_gpu_passthrough", DL_LAYER_CONTAINER},
    {"wsl_libcuda_path", DL_LAYER_CONTAINER},
    {"wsl_memory_limit", DL_LAYER_CONTAINER},
    {"cuda_visible_devices", DL_LAYER_LIBRARIES},
    {"libcuda_stub_on_path", DL_LAYER_LIBRARIES},
    {"libcuda_not_found", DL_LAYER_LIBRARIES},
    {"ld_library_path_conflict", DL_LAYER_LIBRARIES},
    {"omp_duplicate_runtime", DL_LAYER_LIBRARIES},
    {"win_dll_dependency_missing", DL_LAYER_LIBRARIES},
    {"vc_redist_missing", DL_LAYER_LIBRARIES},
    {"pagefile_too_small", DL_LAYER_LIBRARIES},
    {"mkl_incompatible", DL_LAYER_LIBRARIES},
    {"torch_not_installed", DL_LAYER_PYTHON},
    {"pip_python_mismatch", DL_LAYER_PYTHON},
    {"python_unsupported", DL_LAYER_PYTHON},
    {"python_32bit", DL_LAYER_PYTHON},
    {"wheel_tag_mismatch", DL_LAYER_PYTHON},
    {"no_python", DL_LAYER_PYTHON},
    {"torch_shadowed", DL_LAYER_PYTHON},
    {"cpu_only_build", DL_LAYER_TORCH_BUILD},
    {"conda_cpu_build_selected", DL_LAYER_TORCH_BUILD},
    {"arch_not_in_wheel", DL_LAYER_TORCH_BUILD},
    {"gpu_arch_dropped", DL_LAYER_TORCH_BUILD},
    {"torchvision_mismatch", DL_LAYER_TORCH_BUILD},
    {"extension_mismatch", DL_LAYER_TORCH_BUILD},
    {"known_bad_release", DL_LAYER_TORCH_BUILD},
    {"torch_not_pytorch", DL_LAYER_TORCH_BUILD},
    {"torch_import_failed", DL_LAYER_TORCH_RUNTIME},
    {"no_gpu_visible", DL_LAYER_TORCH_RUNTIME},
    {"spawn_guard_missing", DL_LAYER_TORCH_RUNTIME},
    {"gpu_memory_held_by_other_process", DL_LAYER_TORCH_RUNTIME},
    {"cuda_oom", DL_LAYER_TORCH_RUNTIME},
    {"nccl_on_windows", DL_LAYER_TORCH_RUNTIME},
    {"gpu_matmul_wrong_result", DL_LAYER_TORCH_RUNTIME},
    {"cpu_matmul_slow", DL_LAYER_PERFORMANCE},
    {"gpu_throttled", DL_LAYER_PERFORMANCE},
    {"pcie_link_degraded", DL_LAYER_PERFORMANCE},
    {"hags_enabled", DL_LAYER_PERFORMANCE},
    {"power_plan_saving", DL_LAYER_PERFORMANCE},
    {"gpu_persistence_off", DL_LAYER_PERFORMANCE},
    {"gpu_below_peak", DL_LAYER_PERFORMANCE},
    {"gpu_matmul_slow", DL_LAYER_PERFORMANCE},
    {"gpu_matmul_not_measured", DL_LAYER_PERFORMANCE},
};

const dl_diagnosis *dl_diagnosis_table(size_t *count)
{
    *count = sizeof catalog / sizeof catalog[0];
    return catalog;
}

const dl_diagnosis *dl_diagnosis_find(const char *id)
{
    size_t i;
    for (i = 0; id && i < sizeof catalog / sizeof catalog[0]; i++)
        if (strcmp(catalog[i].id, id) == 0)
            return &catalog[i];
    return NULL;
}
