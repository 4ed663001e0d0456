/* The per-SM throughput table (data/gpu_arch.csv, built in) and the peak arithmetic,
 * checked against figures NVIDIA publishes for whole products. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "know/gpu_arch.h"
#include "test_know.h"

#include <math.h>
#include <string.h>

/* |got - want| within rel of want: datasheets round to 3-4 digits. */
static void assert_near(double got, double want, double rel)
{
    if (!(fabs(got - want) <= rel * fabs(want)))
        fail_msg("got %.6g, want %.6g (within %.2g%%)", got, want, rel * 100);
}

static dl_gpu_arch lookup(const char *cc, const char *name)
{
    dl_gpu_arch a;
    if (!dl_gpu_arch_lookup(&dl_test_know, cc, name, &a))
        fail_msg("no gpu_arch row for %s (bad column: %s)", cc,
                 a.bad_column ? a.bad_column : "none");
    return a;
}

static void rows_by_capability(void **state)
{
    dl_gpu_arch a;
    (void)state;
    a = lookup("8.0", "NVIDIA A100-SXM4-80GB");
    assert_string_equal(a.architecture, "Ampere");
    assert_true(a.fp32.known && a.fp64.known && a.tf32.known && a.fp16.known && a.bf16.known);
    assert_near(a.fp32.flops_per_clk_sm, 128, 0); /* 64 FMA lanes */
    assert_near(a.fp64.flops_per_clk_sm, 64, 0);
    assert_near(a.tf32.flops_per_clk_sm, 1024, 0);
    assert_near(a.fp16.flops_per_clk_sm, 2048, 0);
    assert_near(a.bf16.flops_per_clk_sm, 2048, 0);
    assert_false(a.reduced);
    assert_true(a.source && a.source[0]);

    a = lookup("7.0", "Tesla V100-SXM2-16GB");
    assert_string_equal(a.architecture, "Volta");
    assert_true(a.fp16.known);
    assert_false(a.tf32.known); /* no TF32 or BF16 before Ampere: absent, not zero */
    assert_false(a.bf16.known);
    assert_near(a.tf32.flops_per_clk_sm, 0, 0);

    a = lookup("6.1", "NVIDIA GeForce GTX 1080 Ti");
    assert_string_equal(a.architecture, "Pascal");
    assert_near(a.fp32.flops_per_clk_sm, 256, 0);
    assert_false(a.fp16.known || a.tf32.known || a.bf16.known);

    a = lookup("3.7", NULL);
    assert_near(a.fp32.flops_per_clk_sm, 384, 0); /* Kepler: 192 lanes */

    a = lookup("9.0", "NVIDIA H100 80GB HBM3");
    assert_string_equal(a.architecture, "Hopper");
    assert_near(a.fp16.flops_per_clk_sm, 4096, 0);

    a = lookup("12.1", "NVIDIA GB10");
    assert_string_equal(a.architecture, "Blackwell");
    assert_true(a.fp32.known);
    assert_false(a.fp16.known); /* not confirmed: the table leaves it empty */
}

/* GeForce cards run fp16/bf16 tensor math with FP32 accumulate (and, since Ampere, TF32)
 * at half the rate of the professional parts of the same architecture. */
static void geforce_factor(void **state)
{
    dl_gpu_arch pro, gf;
    (void)state;
    pro = lookup("8.9", "NVIDIA L40S");
    gf = lookup("8.9", "NVIDIA GeForce RTX 4090");
    assert_false(pro.reduced);
    assert_true(gf.reduced);
    assert_near(pro.fp16.flops_per_clk_sm, 1024, 0);
    assert_near(gf.fp16.flops_per_clk_sm, 512, 0);
    assert_near(gf.bf16.flops_per_clk_sm, 512, 0);
    assert_near(pro.tf32.flops_per_clk_sm, 512, 0);
    assert_near(gf.tf32.flops_per_clk_sm, 256, 0);
    /* the CUDA cores are not reduced */
    assert_near(gf.fp32.flops_per_clk_sm, pro.fp32.flops_per_clk_sm, 0);
    assert_true(lookup("8.9", "nvidia geforce rtx 4060 laptop gpu").reduced);

    /* L40 (not L40S) is listed by exact name in reduced_rate_devices */
    assert_true(lookup("8.9", "NVIDIA L40").reduced);
    assert_true(lookup("8.9", " nvidia l40 ").reduced);
    assert_false(lookup("8.9", "NVIDIA L40S").reduced);
    assert_false(lookup("8.9", "NVIDIA RTX 6000 Ada Generation").reduced);

    /* Turing: fp16 halved on GeForce; there is no TF32 to halve */
    gf = lookup("7.5", "NVIDIA GeForce RTX 2080 Ti");
    assert_near(gf.fp16.flops_per_clk_sm, 512, 0);
    assert_false(gf.tf32.known);
    assert_false(lookup("7.5", "NVIDIA TITAN RTX").reduced);
    assert_near(lookup("7.5", "Quadro RTX 6000").fp16.flops_per_clk_sm, 1024, 0);

    /* no name: the professional rate */
    assert_false(lookup("8.6", NULL).reduced);
    /* architectures without the factor ignore the name */
    assert_near(lookup("8.0", "NVIDIA GeForce pretend").fp16.flops_per_clk_sm, 2048, 0);
}

