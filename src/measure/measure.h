/* What the measurements share: running work on threads that start together and timing the
 * parallel part, and the statistics of repeated runs. */
#ifndef DLENV_MEASURE_MEASURE_H
#define DLENV_MEASURE_MEASURE_H

#include <stdbool.h>
#include <stddef.h>

#include "os/os.h"

/* Runs fn(arg, i) on n threads (dl_threads_run: all created, then released together) and
 * sets *wall_ms to the time from the first thread's start of fn to the last one's end.
 *
 * Why this design: each thread reads the monotonic clock (dl_clock_ms, one clock for the
 * whole process) just before and after its fn, and the run's time is max(end) - min(start).
 * That is work over the wall time during which any of it ran, the honest aggregate rate;
 * thread creation and the gate's wake-up are outside it, and no atomics or spinning are
 * needed (C11 atomics are not in every MSVC). A thread that is woken late only lengthens
 * the span, so a straggler lowers the figure rather than inflating it. With n = 1, fn runs
 * on the calling thread, which stays on the core the previous runs warmed up. */
bool dl_measure_parallel(unsigned n, dl_thread_fn fn, void *arg, double *wall_ms,
                         char **error);

/* The median of n values (n >= 1); sorts v in place. */
double dl_measure_median(double *v, size_t n);
/* (max - min) / median of n values, in percent; 0 when the median is 0. Sorts v. */
double dl_measure_spread_pct(double *v, size_t n);

#endif
