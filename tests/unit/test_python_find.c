/* Python interpreter discovery on a fixture root (data/python_find/machine: a Debian
 * system python, venvs, a conda base with an env, pyenv, uv, a 32-bit build) and on this
 * machine: its /usr/bin/python3, pyenv's shims, a venv made here, and the pip rule. */
#if !defined(_WIN32)
#define _XOPEN_SOURCE 700 /* setenv, unsetenv, mkdtemp */
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
#include "probe/probe.h"
#include "probe/python/find.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(_WIN32)
#include <sys/stat.h>
#include <unistd.h>
#endif

#define DATA DLENV_TEST_DATA "/unit/data/python_find/"

typedef dl_test_run run;

static void discover(run *r, const char *root, const char *chosen)
{
    dl_test_run_open(r, root);
    dl_python_discover(&r->m, chosen, &r->f.pythons, &r->out);
}

static const dl_python *py_at(const run *r, size_t i)
{
    assert_true(i < r->f.pythons.count);
    return &DL_LIST_AT(r->f.pythons, dl_python, i);
}

/* The entry whose real path and prefix are these, or NULL. */
static const dl_python *py_find(const run *r, const char *real, const char *prefix)
{
    size_t i;
    for (i = 0; i < r->f.pythons.count; i++) {
        const dl_python *py = py_at(r, i);
        if (py->real_path.value && strcmp(py->real_path.value, real) == 0 &&
            (!prefix || (py->prefix.value && strcmp(py->prefix.value, prefix) == 0)))
            return py;
    }
    return NULL;
}

static void assert_found_by(const dl_python *py, const char *const *expected)
{
    size_t n = 0;
    while (expected[n])
        n++;
    assert_true(py->found_by.known);
    if (py->found_by.count != n)
        fail_msg("%s: %zu found_by, expected %zu (first: %s)", py->path.value,
                 py->found_by.count, n,
                 py->found_by.count ? DL_LIST_AT(py->found_by, char *, 0) : "none");
    while (n--)
        assert_string_equal(DL_LIST_AT(py->found_by, char *, n), expected[n]);
}

/* site_packages as "scope:path" lines, for one comparison per interpreter. */
static void assert_sites(const dl_python *py, const char *const *expected)
{
    size_t i;
    assert_true(py->site_packages.known);
    for (i = 0; expected[i]; i++) {
        const dl_site_packages *s;
        char *line;
        if (i >= py->site_packages.count)
            fail_msg("%s: missing site %s", py->path.value, expected[i]);
        s = &DL_LIST_AT(py->site_packages, dl_site_packages, i);
        line = dl_fmt("%s:%s", s->scope.value, s->path.value);
        if (strcmp(line, expected[i]) != 0)
            fail_msg("%s: site %zu is %s, expected %s", py->path.value, i, line, expected[i]);
        free(line);
    }
    if (py->site_packages.count != i)
        fail_msg("%s: %zu sites, expected %zu", py->path.value, py->site_packages.count, i);
}

static void assert_bits(const dl_python *py, long long bits)
{
    if (!py->bits.known)
        fail_msg("%s: bits unknown (%s)", py->path.value, py->bits.why);
    assert_int_equal(py->bits.value, bits);
}

/* ---- the fixture machine ------------------------------------------------------------- */

