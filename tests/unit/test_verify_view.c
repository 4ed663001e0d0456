/* The verify view's GPU lines: each figure next to the limit the architecture table and
 * the device's description give, and the verdicts the rules give, from facts written as
 * JSON (what a real run on an A100 and on a GeForce would record). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "facts/facts_json.h"
#include "know/tables.h"
#include "render/verify_view.h"

#define A100 \
    "\"cuda_driver\": {\"devices\": [{\"index\": 0, \"name\": \"NVIDIA A100-SXM4-80GB\"," \
    " \"compute_capability\": \"8.0\", \"sm_count\": 108, \"clock_khz\": 1410000," \
    " \"memory_clock_khz\": 1593000, \"memory_bus_width_bits\": 5120}]}"

static const char *const a100_facts =
    "{\"schema\": \"dlenv.report/1\", " A100 ","
    " \"gpu_measure\": {\"status\": \"measured\", \"devices\": [{\"index\": 0,"
    "  \"status\": \"measured\", \"check\": \"passed\", \"fp32_tflops\": 18.1,"
    "  \"copy_kernel_gbps\": 1700, \"dtod_gbps\": 1000, \"h2d_pinned_gbps\": 6.0,"
    "  \"d2h_pinned_gbps\": 24.0, \"load_pcie_generation\": 4, \"load_pcie_width\": 16,"
    "  \"pcie_generation_max\": 4, \"pcie_width_max\": 16, \"memory_free_bytes\": 85000000000,"
    "  \"max_alloc_bytes\": 84000000000}]},"
    " \"pythons\": [{\"path\": \"/usr/bin/python3\", \"runtime\": {\"status\": \"imported\","
    "  \"gpu_matmul\": ["
    "   {\"dtype\": \"fp32\", \"device\": 0, \"size\": 4096, \"tflops\": 18.5, \"check\": \"passed\"},"
    "   {\"dtype\": \"tf32\", \"device\": 0, \"size\": 4096, \"tflops\": 20.0, \"check\": \"passed\"},"
    "   {\"dtype\": \"fp16\", \"device\": 0, \"size\": 4096, \"tflops\": 250, \"check\": \"passed\"},"
    "   {\"dtype\": \"bf16\", \"device\": 0, \"size\": 4096, \"tflops\": 240,"
    "    \"check\": \"differs from float64 on the CPU by 0.5 of the largest value\"}]}}]}";

typedef struct fixture {
    dl_facts facts;
    dl_findings findings;
    dl_knowledge know;
    dl_verify_view view;
    dl_rule_input rules;
} fixture;

static fixture *build(const char *json)
{
    fixture *x = calloc(1, sizeof *x);
    char *error = NULL;
    assert_true(dl_knowledge_load(&x->know, NULL, &error));
    if (!dl_facts_from_json_text(json, strlen(json), &x->facts, &error))
        fail_msg("facts: %s", error);
    x->rules.facts = &x->facts;
    x->rules.know = &x->know;
    dl_rules_run(&x->rules, NULL, &x->findings);
    dl_verify_view_build(&x->view, &x->facts, &x->findings, &x->know);
    return x;
}

static void destroy(fixture *x)
{
    dl_verify_view_free(&x->view);
    dl_findings_free(&x->findings);
    dl_facts_free(&x->facts);
    dl_knowledge_free(&x->know);
    free(x);
}

static const dl_verify_line *line(const fixture *x, const char *group, const char *key)
{
    size_t i;
    for (i = 0; i < x->view.count; i++)
        if (!strcmp(x->view.lines[i].group, group) && !strcmp(x->view.lines[i].key, key))
            return &x->view.lines[i];
    fail_msg("no line %s.%s", group, key);
    return NULL;
}

static void assert_near(double want, double got)
{
    if (fabs(got - want) > want * 1e-3)
        fail_msg("expected %g, got %g", want, got);
}

/* The finding with this id, or NULL. */
static const dl_finding *finding(const fixture *x, const char *id)
{
    size_t i;
    for (i = 0; i < x->findings.items.count; i++)
        if (!strcmp(DL_LIST_AT(x->findings.items, dl_finding, i).id.value, id))
            return &DL_LIST_AT(x->findings.items, dl_finding, i);
    return NULL;
}

