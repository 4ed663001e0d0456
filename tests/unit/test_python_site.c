/* Reading one site-packages directory without Python: fixture sites under
 * data/python_site/ (pip on Linux, a Windows layout, ROCm, a conda prefix, a mismatched
 * pair, extension packages, Debian-style egg-info) and this machine's own /usr/lib/python3/dist-packages. */
#if !defined(_WIN32)
#define _XOPEN_SOURCE 700 /* mkdtemp, geteuid */
#endif

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_run.h"

#include "base/str.h"
#include "facts/facts.h"
#include "facts/schema.h"
#include "os/os.h"
#include "probe/probe.h"
#include "probe/python/site.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(_WIN32)
#include <sys/stat.h>
#include <unistd.h>
#endif

#define DATA DLENV_TEST_DATA "/unit/data/python_site"

typedef struct run {
    dl_machine m;
    dl_site_packages site;
    dl_probe_outcome out;
} run;

static void read_site(run *r, const char *root, const char *path, const char *prefix)
{
    char *error = NULL;
    memset(r, 0, sizeof *r);
    if (!dl_machine_open(&r->m, root, &error))
        fail_msg("cannot open root %s: %s", root, error);
    r->out.status = DL_PROBE_OK;
    dl_text_set(&r->site.path, path);
    dl_text_set(&r->site.scope, "prefix");
    dl_site_read(&r->m, prefix, &r->site, &r->out);
}

/* Nothing left silent: every value is known, unknown with a reason, or optional. */
static void assert_no_silent(const run *r)
{
    dl_buf silent = {0};
    if (dl_schema_find_silent(&dl_site_packages_schema, &r->site, "$", &silent))
        fail_msg("silent values:\n%s", silent.data);
    dl_buf_free(&silent);
}

static void run_free(run *r)
{
    dl_schema_free(&dl_site_packages_schema, &r->site);
    free(r->out.detail);
    dl_machine_close(&r->m);
}

static void assert_absent(const dl_text *t)
{
    assert_null(t->value);
    assert_null(t->why);
}

/* The package of that name, or a failure listing what there is. */
static const dl_py_package *package(const run *r, const char *name)
{
    size_t i;
    dl_buf names = {0};
    for (i = 0; i < r->site.packages.count; i++) {
        const dl_py_package *p = &DL_LIST_AT(r->site.packages, dl_py_package, i);
        if (p->name.value && strcmp(p->name.value, name) == 0) {
            dl_buf_free(&names);
            return p;
        }
        dl_buf_printf(&names, " %s", p->name.value ? p->name.value : "?");
    }
    fail_msg("no package %s among:%s", name, names.data ? names.data : " (none)");
    return NULL;
}

static bool has_package(const run *r, const char *name)
{
    size_t i;
    for (i = 0; i < r->site.packages.count; i++) {
        const char *n = DL_LIST_AT(r->site.packages, dl_py_package, i).name.value;
        if (n && strcmp(n, name) == 0)
            return true;
    }
    return false;
}

static const dl_torch_install *only_torch(const run *r)
{
    assert_true(r->site.torches.known);
    assert_int_equal(r->site.torches.count, 1);
    return &DL_LIST_AT(r->site.torches, dl_torch_install, 0);
}

static void assert_libs(const dl_torch_install *t, const char *const *expected)
{
    size_t n = 0;
    assert_true(t->bundled_libraries.known);
    for (; expected[n]; n++) {
        if (n >= t->bundled_libraries.count)
            fail_msg("missing bundled library %s", expected[n]);
        assert_string_equal(DL_LIST_AT(t->bundled_libraries, char *, n), expected[n]);
    }
    assert_int_equal(t->bundled_libraries.count, n);
}

/* ---- a Linux pip site -------------------------------------------------------------------- */