static void test_fixture_machine(void **state)
{
    static const char *const sys_by[] = {"/usr/bin/python3*", NULL};
    static const char *const sys_sites[] = {"system:/usr/local/lib/python3.11/dist-packages",
                                            "system:/usr/lib/python3/dist-packages", NULL};
    static const char *const local_sites[] = {
        "prefix:/usr/local/lib/python3.9/site-packages", NULL};
    static const char *const conda_by[] = {"conda env (from ~/.conda/environments.txt)",
                                           "conda base", NULL};
    static const char *const env_by[] = {"conda env (from ~/.conda/environments.txt)",
                                         "conda env (<base>/envs)", NULL};
    static const char *const env_sites[] = {
        "prefix:/opt/conda/envs/torch-env/lib/python3.10/site-packages", NULL};
    static const char *const pyenv_by[] = {"pyenv", NULL};
    static const char *const uv_by[] = {"uv", NULL};
    run r;
    const dl_python *py;
    (void)state;
    discover(&r, DATA "machine", NULL);
    assert_int_equal(r.out.status, DL_PROBE_OK);
    assert_int_equal(r.f.pythons.count, 6);

    py = py_at(&r, 0); /* Debian's: python3 and python3.11 are one interpreter */
    dl_assert_known(&py->path, "/usr/bin/python3");
    dl_assert_known(&py->real_path, "/usr/bin/python3.11");
    assert_found_by(py, sys_by);
    dl_assert_known(&py->kind, "system");
    dl_assert_known(&py->prefix, "/usr");
    dl_assert_known(&py->version, "3.11");
    dl_assert_known(&py->implementation, "cpython");
    assert_bits(py, 64);
    assert_sites(py, sys_sites);
    dl_assert_unknown(&py->pip, "--root");

    py = py_at(&r, 1); /* a 32-bit build in /usr/local, not Debian's layout */
    dl_assert_known(&py->real_path, "/usr/local/bin/python3.9");
    dl_assert_known(&py->prefix, "/usr/local");
    dl_assert_known(&py->version, "3.9");
    assert_bits(py, 32);
    assert_sites(py, local_sites);

    py = py_at(&r, 2);
    dl_assert_known(&py->path, "/opt/conda/bin/python");
    dl_assert_known(&py->real_path, "/opt/conda/bin/python3.11");
    assert_found_by(py, conda_by);
    dl_assert_known(&py->kind, "conda");
    dl_assert_known(&py->prefix, "/opt/conda");
    dl_assert_known(&py->version, "3.11.9"); /* exact, from conda-meta, not python-dateutil */

    py = py_at(&r, 3);
    dl_assert_known(&py->prefix, "/opt/conda/envs/torch-env");
    assert_found_by(py, env_by);
    dl_assert_known(&py->kind, "conda");
    dl_assert_known(&py->version, "3.10.14");
    assert_sites(py, env_sites);

    py = py_at(&r, 4);
    dl_assert_known(&py->real_path, "/root/.pyenv/versions/3.12.1/bin/python3.12");
    assert_found_by(py, pyenv_by);
    dl_assert_known(&py->kind, "pyenv");
    dl_assert_known(&py->version, "3.12.1");
    dl_assert_known(&py->prefix, "/root/.pyenv/versions/3.12.1");

    py = py_at(&r, 5);
    dl_assert_known(&py->path,
                 "/home/bob/.local/share/uv/python/cpython-3.12.4-linux-x86_64-gnu/bin/python3");
    assert_found_by(py, uv_by);
    dl_assert_known(&py->kind, "uv");
    dl_assert_known(&py->version, "3.12.4");
    assert_bits(py, 64);
    dl_test_run_free(&r);
}

/* The venv's python links to /usr/bin/python3: same real file as the system's, yet its own
 * interpreter, first because --python named it. */
static void test_chosen_venv(void **state)
{
    static const char *const by[] = {"--python", NULL};
    static const char *const sites[] = {
        "prefix:/home/alice/venvs/proj/lib/python3.11/site-packages", NULL};
    run r;
    const dl_python *py;
    (void)state;
    discover(&r, DATA "machine", "/home/alice/venvs/proj/bin/python");
    assert_int_equal(r.f.pythons.count, 7);
    py = py_at(&r, 0);
    dl_assert_known(&py->path, "/home/alice/venvs/proj/bin/python");
    dl_assert_known(&py->real_path, "/usr/bin/python3.11");
    assert_found_by(py, by);
    dl_assert_known(&py->kind, "venv");
    dl_assert_known(&py->prefix, "/home/alice/venvs/proj");
    dl_assert_known(&py->version, "3.11.2");
    assert_bits(py, 64);
    assert_sites(py, sites);
    dl_assert_known(&py_at(&r, 1)->prefix, "/usr");
    dl_test_run_free(&r);
}

