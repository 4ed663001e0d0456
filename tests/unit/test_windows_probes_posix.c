/* The Windows probes' logic on every system: PEP 514 discovery (python/find_windows.c),
 * the Windows version (windows/os.c), settings (windows/settings.c) and display adapters
 * (windows/gpus.c), each on a fixture tree (tests/unit/data/windows/NAME, drive C as the
 * folder C) with a fixture registry (NAME/registry.txt, os/registry.h). The Wine suite (tests/windows/run.sh) runs the same
 * code against Wine's real registry. _posix: the environment is set with setenv. */
#define _XOPEN_SOURCE 700 /* setenv, unsetenv */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_run.h"

#include "base/str.h"
#include "os/registry.h"
#include "probe/python/find.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DATA DLENV_TEST_DATA "/unit/data/windows/"

typedef struct fixture {
    dl_test_run r;
    dl_registry *registry;
} fixture;

static char *read_text(const char *path)
{
    FILE *fp = fopen(path, "rb");
    dl_buf b = {0};
    char chunk[4096];
    size_t n;
    if (!fp)
        fail_msg("cannot open %s", path);
    while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
        dl_buf_add(&b, chunk, n);
    fclose(fp);
    return dl_buf_take(&b);
}

/* The variables find_windows.c reads, as a fresh Windows login with none of them set. */
static void clear_env(void)
{
    static const char *const names[] = {"VIRTUAL_ENV", "CONDA_PREFIX", "PATH", "SystemRoot",
                                        "LOCALAPPDATA", "PY_PYTHON", "USERPROFILE"};
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        unsetenv(names[i]);
}

static void open_fixture(fixture *x, const char *name)
{
    char *root = dl_fmt("%s%s", DATA, name), *path = dl_fmt("%s/registry.txt", root);
    char *text = read_text(path), *error = NULL;
    dl_test_run_open(&x->r, root);
    x->registry = dl_registry_parse(text, &error);
    if (!x->registry)
        fail_msg("%s: %s", path, error);
    x->r.m.registry = x->registry;
    free(text);
    free(path);
    free(root);
}

static void discover(fixture *x, const char *name)
{
    open_fixture(x, name);
    dl_python_discover_windows(&x->r.m, NULL, &x->r.f.pythons, &x->r.f.os.windows, &x->r.out);
}

static void fixture_free(fixture *x)
{
    dl_test_run_free(&x->r);
    dl_registry_free(x->registry);
}

static const dl_python *find_py(const fixture *x, const char *path)
{
    size_t i;
    for (i = 0; i < x->r.f.pythons.count; i++) {
        const dl_python *py = &DL_LIST_AT(x->r.f.pythons, dl_python, i);
        if (py->path.value && strcmp(py->path.value, path) == 0)
            return py;
    }
    fail_msg("no interpreter %s among %zu", path, x->r.f.pythons.count);
    return NULL;
}

static void assert_has(const dl_list *texts, const char *text)
{
    if (!dl_textlist_has(texts, text))
        fail_msg("'%s' missing (%zu entries, first: %s)", text, texts->count,
                 texts->count ? DL_LIST_AT(*texts, char *, 0) : "none");
}

/* ---- PEP 514 ------------------------------------------------------------------------- */

static void test_pythonorg_installs(void **state)
{
    fixture x;
    const dl_python *user, *all, *x86;
    (void)state;
    clear_env();
    discover(&x, "pythonorg");
    assert_int_equal(x.r.out.status, DL_PROBE_OK);
    assert_int_equal(x.r.f.pythons.count, 3);
    /* HKCU first, then HKLM, then the 32-bit view; the launcher's key is not a Python */
    user = find_py(&x, "C:\\Users\\u\\AppData\\Local\\Programs\\Python\\Python312\\python.exe");
    all = find_py(&x, "C:\\Program Files\\Python311\\python.exe");
    x86 = find_py(&x, "C:\\Program Files (x86)\\Python310-32\\python.exe");
    assert_ptr_equal(user, &DL_LIST_AT(x.r.f.pythons, dl_python, 0));
    dl_assert_known(&user->version, "3.12");
    dl_assert_known(&user->kind, "system");
    assert_has(&user->found_by, "registry (PEP 514): PythonCore\\3.12");
    assert_has(&user->found_by, "py (the launcher's default)");
    dl_assert_known(&all->version, "3.11");
    dl_assert_known(&all->pip, "C:\\Program Files\\Python311\\Scripts\\pip.exe");
    dl_assert_known(&all->prefix, "C:\\Program Files\\Python311");
    assert_int_equal(all->found_by.count, 1);
    dl_assert_known(&x86->version, "3.10");
    dl_assert_unknown(&x86->pip, "no Scripts\\pip.exe");
    assert_int_equal(x.r.f.os.windows.python_registry.count, 3);
    assert_has(&x.r.f.os.windows.python_registry,
               "HKLM (32-bit) PythonCore\\3.10-32 = C:\\Program Files (x86)\\Python310-32\\python.exe");
    fixture_free(&x);
}

