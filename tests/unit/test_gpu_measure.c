/* The arithmetic of verify's GPU measurements, without a GPU: the allocation bisection
 * against allocators with known limits, the kernel check's comparison, rates from event
 * samples, the budgets. (The whole measurement runs against the fake libcuda in
 * tests/e2e/verify_gpu.sh.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "measure/gpu_compute.h"
#include "measure/gpu_measure.h"
#include "measure/gpu_memory.h"
#include "measure/gpu_session.h"

#define MiB ((size_t)1 << 20)

typedef struct allocator {
    size_t limit;        /* the largest size that succeeds */
    size_t largest_ask;
    int calls;
} allocator;

static bool try_alloc(void *ctx, size_t bytes)
{
    allocator *a = ctx;
    a->calls++;
    if (bytes > a->largest_ask)
        a->largest_ask = bytes;
    return bytes <= a->limit;
}

static void test_bisection_finds_the_limit_within_a_step(void **state)
{
    size_t limits[] = {1 * MiB + 5, 100 * MiB, 333 * MiB + 12345, 1000 * MiB, 1024 * MiB};
    size_t i;
    (void)state;
    for (i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        allocator a = {limits[i], 0, 0};
        size_t got = dl_gpu_bisect_allocation(1024 * MiB, 2 * MiB, try_alloc, &a);
        assert_true(got <= limits[i]);
        if (limits[i] >= 2 * MiB)
            assert_true(limits[i] - got < 2 * MiB);
        else
            assert_int_equal(got, 0);
        assert_true(a.largest_ask <= 1024 * MiB);   /* never more than is free */
        assert_true(a.calls <= 12);
    }
}

static void test_bisection_everything_free_succeeds_in_one_try(void **state)
{
    allocator a = {(size_t)-1, 0, 0};
    (void)state;
    assert_int_equal(dl_gpu_bisect_allocation(80 * MiB + 3, 2 * MiB, try_alloc, &a), 80 * MiB);
    assert_int_equal(a.calls, 1);
}

static void test_bisection_without_room(void **state)
{
    allocator a = {0, 0, 0};
    (void)state;
    assert_int_equal(dl_gpu_bisect_allocation(64 * MiB, 2 * MiB, try_alloc, &a), 0);
    assert_int_equal(dl_gpu_bisect_allocation(1 * MiB, 2 * MiB, try_alloc, &a), 0);
    assert_int_equal(dl_gpu_bisect_allocation(64 * MiB, 0, try_alloc, &a), 0);
}

static void test_float_close_is_one_ulp(void **state)
{
    float x = 1.2345678f;
    (void)state;
    assert_true(dl_gpu_float_close(x, x));
    assert_true(dl_gpu_float_close(nextafterf(x, 2.0f), x));
    assert_true(dl_gpu_float_close(nextafterf(x, 0.0f), x));
    assert_false(dl_gpu_float_close(nextafterf(nextafterf(x, 2.0f), 2.0f), x));
    assert_false(dl_gpu_float_close(x + 1.0f, x));
    assert_false(dl_gpu_float_close(NAN, x));
}

static void test_reference_matches_a_fused_multiply_add(void **state)
{
    uint32_t s = 12345;
    int i;
    (void)state;
    for (i = 0; i < 100000; i++) {
        float a, x, y;
        s = s * 1664525u + 1013904223u;
        a = (float)(s >> 8) / 8388608.0f - 1.0f;
        s = s * 1664525u + 1013904223u;
        x = (float)(s >> 8) / 8388608.0f - 1.0f;
        s = s * 1664525u + 1013904223u;
        y = (float)(s >> 8) / 8388608.0f - 1.0f;
        assert_true(dl_gpu_float_close(fmaf(a, x, y), dl_gpu_fma_reference(a, x, y)));
    }
}

static void test_rate_from_samples(void **state)
{
    double ms[5] = {10.0, 12.0, 9.0, 10.0, 11.0};
    double rate = 0, spread = 0;
    (void)state;
    /* 2 GB per repetition, 5 repetitions per sample, median 10 ms: 1000 GB/s */
    assert_true(dl_gpu_rate(ms, 5, 2.0, 5, &rate, &spread));
    assert_true(fabs(rate - 1000.0) < 1e-9);
    assert_true(fabs(spread - 30.0) < 1e-9);
    ms[0] = ms[1] = ms[2] = ms[3] = ms[4] = 0.0;
    assert_false(dl_gpu_rate(ms, 5, 2.0, 5, &rate, &spread));   /* never a rate from zero */
}

static void test_budgets(void **state)
{
    dl_gpu_budget q, d, f;
    (void)state;
    assert_true(dl_gpu_budget_for("quick", &q));
    assert_true(dl_gpu_budget_for("default", &d));
    assert_true(dl_gpu_budget_for("full", &f));
    assert_false(dl_gpu_budget_for("fast", &q));
    assert_true(q.sample_ms < d.sample_ms && d.sample_ms < f.sample_ms);
    assert_true(q.samples <= d.samples && d.samples <= f.samples);
    assert_true(f.samples <= DL_GPU_MAX_SAMPLES);
    assert_true(q.copy_cap <= d.copy_cap && d.copy_cap <= f.copy_cap);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bisection_finds_the_limit_within_a_step),
        cmocka_unit_test(test_bisection_everything_free_succeeds_in_one_try),
        cmocka_unit_test(test_bisection_without_room),
        cmocka_unit_test(test_float_close_is_one_ulp),
        cmocka_unit_test(test_reference_matches_a_fused_multiply_add),
        cmocka_unit_test(test_rate_from_samples),
        cmocka_unit_test(test_budgets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
