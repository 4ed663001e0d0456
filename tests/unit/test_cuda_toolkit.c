/* The CUDA toolkit probe on fixture roots under data/cuda_toolkit/ and on this machine's
 * real /usr/local/cuda*, plus the pure readers of version.json, version.txt and headers. */
#if !defined(_WIN32)
#define _XOPEN_SOURCE 700 /* setenv, readlink, realpath, mkdtemp */
#endif

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_run.h"

#include "base/str.h"
#include "facts/facts.h"
#include "os/os.h"
#include "probe/gpu/cuda_toolkits.h"
#include "probe/probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(_WIN32)
#include <sys/stat.h>
#include <unistd.h>
#endif

#define DATA DLENV_TEST_DATA "/unit/data/cuda_toolkit/"

typedef dl_test_run run;

static void probe_root(run *r, const char *root)
{
    dl_test_run_open(r, root);
    dl_probe_cuda_toolkits(&r->ctx, &r->f, &r->out);
}

static const dl_cuda_toolkit *toolkit(const run *r, size_t i)
{
    assert_true(i < r->f.cuda_toolkits.count);
    return &DL_LIST_AT(r->f.cuda_toolkits, dl_cuda_toolkit, i);
}

static void assert_absent(const dl_text *t)
{
    assert_null(t->value);
    assert_null(t->why);
}

static const char *lib_at(const dl_cuda_toolkit *t, size_t i)
{
    return DL_LIST_AT(t->cudnn_libraries, char *, i);
}

/* ---- pure readers ------------------------------------------------------------------------- */

static void test_header_define(void **state)
{
    const char *text = "/* CUDNN_MAJOR 7 in a comment */\n"
                       "#define CUDNN_MAJOR_X 5\n"
                       "  #  define\tCUDNN_MAJOR  9\n"
                       "#define CUDNN_MINOR CUDNN_MAJOR\n"
                       "#define CUDA_VERSION 13000ULL\n";
    unsigned long long v = 0;
    (void)state;
    assert_true(dl_cuda_header_define(text, "CUDNN_MAJOR", &v));
    assert_int_equal(v, 9);
    assert_false(dl_cuda_header_define(text, "CUDNN_MINOR", &v));
    assert_false(dl_cuda_header_define(text, "CUDNN_PATCHLEVEL", &v));
    assert_true(dl_cuda_header_define(text, "CUDA_VERSION", &v));
    assert_int_equal(v, 13000);
}

static void test_version_readers(void **state)
{
    char *nv = dl_cuda_version_nvcc("nvcc: NVIDIA (R) Cuda compiler driver\n"
                                    "Cuda compilation tools, release 12.4, V12.4.131\n"
                                    "Build cuda_12.4.r12.4/compiler.34097967_0\n");
    assert_string_equal(nv, "12.4.131");
    free(nv);
    assert_null(dl_cuda_version_nvcc("Cuda compilation tools, release 12.4\n"));
    assert_null(dl_cuda_version_nvcc("bash: nvcc: command not found"));
    const char *why = NULL;
    char *v;
    (void)state;
    v = dl_cuda_version_json("{\"cuda\": {\"name\": \"CUDA SDK\", \"version\": \"13.0.88\"}}",
                             &why);
    assert_string_equal(v, "13.0.88");
    free(v);
    assert_null(dl_cuda_version_json("{\"cuda\": ", &why));
    assert_string_equal(why, "is not valid JSON");
    assert_null(dl_cuda_version_json("{\"cuda_cudart\": {\"version\": \"13.0.96\"}}", &why));
    assert_non_null(strstr(why, "cuda"));
    assert_null(dl_cuda_version_json("{\"cuda\": {\"version\": 13}}", &why));

    v = dl_cuda_version_txt("CUDA Version 11.8.89\n");
    assert_string_equal(v, "11.8.89");
    free(v);
    assert_null(dl_cuda_version_txt("CUDA Version unknown\n"));
    assert_null(dl_cuda_version_txt("cuDNN 8\n"));

    v = dl_cuda_version_header("#define CUDA_VERSION 12040\n");
    assert_string_equal(v, "12.4");
    free(v);
    v = dl_cuda_version_header("#define CUDA_VERSION 13000\n");
    assert_string_equal(v, "13.0");
    free(v);
    assert_null(dl_cuda_version_header("#define CUDART_VERSION 13000\n"));
}

