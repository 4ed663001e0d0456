/* AVX2 + FMA peak kernel: 12 chains of 256-bit FMAs (8 fp32 / 4 fp64 lanes). Built with
 * -mavx2 -mfma (/arch:AVX2, which implies FMA) on x86-64; run only when cpuid + XCR0 say
 * AVX2 and FMA are usable. Everything else in the program is built without them. */
#include "measure/cpu_peak_kernels.h"

#include <stddef.h>

#if defined(__AVX2__) && (defined(__FMA__) || defined(_MSC_VER))
#include <immintrin.h>

static __m256 set_f32(double v)
{
    return _mm256_set1_ps((float)v);
}

static __m256d set_f64(double v)
{
    return _mm256_set1_pd(v);
}

static double run_f32(uint64_t iterations)
{
    const __m256 a = _mm256_set1_ps(dl_peak_a_f32), b = _mm256_set1_ps(dl_peak_b_f32);
    float out[DL_PEAK_CHAINS * 8];
#define STEP(x) _mm256_fmadd_ps(x, a, b)
#define STORE(k, x) _mm256_storeu_ps(out + (k) * 8, x)
    DL_PEAK_LOOP(__m256, set_f32, STEP, STORE, iterations);
#undef STEP
#undef STORE
    return dl_peak_sum_f32(out, DL_PEAK_CHAINS * 8);
}

static double run_f64(uint64_t iterations)
{
    const __m256d a = _mm256_set1_pd(dl_peak_a_f64), b = _mm256_set1_pd(dl_peak_b_f64);
    double out[DL_PEAK_CHAINS * 4];
#define STEP(x) _mm256_fmadd_pd(x, a, b)
#define STORE(k, x) _mm256_storeu_pd(out + (k) * 4, x)
    DL_PEAK_LOOP(__m256d, set_f64, STEP, STORE, iterations);
#undef STEP
#undef STORE
    return dl_peak_sum_f64(out, DL_PEAK_CHAINS * 4);
}

/* Per iteration: 12 chains x lanes x 2 (an FMA is a multiply and an add). */
static const dl_peak_kernel kernel = {"avx2_fma", DL_PEAK_CHAINS * 8 * 2,
                                      DL_PEAK_CHAINS * 4 * 2, run_f32, run_f64};

const dl_peak_kernel *dl_peak_kernel_avx2(void)
{
    return &kernel;
}

#else

const dl_peak_kernel *dl_peak_kernel_avx2(void)
{
    return NULL;
}

#endif
