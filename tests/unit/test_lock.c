/* dlenv snapshot --lock: the reinstall commands of an interpreter's torch stack. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/str.h"
#include "facts/schema.h"
#include "plan/lock.h"

#include <stdlib.h>
#include <string.h>

static dl_site_packages *site(dl_python *py, const char *path)
{
    dl_site_packages *s = dl_list_push(&py->site_packages, sizeof *s);
    dl_text_set(&s->path, path);
    dl_list_known(&s->packages);
    return s;
}

static dl_py_package *package(dl_site_packages *s, const char *name, const char *version,
                              const char *installer)
{
    dl_py_package *p = dl_list_push(&s->packages, sizeof *p);
    dl_text_set(&p->name, name);
    if (version)
        dl_text_set(&p->version, version);
    else
        dl_text_unknown(&p->version, "METADATA has no Version");
    dl_text_set(&p->installer, installer);
    dl_text_set(&p->source, "x.dist-info");
    return p;
}

static char *lock_of(const dl_python *py, const char *mirror)
{
    dl_lock_input in = {py, mirror, "2025-03-01T09:30:00Z", "ana-pc"};
    char *error = NULL, *text = dl_lock_text(&in, &error);
    assert_null(error);
    assert_non_null(text);
    return text;
}

static void cuda_stack_pinned_per_index(void **state)
{
    dl_python py;
    dl_site_packages *user, *venv;
    char *text;
    (void)state;
    memset(&py, 0, sizeof py);
    dl_text_set(&py.path, "/home/ana/venv/bin/python");
    dl_text_set(&py.version, "3.11.9");
    user = site(&py, "/home/ana/.local/lib/python3.11/site-packages");
    package(user, "numpy", "1.26.4", "pip");
    venv = site(&py, "/home/ana/venv/lib/python3.11/site-packages");
    package(venv, "numpy", "2.0.0", "pip"); /* shadowed by the user site's */
    package(venv, "torch", "2.3.1+cu121", "pip");
    package(venv, "torchvision", "0.18.1+cu121", "pip");
    package(venv, "nvidia_cudnn_cu12", "8.9.2.26", "pip");
    package(venv, "triton", "2.3.1", "pip");
    package(venv, "xformers", NULL, "pip");
    text = lock_of(&py, NULL);
    assert_string_equal(
        text,
        "# dlenv lock: the torch stack of /home/ana/venv/bin/python (Python 3.11.9) on ana-pc, "
        "2025-03-01T09:30:00Z\n"
        "# Reinstalls exactly these versions; run the lines in order.\n"
        "# xformers: its version is unknown (METADATA has no Version); not pinned\n"
        "/home/ana/venv/bin/python -m pip install torch==2.3.1+cu121 torchvision==0.18.1+cu121"
        " --index-url https://download.pytorch.org/whl/cu121\n"
        "/home/ana/venv/bin/python -m pip install numpy==1.26.4 nvidia_cudnn_cu12==8.9.2.26 "
        "triton==2.3.1\n");
    free(text);
    text = lock_of(&py, "https://mirror.example/whl/");
    assert_non_null(strstr(text, " --index-url https://mirror.example/whl/cu121\n"));
    free(text);
    dl_schema_free(&dl_python_schema, &py);
}

static void uv_and_odd_paths(void **state)
{
    dl_python py;
    dl_site_packages *s;
    char *text;
    (void)state;
    memset(&py, 0, sizeof py);
    dl_text_set(&py.path, "/home/ana/my envs/it's/bin/python");
    s = site(&py, "/home/ana/my envs/it's/lib/python3.12/site-packages");
    package(s, "torch", "2.5.1+cpu", "uv");
    text = lock_of(&py, NULL);
    assert_non_null(strstr(text, "\nuv pip install --python '/home/ana/my envs/it'\\''s/bin/python'"
                                 " torch==2.5.1+cpu --index-url "
                                 "https://download.pytorch.org/whl/cpu\n"));
    free(text);
    dl_schema_free(&dl_python_schema, &py);
    /* Windows: PowerShell's call operator for a path with a space; PyPI for no local tag */
    memset(&py, 0, sizeof py);
    dl_text_set(&py.path, "C:\\Program Files\\Python312\\python.exe");
    s = site(&py, "C:\\Program Files\\Python312\\Lib\\site-packages");
    package(s, "torch", "2.5.1", "pip");
    text = lock_of(&py, NULL);
    assert_non_null(strstr(text, "\n& 'C:\\Program Files\\Python312\\python.exe' -m pip install "
                                 "torch==2.5.1\n"));
    free(text);
    dl_schema_free(&dl_python_schema, &py);
}

