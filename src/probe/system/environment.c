/* The environment variables that matter for deep learning, and nothing else: an
 * allowlist keeps secrets (tokens, passwords) out of every report. Index URLs are left
 * out on purpose: they often carry credentials. */
#include "probe/probe.h"

static const char *const allowlist[] = {
    "PATH", "LD_LIBRARY_PATH", "LD_PRELOAD", "CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER",
    "CUDA_HOME", "CUDA_PATH", "CUDA_ROOT", "CUDA_MODULE_LOADING", "CUDA_LAUNCH_BLOCKING",
    "CUDNN_HOME", "NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES",
    "PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_NVML_BASED_CUDA_CHECK", "TORCH_CUDA_ARCH_LIST",
    "TORCH_HOME", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS",
    "OPENBLAS_CORETYPE", "KMP_DUPLICATE_LIB_OK", "PYTHONPATH", "PYTHONHOME", "PYTHONNOUSERSITE", "VIRTUAL_ENV",
    "CONDA_PREFIX", "CONDA_DEFAULT_ENV", "CONDA_EXE", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "HSA_OVERRIDE_GFX_VERSION",
    "ZE_AFFINITY_MASK", "ONEAPI_DEVICE_SELECTOR", "NCCL_DEBUG", "NCCL_P2P_DISABLE",
    "NCCL_IB_DISABLE", "WSL_DISTRO_NAME",
};

void dl_probe_environment(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out)
{
    size_t i;
    (void)ctx;
    (void)out;
    dl_list_known(&f->environment);
    for (i = 0; i < sizeof allowlist / sizeof allowlist[0]; i++) {
        const char *v = dl_env_get(allowlist[i]);
        if (v)
            dl_dict_add(&f->environment, allowlist[i], v);
    }
}
