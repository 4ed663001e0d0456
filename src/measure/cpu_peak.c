/* The peak floating-point rate: pick the widest kernel this CPU and OS can run (cpuid and
 * XCR0, decoded as the CPU probe decodes them), calibrate, repeat, take the median. */
#include "measure/cpu_peak.h"

#include "base/str.h"
#include "measure/cpu_peak_kernels.h"
#include "measure/measure.h"
#include "os/os.h"
#include "probe/system/cpu_isa.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* What every kernel reads; volatile, so the optimiser cannot know them. x = x * a + b
 * settles at b / (1 - a) = 1. */
volatile float dl_peak_a_f32 = 0.999f, dl_peak_b_f32 = 0.001f;
volatile double dl_peak_a_f64 = 0.999, dl_peak_b_f64 = 0.001;

double dl_peak_sum_f32(const float *v, unsigned n)
{
    double s = 0.0;
    unsigned i;
    for (i = 0; i < n; i++)
        s += (double)v[i];
    return s;
}

double dl_peak_sum_f64(const double *v, unsigned n)
{
    double s = 0.0;
    unsigned i;
    for (i = 0; i < n; i++)
        s += v[i];
    return s;
}

static bool has_isa(const char *const *names, size_t n, const char *want)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (strcmp(names[i], want) == 0)
            return true;
    return false;
}

unsigned dl_peak_kernels_usable(const dl_peak_kernel *out[DL_PEAK_KERNELS_MAX])
{
    dl_x86_cpuid id;
    const char *names[DL_X86_ISA_MAX];
    size_t count = 0;
    unsigned n = 0;
    bool fma_avx2;
    if (dl_x86_cpuid_read(&id))
        count = dl_x86_isa_decode(&id, names);
    /* The decoder already requires the OS to save the registers (XCR0). The AVX-512 file is
     * built with -mfma as well, and AVX2 comes with -mavx512f: require all three. */
    fma_avx2 = has_isa(names, count, "avx2") && has_isa(names, count, "fma");
    if (fma_avx2 && has_isa(names, count, "avx512f") && dl_peak_kernel_avx512())
        out[n++] = dl_peak_kernel_avx512();
    if (fma_avx2 && dl_peak_kernel_avx2())
        out[n++] = dl_peak_kernel_avx2();
    /* Built only where the compiler targets SSE2 already (x86-64's baseline), so it runs
     * wherever this program runs. */
    if (dl_peak_kernel_sse2())
        out[n++] = dl_peak_kernel_sse2();
    /* Built only on AArch64, where AdvSIMD is architectural */
    if (dl_peak_kernel_neon())
        out[n++] = dl_peak_kernel_neon();
    out[n++] = dl_peak_kernel_generic();
    return n;
}

typedef struct job {
    const dl_peak_kernel *k;
    bool f64;
    uint64_t iterations;
    double *sums;     /* per thread: the kernel's result, checked afterwards */
} job;

static void job_main(void *p, unsigned index)
{
    job *j = p;
    j->sums[index] = j->f64 ? j->k->run_f64(j->iterations) : j->k->run_f32(j->iterations);
}

/* One run of the kernel on n threads: its rate in GFLOPS and its wall time. */
static bool run_once(const dl_peak_kernel *k, bool f64, unsigned n, uint64_t iterations,
                     double *gflops, double *ms, char **error)
{
    job j;
    unsigned i;
    bool ok;
    j.k = k;
    j.f64 = f64;
    j.iterations = iterations;
    j.sums = dl_xcalloc(n, sizeof *j.sums);
    ok = dl_measure_parallel(n, job_main, &j, ms, error);
    for (i = 0; ok && i < n; i++) {
        /* Each chain settles near 1, so the sum is near the number of lanes: anything
         * else (NaN, 0) means the kernel did not compute what it was timed for. */
        if (!isfinite(j.sums[i]) || j.sums[i] <= 0.0) {
            *error = dl_fmt("the %s %s kernel computed %g, not a positive number", k->isa,
                            f64 ? "fp64" : "fp32", j.sums[i]);
            ok = false;
        }
    }
    free(j.sums);
    if (ok) {
        double t = *ms > 1e-6 ? *ms : 1e-6;
        *gflops = (f64 ? k->flops_f64 : k->flops_f32) * (double)iterations * n / t / 1e6;
    }
    return ok;
}

