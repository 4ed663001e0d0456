/* Names for the CUDA driver API's result codes, shared by the driver probe and verify's
 * GPU measurements. */
#ifndef DLENV_PROBE_CUDA_ERRORS_H
#define DLENV_PROBE_CUDA_ERRORS_H

#include "os/os.h"
#include "probe/gpu/cuda_api.h"

/* The library's own name for rc (its cuGetErrorName, resolved with the others; NULL when
 * it has none), else ours, else "CUresult N". Caller frees. */
char *dl_cuda_error_name(cuGetErrorName_fn get_error_name, CUresult rc);

#endif
