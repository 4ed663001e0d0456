/* Loading the CUDA driver's functions for verify, into the typed table of gpu_driver.h once
 * (the pattern of probe/gpu/driver_lib.h). Versioned names (_v2) are the ones the
 * CUDA headers map the plain names to since CUDA 4/11; a driver too old for them lacks
 * the function and dlenv says which. */
#include "measure/gpu_driver.h"

#include "base/str.h"
#include "probe/gpu/cuda_errors.h"
#include "probe/gpu/driver_lib.h"

#include <stdlib.h>
#include <string.h>

/* Every one is needed: the ones the driver lacks under every name go to missing. */
static void *sym(dl_cuda *c, const char *name, const char *older, dl_buf *missing)
{
    void *p = dl_driver_sym(c->lib, name, older, NULL);
    if (!p)
        dl_buf_printf(missing, "%s%s", missing->len ? ", " : "", name);
    return p;
}

static void resolve(dl_cuda *c, dl_buf *m)
{
    c->init = (cuInit_fn)sym(c, "cuInit", NULL, m);
    c->device_count = (cuDeviceGetCount_fn)sym(c, "cuDeviceGetCount", NULL, m);
    c->device_get = (cuDeviceGet_fn)sym(c, "cuDeviceGet", NULL, m);
    c->attribute = (cuDeviceGetAttribute_fn)sym(c, "cuDeviceGetAttribute", NULL, m);
    c->ctx_retain = (cuDevicePrimaryCtxRetain_fn)sym(c, "cuDevicePrimaryCtxRetain", NULL, m);
    c->ctx_release = (cuDevicePrimaryCtxRelease_fn)sym(c, "cuDevicePrimaryCtxRelease_v2",
                                                       "cuDevicePrimaryCtxRelease", m);
    c->ctx_set = (cuCtxSetCurrent_fn)sym(c, "cuCtxSetCurrent", NULL, m);
    c->ctx_sync = (cuCtxSynchronize_fn)sym(c, "cuCtxSynchronize", NULL, m);
    c->module_load = (cuModuleLoadDataEx_fn)sym(c, "cuModuleLoadDataEx", NULL, m);
    c->module_function = (cuModuleGetFunction_fn)sym(c, "cuModuleGetFunction", NULL, m);
    c->module_unload = (cuModuleUnload_fn)sym(c, "cuModuleUnload", NULL, m);
    c->mem_info = (cuMemGetInfo_fn)sym(c, "cuMemGetInfo_v2", NULL, m);
    c->mem_alloc = (cuMemAlloc_fn)sym(c, "cuMemAlloc_v2", NULL, m);
    c->mem_free = (cuMemFree_fn)sym(c, "cuMemFree_v2", NULL, m);
    c->host_alloc = (cuMemAllocHost_fn)sym(c, "cuMemAllocHost_v2", NULL, m);
    c->host_free = (cuMemFreeHost_fn)sym(c, "cuMemFreeHost", NULL, m);
    c->memset32 = (cuMemsetD32_fn)sym(c, "cuMemsetD32_v2", NULL, m);
    c->htod = (cuMemcpyHtoD_fn)sym(c, "cuMemcpyHtoD_v2", NULL, m);
    c->dtoh = (cuMemcpyDtoH_fn)sym(c, "cuMemcpyDtoH_v2", NULL, m);
    c->htod_async = (cuMemcpyHtoDAsync_fn)sym(c, "cuMemcpyHtoDAsync_v2", NULL, m);
    c->dtoh_async = (cuMemcpyDtoHAsync_fn)sym(c, "cuMemcpyDtoHAsync_v2", NULL, m);
    c->dtod_async = (cuMemcpyDtoDAsync_fn)sym(c, "cuMemcpyDtoDAsync_v2", NULL, m);
    c->stream_create = (cuStreamCreate_fn)sym(c, "cuStreamCreate", NULL, m);
    c->stream_destroy = (cuStreamDestroy_fn)sym(c, "cuStreamDestroy_v2", "cuStreamDestroy", m);
    c->stream_sync = (cuStreamSynchronize_fn)sym(c, "cuStreamSynchronize", NULL, m);
    c->event_create = (cuEventCreate_fn)sym(c, "cuEventCreate", NULL, m);
    c->event_destroy = (cuEventDestroy_fn)sym(c, "cuEventDestroy_v2", "cuEventDestroy", m);
    c->event_record = (cuEventRecord_fn)sym(c, "cuEventRecord", NULL, m);
    c->event_sync = (cuEventSynchronize_fn)sym(c, "cuEventSynchronize", NULL, m);
    c->event_elapsed = (cuEventElapsedTime_fn)sym(c, "cuEventElapsedTime", NULL, m);
    c->launch = (cuLaunchKernel_fn)sym(c, "cuLaunchKernel", NULL, m);
    c->error_name = (cuGetErrorName_fn)dl_driver_sym(c->lib, "cuGetErrorName", NULL, NULL);
}

bool dl_cuda_load(dl_cuda *c, char **error)
{
    dl_buf missing = {NULL, 0, 0};
    memset(c, 0, sizeof *c);
    c->lib = dl_lib_open(dl_lib_name_cuda(), error);
    if (!c->lib)
        return false;
    resolve(c, &missing);
    if (missing.len > 0) {
        *error = dl_fmt("this CUDA driver lacks %s (too old for dlenv's measurements)",
                        missing.data);
        dl_buf_free(&missing);
        return false;
    }
    return true;
}

bool dl_cuda_ok(dl_cuda *c, CUresult rc, const char *what)
{
    char *name;
    if (rc == CUDA_SUCCESS)
        return true;
    if (!c->error) {
        name = dl_cuda_error_name(c->error_name, rc);
        c->error = dl_fmt("%s: %s", what, name);
        free(name);
    }
    return false;
}

void dl_cuda_clear_error(dl_cuda *c)
{
    free(c->error);
    c->error = NULL;
}

void dl_cuda_release(dl_cuda *c)
{
    dl_cuda_clear_error(c);
}
