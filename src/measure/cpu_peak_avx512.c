/* AVX-512F peak kernel: 12 chains of 512-bit FMAs (16 fp32 / 8 fp64 lanes). Built with
 * -mavx512f -mfma (/arch:AVX512) on x86-64; run only when cpuid + XCR0 say AVX-512F is
 * usable. Everything else in the program is built without these instructions. */
#include "measure/cpu_peak_kernels.h"

#include <stddef.h>

#if defined(__AVX512F__) && (defined(__FMA__) || defined(_MSC_VER))
#include <immintrin.h>

static __m512 set_f32(double v)
{
    return _mm512_set1_ps((float)v);
}

static __m512d set_f64(double v)
{
    return _mm512_set1_pd(v);
}

static double run_f32(uint64_t iterations)
{
    const __m512 a = _mm512_set1_ps(dl_peak_a_f32), b = _mm512_set1_ps(dl_peak_b_f32);
    float out[DL_PEAK_CHAINS * 16];
#define STEP(x) _mm512_fmadd_ps(x, a, b)
#define STORE(k, x) _mm512_storeu_ps(out + (k) * 16, x)
    DL_PEAK_LOOP(__m512, set_f32, STEP, STORE, iterations);
#undef STEP
#undef STORE
    return dl_peak_sum_f32(out, DL_PEAK_CHAINS * 16);
}

static double run_f64(uint64_t iterations)
{
    const __m512d a = _mm512_set1_pd(dl_peak_a_f64), b = _mm512_set1_pd(dl_peak_b_f64);
    double out[DL_PEAK_CHAINS * 8];
#define STEP(x) _mm512_fmadd_pd(x, a, b)
#define STORE(k, x) _mm512_storeu_pd(out + (k) * 8, x)
    DL_PEAK_LOOP(__m512d, set_f64, STEP, STORE, iterations);
#undef STEP
#undef STORE
    return dl_peak_sum_f64(out, DL_PEAK_CHAINS * 8);
}

/* Per iteration: 12 chains x lanes x 2 (an FMA is a multiply and an add). */
static const dl_peak_kernel kernel = {"avx512f", DL_PEAK_CHAINS * 16 * 2,
                                      DL_PEAK_CHAINS * 8 * 2, run_f32, run_f64};

const dl_peak_kernel *dl_peak_kernel_avx512(void)
{
    return &kernel;
}

#else

const dl_peak_kernel *dl_peak_kernel_avx512(void)
{
    return NULL;
}

#endif
