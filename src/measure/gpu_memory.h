/* The GPU's own memory: its bandwidth (a copy kernel and the copy engine's
 * cuMemcpyDtoD, bytes read + written) and how much one process can really allocate. */
#ifndef DLENV_MEASURE_GPU_MEMORY_H
#define DLENV_MEASURE_GPU_MEMORY_H

#include "measure/gpu_session.h"

/* Sets copy_kernel_gbps, dtod_gbps, copy_buffer_bytes; false on a CUDA failure. */
bool dl_gpu_memory_bandwidth(dl_gpu_session *s);
/* Sets memory_free_bytes, memory_total_bytes, max_alloc_bytes. */
bool dl_gpu_max_allocation(dl_gpu_session *s);

/* The bisection, on any allocator: the largest size in (0, free] that try_alloc accepts,
 * to within `step` bytes, never asking for more than free; 0 when even `step` fails. */
typedef bool (*dl_gpu_try_alloc)(void *ctx, size_t bytes);
size_t dl_gpu_bisect_allocation(size_t free_bytes, size_t step, dl_gpu_try_alloc try_alloc,
                                void *ctx);

#endif
