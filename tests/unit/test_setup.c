/* dlenv setup's pure parts: where things go (the Windows forms too, tested here on
 * Linux), the commands it runs, what an installer's failure says, and the lock both ways. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/str.h"
#include "setup/commands.h"
#include "setup/layout.h"
#include "setup/lockfile.h"

#include <stdlib.h>
#include <string.h>

static void layout_posix(void **state)
{
    dl_setup_layout l;
    char *error = NULL;
    (void)state;
    assert_true(dl_setup_layout_make("/home/ana/work/env/", false, 4242, &l, &error));
    assert_string_equal(l.target, "/home/ana/work/env");
    assert_string_equal(l.parent, "/home/ana/work");
    assert_string_equal(l.name, "env");
    assert_string_equal(l.staging, "/home/ana/work/.env.dlenv-staging-4242");
    assert_string_equal(l.previous, "/home/ana/work/.env.dlenv-previous");
    assert_string_equal(l.python, "/home/ana/work/env/bin/python");
    assert_string_equal(l.staging_python, "/home/ana/work/.env.dlenv-staging-4242/bin/python");
    assert_string_equal(l.lock, "/home/ana/work/env/dlenv.lock");
    assert_string_equal(l.snapshot, "/home/ana/work/env/dlenv-snapshot.json");
    dl_setup_layout_free(&l);
    assert_true(dl_setup_layout_make("/env", false, 7, &l, &error));
    assert_string_equal(l.parent, "/");
    assert_string_equal(l.staging, "/.env.dlenv-staging-7");
    dl_setup_layout_free(&l);
    assert_false(dl_setup_layout_make("/", false, 7, &l, &error));
    free(error);
    error = NULL;
    assert_false(dl_setup_layout_make("/a/..", false, 7, &l, &error));
    free(error);
}

static void layout_windows(void **state)
{
    dl_setup_layout l;
    char *error = NULL;
    (void)state;
    assert_true(dl_setup_layout_make("C:\\Users\\ana\\torch env", true, 12, &l, &error));
    assert_string_equal(l.parent, "C:\\Users\\ana");
    assert_string_equal(l.name, "torch env");
    assert_string_equal(l.staging, "C:\\Users\\ana\\.torch env.dlenv-staging-12");
    assert_string_equal(l.python, "C:\\Users\\ana\\torch env\\Scripts\\python.exe");
    assert_string_equal(l.staging_python,
                        "C:\\Users\\ana\\.torch env.dlenv-staging-12\\Scripts\\python.exe");
    assert_string_equal(l.lock, "C:\\Users\\ana\\torch env\\dlenv.lock");
    dl_setup_layout_free(&l);
    assert_true(dl_setup_layout_make("C:\\env", true, 12, &l, &error));
    assert_string_equal(l.parent, "C:\\");
    dl_setup_layout_free(&l);
}

static void staging_names(void **state)
{
    (void)state;
    assert_int_equal(dl_setup_staging_pid(".env.dlenv-staging-4242", "env"), 4242);
    assert_int_equal(dl_setup_staging_pid(".env.dlenv-staging-", "env"), 0);
    assert_int_equal(dl_setup_staging_pid(".env.dlenv-staging-12x", "env"), 0);
    assert_int_equal(dl_setup_staging_pid(".envx.dlenv-staging-12", "env"), 0);
    assert_int_equal(dl_setup_staging_pid(".env.dlenv-previous", "env"), 0);
    assert_int_equal(dl_setup_staging_pid("env", "env"), 0);
}

static void activation(void **state)
{
    dl_setup_activation a;
    (void)state;
    dl_setup_activation_make("env", true, &a);
    assert_string_equal(a.powershell, ".\\env\\Scripts\\Activate.ps1");
    assert_string_equal(a.cmd, "env\\Scripts\\activate.bat");
    assert_null(a.sh);
    dl_setup_activation_free(&a);
    dl_setup_activation_make("C:\\Users\\ana\\torch env", true, &a);
    assert_string_equal(a.powershell, "& 'C:\\Users\\ana\\torch env\\Scripts\\Activate.ps1'");
    assert_string_equal(a.cmd, "\"C:\\Users\\ana\\torch env\\Scripts\\activate.bat\"");
    dl_setup_activation_free(&a);
    dl_setup_activation_make("./my env", false, &a);
    assert_string_equal(a.sh, ". './my env/bin/activate'");
    assert_null(a.powershell);
    dl_setup_activation_free(&a);
}

static char *joined(const dl_strv *v)
{
    dl_buf b = {0};
    size_t i;
    for (i = 0; i < v->n; i++)
        dl_buf_printf(&b, "%s%s", i ? "|" : "", v->v[i]);
    return dl_buf_take(&b);
}

static void commands(void **state)
{
    dl_strv argv = {0}, packages = {0};
    dl_setup_install in;
    char *s;
    (void)state;
    dl_setup_venv_argv(DL_TOOL_VENV, NULL, "/usr/bin/python3", "/w/.env.dlenv-staging-1", &argv);
    s = joined(&argv);
    assert_string_equal(s, "/usr/bin/python3|-m|venv|/w/.env.dlenv-staging-1");
    free(s);
    dl_strv_free(&argv);
    dl_setup_venv_argv(DL_TOOL_UV, "/bin/uv", "3.12", "/w/s", &argv);
    s = joined(&argv);
    assert_string_equal(s, "/bin/uv|venv|--relocatable|--seed|--python|3.12|/w/s");
    free(s);
    dl_strv_free(&argv);
    dl_setup_py_launcher_argv("C:\\Windows\\py.exe", "3.12", &argv);
    s = joined(&argv);
    assert_string_equal(s, "C:\\Windows\\py.exe|-3.12|-c|import sys; print(sys.executable)");
    free(s);
    dl_strv_free(&argv);

    dl_strv_split(&packages, "torch==2.9.1 torchvision==0.24.1", ' ');
    memset(&in, 0, sizeof in);
    in.python = "C:\\w\\.env.dlenv-staging-1\\Scripts\\python.exe";
    in.index_url = "https://download.pytorch.org/whl/cu126";
    in.packages = &packages;
    in.report = "C:\\w\\r.json";
    dl_setup_install_argv(&in, &argv);
    s = joined(&argv);
    assert_string_equal(s, "C:\\w\\.env.dlenv-staging-1\\Scripts\\python.exe|-m|pip|install|"
                           "--no-input|--disable-pip-version-check|--report|C:\\w\\r.json|"
                           "--index-url|https://download.pytorch.org/whl/cu126|"
                           "torch==2.9.1|torchvision==0.24.1");
    free(s);
    s = dl_setup_argv_line(DL_SHELL_POWERSHELL, &argv);
    assert_non_null(strstr(s, "--index-url https://download.pytorch.org/whl/cu126"));
    free(s);
    dl_strv_free(&argv);

    in.dry_run = true;
    in.report = "-";
    dl_setup_install_argv(&in, &argv);
    s = joined(&argv);
    assert_non_null(strstr(s, "|--dry-run|--ignore-installed|--report|-|--quiet|"));
    free(s);
    dl_strv_free(&argv);

    memset(&in, 0, sizeof in);
    in.tool = DL_TOOL_UV;
    in.uv = "uv";
    in.python = "/w/s/bin/python";
    in.requirements = "/w/env/dlenv.lock";
    in.require_hashes = in.no_deps = true;
    in.report = "/w/r.json"; /* uv has none: left out */
    dl_setup_install_argv(&in, &argv);
    s = joined(&argv);
    assert_string_equal(s, "uv|pip|install|--python|/w/s/bin/python|--no-deps|--require-hashes|"
                           "-r|/w/env/dlenv.lock");
    free(s);
    dl_strv_free(&argv);
    dl_strv_free(&packages);
}

