/* Native measurements for `dlenv verify`: threads, the peak-rate kernels, the CPU's peak
 * and the memory triad on this machine. Real runs, so ranges, not exact numbers; the whole
 * program takes about a second and a half. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/str.h"
#include "measure/cpu_peak.h"
#include "measure/cpu_peak_kernels.h"
#include "measure/measure.h"
#include "measure/memory_bandwidth.h"
#include "os/os.h"
#include "probe/system/cpu_isa.h"

/* ---- threads ------------------------------------------------------------------------ */

typedef struct counts {
    unsigned hits[16];
    void *seen_arg[16];
} counts;

static void count_main(void *arg, unsigned index)
{
    counts *c = arg;
    c->hits[index]++;
    c->seen_arg[index] = arg;
}

static void test_threads_run_each_index_once(void **state)
{
    counts c;
    char *error = NULL;
    unsigned i;
    (void)state;
    memset(&c, 0, sizeof c);
    assert_true(dl_threads_run(16, count_main, &c, &error));
    assert_null(error);
    for (i = 0; i < 16; i++) {
        assert_int_equal(c.hits[i], 1);
        assert_ptr_equal(c.seen_arg[i], &c);
    }
}

static void test_threads_zero_is_an_error(void **state)
{
    counts c;
    char *error = NULL;
    double ms = -1.0;
    (void)state;
    memset(&c, 0, sizeof c);
    assert_false(dl_threads_run(0, count_main, &c, &error));
    assert_non_null(error);
    assert_non_null(strstr(error, "no threads"));
    free(error);
    error = NULL;
    assert_false(dl_measure_parallel(0, count_main, &c, &ms, &error));
    assert_non_null(error);
    free(error);
    assert_int_equal(c.hits[0], 0);
}

static void test_cpu_count(void **state)
{
    unsigned n = dl_cpu_count_online();
    (void)state;
    assert_true(n >= 1);
    assert_true(n <= 1u << 20);
}

static void test_median_and_spread(void **state)
{
    double odd[] = {5.0, 1.0, 3.0}, even[] = {4.0, 1.0, 3.0, 2.0}, same[] = {2.0, 2.0};
    double spread[] = {90.0, 110.0, 100.0};
    (void)state;
    assert_true(dl_measure_median(odd, 3) == 3.0);
    assert_true(dl_measure_median(even, 4) == 2.5);
    assert_true(dl_measure_spread_pct(same, 2) == 0.0);
    assert_true(fabs(dl_measure_spread_pct(spread, 3) - 20.0) < 1e-9);
}

/* ---- the kernels -------------------------------------------------------------------- */

/* The widest ISA this CPU and OS allow, decoded as the CPU probe does: what
 * dl_measure_cpu_peak must pick on x86-64. NULL where there is no cpuid. */
static const char *widest_x86_isa(void)
{
    dl_x86_cpuid id;
    const char *names[DL_X86_ISA_MAX];
    uint32_t r[4], max_leaf, max_sub = 0;
    size_t n, i;
    bool avx512 = false, avx2 = false, fma = false;
    memset(&id, 0, sizeof id);
    if (!dl_cpuid(0, 0, r))
        return NULL;
    max_leaf = r[0];
    if (max_leaf >= 1 && dl_cpuid(1, 0, r))
        id.leaf1_ecx = r[2];
    if (max_leaf >= 7 && dl_cpuid(7, 0, r)) {
        max_sub = r[0];
        id.leaf7_ebx = r[1];
        id.leaf7_ecx = r[2];
        id.leaf7_edx = r[3];
    }
    if (max_sub >= 1 && dl_cpuid(7, 1, r))
        id.leaf7_1_eax = r[0];
    if (!dl_xgetbv0(&id.xcr0))
        id.xcr0 = 0;
    n = dl_x86_isa_decode(&id, names);
    for (i = 0; i < n; i++) {
        avx512 |= strcmp(names[i], "avx512f") == 0;
        avx2 |= strcmp(names[i], "avx2") == 0;
        fma |= strcmp(names[i], "fma") == 0;
    }
    return avx2 && fma ? (avx512 ? "avx512f" : "avx2_fma") : "sse2";
}

