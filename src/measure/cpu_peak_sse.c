/* SSE2 peak kernel, the x86-64 baseline: 12 chains of 128-bit multiply then add (4 fp32 /
 * 2 fp64 lanes). SSE has no FMA, so each step is two instructions for two flops per lane;
 * on a CPU with FMA units this reaches at most half of what those units could do. */
#include "measure/cpu_peak_kernels.h"

#include <stddef.h>

#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#include <emmintrin.h>

static __m128 set_f32(double v)
{
    return _mm_set1_ps((float)v);
}

static __m128d set_f64(double v)
{
    return _mm_set1_pd(v);
}

static double run_f32(uint64_t iterations)
{
    const __m128 a = _mm_set1_ps(dl_peak_a_f32), b = _mm_set1_ps(dl_peak_b_f32);
    float out[DL_PEAK_CHAINS * 4];
#define STEP(x) _mm_add_ps(_mm_mul_ps(x, a), b)
#define STORE(k, x) _mm_storeu_ps(out + (k) * 4, x)
    DL_PEAK_LOOP(__m128, set_f32, STEP, STORE, iterations);
#undef STEP
#undef STORE
    return dl_peak_sum_f32(out, DL_PEAK_CHAINS * 4);
}

static double run_f64(uint64_t iterations)
{
    const __m128d a = _mm_set1_pd(dl_peak_a_f64), b = _mm_set1_pd(dl_peak_b_f64);
    double out[DL_PEAK_CHAINS * 2];
#define STEP(x) _mm_add_pd(_mm_mul_pd(x, a), b)
#define STORE(k, x) _mm_storeu_pd(out + (k) * 2, x)
    DL_PEAK_LOOP(__m128d, set_f64, STEP, STORE, iterations);
#undef STEP
#undef STORE
    return dl_peak_sum_f64(out, DL_PEAK_CHAINS * 2);
}

/* Per iteration: 12 chains x lanes x 2 (a multiply and an add). */
static const dl_peak_kernel kernel = {"sse2", DL_PEAK_CHAINS * 4 * 2,
                                      DL_PEAK_CHAINS * 2 * 2, run_f32, run_f64};

const dl_peak_kernel *dl_peak_kernel_sse2(void)
{
    return &kernel;
}

#else

const dl_peak_kernel *dl_peak_kernel_sse2(void)
{
    return NULL;
}

#endif