/* uv's pyvenv.cfg says version_info, and this one sees the base's packages after its own. */
static void test_venv_with_system_site(void **state)
{
    static const char *const sites[] = {
        "prefix:/home/alice/venvs/sys/lib/python3.11/site-packages",
        "system:/usr/local/lib/python3.11/dist-packages",
        "system:/usr/lib/python3/dist-packages", NULL};
    run r;
    const dl_python *py;
    (void)state;
    discover(&r, DATA "machine", "/home/alice/venvs/sys/bin/python");
    py = py_at(&r, 0);
    dl_assert_known(&py->kind, "venv");
    dl_assert_known(&py->version, "3.11.4");
    assert_sites(py, sites);
    dl_test_run_free(&r);
}

/* --python naming an interpreter found again later: one entry, both ways recorded. */
static void test_chosen_duplicate(void **state)
{
    static const char *const by[] = {"--python", "/usr/bin/python3*", NULL};
    run r;
    const dl_python *py;
    (void)state;
    discover(&r, DATA "machine", "/usr/bin/python3.11");
    assert_int_equal(r.f.pythons.count, 6);
    py = py_at(&r, 0);
    dl_assert_known(&py->path, "/usr/bin/python3.11");
    assert_found_by(py, by);
    dl_test_run_free(&r);
}

static void test_chosen_script_and_missing(void **state)
{
    run r;
    const dl_python *py;
    (void)state;
    discover(&r, DATA "machine", "/srv/odd/bin/python3.8");
    py = py_at(&r, 0);
    dl_assert_known(&py->version, "3.8");
    dl_assert_known(&py->kind, "system");
    assert_false(py->bits.known);
    assert_non_null(strstr(py->bits.why, "script"));
    dl_test_run_free(&r);

    discover(&r, DATA "machine", "/nowhere/bin/python");
    py = py_at(&r, 0);
    dl_assert_known(&py->path, "/nowhere/bin/python");
    dl_assert_unknown(&py->real_path, "/nowhere");
    assert_int_equal(r.f.pythons.count, 7);
    dl_test_run_free(&r);
}

static void test_nothing_found(void **state)
{
    run r;
    (void)state;
    /* A tree with none of the usual places is no system: no answer, not "none". */
    discover(&r, DATA "empty", NULL);
    assert_false(r.f.pythons.known);
    assert_non_null(strstr(r.f.pythons.why, "/usr/bin"));
    assert_int_equal(r.out.status, DL_PROBE_NOT_PRESENT);
    dl_test_run_free(&r);
    /* A system with /usr/bin and no interpreter in it: none. */
    discover(&r, DATA "no-python", NULL);
    assert_true(r.f.pythons.known);
    assert_int_equal(r.f.pythons.count, 0);
    assert_int_equal(r.out.status, DL_PROBE_NOT_PRESENT);
    assert_string_equal(r.out.detail, "no Python interpreter found on PATH or in the usual places");
    dl_test_run_free(&r);
}

/* ---- this machine -------------------------------------------------------------------- */

#if !defined(_WIN32)

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* A clean environment for a live run: only what the test sets counts. */
static void clear_env(void)
{
    unsetenv("VIRTUAL_ENV");
    unsetenv("CONDA_PREFIX");
    unsetenv("CONDA_EXE");
    unsetenv("PYTHONPATH");
    unsetenv("PYENV_VERSION");
}

static void write_file(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
    chmod(path, 0755);
}

typedef struct tmp {
    char dir[64];
    char *venv;
} tmp;

/* A venv made by this machine's python3 in a fresh directory; false when that fails
 * (python3-venv missing), so the test can be skipped. */