static void unknown_capabilities(void **state)
{
    dl_gpu_arch a;
    (void)state;
    assert_false(dl_gpu_arch_lookup(&dl_test_know, "4.0", NULL, &a));
    assert_null(a.bad_column);
    assert_false(dl_gpu_arch_lookup(&dl_test_know, "13.0", "NVIDIA GeForce RTX 9090", &a));
    assert_false(dl_gpu_arch_lookup(&dl_test_know, "garbage", NULL, &a));
    assert_false(dl_gpu_arch_lookup(&dl_test_know, "", NULL, &a));
    assert_false(dl_gpu_arch_lookup(&dl_test_know, NULL, NULL, &a));
    assert_false(dl_gpu_arch_lookup(NULL, "8.0", NULL, &a));
    assert_true(dl_gpu_arch_lookup(&dl_test_know, "8.9", NULL, &a)); /* sanity */
}

/* Every capability the GPU table names has a row here, and every row parses: verify must
 * not find a GPU the planner knows but whose peak it cannot compute. */
static void every_known_capability_has_a_row(void **state)
{
    const dl_table *gpus = dl_knowledge_table(&dl_test_know, "gpu_compute_capability");
    const dl_table *arch = dl_knowledge_table(&dl_test_know, "gpu_arch");
    size_t r;
    (void)state;
    assert_non_null(gpus);
    assert_non_null(arch);
    for (r = 0; r < gpus->rows; r++) {
        const char *cc = dl_table_get(gpus, r, "compute_capability");
        /* Fermi (2.x) rows exist only so a name sold on both Kepler and Fermi boards (GT
         * 730) is known to be ambiguous, Tesla-generation (1.x) rows only so explain knows
         * such a GPU is below every torch release; nothing dlenv runs or plans targets them. */
        if (cc && (cc[0] == '2' || cc[0] == '1') && cc[1] == '.')
            continue;
        lookup(cc, dl_table_get(gpus, r, "gpu_name"));
    }
    for (r = 0; r < arch->rows; r++) {
        dl_gpu_arch a = lookup(dl_table_get(arch, r, "compute_capability"), "GeForce");
        assert_true(a.fp32.known); /* the CUDA-core rate is known for every row */
    }
}

/* The product figures NVIDIA publishes, from SMs x per-SM rate x boost clock. */
static void peaks_match_datasheets(void **state)
{
    (void)state;
    /* A100 SXM: 108 SMs, 1410 MHz: 19.5 TFLOPS FP32, 312 FP16 tensor */
    assert_near(dl_gpu_peak_flops(108, lookup("8.0", NULL).fp32.flops_per_clk_sm, 1410000),
                19.5e12, 0.005);
    assert_near(dl_gpu_peak_flops(108, lookup("8.0", NULL).fp16.flops_per_clk_sm, 1410000),
                312e12, 0.005);
    /* H100 SXM5: 132 SMs at the 1830 MHz tensor clock: 989.4 TFLOPS dense FP16/BF16 */
    assert_near(dl_gpu_peak_flops(132, lookup("9.0", NULL).bf16.flops_per_clk_sm, 1830000),
                989.4e12, 0.001);
    /* RTX 4090: 128 SMs, 2520 MHz: 82.6 TFLOPS FP32, 165.2 FP16 with FP32 accumulate */
    assert_near(dl_gpu_peak_flops(128, lookup("8.9", "NVIDIA GeForce RTX 4090")
                                           .fp32.flops_per_clk_sm, 2520000),
                82.6e12, 0.002);
    assert_near(dl_gpu_peak_flops(128, lookup("8.9", "NVIDIA GeForce RTX 4090")
                                           .fp16.flops_per_clk_sm, 2520000),
                165.2e12, 0.002);
    /* RTX 3090: 82 SMs, 1695 MHz: 71 TFLOPS FP16 with FP32 accumulate, 35.6 TF32 */
    assert_near(dl_gpu_peak_flops(82, lookup("8.6", "NVIDIA GeForce RTX 3090")
                                          .fp16.flops_per_clk_sm, 1695000),
                71e12, 0.005);
    assert_near(dl_gpu_peak_flops(82, lookup("8.6", "NVIDIA GeForce RTX 3090")
                                          .tf32.flops_per_clk_sm, 1695000),
                35.6e12, 0.005);
    /* V100 SXM2: 80 SMs, 1530 MHz: 125 TFLOPS; RTX 2080 Ti FE: 68 SMs, 1635 MHz: 56.9 */
    assert_near(dl_gpu_peak_flops(80, lookup("7.0", NULL).fp16.flops_per_clk_sm, 1530000),
                125e12, 0.005);
    assert_near(dl_gpu_peak_flops(68, lookup("7.5", "NVIDIA GeForce RTX 2080 Ti")
                                          .fp16.flops_per_clk_sm, 1635000),
                56.9e12, 0.002);

    assert_near(dl_gpu_peak_flops(0, 128, 1410000), 0, 0);
    assert_near(dl_gpu_peak_flops(108, 0, 1410000), 0, 0);
    assert_near(dl_gpu_peak_flops(108, 128, -1), 0, 0);
}