static void failures(void **state)
{
    (void)state;
    assert_int_equal(dl_setup_install_failure(
                         "ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE."),
                     DL_INSTALL_HASH_MISMATCH);
    assert_int_equal(dl_setup_install_failure(
                         "ERROR: Cannot install d2l==1.0.3 and torch==2.9.1 because these package "
                         "versions have conflicting dependencies.\nERROR: ResolutionImpossible"),
                     DL_INSTALL_CONFLICT);
    assert_int_equal(dl_setup_install_failure(
                         "WARNING: Retrying ... NewConnectionError('Failed to establish a new "
                         "connection: [Errno 111] Connection refused')\nERROR: No matching "
                         "distribution found for torch==2.9.1"),
                     DL_INSTALL_UNREACHABLE);
    assert_int_equal(dl_setup_install_failure(
                         "ERROR: Could not find a version that satisfies the requirement "
                         "nosuch==1.0 (from versions: none)\nERROR: No matching distribution "
                         "found for nosuch==1.0"),
                     DL_INSTALL_NOT_FOUND);
    assert_int_equal(dl_setup_install_failure("ERROR: Could not install packages due to an "
                                              "OSError: [Errno 28] No space left on device"),
                     DL_INSTALL_DISK_FULL);
    assert_int_equal(dl_setup_install_failure(NULL), DL_INSTALL_FAILED);
}

