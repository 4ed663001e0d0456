/* The CUDA driver API functions dlenv verify runs its kernels with, loaded at run time
 * (libcuda.so.1 / nvcuda.dll) so dlenv starts without a driver, and the record of the
 * first call that failed. */
#ifndef DLENV_MEASURE_GPU_DRIVER_H
#define DLENV_MEASURE_GPU_DRIVER_H

#include "os/os.h"
#include "probe/gpu/cuda_api.h"

#include <stdbool.h>

typedef struct dl_cuda {
    dl_lib *lib;
    cuInit_fn init;
    cuDeviceGetCount_fn device_count;
    cuDeviceGet_fn device_get;
    cuDeviceGetAttribute_fn attribute;
    cuDevicePrimaryCtxRetain_fn ctx_retain;
    cuDevicePrimaryCtxRelease_fn ctx_release;
    cuCtxSetCurrent_fn ctx_set;
    cuCtxSynchronize_fn ctx_sync;
    cuModuleLoadDataEx_fn module_load;
    cuModuleGetFunction_fn module_function;
    cuModuleUnload_fn module_unload;
    cuMemGetInfo_fn mem_info;
    cuMemAlloc_fn mem_alloc;
    cuMemFree_fn mem_free;
    cuMemAllocHost_fn host_alloc;
    cuMemFreeHost_fn host_free;
    cuMemsetD32_fn memset32;
    cuMemcpyHtoD_fn htod;
    cuMemcpyDtoH_fn dtoh;
    cuMemcpyHtoDAsync_fn htod_async;
    cuMemcpyDtoHAsync_fn dtoh_async;
    cuMemcpyDtoDAsync_fn dtod_async;
    cuStreamCreate_fn stream_create;
    cuStreamDestroy_fn stream_destroy;
    cuStreamSynchronize_fn stream_sync;
    cuEventCreate_fn event_create;
    cuEventDestroy_fn event_destroy;
    cuEventRecord_fn event_record;
    cuEventSynchronize_fn event_sync;
    cuEventElapsedTime_fn event_elapsed;
    cuLaunchKernel_fn launch;
    cuGetErrorName_fn error_name;   /* optional: cuda_errors.c names the common codes */
    char *error;   /* the first failure: "cuLaunchKernel(dl_fma_peak): CUDA_ERROR_LAUNCH_FAILED" */
} dl_cuda;

/* Loads the driver library and every function above; false with *error (caller frees)
 * naming the library's problem or the functions it lacks. */
bool dl_cuda_load(dl_cuda *c, char **error);
/* True when rc is CUDA_SUCCESS; otherwise remembers "what: NAME" as c->error when it is
 * the first failure. */
bool dl_cuda_ok(dl_cuda *c, CUresult rc, const char *what);
/* Forgets the recorded failure (a new device starts clean). */
void dl_cuda_clear_error(dl_cuda *c);
/* Frees the record. The library stays loaded: unloading a driver has crashed real systems,
 * and the child process exits right after. */
void dl_cuda_release(dl_cuda *c);

#endif