static void memory_bandwidth(void **state)
{
    (void)state;
    /* H100 SXM5: HBM3 at 2619 MHz on 5120 bits: 3.35 TB/s */
    assert_near(dl_gpu_mem_peak_gbps(2619000, 5120), 3352.3, 0.0005);
    /* RTX 4090: GDDR6X reported as 10501 MHz on 384 bits: 1008 GB/s */
    assert_near(dl_gpu_mem_peak_gbps(10501000, 384), 1008.1, 0.0005);
    assert_near(dl_gpu_mem_peak_gbps(0, 384), 0, 0);
    assert_near(dl_gpu_mem_peak_gbps(10501000, 0), 0, 0);
}

static void pcie_bandwidth(void **state)
{
    (void)state;
    assert_near(dl_pcie_peak_gbps(1, 16), 4.0, 1e-9);
    assert_near(dl_pcie_peak_gbps(2, 16), 8.0, 1e-9);
    assert_near(dl_pcie_peak_gbps(3, 16), 15.75, 0.0005);
    assert_near(dl_pcie_peak_gbps(4, 16), 31.5, 0.0005);
    assert_near(dl_pcie_peak_gbps(5, 16), 63.0, 0.0005);
    assert_near(dl_pcie_peak_gbps(6, 16), 118.0, 1e-9);
    assert_near(dl_pcie_peak_gbps(4, 8), dl_pcie_peak_gbps(4, 16) / 2, 1e-12);
    assert_near(dl_pcie_peak_gbps(0, 16), 0, 0);
    assert_near(dl_pcie_peak_gbps(7, 16), 0, 0);
    assert_near(dl_pcie_peak_gbps(3, 0), 0, 0);
}

/* A --data table is untrusted: a cell that is not a number (or a zero rate) makes the
 * lookup fail and name the column, instead of passing a wrong peak on. */
static void broken_cells_are_named(void **state)
{
    static const char csv[] =
        "compute_capability,architecture,fp32_lanes_per_sm,fp64_lanes_per_sm,"
        "tf32_tensor_flops_per_clk_sm,fp16_tensor_flops_per_clk_sm,"
        "bf16_tensor_flops_per_clk_sm,geforce_fp32acc_factor,geforce_tf32_factor,"
        "reduced_rate_devices,source\n"
        "8.6,Ampere,128,2,512,\"1,024\",1024,0.5,0.5,,s\n"
        "8.9,Ada,128,0,512,1024,1024,0.5,0.5,,s\n"
        "9.0,Hopper,128,64,2048,4096,4096,2,1,,s\n";
    dl_knowledge k;
    dl_gpu_arch a;
    char *error = NULL;
    (void)state;
    memset(&k, 0, sizeof k);
    assert_true(dl_table_parse(DL_TABLE_gpu_arch, "gpu_arch.csv", csv, strlen(csv),
                               &k.tables[DL_TABLE_gpu_arch], &error));
    assert_false(dl_gpu_arch_lookup(&k, "8.6", NULL, &a));
    assert_string_equal(a.bad_column, "fp16_tensor_flops_per_clk_sm");
    assert_false(dl_gpu_arch_lookup(&k, "8.9", NULL, &a));
    assert_string_equal(a.bad_column, "fp64_lanes_per_sm");
    assert_false(dl_gpu_arch_lookup(&k, "9.0", NULL, &a));
    assert_string_equal(a.bad_column, "geforce_fp32acc_factor");
    dl_knowledge_free(&k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rows_by_capability),
        cmocka_unit_test(geforce_factor),
        cmocka_unit_test(unknown_capabilities),
        cmocka_unit_test(every_known_capability_has_a_row),
        cmocka_unit_test(peaks_match_datasheets),
        cmocka_unit_test(memory_bandwidth),
        cmocka_unit_test(pcie_bandwidth),
        cmocka_unit_test(broken_cells_are_named),
    };
    return cmocka_run_group_tests(tests, dl_test_know_setup, dl_test_know_teardown);
}
