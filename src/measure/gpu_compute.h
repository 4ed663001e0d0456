/* The GPU's arithmetic: a kernel whose every result is checked against the CPU, and the
 * fp32 FMA rate. */
#ifndef DLENV_MEASURE_GPU_COMPUTE_H
#define DLENV_MEASURE_GPU_COMPUTE_H

#include "measure/gpu_session.h"

/* Sets out->check and check_elements; false when a CUDA call failed. */
bool dl_gpu_check_kernel(dl_gpu_session *s);
/* Sets out->fp32_tflops and fp32_spread_pct; `during` runs while the timed kernels do. */
bool dl_gpu_fp32_peak(dl_gpu_session *s, dl_gpu_during during, void *during_arg);

/* The CPU's reference for one element of dl_fma_check, and whether the GPU's answer is
 * within one unit in the last place of it (the reference rounds twice, through double, so
 * it may differ from the GPU's single rounding by that much; a real fault is far larger). */
float dl_gpu_fma_reference(float a, float x, float y);
bool dl_gpu_float_close(float got, float want);

#endif