/* PY_PYTHON overrides the launcher's choice: no interpreter is marked as its default. */
static void test_py_python_set(void **state)
{
    fixture x;
    size_t i;
    (void)state;
    clear_env();
    setenv("PY_PYTHON", "3.11", 1);
    discover(&x, "pythonorg");
    for (i = 0; i < x.r.f.pythons.count; i++)
        assert_false(dl_textlist_has(&DL_LIST_AT(x.r.f.pythons, dl_python, i).found_by,
                                     "py (the launcher's default)"));
    unsetenv("PY_PYTHON");
    fixture_free(&x);
}

static void test_store_alias_stub(void **state)
{
    fixture x;
    const dl_python *py;
    (void)state;
    clear_env();
    setenv("PATH", "C:\\Windows\\system32;C:\\Users\\u\\AppData\\Local\\Microsoft\\WindowsApps", 1);
    discover(&x, "store_stub");
    setenv("PATH", "/usr/bin:/bin", 1);
    assert_int_equal(x.r.f.pythons.count, 1);
    py = find_py(&x, "C:\\Users\\u\\AppData\\Local\\Microsoft\\WindowsApps\\python.exe");
    dl_assert_known(&py->kind, "store_stub");
    dl_assert_unknown(&py->version, "opens the Store");
    assert_false(py->bits.known);
    assert_has(&py->found_by, "python on PATH (1st)");
    assert_int_equal(x.r.f.os.windows.python_registry.count, 0);
    fixture_free(&x);
}

static void test_store_python(void **state)
{
    fixture x;
    const dl_python *py;
    (void)state;
    clear_env();
    discover(&x, "store");
    assert_int_equal(x.r.f.pythons.count, 1);
    py = find_py(&x, "C:\\Users\\u\\AppData\\Local\\Microsoft\\WindowsApps\\python.exe");
    dl_assert_known(&py->kind, "store");
    dl_assert_known(&py->version, "3.12");
    assert_has(&py->found_by, "registry (PEP 514): PythonCore\\3.12");
    fixture_free(&x);
}

/* Miniconda's own PEP 514 company, conda's environments.txt and the user's folder all name
 * the base: one interpreter, found three ways; the env from the list is a second. */
static void test_conda(void **state)
{
    fixture x;
    const dl_python *base, *env;
    (void)state;
    clear_env();
    setenv("USERPROFILE", "C:\\Users\\u", 1);
    discover(&x, "conda");
    unsetenv("USERPROFILE");
    assert_int_equal(x.r.f.pythons.count, 2);
    base = find_py(&x, "C:\\Users\\u\\miniconda3\\python.exe");
    env = find_py(&x, "C:\\Users\\u\\miniconda3\\envs\\ml\\python.exe");
    dl_assert_known(&base->kind, "conda");
    dl_assert_known(&base->version, "3.11.9");
    assert_has(&base->found_by, "registry (PEP 514): ContinuumAnalytics\\Miniconda3-py311-64");
    assert_has(&base->found_by, "conda environments.txt");
    assert_has(&base->found_by, "conda base in the user's folder");
    dl_assert_known(&env->kind, "conda");
    dl_assert_known(&env->version, "3.10.14");
    assert_int_equal(env->found_by.count, 1);
    fixture_free(&x);
}

