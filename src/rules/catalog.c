/* Every finding id with its layer, bottom layer first, in DIAGNOSES.md's order (no_gpu_visible
 * is judged where torch runs, as the signatures have it); verify's
 * own ids (judged from what dlenv's kernels and torch's products measured: `measured`)
 * close their layer. */
#include "rules/catalog.h"

#include <string.h>

static const dl_diagnosis catalog[] = {
    {"no_gpu", DL_LAYER_HARDWARE, false},
    {"non_nvidia_gpu", DL_LAYER_HARDWARE, false},
    {"no_cuda_on_macos", DL_LAYER_HARDWARE, false},
    {"gpu_ecc_error", DL_LAYER_HARDWARE, false},
    {"no_driver_installed", DL_LAYER_DRIVER, false},
    {"driver_not_loaded", DL_LAYER_DRIVER, false},
    {"gpu_switched_off", DL_LAYER_DRIVER, false},
    {"nouveau_loaded", DL_LAYER_DRIVER, false},
    {"secure_boot_blocks_module", DL_LAYER_DRIVER, false},
    {"kernel_module_not_built", DL_LAYER_DRIVER, false},
    {"driver_library_mismatch", DL_LAYER_DRIVER, false},
    {"driver_too_old", DL_LAYER_DRIVER, false},
    {"forward_compat_unsupported", DL_LAYER_DRIVER, false},
    {"fabricmanager_missing", DL_LAYER_DRIVER, false},
    {"vgpu_unlicensed", DL_LAYER_DRIVER, false},
    {"suspend_resume_uvm", DL_LAYER_DRIVER, false},
    {"gpu_p2p_blocked", DL_LAYER_DRIVER, false},
    {"device_permission_denied", DL_LAYER_DRIVER, false},
    {"gpu_measure_failed", DL_LAYER_DRIVER, true},
    {"gpu_kernel_check_failed", DL_LAYER_DRIVER, true},
    {"docker_no_gpu_passthrough", DL_LAYER_CONTAINER, false},
    {"wsl_libcuda_path", DL_LAYER_CONTAINER, false},
    {"wsl_memory_limit", DL_LAYER_CONTAINER, false},
    {"shm_too_small", DL_LAYER_CONTAINER, false},
    {"rdma_memlock_limit", DL_LAYER_CONTAINER, false},
    {"container_seccomp_clone3", DL_LAYER_CONTAINER, false},
    {"cuda_visible_devices", DL_LAYER_LIBRARIES, false},
    {"libcuda_stub_on_path", DL_LAYER_LIBRARIES, false},
    {"libcuda_not_found", DL_LAYER_LIBRARIES, false},
    {"ld_library_path_conflict", DL_LAYER_LIBRARIES, false},
    {"omp_duplicate_runtime", DL_LAYER_LIBRARIES, false},
    {"win_dll_dependency_missing", DL_LAYER_LIBRARIES, false},
    {"vc_redist_missing", DL_LAYER_LIBRARIES, false},
    {"pagefile_too_small", DL_LAYER_LIBRARIES, false},
    {"mkl_incompatible", DL_LAYER_LIBRARIES, false},
    {"numpy_incompatible", DL_LAYER_LIBRARIES, false},
    {"compiler_toolchain_missing", DL_LAYER_LIBRARIES, false},
    {"disk_full", DL_LAYER_LIBRARIES, false},
    {"ffmpeg_cli_missing", DL_LAYER_LIBRARIES, false},
    {"system_library_missing", DL_LAYER_LIBRARIES, false},
    {"other_framework_libs_missing", DL_LAYER_LIBRARIES, false},
    {"frozen_app_incomplete", DL_LAYER_LIBRARIES, false},
    {"torch_not_installed", DL_LAYER_PYTHON, false},
    {"pip_python_mismatch", DL_LAYER_PYTHON, false},
    {"python_unsupported", DL_LAYER_PYTHON, false},
    {"python_32bit", DL_LAYER_PYTHON, false},
    {"wheel_tag_mismatch", DL_LAYER_PYTHON, false},
    {"pip_too_old", DL_LAYER_PYTHON, false},
    {"pip_rejects_legacy_metadata", DL_LAYER_PYTHON, false},
    {"package_unsupported_on_os", DL_LAYER_PYTHON, false},
    {"other_framework_wrong_build", DL_LAYER_PYTHON, false},
    {"index_unreachable", DL_LAYER_PYTHON, false},
    {"conda_solve_failed", DL_LAYER_PYTHON, false},
    {"conda_install_failed", DL_LAYER_PYTHON, false},
    {"install_files_locked", DL_LAYER_PYTHON, false},
    {"dependency_version_mismatch", DL_LAYER_PYTHON, false},
    {"no_python", DL_LAYER_PYTHON, false},
    {"torch_shadowed", DL_LAYER_PYTHON, false},
    {"cpu_only_build", DL_LAYER_TORCH_BUILD, false},
    {"conda_cpu_build_selected", DL_LAYER_TORCH_BUILD, false},
    {"arch_not_in_wheel", DL_LAYER_TORCH_BUILD, false},
    {"gpu_arch_dropped", DL_LAYER_TORCH_BUILD, false},
    {"torchvision_mismatch", DL_LAYER_TORCH_BUILD, false},
    {"extension_mismatch", DL_LAYER_TORCH_BUILD, false},
    {"known_bad_release", DL_LAYER_TORCH_BUILD, false},
    {"torch_not_pytorch", DL_LAYER_TORCH_BUILD, false},
    {"torch_import_failed", DL_LAYER_TORCH_RUNTIME, false},
    {"extension_import_failed", DL_LAYER_TORCH_RUNTIME, false},
    {"no_gpu_visible", DL_LAYER_TORCH_RUNTIME, false},
    {"spawn_guard_missing", DL_LAYER_TORCH_RUNTIME, false},
    {"gpu_memory_held_by_other_process", DL_LAYER_TORCH_RUNTIME, false},
    {"cuda_oom", DL_LAYER_TORCH_RUNTIME, false},
    {"host_oom_killed", DL_LAYER_TORCH_RUNTIME, false},
    {"open_files_limit", DL_LAYER_TORCH_RUNTIME, false},
    {"process_limit_reached", DL_LAYER_TORCH_RUNTIME, false},
    {"nccl_on_windows", DL_LAYER_TORCH_RUNTIME, false},
    {"dist_port_in_use", DL_LAYER_TORCH_RUNTIME, false},
    {"dist_network_unreachable", DL_LAYER_TORCH_RUNTIME, false},
    {"cuda_malloc_async_unsupported", DL_LAYER_TORCH_RUNTIME, false},
    {"gpu_matmul_wrong_result", DL_LAYER_TORCH_RUNTIME, true},
    {"cpu_matmul_slow", DL_LAYER_PERFORMANCE, false},
    {"gpu_throttled", DL_LAYER_PERFORMANCE, false},
    {"pcie_link_degraded", DL_LAYER_PERFORMANCE, false},
    {"hags_enabled", DL_LAYER_PERFORMANCE, false},
    {"power_plan_saving", DL_LAYER_PERFORMANCE, false},
    {"gpu_persistence_off", DL_LAYER_PERFORMANCE, false},
    {"gpu_clocks_locked_low", DL_LAYER_PERFORMANCE, false},
    {"gpu_below_peak", DL_LAYER_PERFORMANCE, true},
    {"gpu_matmul_slow", DL_LAYER_PERFORMANCE, true},
    {"gpu_matmul_not_measured", DL_LAYER_PERFORMANCE, true},
};

const dl_diagnosis *dl_diagnosis_table(size_t *count)
{
    *count = sizeof catalog / sizeof catalog[0];
    return catalog;
}

bool dl_finding_is_measured(const dl_finding *x)
{
    const dl_diagnosis *d = dl_diagnosis_find(x->id.value);
    return d && d->measured;
}

const dl_diagnosis *dl_diagnosis_find(const char *id)
{
    size_t i;
    for (i = 0; id && i < sizeof catalog / sizeof catalog[0]; i++)
        if (strcmp(catalog[i].id, id) == 0)
            return &catalog[i];
    return NULL;
}
