/* The peak-rate kernels, one file per instruction set. Each ISA file is compiled with its
 * own flags (CMakeLists.txt: -mavx512f -mfma, -mavx2 -mfma, /arch:AVX512, /arch:AVX2) on
 * x86-64 only; elsewhere, or with a compiler that did not get the flags, the file's #if
 * leaves the kernel out and its getter returns NULL. Only code in the ISA file itself is
 * built with the wider instructions, and it runs only after cpu_peak.c has checked with
 * cpuid + XGETBV that the CPU and the OS support them.
 *
 * Every kernel updates independent accumulators x = x * a + b (a just below 1, so x stays
 * near b / (1 - a): no overflow, no denormals) with a and b read from volatiles, so the
 * compiler can neither fold nor drop the work; the sum of the accumulators is returned and
 * checked by the caller. */
#ifndef DLENV_MEASURE_CPU_PEAK_KERNELS_H
#define DLENV_MEASURE_CPU_PEAK_KERNELS_H

#include <stdint.h>

typedef struct dl_peak_kernel {
    const char *isa;          /* "avx512f", "avx2_fma", "sse2", "neon", "generic" */
    double flops_f32;         /* floating-point operations per iteration of run_f32 */
    double flops_f64;
    double (*run_f32)(uint64_t iterations);   /* returns the sum of the accumulators */
    double (*run_f64)(uint64_t iterations);
} dl_peak_kernel;

/* NULL when the file was built without its instruction set. */
const dl_peak_kernel *dl_peak_kernel_avx512(void);
const dl_peak_kernel *dl_peak_kernel_avx2(void);
const dl_peak_kernel *dl_peak_kernel_sse2(void);
const dl_peak_kernel *dl_peak_kernel_neon(void);      /* 64-bit ARM */
const dl_peak_kernel *dl_peak_kernel_generic(void);   /* never NULL */

/* The kernels this CPU and OS can run, widest first (the first is what
 * dl_measure_cpu_peak uses); returns how many (1..4 on x86-64, 1..2 on ARM). */
#define DL_PEAK_KERNELS_MAX 5
unsigned dl_peak_kernels_usable(const dl_peak_kernel *out[DL_PEAK_KERNELS_MAX]);

/* The constants every kernel reads (volatile: unknown to the optimiser). */
extern volatile float dl_peak_a_f32, dl_peak_b_f32;
extern volatile double dl_peak_a_f64, dl_peak_b_f64;

/* The loop every kernel runs: 12 independent chains, each x = STEP(x), declared as
 * T x0..x11 and started at slightly different values by SET. Enough chains to cover an FMA
 * latency of 4 cycles on two ports (8 in flight) with room to spare, and few enough to
 * stay in registers with a and b (16 vector registers without AVX-512). The
 * chains are stored with STORE(k, x_k), k = 0..11, for the caller to add up. */
#define DL_PEAK_CHAINS 12
#define DL_PEAK_LOOP(T, SET, STEP, STORE, ITERATIONS)                                     \
    do {                                                                                  \
        T x0 = SET(1.00), x1 = SET(1.01), x2 = SET(1.02), x3 = SET(1.03);                \
        T x4 = SET(1.04), x5 = SET(1.05), x6 = SET(1.06), x7 = SET(1.07);                \
        T x8 = SET(1.08), x9 = SET(1.09), x10 = SET(1.10), x11 = SET(1.11);              \
        uint64_t it_;                                                                     \
        for (it_ = 0; it_ < (ITERATIONS); it_++) {                                        \
            x0 = STEP(x0);                                                                \
            x1 = STEP(x1);                                                                \
            x2 = STEP(x2);                                                                \
            x3 = STEP(x3);                                                                \
            x4 = STEP(x4);                                                                \
            x5 = STEP(x5);                                                                \
            x6 = STEP(x6);                                                                \
            x7 = STEP(x7);                                                                \
            x8 = STEP(x8);                                                                \
            x9 = STEP(x9);                                                                \
            x10 = STEP(x10);                                                              \
            x11 = STEP(x11);                                                              \
        }                                                                                 \
        STORE(0, x0);                                                                     \
        STORE(1, x1);                                                                     \
        STORE(2, x2);                                                                     \
        STORE(3, x3);                                                                     \
        STORE(4, x4);                                                                     \
        STORE(5, x5);                                                                     \
        STORE(6, x6);                                                                     \
        STORE(7, x7);                                                                     \
        STORE(8, x8);                                                                     \
        STORE(9, x9);                                                                     \
        STORE(10, x10);                                                                   \
        STORE(11, x11);                                                                   \
    } while (0)

/* The sum of n floats / doubles (the stored chains). */
double dl_peak_sum_f32(const float *v, unsigned n);
double dl_peak_sum_f64(const double *v, unsigned n);

#endif
