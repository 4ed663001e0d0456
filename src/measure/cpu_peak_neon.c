/* NEON (AdvSIMD) peak kernel for 64-bit ARM: 12 chains of 128-bit FMAs (4 fp32 / 2 fp64
 * lanes). AdvSIMD with FMA is part of every AArch64 CPU, so the file needs no flags and the
 * kernel no run-time check; elsewhere it is left out. (SVE's wider vectors are not used:
 * the NEON rate is what torch's ARM builds mostly run at.) */
#include "measure/cpu_peak_kernels.h"

#include <stddef.h>

#if defined(__aarch64__) || defined(_M_ARM64)
#include <arm_neon.h>

static float32x4_t set_f32(double v)
{
    return vdupq_n_f32((float)v);
}

static float64x2_t set_f64(double v)
{
    return vdupq_n_f64(v);
}

static double run_f32(uint64_t iterations)
{
    const float32x4_t a = vdupq_n_f32(dl_peak_a_f32), b = vdupq_n_f32(dl_peak_b_f32);
    float out[DL_PEAK_CHAINS * 4];
#define STEP(x) vfmaq_f32(b, x, a)
#define STORE(k, x) vst1q_f32(out + (k) * 4, x)
    DL_PEAK_LOOP(float32x4_t, set_f32, STEP, STORE, iterations);
#undef STEP
#undef STORE
    return dl_peak_sum_f32(out, DL_PEAK_CHAINS * 4);
}

static double run_f64(uint64_t iterations)
{
    const float64x2_t a = vdupq_n_f64(dl_peak_a_f64), b = vdupq_n_f64(dl_peak_b_f64);
    double out[DL_PEAK_CHAINS * 2];
#define STEP(x) vfmaq_f64(b, x, a)
#define STORE(k, x) vst1q_f64(out + (k) * 2, x)
    DL_PEAK_LOOP(float64x2_t, set_f64, STEP, STORE, iterations);
#undef STEP
#undef STORE
    return dl_peak_sum_f64(out, DL_PEAK_CHAINS * 2);
}

/* Per iteration: 12 chains x lanes x 2 (an FMA is a multiply and an add). */
static const dl_peak_kernel kernel = {"neon", DL_PEAK_CHAINS * 4 * 2, DL_PEAK_CHAINS * 2 * 2,
                                      run_f32, run_f64};

const dl_peak_kernel *dl_peak_kernel_neon(void)
{
    return &kernel;
}

#else

const dl_peak_kernel *dl_peak_kernel_neon(void)
{
    return NULL;
}

#endif