static bool make_venv(tmp *t)
{
    char *cmd;
    int rc;
    strcpy(t->dir, "/tmp/dlenv-pyfind-XXXXXX");
    if (!exists("/usr/bin/python3") || !mkdtemp(t->dir))
        return false;
    t->venv = dl_fmt("%s/venv", t->dir);
    cmd = dl_fmt("/usr/bin/python3 -m venv --without-pip %s >/dev/null 2>&1", t->venv);
    rc = system(cmd);
    free(cmd);
    return rc == 0;
}

static void tmp_free(tmp *t)
{
    char *cmd = dl_fmt("rm -rf %s", t->dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", t->dir);
    free(cmd);
    free(t->venv);
}

static void test_live_system_and_pyenv(void **state)
{
    run r;
    const dl_python *py;
    (void)state;
    if (!exists("/usr/bin/python3.11"))
        skip();
    clear_env();
    setenv("PATH", "/root/.pyenv/shims:/usr/bin:/bin", 1);
    discover(&r, "/", NULL);
    py = py_find(&r, "/usr/bin/python3.11", "/usr");
    assert_non_null(py);
    assert_non_null(py->version.value);
    assert_true(dl_starts_with(py->version.value, "3.11"));
    assert_bits(py, 64);
    assert_true(dl_textlist_has(&py->found_by, "python3 on PATH (2nd)"));
    /* pyenv's shim is a shell script; the interpreter is the version it selects */
    if (exists("/root/.pyenv/shims/python3") && exists("/root/.pyenv/versions/3.11.7")) {
        py = py_at(&r, 0);
        dl_assert_known(&py->path, "/root/.pyenv/shims/python3");
        dl_assert_known(&py->real_path, "/root/.pyenv/versions/3.11.7/bin/python3.11");
        dl_assert_known(&py->kind, "pyenv");
        dl_assert_known(&py->version, "3.11.7");
        assert_true(dl_textlist_has(&py->found_by, "python3 on PATH (1st)"));
        assert_true(dl_textlist_has(&py->found_by, "pyenv"));
        assert_bits(py, 64);
    }
    dl_test_run_free(&r);
}

static void test_live_venv(void **state)
{
    tmp t;
    run r;
    const dl_python *py;
    const dl_site_packages *site;
    char *site_path;
    (void)state;
    memset(&t, 0, sizeof t);
    if (!make_venv(&t)) {
        tmp_free(&t);
        skip();
    }
    clear_env();
    setenv("VIRTUAL_ENV", t.venv, 1);
    setenv("PATH", "/usr/bin:/bin", 1);
    discover(&r, "/", NULL);
    py = py_find(&r, "/usr/bin/python3.11", t.venv);
    assert_non_null(py);
    dl_assert_known(&py->kind, "venv");
    assert_true(dl_textlist_has(&py->found_by, "VIRTUAL_ENV"));
    assert_true(dl_starts_with(py->version.value, "3.11"));
    site = &DL_LIST_AT(py->site_packages, dl_site_packages, 0);
    site_path = dl_fmt("%s/lib/python3.11/site-packages", t.venv);
    dl_assert_known(&site->path, site_path);
    dl_assert_known(&site->scope, "prefix");
    assert_int_equal(py->site_packages.count, 1); /* no user site in a venv */
    free(site_path);
    dl_test_run_free(&r);
    tmp_free(&t);
}

/* Another interpreter's pip first on PATH: named in the reason. A pip whose #! runs the
 * interpreter: its own. */
static void test_live_pip(void **state)
{
    tmp t;
    run r;
    char *fake_dir, *fake_pip, *path, *shebang;
    const dl_python *venv, *sys;
    (void)state;
    memset(&t, 0, sizeof t);
    if (!make_venv(&t) || !exists("/usr/bin/python3.11")) {
        tmp_free(&t);
        skip();
    }
    clear_env();
    fake_dir = dl_fmt("%s/fake", t.dir);
    fake_pip = dl_fmt("%s/pip", fake_dir);
    mkdir(fake_dir, 0755);
    write_file(fake_pip, "#!/usr/bin/python3\nimport sys\n");
    path = dl_fmt("%s:%s/bin:/usr/bin:/bin", fake_dir, t.venv);
    setenv("PATH", path, 1);
    setenv("VIRTUAL_ENV", t.venv, 1);
    discover(&r, "/", NULL);
    venv = py_find(&r, "/usr/bin/python3.11", t.venv);
    sys = py_find(&r, "/usr/bin/python3.11", "/usr");
    assert_non_null(venv);
    assert_non_null(sys);
    dl_assert_unknown(&venv->pip, "/usr/bin/python3.11");
    dl_assert_unknown(&venv->pip, fake_pip);
    dl_assert_known(&sys->pip, fake_pip);
    dl_test_run_free(&r);

    /* the venv's own pip, through env, first on PATH; pip3 too belongs to the venv, so
     * the system python has none (this machine's /usr/bin/pip3 comes later) */
    free(fake_pip);
    fake_pip = dl_fmt("%s/bin/pip", t.venv);
    write_file(fake_pip, "#!/usr/bin/env python3\n");
    free(path);
    path = dl_fmt("%s/pip3", fake_dir);
    shebang = dl_fmt("#!%s/bin/python\n", t.venv);
    write_file(path, shebang);
    free(shebang);
    free(path);
    path = dl_fmt("%s/bin:%s:/usr/bin:/bin", t.venv, fake_dir);
    setenv("PATH", path, 1);
    discover(&r, "/", NULL);
    venv = py_find(&r, "/usr/bin/python3.11", t.venv);
    sys = py_find(&r, "/usr/bin/python3.11", "/usr");
    dl_assert_known(&venv->pip, fake_pip);
    dl_assert_unknown(&sys->pip, "(venv ");
    dl_test_run_free(&r);
    free(path);
    free(fake_pip);
    free(fake_dir);
    tmp_free(&t);
}

/* PYTHONPATH first, then the user site, which shadows the installation's packages. */
static void test_live_user_site(void **state)
{
    char dir[64] = "/tmp/dlenv-pyuser-XXXXXX";
    char *user, *pp, *cmd;
    run r;
    const dl_python *py;
    (void)state;
    if (!exists("/usr/bin/python3.11") || !mkdtemp(dir))
        skip();
    clear_env();
    user = dl_fmt("%s/.local/lib/python3.11/site-packages", dir);
    pp = dl_fmt("%s/pp", dir);
    cmd = dl_fmt("mkdir -p %s %s", user, pp);
    assert_int_equal(system(cmd), 0);
    setenv("HOME", dir, 1);
    setenv("PYTHONPATH", pp, 1);
    setenv("PATH", "/usr/bin:/bin", 1);
    discover(&r, "/", NULL);
    py = py_find(&r, "/usr/bin/python3.11", "/usr");
    assert_non_null(py);
    assert_true(py->site_packages.count >= 3);
    dl_assert_known(&DL_LIST_AT(py->site_packages, dl_site_packages, 0).path, pp);
    dl_assert_known(&DL_LIST_AT(py->site_packages, dl_site_packages, 0).scope, "path");
    dl_assert_known(&DL_LIST_AT(py->site_packages, dl_site_packages, 1).path, user);
    dl_assert_known(&DL_LIST_AT(py->site_packages, dl_site_packages, 1).scope, "user");
    dl_assert_known(&DL_LIST_AT(py->site_packages, dl_site_packages, 2).scope, "system");
    dl_test_run_free(&r);
    free(cmd);
    cmd = dl_fmt("rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    free(pp);
    free(user);
}

#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_machine),
        cmocka_unit_test(test_chosen_venv),
        cmocka_unit_test(test_venv_with_system_site),
        cmocka_unit_test(test_chosen_duplicate),
        cmocka_unit_test(test_chosen_script_and_missing),
        cmocka_unit_test(test_nothing_found),
#if !defined(_WIN32)
        cmocka_unit_test(test_live_system_and_pyenv),
        cmocka_unit_test(test_live_venv),
        cmocka_unit_test(test_live_pip),
        cmocka_unit_test(test_live_user_site),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