static double kernel_gflops(const dl_peak_kernel *k, bool f64, uint64_t iterations)
{
    double start = dl_clock_ms(), sum, ms, flops = f64 ? k->flops_f64 : k->flops_f32;
    sum = f64 ? k->run_f64(iterations) : k->run_f32(iterations);
    ms = dl_clock_ms() - start;
    /* Each chain settles at b / (1 - a) = 1: the sum is about the number of lanes, which
     * is the flops per iteration over 2. */
    assert_true(isfinite(sum));
    assert_true(sum > 0.5 * flops / 2 && sum < 1.5 * flops / 2);
    return flops * (double)iterations / (ms > 1e-6 ? ms : 1e-6) / 1e6;
}

/* Every kernel this CPU can run computes the right sums at a plausible rate, the list is
 * widest first, and ends with the portable one. */
static void test_every_usable_kernel(void **state)
{
    const dl_peak_kernel *k[DL_PEAK_KERNELS_MAX];
    unsigned n = dl_peak_kernels_usable(k), i;
    const char *widest = widest_x86_isa();
    (void)state;
    assert_true(n >= 1 && n <= DL_PEAK_KERNELS_MAX);
    assert_string_equal(k[n - 1]->isa, "generic");
#if defined(__x86_64__) || defined(_M_X64)
    assert_non_null(widest);
    assert_string_equal(k[0]->isa, widest);
    assert_string_equal(k[n - 2]->isa, "sse2");
#else
    (void)widest;
#endif
    for (i = 0; i < n; i++) {
        double f32 = kernel_gflops(k[i], false, 200000);
        double f64 = kernel_gflops(k[i], true, 200000);
        print_message("kernel %-8s fp32 %7.1f, fp64 %7.1f GFLOPS (one core, short run)\n",
                      k[i]->isa, f32, f64);
        assert_true(f32 > 0.5 && f32 < 1e5);
        assert_true(f64 > 0.25 && f64 < 1e5);
    }
}

/* ---- the CPU's peak ----------------------------------------------------------------- */

/* Whether the figures relate as they must: fp64 about half of fp32 (half the lanes),
 * within a wide factor, and all cores at least about one core. */
static bool peak_ratios_hold(const dl_cpu_peak *p)
{
    return p->fp64_gflops_1core >= 0.25 * p->fp32_gflops_1core &&
           p->fp64_gflops_1core <= 1.0 * p->fp32_gflops_1core &&
           p->fp32_gflops_all >= 0.8 * p->fp32_gflops_1core &&
           p->fp64_gflops_all >= 0.8 * p->fp64_gflops_1core;
}

/* Ranges hold on every run. The ratios compare runs made at different moments, so load
 * from elsewhere (a parallel build on a small machine) can upset one measurement: up to 3
 * tries, which costs nothing on a quiet machine. */
static void test_cpu_peak(void **state)
{
    dl_cpu_peak p;
    const char *widest = widest_x86_isa();
    int attempt;
    bool ratios = false;
    (void)state;
    for (attempt = 1; attempt <= 3 && !ratios; attempt++) {
        char *error = NULL;
        double start = dl_clock_ms(), ms;
        if (!dl_measure_cpu_peak(0.6, &p, &error))
            fail_msg("dl_measure_cpu_peak: %s", error);
        ms = dl_clock_ms() - start;
        print_message("cpu peak: %s on %u threads: fp32 %.1f / %.1f GFLOPS (1 core / all), "
                      "fp64 %.1f / %.1f, spread %.1f%%, %.0f ms\n",
                      p.isa, p.threads, p.fp32_gflops_1core, p.fp32_gflops_all,
                      p.fp64_gflops_1core, p.fp64_gflops_all, p.spread_pct, ms);
        assert_non_null(p.isa);
        assert_int_equal(p.threads, dl_cpu_count_online());
#if defined(__x86_64__) || defined(_M_X64)
        assert_non_null(widest);
        assert_string_equal(p.isa, widest);
#else
        (void)widest;
#endif
        assert_true(p.fp32_gflops_1core > 1.0 && p.fp32_gflops_1core < 1e5);
        assert_true(p.fp64_gflops_1core > 0.25 && p.fp64_gflops_1core < 1e5);
        assert_true(p.fp32_gflops_all > 0.0 && p.fp32_gflops_all < 1e5 * p.threads);
        assert_true(p.fp64_gflops_all > 0.0 && p.fp64_gflops_all < 1e5 * p.threads);
        assert_true(p.spread_pct >= 0.0);
        /* The budget is a target, not a limit: this only catches a run that ignores it (a
         * loaded machine and sanitizers stretch it several times). */
        assert_true(ms < 30000.0);
        ratios = peak_ratios_hold(&p);
    }
    if (!ratios)
        fail_msg("3 measurements in a row broke fp64 = 0.25..1 x fp32 or all >= 0.8 x one");
}