static void test_linux_pip(void **state)
{
    static const char *const libs[] = {"torch/lib/libc10_cuda.so", "torch/lib/libtorch_cuda.so",
                                       "nvidia/cudnn/lib/libcudnn.so.9",
                                       "nvidia/cudnn/lib/libcudnn_ops.so.9", NULL};
    run r;
    const dl_py_package *p;
    const dl_torch_install *t;
    (void)state;
    read_site(&r, DATA, "/linux_pip/site-packages", NULL);
    assert_int_equal(r.out.status, DL_PROBE_OK);
    assert_true(r.site.packages.known);

    p = package(&r, "torch");
    dl_assert_known(&p->version, "2.3.1+cu121"); /* not the body's "Version: 0.0.0" */
    dl_assert_known(&p->installer, "pip");
    dl_assert_known(&p->source, "/linux_pip/site-packages/torch-2.3.1+cu121.dist-info");
    dl_assert_known(&p->direct_url,
                 "file:///home/u/wheels/torch-2.3.1%2Bcu121-cp311-cp311-linux_x86_64.whl");
    assert_absent(&p->requires_torch);

    p = package(&r, "torchvision");
    dl_assert_known(&p->version, "0.18.1+cu121");
    dl_assert_known(&p->installer, "uv");
    dl_assert_known(&p->requires_torch, "torch (==2.3.1)");
    assert_absent(&p->direct_url);

    p = package(&r, "nvidia-cudnn-cu12"); /* the metadata's spelling, not the directory's */
    dl_assert_known(&p->version, "9.1.0.70");
    assert_absent(&p->requires_torch);

    p = package(&r, "accelerate"); /* any package that pins torch */
    dl_assert_known(&p->requires_torch, "torch>=1.10.0");

    p = package(&r, "manyheaders"); /* headers longer than one read of the file's head */
    dl_assert_known(&p->requires_torch, "torch >=2.1");
    dl_assert_unknown(&p->installer, "no INSTALLER file");

    assert_false(has_package(&r, "transformers")); /* its only torch is behind an extra */
    assert_int_equal(r.site.packages.count, 5);
    assert_false(has_package(&r, "requests"));
    assert_false(has_package(&r, "longdoc")); /* "Requires-Dist: torch" only in its body */
    assert_false(has_package(&r, "Pillow"));

    t = only_torch(&r);
    dl_assert_known(&t->location, "/linux_pip/site-packages/torch");
    dl_assert_known(&t->version, "2.3.1+cu121");
    dl_assert_known(&t->local_tag, "cu121");
    dl_assert_known(&t->cuda, "12.1");
    dl_assert_known(&t->hip, "none");
    dl_assert_known(&t->git_version, "63d5e9221bedd1546b7d364b5ce4171547db12a9");
    assert_libs(t, libs);
    assert_no_silent(&r);
    run_free(&r);
}

/* ---- Windows, ROCm, conda ------------------------------------------------------------------ */

static void test_windows_layout(void **state)
{
    static const char *const libs[] = {"torch/lib/c10_cuda.dll", "torch/lib/cudnn64_8.dll",
                                       "torch/lib/cudnn_ops_infer64_8.dll",
                                       "torch/lib/libiomp5md.dll", "torch/lib/torch_cuda.dll",
                                       NULL};
    run r;
    const dl_torch_install *t;
    const dl_py_package *p;
    (void)state;
    read_site(&r, DATA, "/windows_cu118/Lib/site-packages", NULL);
    t = only_torch(&r);
    dl_assert_known(&t->version, "2.0.1+cu118");
    dl_assert_known(&t->local_tag, "cu118");
    dl_assert_known(&t->cuda, "11.8");
    dl_assert_known(&t->hip, "none");
    assert_libs(t, libs);
    p = package(&r, "torch"); /* CRLF metadata */
    dl_assert_known(&p->version, "2.0.1+cu118");
    dl_assert_known(&p->installer, "pip");
    assert_no_silent(&r);
    run_free(&r);
}

static void test_rocm(void **state)
{
    static const char *const libs[] = {"torch/lib/libMIOpen.so", "torch/lib/libamdhip64.so",
                                       "torch/lib/libgomp.so", NULL};
    run r;
    const dl_torch_install *t;
    (void)state;
    read_site(&r, DATA, "/rocm/site-packages", NULL);
    t = only_torch(&r);
    dl_assert_known(&t->version, "2.3.1+rocm6.0");
    dl_assert_known(&t->local_tag, "rocm6.0");
    dl_assert_known(&t->cuda, "none");
    dl_assert_known(&t->hip, "6.0.32830-d62f6a171");
    assert_libs(t, libs);
    dl_assert_known(&package(&r, "pytorch-triton-rocm")->version, "2.3.1");
    assert_int_equal(r.site.packages.count, 2);
    assert_no_silent(&r);
    run_free(&r);
}