/* Keys without InstallPath, a deleted folder, empty values, the launcher: nothing found, an
 * honest "not present", and the one registration that named a file is still listed. */
static void test_broken_keys(void **state)
{
    fixture x;
    (void)state;
    clear_env();
    discover(&x, "broken");
    assert_int_equal(x.r.f.pythons.count, 0);
    assert_int_equal(x.r.out.status, DL_PROBE_NOT_PRESENT);
    assert_non_null(strstr(x.r.out.detail, "PEP 514"));
    assert_true(x.r.f.os.windows.python_registry.known);
    assert_int_equal(x.r.f.os.windows.python_registry.count, 1);
    assert_has(&x.r.f.os.windows.python_registry, "HKLM PythonCore\\3.8 = C:\\Python38\\python.exe");
    fixture_free(&x);
}

/* ---- the version and settings -------------------------------------------------------- */

static void test_os_and_settings(void **state)
{
    fixture x;
    const dl_windows_facts *w = &x.r.f.os.windows;
    (void)state;
    open_fixture(&x, "settings");
    dl_probe_os_windows(&x.r.ctx, &x.r.f, &x.r.out);
    dl_assert_known(&w->product_name, "Windows 11 Pro");
    dl_assert_known(&w->build, "22631.3880");
    dl_assert_known(&w->edition, "Professional");
    dl_assert_known(&x.r.f.os.distro_version, "23H2");
    dl_assert_known(&x.r.f.os.pretty_name, "Windows 11 Pro 23H2 (build 22631.3880)");
    dl_probe_windows_settings(&x.r.ctx, &x.r.f, &x.r.out);
    assert_true(w->hags.known && w->hags.value);
    assert_true(w->long_paths.known && w->long_paths.value);
    assert_true(w->developer_mode.known && !w->developer_mode.value);
    dl_assert_known(&w->vc_runtime_version, "14.40.33810.00");
    dl_assert_known(&w->pagefile, "C:\\pagefile.sys 1024 4096; D:\\pagefile.sys 0 8192");
    assert_true(w->pagefile_system_managed.known && !w->pagefile_system_managed.value);
    assert_int_equal(w->pagefile_max_bytes.value, 12288LL * 1024 * 1024);
    fixture_free(&x);
}

/* An empty registry: every value unknown with the key it looked for, never a guess. */
static void test_settings_empty_registry(void **state)
{
    fixture x;
    const dl_windows_facts *w = &x.r.f.os.windows;
    (void)state;
    open_fixture(&x, "store_stub");
    dl_probe_windows_settings(&x.r.ctx, &x.r.f, &x.r.out);
    assert_true(w->hags.known && !w->hags.value);
    dl_assert_unknown(&w->vc_runtime_version, "Installed = 1");
    dl_assert_unknown(&w->pagefile, "no PagingFiles");
    dl_assert_unknown(&w->msvcp140, "msvcp140.dll");
    dl_probe_os_windows(&x.r.ctx, &x.r.f, &x.r.out);
    dl_assert_unknown(&w->product_name, "no ProductName");
    fixture_free(&x);
}

/* The Display device class: ids from MatchingDeviceId (either case), NVIDIA's driver number
 * from Windows' (31.0.15.3598 is 535.98), and no DXGI off Windows: no LUID, no memory. */
static void test_display_adapters(void **state)
{
    fixture x;
    const dl_pci_gpu *nv, *intel;
    (void)state;
    open_fixture(&x, "adapters");
    dl_probe_gpus_windows(&x.r.ctx, &x.r.f, &x.r.out);
    assert_int_equal(x.r.out.status, DL_PROBE_OK);
    assert_int_equal(x.r.f.gpus.count, 2);
    nv = &DL_LIST_AT(x.r.f.gpus, dl_pci_gpu, 0);
    intel = &DL_LIST_AT(x.r.f.gpus, dl_pci_gpu, 1);
    assert_int_equal(nv->vendor_id.value, 0x10de);
    assert_int_equal(nv->device_id.value, 0x2684);
    assert_int_equal(nv->subsystem_device_id.value, 0x16f3);
    assert_int_equal(nv->subsystem_vendor_id.value, 0x10de);
    dl_assert_known(&nv->device_name, "NVIDIA GeForce RTX 4090");
    dl_assert_known(&nv->driver_version, "31.0.15.3598");
    dl_assert_known(&nv->nvidia_driver_version, "535.98");
    dl_assert_known(&nv->source, "registry");
    assert_null(nv->luid.value);
    assert_false(nv->dedicated_memory_bytes.known);
    assert_int_equal(intel->vendor_id.value, 0x8086);
    assert_int_equal(intel->device_id.value, 0xa780);
    assert_false(intel->subsystem_device_id.known);
    dl_assert_unknown(&intel->driver_date, "no DriverDate");
    assert_null(intel->nvidia_driver_version.value);
    fixture_free(&x);
}