static void conda_records_pinned_with_conda(void **state)
{
    dl_python py;
    dl_site_packages *s;
    dl_py_package *p;
    char *text;
    (void)state;
    memset(&py, 0, sizeof py);
    dl_text_set(&py.path, "/opt/conda/envs/t/bin/python");
    dl_text_set(&py.prefix, "/opt/conda/envs/t");
    s = site(&py, "/opt/conda/envs/t/lib/python3.11/site-packages");
    package(s, "torch", "2.3.1", "conda"); /* the dist-info conda's package carries */
    package(s, "numpy", "1.26.4", "pip");
    p = package(s, "pytorch", "2.3.1 (py3.11_cuda12.1_cudnn8.9.2_0)", "conda");
    dl_text_set(&p->source, "/opt/conda/envs/t/conda-meta/pytorch-2.3.1-py3.11_cuda12.1_0.json");
    p = package(s, "pytorch-cuda", "12.1 (ha16c6d3_5)", "conda");
    dl_text_set(&p->source, "/opt/conda/envs/t/conda-meta/pytorch-cuda-12.1-ha16c6d3_5.json");
    text = lock_of(&py, NULL);
    assert_null(strstr(text, "torch==2.3.1"));
    assert_non_null(strstr(text, "/opt/conda/envs/t/bin/python -m pip install numpy==1.26.4\n"));
    assert_non_null(strstr(text, "channels not recorded"));
    assert_non_null(strstr(text, "\nconda install --yes --prefix /opt/conda/envs/t "
                                 "pytorch=2.3.1=py3.11_cuda12.1_cudnn8.9.2_0 "
                                 "pytorch-cuda=12.1=ha16c6d3_5\n"));
    free(text);

    /* the records name their channel: the command fetches from it (and from nvidia's, where
     * the pytorch channel's CUDA builds find their CUDA libraries) */
    dl_text_set(&p->channel, "pytorch");
    dl_text_set(&DL_LIST_AT(s->packages, dl_py_package, 2).channel, "pytorch");
    text = lock_of(&py, NULL);
    assert_null(strstr(text, "channels not recorded"));
    assert_non_null(strstr(text, "\nconda install --yes --prefix /opt/conda/envs/t -c pytorch "
                                 "-c nvidia pytorch=2.3.1=py3.11_cuda12.1_cudnn8.9.2_0 "
                                 "pytorch-cuda=12.1=ha16c6d3_5\n"));
    free(text);
    dl_schema_free(&dl_python_schema, &py);
}

static void distribution_packages_are_named_not_pinned(void **state)
{
    dl_python py;
    dl_site_packages *s;
    dl_py_package *p;
    char *text;
    (void)state;
    memset(&py, 0, sizeof py);
    dl_text_set(&py.path, "/usr/bin/python3");
    s = site(&py, "/usr/lib/python3/dist-packages");
    p = package(s, "torch", "1.13.0a0+gitunknown", "pip");
    dl_text_unknown(&p->installer, "no INSTALLER file");
    p = package(s, "numpy", "1.24.2", "pip");
    dl_text_unknown(&p->installer, "no INSTALLER file");
    text = lock_of(&py, NULL);
    assert_non_null(strstr(text, "\n# torch 1.13.0a0+gitunknown, numpy 1.24.2\n"));
    assert_null(strstr(text, "pip install"));
    free(text);
    dl_schema_free(&dl_python_schema, &py);
}

static void nothing_to_lock(void **state)
{
    dl_python py;
    dl_lock_input in = {NULL, NULL, NULL, NULL};
    char *error = NULL;
    (void)state;
    assert_null(dl_lock_text(&in, &error));
    assert_string_equal(error, "no Python interpreter was found to lock");
    free(error);
    memset(&py, 0, sizeof py);
    dl_text_set(&py.path, "/usr/bin/python3");
    package(site(&py, "/usr/lib/python3/dist-packages"), "numpy", "1.26.4", "pip");
    in.python = &py;
    assert_null(dl_lock_text(&in, &error));
    assert_string_equal(error, "/usr/bin/python3 has no torch in its site-packages: nothing to "
                               "lock");
    free(error);
    dl_schema_free(&dl_python_schema, &py);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cuda_stack_pinned_per_index),
        cmocka_unit_test(uv_and_odd_paths),
        cmocka_unit_test(conda_records_pinned_with_conda),
        cmocka_unit_test(distribution_packages_are_named_not_pinned),
        cmocka_unit_test(nothing_to_lock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
