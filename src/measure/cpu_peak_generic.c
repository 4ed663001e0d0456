/* The portable peak kernel, for CPUs without one of ours (ARM, RISC-V, POWER, ...): 12
 * independent scalar chains in plain C. It measures what compiled C reaches, not the
 * vector units' peak: compilers may pack the chains into vector registers (GCC and Clang
 * do, partly, on x86-64) or may not (Clang 14 on AArch64 keeps them as scalar FMAs, a
 * quarter of NEON's fp32 rate). Where the C library says a fused multiply-add is fast
 * (FP_FAST_FMA), each step is one fma(); otherwise a multiply and an add, which ISO C mode
 * does not fuse. Either way a step is two flops. */
#include "measure/cpu_peak_kernels.h"

#include <math.h>
#include <stddef.h>

static float set_f32(double v)
{
    return (float)v;
}

static double set_f64(double v)
{
    return v;
}

static double run_f32(uint64_t iterations)
{
    const float a = dl_peak_a_f32, b = dl_peak_b_f32;
    float out[DL_PEAK_CHAINS];
#if defined(FP_FAST_FMAF)
#define STEP(x) fmaf(x, a, b)
#else
#define STEP(x) ((x) * a + b)
#endif
#define STORE(k, x) (out[k] = (x))
    DL_PEAK_LOOP(float, set_f32, STEP, STORE, iterations);
#undef STEP
#undef STORE
    return dl_peak_sum_f32(out, DL_PEAK_CHAINS);
}

static double run_f64(uint64_t iterations)
{
    const double a = dl_peak_a_f64, b = dl_peak_b_f64;
    double out[DL_PEAK_CHAINS];
#if defined(FP_FAST_FMA)
#define STEP(x) fma(x, a, b)
#else
#define STEP(x) ((x) * a + b)
#endif
#define STORE(k, x) (out[k] = (x))
    DL_PEAK_LOOP(double, set_f64, STEP, STORE, iterations);
#undef STEP
#undef STORE
    return dl_peak_sum_f64(out, DL_PEAK_CHAINS);
}

/* Per iteration: 12 chains x 2 flops. */
static const dl_peak_kernel kernel = {"generic", DL_PEAK_CHAINS * 2, DL_PEAK_CHAINS * 2,
                                      run_f32, run_f64};

const dl_peak_kernel *dl_peak_kernel_generic(void)
{
    return &kernel;
}
