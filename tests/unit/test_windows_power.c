/* The Windows power settings' logic on every system (probe/windows/power.c,
 * power_nvapi.c): the active scheme, its name and the power mode from a text registry
 * (os/registry.h), the power source from GetSystemPowerStatus's raw bytes, and, on Linux,
 * the NVAPI loader against the fake libnvapi.so.1 (tests/fakes/fake_nvapi.c). The Wine
 * suite (tests/windows/scenarios/power-*) runs the same code on Wine's registry, the real
 * GetSystemPowerStatus and the fake nvapi64.dll. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_run.h"

#include "base/str.h"
#include "facts/schema.h"
#include "os/registry.h"
#include "probe/windows/power.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCHEMES "[HKLM\\SYSTEM\\CurrentControlSet\\Control\\Power\\User\\PowerSchemes]\n"

typedef struct fixture {
    dl_test_run r;
    dl_registry *registry;
} fixture;

/* The whole probe on a machine whose registry is text; not live, so the power source and
 * NVAPI say why they were not read. */
static void probe(fixture *x, const char *registry)
{
    char *error = NULL;
    dl_test_run_open(&x->r, ".");
    x->registry = dl_registry_parse(registry, &error);
    if (!x->registry)
        fail_msg("registry: %s", error);
    x->r.m.registry = x->registry;
    dl_probe_windows_power(&x->r.ctx, &x->r.f, &x->r.out);
}

static void fixture_free(fixture *x)
{
    dl_test_run_free(&x->r);
    dl_registry_free(x->registry);
}

static void test_power_saver_by_guid(void **state)
{
    fixture x;
    const dl_windows_power_facts *p = &x.r.f.os.windows.power;
    (void)state;
    probe(&x, SCHEMES "ActivePowerScheme = {A1841308-3541-4FAB-BC81-F71556F20B4A}\n"
                      "[HKLM\\SYSTEM\\CurrentControlSet\\Control\\Power\\User\\PowerSchemes\\"
                      "a1841308-3541-4fab-bc81-f71556f20b4a]\n"
                      "FriendlyName = @%SystemRoot%\\system32\\powrprof.dll,-13,Power saver\n");
    assert_int_equal(x.r.out.status, DL_PROBE_OK);
    dl_assert_known(&p->scheme, "power_saver");
    dl_assert_known(&p->scheme_guid, "a1841308-3541-4fab-bc81-f71556f20b4a");
    dl_assert_known(&p->scheme_name, "Power saver");
    dl_assert_unknown(&p->power_mode, "no ActiveOverlayAcPowerScheme");
    dl_assert_unknown(&p->memory_compression, "Get-MMAgent");
    dl_assert_unknown(&p->nvidia_power_mode, "only when inspecting this machine");
    assert_false(p->on_battery.known);
    assert_non_null(p->on_battery.why);
    fixture_free(&x);
}

/* Near miss: High performance, and the Ultimate scheme, are not power saving. */
static void test_high_and_ultimate(void **state)
{
    fixture x;
    (void)state;
    probe(&x, SCHEMES "ActivePowerScheme = 8c5e7fda-e8bf-4a96-9a85-a6e23a8c635c\n");
    dl_assert_known(&x.r.f.os.windows.power.scheme, "high_performance");
    dl_assert_unknown(&x.r.f.os.windows.power.scheme_name, "no FriendlyName");
    fixture_free(&x);
    probe(&x, SCHEMES "ActivePowerScheme = e9a42b02-d5df-448d-aa00-03f14749eb61\n");
    dl_assert_known(&x.r.f.os.windows.power.scheme, "ultimate");
    fixture_free(&x);
}

/* Balanced with the power mode laid over it; a custom scheme keeps its own name. */
static void test_balanced_power_mode_and_custom(void **state)
{
    fixture x;
    (void)state;
    probe(&x, SCHEMES "ActivePowerScheme = 381b4222-f694-41f0-9685-ff5bb260df2e\n"
                      "ActiveOverlayAcPowerScheme = ded574b5-45a0-4f42-8737-46345c09c238\n");
    dl_assert_known(&x.r.f.os.windows.power.scheme, "balanced");
    dl_assert_known(&x.r.f.os.windows.power.power_mode, "best_performance");
    fixture_free(&x);
    probe(&x, SCHEMES "ActivePowerScheme = 11111111-2222-3333-4444-555555555555\n"
                      "ActiveOverlayAcPowerScheme = 00000000-0000-0000-0000-000000000000\n"
                      "[HKLM\\SYSTEM\\CurrentControlSet\\Control\\Power\\User\\PowerSchemes\\"
                      "11111111-2222-3333-4444-555555555555]\nFriendlyName = Training\n");
    dl_assert_known(&x.r.f.os.windows.power.scheme, "custom");
    dl_assert_known(&x.r.f.os.windows.power.scheme_name, "Training");
    dl_assert_known(&x.r.f.os.windows.power.power_mode, "balanced");
    fixture_free(&x);
}

/* A Group Policy choice wins over the user's; no value at all says how to look. */
static void test_policy_and_absent(void **state)
{
    fixture x;
    (void)state;
    probe(&x, SCHEMES "ActivePowerScheme = 381b4222-f694-41f0-9685-ff5bb260df2e\n"
                      "[HKLM\\SOFTWARE\\Policies\\Microsoft\\Power\\PowerSettings]\n"
                      "ActivePowerScheme = a1841308-3541-4fab-bc81-f71556f20b4a\n");
    dl_assert_known(&x.r.f.os.windows.power.scheme, "power_saver");
    fixture_free(&x);
    probe(&x, "# nothing\n");
    dl_assert_unknown(&x.r.f.os.windows.power.scheme, "powercfg /getactivescheme");
    dl_assert_unknown(&x.r.f.os.windows.power.scheme_guid, "no ActivePowerScheme");
    fixture_free(&x);
}

