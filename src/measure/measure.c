/* Timed parallel runs and the statistics of repeats. */
#include "measure/measure.h"

#include "base/str.h"

#include <stdlib.h>

typedef struct timed {
    dl_thread_fn fn;
    void *arg;
    double *start, *end;   /* per thread; each thread writes only its own two slots */
} timed;

static void timed_main(void *p, unsigned index)
{
    timed *t = p;
    t->start[index] = dl_clock_ms();
    t->fn(t->arg, index);
    t->end[index] = dl_clock_ms();
}

bool dl_measure_parallel(unsigned n, dl_thread_fn fn, void *arg, double *wall_ms,
                         char **error)
{
    timed t;
    unsigned i;
    double first, last;
    bool ok;
    if (n == 0) {
        *error = dl_fmt("no threads to run (%u requested)", n);
        return false;
    }
    if (n == 1) {
        double start = dl_clock_ms();
        fn(arg, 0);
        *wall_ms = dl_clock_ms() - start;
        return true;
    }
    t.fn = fn;
    t.arg = arg;
    t.start = dl_xcalloc(n, sizeof *t.start);
    t.end = dl_xcalloc(n, sizeof *t.end);
    ok = dl_threads_run(n, timed_main, &t, error);
    if (ok) {
        first = t.start[0];
        last = t.end[0];
        for (i = 1; i < n; i++) {
            if (t.start[i] < first)
                first = t.start[i];
            if (t.end[i] > last)
                last = t.end[i];
        }
        *wall_ms = last - first;
    }
    free(t.start);
    free(t.end);
    return ok;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double dl_measure_median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

double dl_measure_spread_pct(double *v, size_t n)
{
    double median = dl_measure_median(v, n);
    return median > 0.0 ? (v[n - 1] - v[0]) / median * 100.0 : 0.0;
}