/* ---- fixture roots -------------------------------------------------------------------------- */

/* several/: /usr/local/cuda -> cuda-12.4 (version.json, cuDNN and NCCL under targets/),
 * cuda-11.8 (version.txt only), cuda-9.9 (truncated version.json only), cuda-broken
 * (broken version.json, cuda.h), cuda-empty and cuda-docs (not toolkits), /opt/cuda
 * (include/cuda.h only). */
static void test_several(void **state)
{
    run r;
    const dl_cuda_toolkit *t;
    (void)state;
    probe_root(&r, DATA "several");
    assert_int_equal(r.out.status, DL_PROBE_OK);
    assert_true(r.f.cuda_toolkits.known);
    assert_int_equal(r.f.cuda_toolkits.count, 5);

    /* /usr/local/cuda comes first, and cuda-12.4 is not listed a second time */
    t = toolkit(&r, 0);
    dl_assert_known(&t->path, "/usr/local/cuda-12.4");
    dl_assert_known(&t->found_by, "/usr/local/cuda");
    dl_assert_known(&t->link_target, "cuda-12.4");
    dl_assert_known(&t->version, "12.4.131");
    dl_assert_known(&t->version_source, "version.json");
    dl_assert_known(&t->cudnn_version, "9.13.0");
    dl_assert_known(&t->nccl_version, "2.21.5");
    assert_true(t->cudnn_libraries.known);
    assert_int_equal(t->cudnn_libraries.count, 4); /* libcudnn.so.9 is in lib64 and targets/ */
    assert_string_equal(lib_at(t, 0), "libcudnn.so.9");
    assert_string_equal(lib_at(t, 1), "libcudnn.so.9.13.0");
    assert_string_equal(lib_at(t, 2), "libcudnn_graph.so.9");
    assert_string_equal(lib_at(t, 3), "libcudnn_ops.so.9");

    t = toolkit(&r, 1);
    dl_assert_known(&t->path, "/usr/local/cuda-11.8");
    dl_assert_known(&t->found_by, "/usr/local/cuda-*");
    assert_absent(&t->link_target);
    dl_assert_known(&t->version, "11.8.89");
    dl_assert_known(&t->version_source, "version.txt");
    dl_assert_unknown(&t->cudnn_version, "/usr/local/cuda-11.8/include has no cudnn_version.h");
    dl_assert_unknown(&t->nccl_version, "/usr/local/cuda-11.8/include has no nccl.h");
    assert_true(t->cudnn_libraries.known);
    assert_int_equal(t->cudnn_libraries.count, 0);

    /* a version.json that cannot be read, and nothing else: unknown, saying why */
    t = toolkit(&r, 2);
    dl_assert_known(&t->path, "/usr/local/cuda-9.9");
    dl_assert_unknown(&t->version, "/usr/local/cuda-9.9/version.json is not valid JSON");
    assert_absent(&t->version_source);

    /* a broken version.json does not hide cuda.h */
    t = toolkit(&r, 3);
    dl_assert_known(&t->path, "/usr/local/cuda-broken");
    dl_assert_known(&t->version, "12.1");
    dl_assert_known(&t->version_source, "cuda.h");

    t = toolkit(&r, 4);
    dl_assert_known(&t->path, "/opt/cuda");
    dl_assert_known(&t->found_by, "/opt/cuda");
    assert_absent(&t->link_target);
    dl_assert_known(&t->version, "12.8");
    dl_assert_known(&t->version_source, "cuda.h");
    dl_test_run_free(&r);
}

/* Under --root the process environment describes another machine, so CUDA_HOME and PATH
 * are not candidates. */