static bool evidence_on(const dl_finding *x, const char *fact)
{
    size_t i;
    for (i = 0; x && i < x->evidence.count; i++)
        if (!strcmp(DL_LIST_AT(x->evidence, dl_pair, i).name, fact))
            return true;
    return false;
}

static void test_native_limits_from_the_architecture(void **state)
{
    fixture *x = build(a100_facts);
    const dl_verify_line *l;
    (void)state;
    l = line(x, "gpu0", "fp32_tflops");
    assert_true(l->has_limit);
    assert_near(19.49, l->limit);            /* 108 x 128 x 1410 MHz: A100's 19.5 */
    assert_int_equal(l->verdict, DL_SEV_OK);
    l = line(x, "gpu0", "copy_kernel_gbps");
    assert_near(2039.04, l->limit);          /* 2 x 1593 MHz x 5120 bits / 8 */
    assert_int_equal(l->verdict, DL_SEV_OK);
    assert_int_equal(line(x, "gpu0", "dtod_gbps")->verdict, DL_SEV_WARNING); /* 49% */
    l = line(x, "gpu0", "h2d_pinned_gbps");
    assert_near(31.508, l->limit);
    assert_int_equal(l->verdict, DL_SEV_WARNING);                           /* 19% */
    assert_int_equal(line(x, "gpu0", "d2h_pinned_gbps")->verdict, DL_SEV_OK);
    assert_string_equal(line(x, "gpu0", "check")->text, "passed");
    /* the rules' word, which the lines show: the two slow figures, not the fast ones */
    assert_string_equal(finding(x, "gpu_below_peak")->layer.value, "performance");
    assert_true(evidence_on(finding(x, "gpu_below_peak"), "gpu_measure.devices[0].dtod_gbps"));
    assert_true(evidence_on(finding(x, "gpu_below_peak"),
                            "gpu_measure.devices[0].h2d_pinned_gbps"));
    assert_false(evidence_on(finding(x, "gpu_below_peak"),
                             "gpu_measure.devices[0].fp32_tflops"));
    assert_null(finding(x, "gpu_kernel_check_failed"));
    destroy(x);
}

static void test_torch_products_against_the_tensor_peak(void **state)
{
    fixture *x = build(a100_facts);
    const dl_verify_line *l;
    (void)state;
    l = line(x, "torch_gpu0", "matmul_fp16_tflops");
    assert_near(311.87, l->limit);           /* 108 x 2048 x 1410 MHz: A100's 312 */
    assert_int_equal(l->verdict, DL_SEV_OK);
    l = line(x, "torch_gpu0", "matmul_tf32_tflops");
    assert_near(155.93, l->limit);
    assert_int_equal(l->verdict, DL_SEV_WARNING);   /* 20 of 156: under a quarter */
    l = line(x, "torch_gpu0", "matmul_fp32_tflops");
    assert_near(19.49, l->limit);
    l = line(x, "torch_gpu0", "matmul_bf16_tflops");
    assert_false(l->known);                  /* a wrong product has no speed */
    assert_int_equal(l->verdict, DL_SEV_FAILURE);
    assert_non_null(strstr(l->why, "wrong result"));
    assert_true(evidence_on(finding(x, "gpu_matmul_slow"),
                            "pythons[0].runtime.gpu_matmul[1].tflops"));
    assert_false(evidence_on(finding(x, "gpu_matmul_slow"),
                             "pythons[0].runtime.gpu_matmul[3].tflops"));
    assert_true(evidence_on(finding(x, "gpu_matmul_wrong_result"),
                            "pythons[0].runtime.gpu_matmul[3].check"));
    assert_string_equal(x->findings.root_cause.value, "gpu_matmul_wrong_result");
    assert_int_equal(x->view.verdict, DL_VERDICT_FAILURE);
    assert_int_equal(x->view.judged.verdict, DL_VERDICT_FAILURE);
    destroy(x);
}

