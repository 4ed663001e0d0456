/* The STREAM triad on every CPU this process may use. */
#include "measure/memory_bandwidth.h"

#include "base/str.h"
#include "measure/measure.h"
#include "os/os.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MIB ((size_t)1 << 20)
#define DEFAULT_MIN (64 * MIB)
#define DEFAULT_MAX (256 * MIB)
#define SMALLEST (1 * MIB)
#define REPEATS_MIN 3
#define REPEATS_MAX 20

/* One cache level from a deterministic-cache-parameters leaf (Intel's 4, AMD's
 * 0x8000001D share the layout): the size of the highest level found. */
static uint64_t llc_from_leaf(uint32_t leaf)
{
    uint64_t best = 0;
    unsigned best_level = 0;
    uint32_t sub, r[4];
    for (sub = 0; sub < 16; sub++) {
        unsigned type, level;
        uint64_t ways, partitions, line, sets, size;
        if (!dl_cpuid(leaf, sub, r))
            break;
        type = r[0] & 0x1F;
        if (type == 0)            /* no more caches */
            break;
        if (type == 2)            /* instruction cache */
            continue;
        level = (r[0] >> 5) & 0x7;
        ways = ((r[1] >> 22) & 0x3FF) + 1;
        partitions = ((r[1] >> 12) & 0x3FF) + 1;
        line = (r[1] & 0xFFF) + 1;
        sets = (uint64_t)r[2] + 1;
        size = ways * partitions * line * sets;
        if (level > best_level || (level == best_level && size > best)) {
            best_level = level;
            best = size;
        }
    }
    return best;
}

uint64_t dl_measure_llc_bytes(void)
{
    uint32_t r[4];
    uint64_t size;
    if (!dl_cpuid(0, 0, r))
        return 0;
    if (r[0] >= 4 && (size = llc_from_leaf(4)) > 0)
        return size;
    /* AMD leaves 4 reserved and describes caches in 0x8000001D when it has the topology
     * extensions (0x80000001 ECX bit 22). */
    if (dl_cpuid(0x80000000u, 0, r) && r[0] >= 0x8000001Du &&
        dl_cpuid(0x80000001u, 0, r) && (r[2] & (1u << 22)))
        return llc_from_leaf(0x8000001Du);
    return 0;
}

size_t dl_memory_bandwidth_default_bytes(void)
{
    uint64_t want = dl_measure_llc_bytes() * 4;
    if (want < DEFAULT_MIN)
        want = DEFAULT_MIN;
    if (want > DEFAULT_MAX)
        want = DEFAULT_MAX;
    return (size_t)want;
}

typedef struct triad {
    double *a, *b, *c;
    size_t n;
    unsigned threads;
    double s;
} triad;

/* Thread index's share [lo, hi): n / threads rounded up to whole 64-byte lines (8
 * doubles), so no two threads write the same line; the last share may be shorter. */
static void slice(const triad *t, unsigned index, size_t *lo, size_t *hi)
{
    size_t per = ((t->n + t->threads - 1) / t->threads + 7) & ~(size_t)7;
    *lo = per * index < t->n ? per * index : t->n;
    *hi = t->n - *lo > per ? *lo + per : t->n;
}

/* The values are small integers, so b + s * c is exact whether or not the compiler fuses
 * it: the check can compare for equality. -1 is never a result. */
static double b_at(size_t i)
{
    return (double)(i & 1023) + 1.0;
}

#define C_VALUE 2.0

static void init_main(void *p, unsigned index)
{
    const triad *t = p;
    size_t i, lo, hi;
    slice(t, index, &lo, &hi);
    for (i = lo; i < hi; i++) {
        t->a[i] = -1.0;
        t->b[i] = b_at(i);
        t->c[i] = C_VALUE;
    }
}

static void triad_main(void *p, unsigned index)
{
    const triad *t = p;
    double *restrict a = t->a;
    const double *restrict b = t->b;
    const double *restrict c = t->c;
    const double s = t->s;
    size_t i, lo, hi;
    slice(t, index, &lo, &hi);
    for (i = lo; i < hi; i++)
        a[i] = b[i] + s * c[i];
}

