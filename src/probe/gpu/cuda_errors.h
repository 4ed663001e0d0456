/* Names for the CUDA driver API's result codes, shared by the driver probe and verify's
 * GPU measurements. */
#ifndef DLENV_PROBE_CUDA_ERRORS_H
#define DLENV_PROBE_CUDA_ERRORS_H

#include "os/os.h"
#include "probe/gpu/cuda_api.h"

/* The library's own name for rc (cuGetErrorName), else ours, else "CUresult N". lib may be
 * NULL. Caller frees. */
char *dl_cuda_error_name(dl_lib *lib, CUresult rc);

#endif