/* Iterations for a run of about run_ms: double from a small count until one run takes at
 * least 20 ms (which also brings the core to its working clock), then scale. */
static bool calibrate(const dl_peak_kernel *k, bool f64, double run_ms,
                      uint64_t *iterations, char **error)
{
    uint64_t it = 256;
    double gflops, ms = 0.0, scaled;
    for (;;) {
        if (!run_once(k, f64, 1, it, &gflops, &ms, error))
            return false;
        if (ms >= 20.0 || it >= ((uint64_t)1 << 40))
            break;
        it *= 2;
    }
    scaled = (double)it * run_ms / (ms > 1e-6 ? ms : 1e-6);
    *iterations = scaled < 1.0 ? 1 : (uint64_t)scaled;
    return true;
}

#define REPEATS_1CORE 5
#define REPEATS_ALL 3

/* One precision: calibrate on one core, bring the other cores up with an untimed run, then
 * the one-core and all-core runs interleaved (1, all, 1, all, 1, all, 1, 1), so load
 * from elsewhere that comes and goes weighs on both figures alike. */
static bool measure_precision(const dl_peak_kernel *k, bool f64, unsigned n, double run_ms,
                              double *one_core, double *all_cores, double *spread_all,
                              char **error)
{
    double one[REPEATS_1CORE], all[REPEATS_ALL], ms, gflops;
    uint64_t iterations;
    int r;
    if (!calibrate(k, f64, run_ms, &iterations, error) ||
        !run_once(k, f64, n, iterations / 2 + 1, &gflops, &ms, error))
        return false;
    for (r = 0; r < REPEATS_1CORE; r++) {
        if (!run_once(k, f64, 1, iterations, &one[r], &ms, error))
            return false;
        if (r < REPEATS_ALL && !run_once(k, f64, n, iterations, &all[r], &ms, error))
            return false;
    }
    *one_core = dl_measure_median(one, REPEATS_1CORE);
    *all_cores = dl_measure_median(all, REPEATS_ALL);
    *spread_all = dl_measure_spread_pct(all, REPEATS_ALL);
    return true;
}

bool dl_measure_cpu_peak(double seconds_budget, dl_cpu_peak *out, char **error)
{
    const dl_peak_kernel *kernels[DL_PEAK_KERNELS_MAX];
    const dl_peak_kernel *k;
    unsigned n;
    double run_ms, spread64;

    memset(out, 0, sizeof *out);
    if (!(seconds_budget > 0.0) || !isfinite(seconds_budget)) {
        *error = dl_fmt("the time budget must be a positive number of seconds, not %g",
                        seconds_budget);
        return false;
    }
    dl_peak_kernels_usable(kernels);
    k = kernels[0];
    n = dl_cpu_count_online();
    /* 2 precisions x (5 one-core + 3 all-core runs + a half-length warm-up), after about
     * 120 ms of calibration. */
    run_ms = (seconds_budget * 1000.0 - 120.0) / (2 * (REPEATS_1CORE + REPEATS_ALL + 0.5));
    if (run_ms < 2.0)
        run_ms = 2.0;
    out->isa = k->isa;
    out->threads = n;
    return measure_precision(k, false, n, run_ms, &out->fp32_gflops_1core,
                             &out->fp32_gflops_all, &out->spread_pct, error) &&
           measure_precision(k, true, n, run_ms, &out->fp64_gflops_1core,
                             &out->fp64_gflops_all, &spread64, error);
}
