/* The few CUDA driver API declarations dlenv uses, written from NVIDIA's public CUDA
 * Driver API reference. libcuda is loaded at run time; the fake libcuda in tests/fakes
 * implements the same declarations. */
#ifndef DLENV_PROBE_CUDA_API_H
#define DLENV_PROBE_CUDA_API_H

#include <stddef.h>

typedef int CUresult;
typedef int CUdevice;

enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_INVALID_VALUE = 1,
    CUDA_ERROR_OUT_OF_MEMORY = 2,
    CUDA_ERROR_NOT_INITIALIZED = 3,
    CUDA_ERROR_STUB_LIBRARY = 34,
    CUDA_ERROR_INSUFFICIENT_DRIVER = 35,
    CUDA_ERROR_DEVICE_UNAVAILABLE = 46,
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_INVALID_DEVICE = 101,
    CUDA_ERROR_INVALID_IMAGE = 200,
    CUDA_ERROR_INVALID_CONTEXT = 201,
    CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
    CUDA_ERROR_INVALID_PTX = 218,
    CUDA_ERROR_JIT_COMPILER_NOT_FOUND = 221,
    CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
    CUDA_ERROR_NOT_FOUND = 500,
    CUDA_ERROR_ILLEGAL_ADDRESS = 700,
    CUDA_ERROR_LAUNCH_TIMEOUT = 702,
    CUDA_ERROR_LAUNCH_FAILED = 719,
    CUDA_ERROR_SYSTEM_NOT_READY = 802,
    CUDA_ERROR_SYSTEM_DRIVER_MISMATCH = 803,
    CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = 804,
    CUDA_ERROR_UNKNOWN = 999
};

/* CUdevice_attribute values. */
enum {
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
    CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,               /* kHz */
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
    CU_DEVICE_ATTRIBUTE_ECC_ENABLED = 32,
    CU_DEVICE_ATTRIBUTE_PCI_BUS_ID = 33,
    CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID = 34,
    CU_DEVICE_ATTRIBUTE_TCC_DRIVER = 35,
    CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36,        /* kHz */
    CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37,  /* bits */
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39,
    CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID = 50,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76
};

typedef CUresult (*cuInit_fn)(unsigned int);
typedef CUresult (*cuDriverGetVersion_fn)(int *);
typedef CUresult (*cuDeviceGetCount_fn)(int *);
typedef CUresult (*cuDeviceGet_fn)(CUdevice *, int);
typedef CUresult (*cuDeviceGetName_fn)(char *, int, CUdevice);
typedef CUresult (*cuDeviceGetAttribute_fn)(int *, int, CUdevice);
typedef CUresult (*cuDeviceTotalMem_fn)(size_t *, CUdevice);
typedef CUresult (*cuGetErrorName_fn)(CUresult, const char **);

/* What dlenv verify uses to run its own kernels (src/measure/gpu_*.c). Handles are opaque
 * pointers; a device pointer is 64 bits wide (dlenv measures GPUs only in 64-bit builds). */
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef unsigned long long CUdeviceptr;
typedef int CUjit_option;

enum {
    CU_JIT_INFO_LOG_BUFFER = 3,
    CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
    CU_JIT_ERROR_LOG_BUFFER = 5,
    CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6
};
enum { CU_STREAM_NON_BLOCKING = 1 };

typedef CUresult (*cuDevicePrimaryCtxRetain_fn)(CUcontext *, CUdevice);
typedef CUresult (*cuDevicePrimaryCtxRelease_fn)(CUdevice);
typedef CUresult (*cuCtxSetCurrent_fn)(CUcontext);
typedef CUresult (*cuCtxSynchronize_fn)(void);
typedef CUresult (*cuModuleLoadDataEx_fn)(CUmodule *, const void *, unsigned int,
                                          CUjit_option *, void **);
typedef CUresult (*cuModuleGetFunction_fn)(CUfunction *, CUmodule, const char *);
typedef CUresult (*cuModuleUnload_fn)(CUmodule);
typedef CUresult (*cuMemGetInfo_fn)(size_t *, size_t *);
typedef CUresult (*cuMemAlloc_fn)(CUdeviceptr *, size_t);
typedef CUresult (*cuMemFree_fn)(CUdeviceptr);
typedef CUresult (*cuMemAllocHost_fn)(void **, size_t);
typedef CUresult (*cuMemFreeHost_fn)(void *);
typedef CUresult (*cuMemsetD32_fn)(CUdeviceptr, unsigned int, size_t);
typedef CUresult (*cuMemcpyHtoD_fn)(CUdeviceptr, const void *, size_t);
typedef CUresult (*cuMemcpyDtoH_fn)(void *, CUdeviceptr, size_t);
typedef CUresult (*cuMemcpyHtoDAsync_fn)(CUdeviceptr, const void *, size_t, CUstream);
typedef CUresult (*cuMemcpyDtoHAsync_fn)(void *, CUdeviceptr, size_t, CUstream);
typedef CUresult (*cuMemcpyDtoDAsync_fn)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
typedef CUresult (*cuStreamCreate_fn)(CUstream *, unsigned int);
typedef CUresult (*cuStreamDestroy_fn)(CUstream);
typedef CUresult (*cuStreamSynchronize_fn)(CUstream);
typedef CUresult (*cuEventCreate_fn)(CUevent *, unsigned int);
typedef CUresult (*cuEventDestroy_fn)(CUevent);
typedef CUresult (*cuEventRecord_fn)(CUevent, CUstream);
typedef CUresult (*cuEventSynchronize_fn)(CUevent);
typedef CUresult (*cuEventElapsedTime_fn)(float *, CUevent, CUevent);
typedef CUresult (*cuLaunchKernel_fn)(CUfunction, unsigned int, unsigned int, unsigned int,
                                      unsigned int, unsigned int, unsigned int, unsigned int,
                                      CUstream, void **, void **);

/* Symbols: cuInit, cuDriverGetVersion, cuDeviceGetCount, cuDeviceGet, cuDeviceGetName,
 * cuDeviceGetAttribute, cuDeviceTotalMem_v2, cuGetErrorName; for verify the _v2 names where
 * the API has them (cuMemAlloc_v2, cuMemcpyHtoDAsync_v2, cuDevicePrimaryCtxRelease_v2 ...),
 * the others plain (cuLaunchKernel, cuEventRecord ...). */

#endif