static const char REPORT[] =
    "{\"version\": \"1\", \"install\": ["
    "{\"download_info\": {\"url\": \"http://i/cpu/torch/torch-2.9.1%2Bcpu-py3-none-any.whl\","
    " \"archive_info\": {\"hash\": \"sha256=aa\", \"hashes\": {\"sha256\": \"aa\"}}},"
    " \"metadata\": {\"name\": \"torch\", \"version\": \"2.9.1+cpu\"}},"
    "{\"download_info\": {\"url\": \"http://i/cpu/f/Typing_Extensions-4.0.whl\","
    " \"archive_info\": {\"hash\": \"sha256=bb\"}},"
    " \"metadata\": {\"name\": \"Typing_Extensions\", \"version\": \"4.0\"}}]}";

static void lock_both_ways(void **state)
{
    dl_lock lock, back;
    char *error = NULL, *text;
    (void)state;
    memset(&lock, 0, sizeof lock);
    assert_true(dl_lock_from_pip_report(REPORT, strlen(REPORT), &lock, &error));
    assert_int_equal(lock.n, 2);
    assert_true(lock.all_hashed);
    assert_string_equal(dl_lock_version_of(&lock, "typing-extensions"), "4.0");
    assert_null(dl_lock_version_of(&lock, "numpy"));
    lock.python = dl_strdup("3.12");
    lock.torch = dl_strdup("2.9.1+cpu");
    lock.variant = dl_strdup("cpu");
    lock.tool = dl_strdup("venv");
    lock.index_url = dl_strdup("http://i/cpu");
    text = dl_lock_write(&lock, "2026-12-01T10:00:00Z", "host");
    assert_non_null(strstr(text, "--index-url http://i/cpu\ntorch==2.9.1+cpu \\\n    --hash=sha256:aa\n"));
    assert_true(dl_lock_read(text, strlen(text), &back, &error));
    assert_int_equal(back.n, 2);
    assert_true(back.all_hashed);
    assert_string_equal(back.packages[0].name, "torch");
    assert_string_equal(back.packages[0].version, "2.9.1+cpu");
    assert_string_equal(back.packages[0].sha256, "aa");
    assert_string_equal(back.packages[1].sha256, "bb");
    assert_string_equal(back.python, "3.12");
    assert_string_equal(back.torch, "2.9.1+cpu");
    assert_string_equal(back.variant, "cpu");
    assert_string_equal(back.index_url, "http://i/cpu");
    dl_lock_free(&back);
    free(text);
    /* one package without a hash: none are written, and the lock says which lacked one */
    free(lock.packages[1].sha256);
    lock.packages[1].sha256 = NULL;
    lock.all_hashed = false;
    text = dl_lock_write(&lock, NULL, NULL);
    assert_null(strstr(text, "--hash="));
    assert_non_null(strstr(text, "no sha256 is known for Typing_Extensions"));
    assert_true(dl_lock_read(text, strlen(text), &back, &error));
    assert_false(back.all_hashed);
    dl_lock_free(&back);
    free(text);
    dl_lock_free(&lock);
}

