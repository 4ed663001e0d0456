/* dlenv run's pure parts, part one: the --gpu values against a list of GPUs, and the
 * environment changes applied to an environment with POSIX and Windows name rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "run/gpu_select.h"
#include "run/run_env.h"

#include <stdlib.h>
#include <string.h>

static const dl_gpu_entry two[] = {
    {0, "GPU-5c2b6a8e-1f2d-3c4b-8a9e-0f1e2d3c4b5a", "NVIDIA GeForce RTX 4090", "00000000:01:00.0"},
    {1, "GPU-5c2b9f00-aaaa-bbbb-cccc-111122223333", "NVIDIA GeForce RTX 3060", "00000000:41:00.0"},
};

/* Resolves the --gpu values; returns the status and writes the chosen list ("1,0") or the
 * error into out. */
static dl_gpu_status choose(const char *const *values, size_t n, const dl_gpu_entry *gpus,
                            size_t n_gpus, char **out)
{
    dl_strv tokens = {0};
    long *chosen = NULL;
    size_t n_chosen = 0;
    char *error = NULL;
    dl_gpu_status st = dl_gpu_split(values, n, &tokens, &error);
    if (st == DL_GPU_OK)
        st = dl_gpu_resolve(&tokens, gpus, n_gpus, &chosen, &n_chosen, &error);
    *out = st == DL_GPU_OK ? dl_gpu_index_list(chosen, n_chosen) : error;
    if (st == DL_GPU_OK)
        free(error);
    free(chosen);
    dl_strv_free(&tokens);
    return st;
}

static void expect_choice(const char *value, const char *want)
{
    char *got = NULL;
    const char *values[1];
    values[0] = value;
    assert_int_equal(choose(values, 1, two, 2, &got), DL_GPU_OK);
    assert_string_equal(got, want);
    free(got);
}

static void expect_error(const char *value, dl_gpu_status want, const char *text)
{
    char *got = NULL;
    const char *values[1];
    values[0] = value;
    assert_int_equal(choose(values, 1, two, 2, &got), want);
    if (!strstr(got, text))
        fail_msg("'%s': error '%s' lacks '%s'", value, got, text);
    free(got);
}

static void indices_uuids_and_bus_ids(void **state)
{
    (void)state;
    expect_choice("1", "1");
    expect_choice("0,1", "0,1");
    expect_choice(" 1 , 0 ", "1,0");
    expect_choice("GPU-5c2b9", "1");
    expect_choice("gpu-5C2B6A8E-1f2d-3c4b-8a9e-0f1e2d3c4b5a", "0");
    expect_choice("41:00.0", "1");
    expect_choice("0000:01:00.0", "0");
    expect_choice("00000000:41:00.0,0", "1,0");
}

static void repeated_values_join(void **state)
{
    const char *values[] = {"1", "0"};
    char *got = NULL;
    (void)state;
    assert_int_equal(choose(values, 2, two, 2, &got), DL_GPU_OK);
    assert_string_equal(got, "1,0");
    free(got);
}

static void syntax_errors(void **state)
{
    (void)state;
    expect_error("", DL_GPU_SYNTAX, "an empty entry");
    expect_error("0,,1", DL_GPU_SYNTAX, "an empty entry");
    expect_error("one", DL_GPU_SYNTAX, "not a GPU index, UUID");
    expect_error("GPU-", DL_GPU_SYNTAX, "not a GPU index");
    expect_error("-1", DL_GPU_SYNTAX, "not a GPU index");
    expect_error("1.5", DL_GPU_SYNTAX, "not a GPU index");
    expect_error("cpu", DL_GPU_SYNTAX, "--cpu for no GPU");
    expect_error("1,GPU-5c2b9", DL_GPU_SYNTAX, "GPU 1 is already chosen");
}

static void gpus_that_do_not_exist(void **state)
{
    char *got = NULL;
    const char *values[] = {"0"};
    (void)state;
    expect_error("2", DL_GPU_NO_SUCH,
                 "--gpu 2: no such GPU; this machine has 0 NVIDIA GeForce RTX 4090 "
                 "(GPU-5c2b6a8e), 1 NVIDIA GeForce RTX 3060 (GPU-5c2b9f00)");
    expect_error("GPU-5c2b", DL_GPU_NO_SUCH, "matches 2 GPUs");
    expect_error("GPU-ffff", DL_GPU_NO_SUCH, "no such GPU");
    expect_error("02:00.0", DL_GPU_NO_SUCH, "no such GPU");
    /* a machine without GPUs */
    assert_int_equal(choose(values, 1, two, 0, &got), DL_GPU_NO_SUCH);
    assert_string_equal(got, "--gpu 0: no such GPU; this machine has none");
    free(got);
}

static void unknown_fields_are_not_matched(void **state)
{
    const dl_gpu_entry bare[] = {{0, NULL, NULL, NULL}};
    const char *values[] = {"GPU-5c2b"};
    char *got = NULL, *list = dl_gpu_list_text(bare, 1);
    (void)state;
    assert_int_equal(choose(values, 1, bare, 1, &got), DL_GPU_NO_SUCH);
    assert_string_equal(list, "0 (name unknown)");
    free(got);
    free(list);
}

/* ---- the environment ------------------------------------------------------------------ */