/* No Display class key at all: the probe says it failed, and why. */
static void test_no_display_class(void **state)
{
    fixture x;
    (void)state;
    open_fixture(&x, "settings");
    dl_probe_gpus_windows(&x.r.ctx, &x.r.f, &x.r.out);
    assert_int_equal(x.r.out.status, DL_PROBE_FAILED);
    assert_non_null(strstr(x.r.out.detail, "Display device class"));
    assert_true(x.r.f.gpus.known);
    assert_int_equal(x.r.f.gpus.count, 0);
    fixture_free(&x);
}

/* ---- the fixture registry itself ----------------------------------------------------- */

static void test_registry_fixture(void **state)
{
    dl_machine m;
    dl_strv keys = {NULL, 0}, multi = {NULL, 0};
    char *error = NULL, *text = NULL;
    uint32_t v = 0;
    dl_registry *r = dl_registry_parse("[HKLM\\A\\b\\c]\n@ = d\nN = dword:7\n"
                                       "[HKEY_LOCAL_MACHINE\\A\\B\\e]\nM = multi:x|y\n"
                                       "S = sz:dword:1\n[HKLM\\A\\z]\n", &error);
    (void)state;
    assert_non_null(r);
    memset(&m, 0, sizeof m);
    m.registry = r;
    assert_true(dl_reg_subkeys(&m, "hklm\\a", &keys));
    assert_int_equal(keys.n, 2);  /* b and B are one key */
    assert_string_equal(keys.v[0], "b");
    assert_string_equal(keys.v[1], "z");
    dl_strv_free(&keys);
    assert_true(dl_reg_subkeys(&m, "HKLM\\A\\z", &keys));
    assert_int_equal(keys.n, 0);
    assert_false(dl_reg_subkeys(&m, "HKLM\\Q", &keys));
    assert_true(dl_reg_text(&m, "HKLM\\A\\B\\C", NULL, &text));
    assert_string_equal(text, "d");
    free(text);
    assert_false(dl_reg_text(&m, "HKLM\\A\\b\\c", "N", &text)); /* a DWORD is not text */
    assert_true(dl_reg_dword(&m, "HKLM\\A\\b\\c", "n", &v));
    assert_int_equal(v, 7);
    assert_true(dl_reg_multi(&m, "HKLM\\A\\b\\e", "M", &multi));
    assert_int_equal(multi.n, 2);
    assert_string_equal(multi.v[1], "y");
    assert_true(dl_reg_text(&m, "HKLM\\A\\b\\e", "S", &text));
    assert_string_equal(text, "dword:1");
    free(text);
    dl_strv_free(&multi);
    dl_registry_free(r);
    assert_null(dl_registry_parse("# fine\nN = 1\n", &error));
    assert_string_equal(error, "line 2: a value before any [key]");
    free(error);
    assert_null(dl_registry_parse("[K]\nN = dword:4294967296\n", &error));
    assert_string_equal(error, "line 2: dword:4294967296: not a 32-bit number");
    free(error);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pythonorg_installs),
        cmocka_unit_test(test_py_python_set),
        cmocka_unit_test(test_store_alias_stub),
        cmocka_unit_test(test_store_python),
        cmocka_unit_test(test_conda),
        cmocka_unit_test(test_broken_keys),
        cmocka_unit_test(test_os_and_settings),
        cmocka_unit_test(test_settings_empty_registry),
        cmocka_unit_test(test_display_adapters),
        cmocka_unit_test(test_no_display_class),
        cmocka_unit_test(test_registry_fixture),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
