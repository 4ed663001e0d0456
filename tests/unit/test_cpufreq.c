/* The cpufreq probe on fixture roots (tests/unit/data/cpufreq): the distinct governors in
 * CPU number order (cpu10 after cpu2), directories that are not CPUs or have no cpufreq
 * skipped, an empty governor file passed over, the energy preference where the driver has
 * one, and a machine without cpufreq unknown with the reason. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "base/str.h"
#include "probe/probe.h"

#define CPUFREQ_DATA DLENV_TEST_DATA "/unit/data/cpufreq"

typedef struct probed {
    dl_facts f;
    dl_probe_outcome out;
} probed;

static void probe_sample(probed *p, const char *name)
{
    dl_machine m;
    dl_probe_ctx ctx = {NULL, {0}};
    char *error = NULL, *root = dl_fmt("%s/%s", CPUFREQ_DATA, name);
    ctx.machine = &m;
    if (!dl_machine_open(&m, root, &error))
        fail_msg("cannot open %s: %s", root, error);
    dl_facts_init(&p->f);
    p->out.status = DL_PROBE_OK;
    p->out.detail = NULL;
    dl_probe_cpufreq(&ctx, &p->f, &p->out);
    dl_machine_close(&m);
    free(root);
}

static void probed_free(probed *p)
{
    dl_facts_free(&p->f);
    free(p->out.detail);
}

static void assert_list(const dl_list *l, const char *expected)
{
    dl_buf b = {0};
    size_t i;
    char *got;
    if (!l->known)
        fail_msg("expected %s, got unknown (%s)", expected, l->why ? l->why : "no reason");
    for (i = 0; i < l->count; i++) {
        if (i)
            dl_buf_puts(&b, " ");
        dl_buf_puts(&b, DL_LIST_AT(*l, char *, i));
    }
    got = dl_buf_take(&b);
    assert_string_equal(got, expected);
    free(got);
}

static void mixed_governors_in_cpu_order(void **state)
{
    probed p;
    (void)state;
    probe_sample(&p, "mixed");
    assert_int_equal(p.out.status, DL_PROBE_OK);
    assert_string_equal(p.f.cpu.frequency_driver.value, "acpi-cpufreq");
    assert_list(&p.f.cpu.frequency_governors, "performance powersave ondemand schedutil");
    assert_false(p.f.cpu.energy_preferences.known);
    assert_non_null(strstr(p.f.cpu.energy_preferences.why, "takes no energy/performance"));
    probed_free(&p);
}

static void active_driver_preferences(void **state)
{
    probed p;
    (void)state;
    probe_sample(&p, "epp");
    assert_string_equal(p.f.cpu.frequency_driver.value, "intel_pstate");
    assert_list(&p.f.cpu.frequency_governors, "powersave");   /* cpu0's file is empty */
    assert_list(&p.f.cpu.energy_preferences, "balance_performance power");
    probed_free(&p);
}

static void no_cpufreq_is_unknown(void **state)
{
    probed p;
    (void)state;
    probe_sample(&p, "none");
    assert_int_equal(p.out.status, DL_PROBE_NOT_PRESENT);
    assert_null(p.f.cpu.frequency_driver.value);
    assert_false(p.f.cpu.frequency_governors.known);
    assert_non_null(strstr(p.f.cpu.frequency_governors.why, "no CPU has a cpufreq directory"));
    assert_non_null(strstr(p.f.cpu.frequency_driver.why, "virtual machine or container"));
    probed_free(&p);
}

static void no_sys_is_unknown(void **state)
{
    probed p;
    (void)state;
    probe_sample(&p, "mixed/sys/devices/system/cpu/cpu3"); /* a root with no /sys */
    assert_int_equal(p.out.status, DL_PROBE_NOT_PRESENT);
    assert_false(p.f.cpu.energy_preferences.known);
    assert_non_null(strstr(p.f.cpu.energy_preferences.why, "no CPU has a cpufreq directory"));
    probed_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mixed_governors_in_cpu_order),
        cmocka_unit_test(active_driver_preferences),
        cmocka_unit_test(no_cpufreq_is_unknown),
        cmocka_unit_test(no_sys_is_unknown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