static void test_conda_prefix(void **state)
{
    static const char *const libs[] = {"torch/lib/libiomp5.so", NULL};
    run r;
    const dl_py_package *p;
    const dl_torch_install *t;
    (void)state;
    read_site(&r, DATA, "/conda/envs/cpu/lib/python3.11/site-packages", "/conda/envs/cpu");
    p = package(&r, "pytorch");
    dl_assert_known(&p->version, "2.3.1 (py3.11_cpu_0)");
    dl_assert_known(&p->installer, "conda");
    dl_assert_known(&p->channel, "pytorch"); /* from .../pytorch/linux-64 */
    dl_assert_known(&p->source, "/conda/envs/cpu/conda-meta/pytorch-2.3.1-py3.11_cpu_0.json");
    assert_absent(&p->direct_url);
    dl_assert_known(&package(&r, "cpuonly")->version, "2.0 (0)");
    assert_absent(&package(&r, "cpuonly")->channel); /* its record names none */
    dl_assert_known(&package(&r, "torchvision")->channel, "defaults"); /* repo.anaconda.com */
    dl_assert_known(&package(&r, "pytorch-mutex")->version, "1.0 (cpu)");
    p = package(&r, "mkl"); /* named by its file, unreadable inside */
    dl_assert_unknown(&p->version, "not valid JSON");
    p = package(&r, "torch"); /* conda's pytorch also leaves a dist-info */
    dl_assert_known(&p->installer, "conda");
    assert_false(has_package(&r, "requests"));
    assert_int_equal(r.site.packages.count, 6);

    t = only_torch(&r);
    dl_assert_known(&t->version, "2.3.1");
    dl_assert_known(&t->local_tag, "none");
    dl_assert_known(&t->cuda, "none");
    assert_libs(t, libs);
    assert_no_silent(&r);
    run_free(&r);

    /* without a prefix, conda-meta is not looked at */
    read_site(&r, DATA, "/conda/envs/cpu/lib/python3.11/site-packages", NULL);
    assert_int_equal(r.site.packages.count, 1);
    run_free(&r);
}

/* ---- what is read, as it is ------------------------------------------------------------------ */

static void test_mismatched_pair(void **state)
{
    run r;
    const dl_py_package *p;
    const dl_torch_install *t;
    (void)state;
    read_site(&r, DATA, "/mismatch/site-packages", NULL);
    t = only_torch(&r);
    dl_assert_known(&t->version, "2.3.1+cpu");
    dl_assert_known(&t->local_tag, "cpu");
    dl_assert_known(&t->cuda, "none");
    assert_libs(t, (const char *const[]){NULL});
    p = package(&r, "torchvision");
    dl_assert_known(&p->version, "0.17.0+cu118");
    dl_assert_known(&p->requires_torch, "torch==2.2.0");
    dl_assert_known(&package(&r, "torch")->version, "2.3.1+cpu");
    assert_no_silent(&r);
    run_free(&r);
}

/* Extension packages: the shared libraries in their folder, torch's pin on triton (not the
 * one an extra pulls in), deepspeed's record of the torch its prebuilt ops were built with;
 * a package whose folder is gone has no library list at all (absent, not unknown). */
static void test_extensions(void **state)
{
    run r;
    const dl_py_package *p;
    (void)state;
    read_site(&r, DATA, "/extensions/site-packages", NULL);
    p = package(&r, "torch");
    dl_assert_known(&p->requires_triton,
                    "triton==2.3.1; platform_system == \"Linux\" and platform_machine == \"x86_64\"");
    p = package(&r, "bitsandbytes");
    assert_true(p->libraries.known);
    assert_int_equal(p->libraries.count, 2);
    assert_true(dl_textlist_has(&p->libraries, "bitsandbytes/libbitsandbytes_cuda118.so"));
    assert_true(dl_textlist_has(&p->libraries, "bitsandbytes/libbitsandbytes_cpu.so"));
    assert_absent(&p->built_with);
    p = package(&r, "deepspeed");
    assert_true(p->libraries.known);
    assert_int_equal(p->libraries.count, 0);
    dl_assert_known(&p->built_with, "torch_info = {'version': '2.1', 'bf16_support': True, "
                                    "'cuda_version': '11.8', 'nccl_version': '2.18', "
                                    "'hip_version': '0.0'}");
    p = package(&r, "xformers");
    dl_assert_known(&p->requires_torch, "torch ==2.1.2");
    assert_false(p->libraries.known);
    assert_null(p->libraries.why);
    assert_no_silent(&r);
    run_free(&r);
}