static void test_environment_ignored_under_root(void **state)
{
    run r;
    char *old_path = dl_strdup(getenv("PATH"));
    (void)state;
    setenv("CUDA_HOME", "/usr/local/cuda-11.8", 1);
    setenv("PATH", "/usr/local/cuda-11.8/bin:/usr/bin", 1);
    probe_root(&r, DATA "several");
    unsetenv("CUDA_HOME");
    if (old_path)
        setenv("PATH", old_path, 1);
    free(old_path);
    assert_int_equal(r.f.cuda_toolkits.count, 5);
    dl_assert_known(&toolkit(&r, 0)->found_by, "/usr/local/cuda");
    dl_assert_known(&toolkit(&r, 1)->found_by, "/usr/local/cuda-*");
    dl_test_run_free(&r);
}

/* Debian keeps cuDNN and NCCL headers in the system include directories. */
static void test_system_headers(void **state)
{
    run r;
    const dl_cuda_toolkit *t;
    (void)state;
    probe_root(&r, DATA "system");
    assert_int_equal(r.out.status, DL_PROBE_OK);
    assert_int_equal(r.f.cuda_toolkits.count, 1);
    t = toolkit(&r, 0);
    dl_assert_known(&t->path, "/usr/local/cuda-12.6");
    dl_assert_known(&t->found_by, "/usr/local/cuda-*");
    dl_assert_unknown(&t->version, "/usr/local/cuda-12.6 has no version.json");
    dl_assert_known(&t->cudnn_version, "9.1.2");
    dl_assert_known(&t->nccl_version, "2.27.3");
    assert_true(t->cudnn_libraries.known);
    assert_int_equal(t->cudnn_libraries.count, 0);
    dl_test_run_free(&r);
}

static void test_no_toolkit(void **state)
{
    run r;
    (void)state;
    probe_root(&r, DATA "none");
    assert_int_equal(r.out.status, DL_PROBE_OK);
    assert_null(r.out.detail);
    assert_true(r.f.cuda_toolkits.known);
    assert_int_equal(r.f.cuda_toolkits.count, 0);
    dl_test_run_free(&r);
}

/* /usr/local/cuda -> cuda-b -> cuda: a loop is no toolkit and no hang. */
static void test_link_loop(void **state)
{
    run r;
    (void)state;
    probe_root(&r, DATA "loop");
    assert_int_equal(r.out.status, DL_PROBE_OK);
    assert_true(r.f.cuda_toolkits.known);
    assert_int_equal(r.f.cuda_toolkits.count, 0);
    dl_test_run_free(&r);
}

/* ---- this machine ------------------------------------------------------------------------------ */

#if !defined(_WIN32)
/* An independent reader: "#define NAME <n>" by sscanf, -1 when absent. */
static long header_value(const char *path, const char *name)
{
    FILE *fp = fopen(path, "r");
    char line[512], key[128];
    long v, found = -1;
    if (!fp)
        return -1;
    while (found < 0 && fgets(line, sizeof line, fp))
        if (sscanf(line, " # define %127s %ld", key, &v) == 2 && strcmp(key, name) == 0)
            found = v;
    fclose(fp);
    return found;
}

static char *header_version(const char *dir, const char *file, const char *const keys[3])
{
    char *path = dl_fmt("%s/include/%s", dir, file);
    long v[3];
    int i;
    for (i = 0; i < 3; i++)
        v[i] = header_value(path, keys[i]);
    free(path);
    if (v[0] < 0 || v[1] < 0 || v[2] < 0)
        return NULL;
    return dl_fmt("%ld.%ld.%ld", v[0], v[1], v[2]);
}