static bool check_one(const triad *t, size_t i, char **error)
{
    double want = b_at(i) + t->s * C_VALUE;
    if (t->a[i] == want)
        return true;
    *error = dl_fmt("the triad's a[%zu] is %g, not %g: the pass did not compute what was "
                    "timed", i, t->a[i], want);
    return false;
}

/* Each slice's first and last element, and 16 spread over the array. */
static bool check(const triad *t, char **error)
{
    unsigned k;
    size_t lo, hi;
    for (k = 0; k < t->threads; k++) {
        slice(t, k, &lo, &hi);
        if (lo < hi && (!check_one(t, lo, error) || !check_one(t, hi - 1, error)))
            return false;
    }
    for (k = 0; k < 16; k++)
        if (!check_one(t, t->n / 16 * k + k, error))
            return false;
    return true;
}

/* One timed pass with multiplier s, checked. */
static bool pass(triad *t, double s, double *ms, char **error)
{
    t->s = s;
    return dl_measure_parallel(t->threads, triad_main, t, ms, error) && check(t, error);
}

bool dl_measure_memory_bandwidth(double seconds_budget, dl_memory_bandwidth *out,
                                 char **error)
{
    return dl_measure_memory_bandwidth_sized(seconds_budget, 0, out, error);
}

bool dl_measure_memory_bandwidth_sized(double seconds_budget, size_t array_bytes,
                                       dl_memory_bandwidth *out, char **error)
{
    triad t;
    double started = dl_clock_ms(), ms = 0.0, left_ms;
    double rates[REPEATS_MAX];
    bool by_default = array_bytes == 0, ok;
    int repeats = 0, r;

    memset(out, 0, sizeof *out);
    if (!(seconds_budget > 0.0) || !isfinite(seconds_budget)) {
        *error = dl_fmt("the time budget must be a positive number of seconds, not %g",
                        seconds_budget);
        return false;
    }
    if (by_default)
        array_bytes = dl_memory_bandwidth_default_bytes();
    if (array_bytes < SMALLEST) {
        *error = dl_fmt("arrays of %zu bytes are too small to measure memory "
                        "(at least %zu)", array_bytes, SMALLEST);
        return false;
    }
    /* Not dl_xmalloc: a machine short of memory is a measurement that cannot run, not a
     * crash. The default size halves until it fits (down to 16 MiB). */
    for (;;) {
        t.n = array_bytes / sizeof(double);
        t.a = malloc(t.n * sizeof(double));
        t.b = malloc(t.n * sizeof(double));
        t.c = malloc(t.n * sizeof(double));
        if (t.a && t.b && t.c)
            break;
        free(t.a);
        free(t.b);
        free(t.c);
        if (!by_default || array_bytes / 2 < 16 * MIB) {
            *error = dl_fmt("cannot allocate 3 arrays of %zu bytes", array_bytes);
            return false;
        }
        array_bytes /= 2;
    }
    t.threads = dl_cpu_count_online();
    if (t.n / t.threads < 8)
        t.threads = (unsigned)(t.n / 8);
    t.s = 0.0;
    out->array_bytes = t.n * sizeof(double);
    out->threads = t.threads;

    /* First touch in the threads that will use each slice, then one untimed pass that
     * also says how long a pass takes. */
    ok = dl_threads_run(t.threads, init_main, &t, error) && pass(&t, 3.0, &ms, error);
    if (ok) {
        left_ms = seconds_budget * 1000.0 - (dl_clock_ms() - started);
        repeats = ms > 0.0 ? (int)(left_ms / ms) : REPEATS_MAX;
        if (repeats < REPEATS_MIN)
            repeats = REPEATS_MIN;
        if (repeats > REPEATS_MAX)
            repeats = REPEATS_MAX;
        /* s alternates, so each pass writes values the previous one did not. */
        for (r = 0; ok && r < repeats; r++) {
            ok = pass(&t, r % 2 ? 3.0 : 5.0, &ms, error);
            rates[r] = 3.0 * sizeof(double) * (double)t.n / (ms > 1e-6 ? ms : 1e-6) / 1e6;
        }
    }
    if (ok) {
        out->triad_gbps = dl_measure_median(rates, (size_t)repeats);
        out->spread_pct = dl_measure_spread_pct(rates, (size_t)repeats);
    }
    free(t.a);
    free(t.b);
    free(t.c);
    return ok;
}