static void test_geforce_tensor_rate_is_halved(void **state)
{
    const char *json =
        "{\"schema\": \"dlenv.report/1\", \"cuda_driver\": {\"devices\": [{\"index\": 0,"
        " \"name\": \"NVIDIA GeForce RTX 3090\", \"compute_capability\": \"8.6\","
        " \"sm_count\": 82, \"clock_khz\": 1695000}]},"
        " \"pythons\": [{\"path\": \"/usr/bin/python3\", \"runtime\": {\"gpu_matmul\": ["
        "  {\"dtype\": \"fp16\", \"device\": 0, \"size\": 4096, \"tflops\": 60,"
        "   \"check\": \"passed\"}]}}]}";
    fixture *x = build(json);
    const dl_verify_line *l = line(x, "torch_gpu0", "matmul_fp16_tflops");
    (void)state;
    assert_near(71.17, l->limit);            /* the 3090's 71 TFLOPS with FP32 accumulate */
    assert_non_null(strstr(l->limit_what, "GeForce"));
    destroy(x);
}

static void test_failed_kernel_check_fails_the_run(void **state)
{
    const char *json =
        "{\"schema\": \"dlenv.report/1\", " A100 ","
        " \"gpu_measure\": {\"status\": \"measured\", \"devices\": [{\"index\": 0,"
        "  \"status\": \"measured\", \"check\": \"3 of 1048576 values differ from the CPU\"}]}}";
    fixture *x = build(json);
    (void)state;
    assert_int_equal(line(x, "gpu0", "check")->verdict, DL_SEV_FAILURE);
    assert_string_equal(finding(x, "gpu_kernel_check_failed")->layer.value, "driver");
    assert_int_equal(x->view.verdict, DL_VERDICT_FAILURE);
    destroy(x);
}

static void test_no_gpu_is_one_line_with_the_reason(void **state)
{
    const char *json = "{\"schema\": \"dlenv.report/1\", \"gpu_measure\": {\"status\":"
                       " \"skipped\", \"detail\": \"cuInit failed: CUDA_ERROR_NO_DEVICE\"}}";
    fixture *x = build(json);
    const dl_verify_line *l = line(x, "gpu", "gpu");
    (void)state;
    assert_false(l->known);
    assert_string_equal(l->why, "cuInit failed: CUDA_ERROR_NO_DEVICE");
    assert_int_equal(l->verdict, DL_SEV_INFO);
    assert_null(finding(x, "gpu_measure_failed"));
    destroy(x);
}

static void test_measuring_child_that_hangs_fails_the_run(void **state)
{
    const char *json = "{\"schema\": \"dlenv.report/1\", \"gpu_measure\": {\"status\":"
                       " \"timed_out\", \"detail\": \"no answer in 30 s\"}}";
    fixture *x = build(json);
    (void)state;
    assert_int_equal(line(x, "gpu", "gpu")->verdict, DL_SEV_FAILURE);
    assert_true(evidence_on(finding(x, "gpu_measure_failed"), "gpu_measure.status"));
    assert_int_equal(x->view.verdict, DL_VERDICT_FAILURE);
    destroy(x);
}

/* torch's CPU product: the title names what the figure depends on, the limit is the
 * measured peak. */
static void test_torch_cpu_names_the_blas_kernel(void **state)
{
    const char *json =
        "{\"schema\": \"dlenv.report/1\", \"cpu_measure\": {\"fp32_gflops_all\": 280.0},"
        " \"pythons\": [{\"path\": \"/usr/bin/python3\", \"runtime\": {\"status\":"
        " \"imported\", \"version\": \"1.13.0a0\", \"blas\": \"generic\", \"blas_core\":"
        " \"Prescott\", \"threads\": 1, \"matmul_gflops\": 28.0}}]}";
    fixture *x = build(json);
    const dl_verify_line *l = line(x, "torch_cpu", "matmul_gflops");
    (void)state;
    assert_string_equal(l->group_title, "torch on the CPU (/usr/bin/python3, torch 1.13.0a0, "
                                        "OpenBLAS Prescott kernel, 1 torch thread)");
    assert_true(l->has_limit);
    assert_near(280.0, l->limit);
    destroy(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_native_limits_from_the_architecture),
        cmocka_unit_test(test_torch_products_against_the_tensor_peak),
        cmocka_unit_test(test_geforce_tensor_rate_is_halved),
        cmocka_unit_test(test_failed_kernel_check_fails_the_run),
        cmocka_unit_test(test_no_gpu_is_one_line_with_the_reason),
        cmocka_unit_test(test_measuring_child_that_hangs_fails_the_run),
        cmocka_unit_test(test_torch_cpu_names_the_blas_kernel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