/* The toolkit of this machine the test checks: /usr/local/cuda's real directory. */
static const dl_cuda_toolkit *live_toolkit(const run *r, const char *real)
{
    size_t i;
    for (i = 0; i < r->f.cuda_toolkits.count; i++)
        if (strcmp(toolkit(r, i)->path.value, real) == 0)
            return toolkit(r, i);
    fail_msg("%s is not among the %lu toolkits found", real,
             (unsigned long)r->f.cuda_toolkits.count);
    return NULL;
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Without version.json, the toolkit's own nvcc --version, read here independently. */
static char *nvcc_says(const char *real, const char **source)
{
    char *cmd = dl_fmt("'%s/bin/nvcc' --version 2>/dev/null", real);
    FILE *p = popen(cmd, "r");
    char line[512];
    char *v = NULL;
    free(cmd);
    if (!p)
        return NULL;
    while (!v && fgets(line, sizeof line, p)) {
        char *at = strstr(line, "release ");
        at = at ? strstr(at, ", V") : NULL;
        if (at) {
            at[3 + strspn(at + 3, "0123456789.")] = '\0';
            v = dl_strdup(at + 3);
        }
    }
    pclose(p);
    if (v)
        *source = "nvcc";
    return v;
}

static char *expected_version(const char *real, const char **source)
{
    char *path = dl_fmt("%s/version.json", real);
    FILE *fp;
    char buf[4096];
    size_t n;
    char *v = NULL;
    const char *why = NULL;
    *source = "cuda.h";
    fp = fopen(path, "r");
    free(path);
    if (!fp)
        return nvcc_says(real, source);
    n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    v = dl_cuda_version_json(buf, &why);
    if (v)
        *source = "version.json";
    return v;
}

static void test_this_machine(void **state)
{
    static const char *const cudnn_keys[3] = {"CUDNN_MAJOR", "CUDNN_MINOR",
                                              "CUDNN_PATCHLEVEL"};
    static const char *const nccl_keys[3] = {"NCCL_MAJOR", "NCCL_MINOR", "NCCL_PATCH"};
    const char *dir =
        exists("/usr/local/cuda-13.0") ? "/usr/local/cuda-13.0" : "/usr/local/cuda";
    char *real, *cudnn, *nccl, *json;
    const char *source;
    const dl_cuda_toolkit *t;
    run r;
    (void)state;
    if (!exists(dir))
        skip();
    real = realpath(dir, NULL);
    assert_non_null(real);
    probe_root(&r, "/");
    assert_true(r.f.cuda_toolkits.known);
    t = live_toolkit(&r, real);
    assert_non_null(t->version.value);
    json = expected_version(real, &source);
    if (json)
        assert_string_equal(t->version.value, json);
    if (strcmp(dir, "/usr/local/cuda-13.0") == 0)
        assert_true(dl_starts_with(t->version.value, "13.0"));
    dl_assert_known(&t->version_source, source);

    /* cuDNN and NCCL as the test reads them itself, when the toolkit holds them */
    cudnn = header_version(real, "cudnn_version.h", cudnn_keys);
    nccl = header_version(real, "nccl.h", nccl_keys);
    if (cudnn) {
        dl_assert_known(&t->cudnn_version, cudnn);
        assert_true(t->cudnn_libraries.known);
        assert_true(t->cudnn_libraries.count > 0);
        assert_true(dl_starts_with(lib_at(t, 0), "libcudnn"));
    }
    if (nccl)
        dl_assert_known(&t->nccl_version, nccl);
    free(cudnn);
    free(nccl);
    free(json);
    free(real);
    dl_test_run_free(&r);
}

/* CUDA_HOME names a toolkit first, and a link keeps its target. */
static void test_this_machine_cuda_home(void **state)
{
    char target[4096], *real;
    ssize_t n = readlink("/usr/local/cuda", target, sizeof target - 1);
    char *old = dl_strdup(getenv("CUDA_HOME"));
    run r;
    (void)state;
    if (n <= 0)
        skip();
    target[n] = '\0';
    real = realpath("/usr/local/cuda", NULL);
    assert_non_null(real);
    setenv("CUDA_HOME", "/usr/local/cuda", 1);
    probe_root(&r, "/");
    if (old)
        setenv("CUDA_HOME", old, 1);
    else
        unsetenv("CUDA_HOME");
    free(old);
    dl_assert_known(&toolkit(&r, 0)->path, real);
    dl_assert_known(&toolkit(&r, 0)->found_by, "CUDA_HOME");
    dl_assert_known(&toolkit(&r, 0)->link_target, target);
    free(real);
    dl_test_run_free(&r);
}

/* A toolkit directory this user cannot enter is reported, not passed over in silence. */
static void test_no_permission(void **state)
{
    char root[] = "/tmp/dlenv-cuda-XXXXXX";
    char *usr, *local, *tk;
    run r;
    (void)state;
    if (geteuid() == 0)
        skip(); /* root reads through any mode */
    assert_non_null(mkdtemp(root));
    usr = dl_fmt("%s/usr", root);
    local = dl_fmt("%s/local", usr);
    tk = dl_fmt("%s/cuda-12.4", local);
    assert_int_equal(mkdir(usr, 0755), 0);
    assert_int_equal(mkdir(local, 0755), 0);
    assert_int_equal(mkdir(tk, 0), 0);
    probe_root(&r, root);
    rmdir(tk);
    rmdir(local);
    rmdir(usr);
    rmdir(root);
    assert_int_equal(r.out.status, DL_PROBE_NO_PERMISSION);
    assert_non_null(strstr(r.out.detail, "/usr/local/cuda-12.4"));
    assert_true(r.f.cuda_toolkits.known);
    assert_int_equal(r.f.cuda_toolkits.count, 0);
    free(tk);
    free(local);
    free(usr);
    dl_test_run_free(&r);
}

static void restore_env(const char *name, char *old)
{
    if (old)
        setenv(name, old, 1);
    else
        unsetenv(name);
    free(old);
}

/* A wrapper script on PATH ("exec /usr/local/cuda-13.0/bin/nvcc") names the toolkit it
 * runs, not the directory it sits in. */
static void test_this_machine_nvcc_wrapper(void **state)
{
    char dir[] = "/tmp/dlenv-nvcc-XXXXXX", *script, *real_nvcc, *expected, *slash;
    char *old_home = dl_strdup(getenv("CUDA_HOME")), *old_path = dl_strdup(getenv("PATH"));
    FILE *fp;
    run r;
    (void)state;
    real_nvcc = realpath("/usr/local/cuda/bin/nvcc", NULL);
    if (!real_nvcc || !getenv("PATH") || getenv("CUDA_PATH") || getenv("CUDA_ROOT")) {
        free(real_nvcc);
        free(old_home);
        free(old_path);
        skip();
    }
    assert_non_null(mkdtemp(dir));
    script = dl_fmt("%s/nvcc", dir);
    fp = fopen(script, "w");
    assert_non_null(fp);
    fprintf(fp, "#!/bin/sh\nexec %s \"$@\"\n", real_nvcc);
    fclose(fp);
    chmod(script, 0755);
    expected = dl_strdup(real_nvcc);
    slash = strrchr(expected, '/'); /* .../bin/nvcc -> .../bin -> ... */
    *slash = '\0';
    slash = strrchr(expected, '/');
    *slash = '\0';

    unsetenv("CUDA_HOME");
    setenv("PATH", dir, 1);
    probe_root(&r, "/");
    restore_env("CUDA_HOME", old_home);
    restore_env("PATH", old_path);
    remove(script);
    rmdir(dir);
    dl_assert_known(&toolkit(&r, 0)->path, expected);
    dl_assert_known(&toolkit(&r, 0)->found_by, "nvcc on PATH");
    assert_absent(&toolkit(&r, 0)->link_target);
    free(expected);
    free(script);
    free(real_nvcc);
    dl_test_run_free(&r);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header_define),
        cmocka_unit_test(test_version_readers),
        cmocka_unit_test(test_several),
        cmocka_unit_test(test_environment_ignored_under_root),
        cmocka_unit_test(test_system_headers),
        cmocka_unit_test(test_no_toolkit),
        cmocka_unit_test(test_link_loop),
#if !defined(_WIN32)
        cmocka_unit_test(test_no_permission),
        cmocka_unit_test(test_this_machine),
        cmocka_unit_test(test_this_machine_cuda_home),
        cmocka_unit_test(test_this_machine_nvcc_wrapper),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