/* uv's lock: pip inspect's versions, the downloaded files' sha256, the venv's seed left out */
static void lock_from_files(void **state)
{
    static const char INSPECT[] =
        "{\"version\": \"1\", \"installed\": ["
        "{\"metadata\": {\"name\": \"torch\", \"version\": \"2.9.1+cpu\"}},"
        "{\"metadata\": {\"name\": \"typing-extensions\", \"version\": \"4.0\"}},"
        "{\"metadata\": {\"name\": \"packaging\", \"version\": \"26.4\"}},"
        "{\"metadata\": {\"name\": \"pip\", \"version\": \"26.3\"}}]}";
    const char *a = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    char *files = dl_fmt("torch\t2.9.1+cpu\t%s\r\ntyping_extensions\t4.0\t%s\n"
                         "torch\t2.0.0\t%s\nbroken line\n", a, a, a);
    dl_lock lock;
    char *error = NULL;
    dl_strv argv = {0};
    dl_setup_install in;
    char *s;
    (void)state;
    memset(&lock, 0, sizeof lock);
    assert_true(dl_lock_from_pip_report(INSPECT, strlen(INSPECT), &lock, &error));
    assert_int_equal(lock.n, 3);
    assert_int_equal(dl_lock_fill_hashes(&lock, files), 2);
    assert_false(lock.all_hashed);
    dl_lock_keep_hashed(&lock);
    assert_int_equal(lock.n, 2);
    assert_true(lock.all_hashed);
    assert_string_equal(lock.packages[0].sha256, a);
    assert_null(dl_lock_version_of(&lock, "packaging"));
    dl_lock_free(&lock);
    free(files);

    memset(&in, 0, sizeof in);
    in.tool = DL_TOOL_UV;
    in.python = "/w/s/bin/python";
    in.requirements = "/w/env/dlenv.lock";
    in.require_hashes = in.no_deps = true;
    dl_setup_download_argv(&in, "/w/s/dlenv-wheels", &argv);
    s = joined(&argv);
    assert_string_equal(s, "/w/s/bin/python|-m|pip|download|--no-input|"
                           "--disable-pip-version-check|--dest|/w/s/dlenv-wheels|--no-deps|"
                           "--require-hashes|-r|/w/env/dlenv.lock");
    free(s);
    dl_strv_free(&argv);
}

static void lock_refused(void **state)
{
    dl_lock lock;
    char *error = NULL;
    (void)state;
    assert_false(dl_lock_read("torch==1\n", 9, &lock, &error));
    assert_non_null(strstr(error, "not a dlenv.lock"));
    free(error);
    error = NULL;
    assert_false(dl_lock_read("# dlenv.lock/1\n# python: 3.12\ntorch\n", 36, &lock, &error));
    assert_non_null(strstr(error, "line 3"));
    free(error);
    error = NULL;
    assert_false(dl_lock_read("# dlenv.lock/1\ntorch==1\n", 24, &lock, &error));
    assert_non_null(strstr(error, "python"));
    free(error);
    error = NULL;
    memset(&lock, 0, sizeof lock);
    assert_false(dl_lock_from_pip_report("[]", 2, &lock, &error));
    free(error);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(layout_posix),   cmocka_unit_test(layout_windows),
        cmocka_unit_test(staging_names),  cmocka_unit_test(activation),
        cmocka_unit_test(commands),       cmocka_unit_test(failures),
        cmocka_unit_test(lock_both_ways), cmocka_unit_test(lock_refused),
        cmocka_unit_test(lock_from_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