static void test_cpu_peak_bad_budget(void **state)
{
    dl_cpu_peak p;
    char *error = NULL;
    (void)state;
    assert_false(dl_measure_cpu_peak(0.0, &p, &error));
    assert_non_null(error);
    assert_non_null(strstr(error, "positive number of seconds"));
    free(error);
    error = NULL;
    assert_false(dl_measure_cpu_peak(-1.0, &p, &error));
    free(error);
    error = NULL;
    assert_false(dl_measure_cpu_peak(NAN, &p, &error));
    assert_non_null(error);
    free(error);
}

/* ---- memory ------------------------------------------------------------------------- */

/* 3 x 64 MiB rather than the default (up to 3 x 256 MiB), whose first touch alone takes
 * over a second on a virtual machine with slow page faults. */
static void test_memory_bandwidth(void **state)
{
    dl_memory_bandwidth m;
    char *error = NULL;
    double start = dl_clock_ms();
    bool ok = dl_measure_memory_bandwidth_sized(0.2, (size_t)64 << 20, &m, &error);
    double ms = dl_clock_ms() - start;
    (void)state;
    if (!ok)
        fail_msg("dl_measure_memory_bandwidth: %s", error);
    print_message("triad: %.1f GB/s on %u threads, 3 x %zu MiB arrays (LLC %llu MiB), "
                  "spread %.1f%%, %.0f ms\n",
                  m.triad_gbps, m.threads, m.array_bytes >> 20,
                  (unsigned long long)(dl_measure_llc_bytes() >> 20), m.spread_pct, ms);
    assert_true(m.triad_gbps > 0.5 && m.triad_gbps < 2000.0);
    assert_int_equal(m.array_bytes, (size_t)64 << 20);
    assert_true(m.threads >= 1 && m.threads <= dl_cpu_count_online());
    assert_true(m.spread_pct >= 0.0);
}

static void test_memory_default_size(void **state)
{
    size_t bytes = dl_memory_bandwidth_default_bytes();
    uint64_t llc = dl_measure_llc_bytes();
    (void)state;
    assert_true(bytes >= (size_t)64 << 20 && bytes <= (size_t)256 << 20);
    if (llc * 4 >= ((uint64_t)64 << 20) && llc * 4 <= ((uint64_t)256 << 20))
        assert_true(bytes == (size_t)(llc * 4));
#if defined(__x86_64__) || defined(_M_X64)
    /* Every x86-64 CPU of the last 15 years describes its caches in cpuid. */
    assert_true(llc >= (uint64_t)256 << 10);
#endif
}

static void test_memory_errors(void **state)
{
    dl_memory_bandwidth m;
    char *error = NULL;
    (void)state;
    assert_false(dl_measure_memory_bandwidth_sized(0.1, 4096, &m, &error));
    assert_non_null(error);
    assert_non_null(strstr(error, "too small"));
    free(error);
    error = NULL;
    assert_false(dl_measure_memory_bandwidth(0.0, &m, &error));
    assert_non_null(error);
    free(error);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_run_each_index_once),
        cmocka_unit_test(test_threads_zero_is_an_error),
        cmocka_unit_test(test_cpu_count),
        cmocka_unit_test(test_median_and_spread),
        cmocka_unit_test(test_every_usable_kernel),
        cmocka_unit_test(test_cpu_peak),
        cmocka_unit_test(test_cpu_peak_bad_budget),
        cmocka_unit_test(test_memory_bandwidth),
        cmocka_unit_test(test_memory_default_size),
        cmocka_unit_test(test_memory_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