static void test_egg_info(void **state)
{
    run r;
    const dl_py_package *p;
    const dl_torch_install *t;
    (void)state;
    read_site(&r, DATA, "/egg/dist-packages", NULL);
    p = package(&r, "torch");
    dl_assert_known(&p->version, "1.13.1");
    dl_assert_known(&p->source, "/egg/dist-packages/torch-1.13.1.egg-info");
    dl_assert_unknown(&p->installer, "no INSTALLER file");
    assert_absent(&p->direct_url);
    p = package(&r, "numpy"); /* a single-file egg-info */
    dl_assert_known(&p->version, "1.24.2");
    dl_assert_known(&p->source, "/egg/dist-packages/numpy-1.24.2.egg-info");
    dl_assert_unknown(&p->installer, "no INSTALLER file");
    p = package(&r, "pyro-ppl"); /* its torch requirement is in requires.txt */
    dl_assert_known(&p->requires_torch, "torch>=1.11.0");
    assert_false(has_package(&r, "opt-only")); /* torch only in an [extra] section */
    assert_false(has_package(&r, "six"));
    assert_int_equal(r.site.packages.count, 3);

    t = only_torch(&r); /* a torch/ without version.py */
    dl_assert_unknown(&t->version, "version.py");
    dl_assert_unknown(&t->local_tag, "version.py");
    dl_assert_unknown(&t->cuda, "version.py");
    assert_libs(t, (const char *const[]){NULL});
    assert_no_silent(&r);
    run_free(&r);
}

static void test_missing_dir(void **state)
{
    run r;
    (void)state;
    read_site(&r, DATA, "/no/such/site-packages", NULL);
    assert_false(r.site.packages.known);
    assert_non_null(strstr(r.site.packages.why, "/no/such/site-packages"));
    assert_false(r.site.torches.known);
    assert_non_null(r.site.torches.why);
    assert_int_equal(r.out.status, DL_PROBE_OK); /* absence is no probe failure */
    run_free(&r);
}

#if !defined(_WIN32)
static void test_unreadable_dir(void **state)
{
    char tmpl[] = "/tmp/dlenv-site-XXXXXX", *site;
    run r;
    (void)state;
    if (geteuid() == 0)
        skip(); /* root reads anything */
    assert_non_null(mkdtemp(tmpl));
    site = dl_fmt("%s/site-packages", tmpl);
    assert_int_equal(mkdir(site, 0), 0);
    read_site(&r, "/", site, NULL);
    assert_false(r.site.packages.known);
    assert_non_null(strstr(r.site.packages.why, "Permission denied"));
    assert_false(r.site.torches.known);
    assert_int_equal(r.out.status, DL_PROBE_NO_PERMISSION);
    run_free(&r);
    rmdir(site);
    rmdir(tmpl);
    free(site);
}

/* ---- this machine ------------------------------------------------------------------------------- */

/* Debian's python3-torch: egg-info metadata, version.py without a local tag, CPU only. */
static void test_live_debian(void **state)
{
    static const char *const dir = "/usr/lib/python3/dist-packages";
    run r;
    const dl_torch_install *t;
    const dl_py_package *p;
    char *torch_dir = dl_fmt("%s/torch", dir);
    struct stat st;
    bool present = stat(torch_dir, &st) == 0;
    (void)state;
    free(torch_dir);
    if (!present)
        skip(); /* python3-torch is not installed here */
    read_site(&r, "/", dir, NULL);
    t = only_torch(&r);
    assert_non_null(t->version.value);
    assert_true(dl_starts_with(t->version.value, "1.13"));
    dl_assert_known(&t->cuda, "none");  /* version.py: cuda = None */
    dl_assert_known(&t->hip, "none");
    dl_assert_known(&t->local_tag, "none"); /* '1.13.0a0', no local part */
    assert_true(t->bundled_libraries.known);
    p = package(&r, "torch");
    assert_non_null(p->version.value);
    assert_true(dl_starts_with(p->version.value, "1.13"));
    assert_true(dl_ends_with(p->source.value, ".egg-info"));
    assert_no_silent(&r);
    run_free(&r);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linux_pip),
        cmocka_unit_test(test_windows_layout),
        cmocka_unit_test(test_rocm),
        cmocka_unit_test(test_conda_prefix),
        cmocka_unit_test(test_mismatched_pair),
        cmocka_unit_test(test_extensions),
        cmocka_unit_test(test_egg_info),
        cmocka_unit_test(test_missing_dir),
#if !defined(_WIN32)
        cmocka_unit_test(test_unreadable_dir),
        cmocka_unit_test(test_live_debian),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
