/* Names for CUDA result codes: the library names its own where it can; a stub or an old
 * driver cannot, so the codes dlenv meets most have a built-in name too. */
#include "probe/gpu/cuda_errors.h"

#include "base/str.h"

#include <stddef.h>

static const struct {
    CUresult code;
    const char *name;
} builtin[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS"},
    {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE"},
    {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY"},
    {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED"},
    {CUDA_ERROR_STUB_LIBRARY, "CUDA_ERROR_STUB_LIBRARY"},
    {CUDA_ERROR_INSUFFICIENT_DRIVER, "CUDA_ERROR_INSUFFICIENT_DRIVER"},
    {CUDA_ERROR_DEVICE_UNAVAILABLE, "CUDA_ERROR_DEVICE_UNAVAILABLE"},
    {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE"},
    {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE"},
    {CUDA_ERROR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE"},
    {CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT"},
    {CUDA_ERROR_NO_BINARY_FOR_GPU, "CUDA_ERROR_NO_BINARY_FOR_GPU"},
    {CUDA_ERROR_INVALID_PTX, "CUDA_ERROR_INVALID_PTX"},
    {CUDA_ERROR_JIT_COMPILER_NOT_FOUND, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND"},
    {CUDA_ERROR_UNSUPPORTED_PTX_VERSION, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"},
    {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND"},
    {CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS"},
    {CUDA_ERROR_LAUNCH_TIMEOUT, "CUDA_ERROR_LAUNCH_TIMEOUT"},
    {CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED"},
    {CUDA_ERROR_SYSTEM_NOT_READY, "CUDA_ERROR_SYSTEM_NOT_READY"},
    {CUDA_ERROR_SYSTEM_DRIVER_MISMATCH, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"},
    {CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"},
    {CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN"},
};

char *dl_cuda_error_name(cuGetErrorName_fn fn, CUresult rc)
{
    const char *s = NULL;
    size_t i;
    if (fn && fn(rc, &s) != CUDA_SUCCESS)
        s = NULL;
    for (i = 0; !s && i < sizeof builtin / sizeof builtin[0]; i++)
        if (builtin[i].code == rc)
            s = builtin[i].name;
    return s ? dl_strdup(s) : dl_fmt("CUresult %d", rc);
}