static char *apply(const char *const *base, size_t n, const dl_env_changes *c, bool windows)
{
    dl_strv out = {0};
    dl_buf b = {0};
    size_t i;
    dl_env_apply(base, n, c, windows, windows ? ';' : ':', &out);
    for (i = 0; i < out.n; i++)
        dl_buf_printf(&b, "%s\n", out.v[i]);
    dl_buf_puts(&b, "");
    dl_strv_free(&out);
    return dl_buf_take(&b);
}

static void gpu_variables(void **state)
{
    const char *base[] = {"HOME=/root", "CUDA_VISIBLE_DEVICES=0", "ZE_AFFINITY_MASK=3"};
    const long gpus[] = {2, 0};
    dl_env_changes c = {0};
    char *env;
    (void)state;
    dl_env_gpu_changes(&c, false, gpus, 2);
    env = apply(base, 3, &c, false);
    assert_string_equal(env, "HOME=/root\nCUDA_VISIBLE_DEVICES=2,0\nZE_AFFINITY_MASK=2,0\n"
                             "CUDA_DEVICE_ORDER=PCI_BUS_ID\nHIP_VISIBLE_DEVICES=2,0\n");
    free(env);
    dl_env_changes_free(&c);
    dl_env_gpu_changes(&c, true, NULL, 0);
    env = apply(base, 3, &c, false);
    assert_string_equal(env, "HOME=/root\nCUDA_VISIBLE_DEVICES=\n"
                             "CUDA_DEVICE_ORDER=PCI_BUS_ID\nHIP_VISIBLE_DEVICES=\n");
    free(env);
    dl_env_changes_free(&c);
}

static void venv_activation(void **state)
{
    const char *base[] = {"PATH=/usr/bin:/bin", "PYTHONHOME=/opt/py", "CONDA_PREFIX=/c"};
    dl_env_changes c = {0};
    char *env;
    (void)state;
    dl_env_python_changes(&c, DL_PY_VENV, "/p/venv", "/p/venv/bin", false);
    env = apply(base, 3, &c, false);
    assert_string_equal(env, "PATH=/p/venv/bin:/usr/bin:/bin\nCONDA_PREFIX=/c\n"
                             "VIRTUAL_ENV=/p/venv\n");
    free(env);
    /* no PATH at all: the prepended list stands alone */
    env = apply(NULL, 0, &c, false);
    assert_string_equal(env, "PATH=/p/venv/bin\nVIRTUAL_ENV=/p/venv\n");
    free(env);
    dl_env_changes_free(&c);
}

static void conda_activation_on_windows(void **state)
{
    /* Windows spells it Path; the entry keeps its spelling and its place */
    const char *base[] = {"=C:=C:\\work", "Path=C:\\Windows", "VIRTUAL_ENV=C:\\v"};
    dl_env_changes c = {0};
    char *env;
    (void)state;
    dl_env_python_changes(&c, DL_PY_CONDA, "C:\\mc\\envs\\torch", "C:\\mc\\envs\\torch", true);
    env = apply(base, 3, &c, true);
    assert_string_equal(env, "=C:=C:\\work\n"
                             "Path=C:\\mc\\envs\\torch;C:\\mc\\envs\\torch\\Library\\mingw-w64\\bin;"
                             "C:\\mc\\envs\\torch\\Library\\usr\\bin;"
                             "C:\\mc\\envs\\torch\\Library\\bin;C:\\mc\\envs\\torch\\Scripts;"
                             "C:\\mc\\envs\\torch\\bin;C:\\Windows\n"
                             "CONDA_PREFIX=C:\\mc\\envs\\torch\nCONDA_DEFAULT_ENV=torch\n");
    free(env);
    /* POSIX names are case-sensitive: Path is not PATH */
    env = apply(base, 3, &c, false);
    assert_non_null(strstr(env, "Path=C:\\Windows\n"));
    assert_non_null(strstr(env, "\nPATH=C:\\mc\\envs\\torch;"));
    free(env);
    dl_env_changes_free(&c);
}

static void duplicates_and_lookup(void **state)
{
    const char *base[] = {"A=1", "X=old", "A=2", "B="};
    dl_env_changes c = {0};
    dl_strv out = {0};
    (void)state;
    dl_env_change_add(&c, DL_ENV_UNSET, "A", NULL);
    dl_env_change_add(&c, DL_ENV_SET, "X", "new=value");
    dl_env_apply(base, 4, &c, false, ':', &out);
    assert_int_equal(out.n, 2);
    assert_string_equal(out.v[0], "X=new=value");
    assert_string_equal(dl_env_lookup(&out, "X", false), "new=value");
    assert_string_equal(dl_env_lookup(&out, "B", false), "");
    assert_null(dl_env_lookup(&out, "A", false));
    assert_null(dl_env_lookup(&out, "x", false));
    assert_string_equal(dl_env_lookup(&out, "x", true), "new=value");
    dl_strv_free(&out);
    dl_env_changes_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(indices_uuids_and_bus_ids),
        cmocka_unit_test(repeated_values_join),
        cmocka_unit_test(syntax_errors),
        cmocka_unit_test(gpus_that_do_not_exist),
        cmocka_unit_test(unknown_fields_are_not_matched),
        cmocka_unit_test(gpu_variables),
        cmocka_unit_test(venv_activation),
        cmocka_unit_test(conda_activation_on_windows),
        cmocka_unit_test(duplicates_and_lookup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