/* GetSystemPowerStatus's bytes: on battery, on AC without a battery, unknown. */
static void test_power_source(void **state)
{
    dl_windows_power_facts p;
    dl_power_status battery = {0, 1}, desktop = {1, 128}, charging = {1, 8}, unknown = {255, 255};
    (void)state;
    memset(&p, 0, sizeof p);
    dl_windows_power_source(&battery, NULL, &p);
    assert_true(p.on_battery.known && p.on_battery.value);
    assert_true(p.battery_present.known && p.battery_present.value);
    dl_windows_power_source(&desktop, NULL, &p);
    assert_true(p.on_battery.known && !p.on_battery.value);
    assert_true(p.battery_present.known && !p.battery_present.value);
    dl_windows_power_source(&charging, NULL, &p);
    assert_true(p.on_battery.known && !p.on_battery.value);
    assert_true(p.battery_present.known && p.battery_present.value);
    dl_windows_power_source(&unknown, NULL, &p);
    assert_false(p.on_battery.known);
    assert_false(p.battery_present.known);
    dl_schema_free(&dl_windows_power_schema, &p);
}

static void test_power_mode_names(void **state)
{
    (void)state;
    assert_string_equal(dl_nvapi_power_mode_name(0), "adaptive");
    assert_string_equal(dl_nvapi_power_mode_name(1), "prefer_max_performance");
    assert_string_equal(dl_nvapi_power_mode_name(4), "prefer_min_power");
    assert_string_equal(dl_nvapi_power_mode_name(5), "optimal_power");
    assert_null(dl_nvapi_power_mode_name(9));
}

#ifdef FAKE_NVAPI_PATH
/* The NVAPI loader against the fake, one scenario per load (the fake reads it once). */
static void nvapi_with(const char *scenario, dl_windows_power_facts *p, dl_probe_outcome *out)
{
    char path[] = "/tmp/dlenv-nvapi-XXXXXX";
    int fd = mkstemp(path);
    FILE *fp = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!fp)
        fail_msg("cannot write a scenario");
    fputs(scenario, fp);
    fclose(fp);
    setenv("DLENV_FAKE_SCENARIO", path, 1);
    memset(p, 0, sizeof *p);
    out->status = DL_PROBE_OK;
    out->detail = NULL;
    dl_gather_nvapi(FAKE_NVAPI_PATH, p, out);
    unsetenv("DLENV_FAKE_SCENARIO");
    remove(path);
}

static void test_nvapi_fake(void **state)
{
    dl_windows_power_facts p;
    dl_probe_outcome out;
    (void)state;
    nvapi_with("nvapi.power_mode = 5\n", &p, &out);
    dl_assert_known(&p.nvidia_power_mode, "optimal_power");
    assert_int_equal(out.status, DL_PROBE_OK);
    dl_schema_free(&dl_windows_power_schema, &p);
    nvapi_with("nvapi.power_mode = 1\n", &p, &out);
    dl_assert_known(&p.nvidia_power_mode, "prefer_max_performance");
    dl_schema_free(&dl_windows_power_schema, &p);
    /* an old driver without GetCurrentGlobalProfile: the base profile */
    nvapi_with("nvapi.power_mode = 0\nnvapi.no_global_profile = 1\n", &p, &out);
    dl_assert_known(&p.nvidia_power_mode, "adaptive");
    dl_schema_free(&dl_windows_power_schema, &p);
    nvapi_with("# not set in any profile\n", &p, &out);
    dl_assert_known(&p.nvidia_power_mode, "driver_default");
    dl_schema_free(&dl_windows_power_schema, &p);
    nvapi_with("nvapi.power_mode = 7\n", &p, &out);
    dl_assert_known(&p.nvidia_power_mode, "value 0x7");
    dl_schema_free(&dl_windows_power_schema, &p);
    nvapi_with("nvapi.load_settings = error:-1\n", &p, &out);
    dl_assert_unknown(&p.nvidia_power_mode, "NvAPI_DRS_LoadSettings failed: NVAPI_ERROR (-1)");
    assert_int_equal(out.status, DL_PROBE_FAILED);
    free(out.detail);
    dl_schema_free(&dl_windows_power_schema, &p);
    nvapi_with("nvapi.init = error:-6\n", &p, &out);
    dl_assert_unknown(&p.nvidia_power_mode, "NVAPI_NVIDIA_DEVICE_NOT_FOUND");
    assert_int_equal(out.status, DL_PROBE_NOT_PRESENT);
    free(out.detail);
    dl_schema_free(&dl_windows_power_schema, &p);
}
#endif

/* No NVAPI library at all: no NVIDIA display driver. */
static void test_nvapi_missing(void **state)
{
    dl_windows_power_facts p;
    dl_probe_outcome out = {DL_PROBE_OK, NULL};
    (void)state;
    memset(&p, 0, sizeof p);
    dl_gather_nvapi("dlenv-no-such-nvapi.dll", &p, &out);
    dl_assert_unknown(&p.nvidia_power_mode, "no NVIDIA display driver");
    assert_int_equal(out.status, DL_PROBE_NOT_PRESENT);
    free(out.detail);
    dl_schema_free(&dl_windows_power_schema, &p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_power_saver_by_guid),
        cmocka_unit_test(test_high_and_ultimate),
        cmocka_unit_test(test_balanced_power_mode_and_custom),
        cmocka_unit_test(test_policy_and_absent),
        cmocka_unit_test(test_power_source),
        cmocka_unit_test(test_power_mode_names),
#ifdef FAKE_NVAPI_PATH
        cmocka_unit_test(test_nvapi_fake),
#endif
        cmocka_unit_test(test_nvapi_missing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
