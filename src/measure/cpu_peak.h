/* The CPU's peak floating-point rate, measured natively (no Python): an FMA benchmark on
 * the widest vector instruction set the CPU and the OS support, on one core and on
 * every core this process may use, in fp32 and fp64. Part of `dlenv verify`. */
#ifndef DLENV_MEASURE_CPU_PEAK_H
#define DLENV_MEASURE_CPU_PEAK_H

#include <stdbool.h>

typedef struct dl_cpu_peak {
    const char *isa;       /* "avx512f", "avx2_fma", "sse2", "generic" (static text) */
    unsigned threads;      /* threads of the all-core figures: dl_cpu_count_online() */
    double fp32_gflops_1core, fp64_gflops_1core;
    double fp32_gflops_all, fp64_gflops_all;
    double spread_pct;     /* (max-min)/median of the repeats, all-core fp32, in percent */
} dl_cpu_peak;

/* Measures for about seconds_budget seconds in all (a target: on a CPU whose cores share
 * FMA units, as SMT siblings do, the all-core runs take longer). Method: calibrate the
 * iteration count on one core (doubling until a run takes >= 20 ms; this also warms the
 * core up), one untimed all-core run to warm the others, then 5 one-core and 3 all-core
 * runs interleaved, per precision; each figure is the median of its runs. False with why when seconds_budget is
 * not a positive number, a thread cannot start, or a kernel's result is not a finite
 * number. */
bool dl_measure_cpu_peak(double seconds_budget, dl_cpu_peak *out, char **error);

#endif
