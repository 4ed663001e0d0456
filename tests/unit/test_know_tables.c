#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/str.h"
#include "know/tables.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void write_file(const char *dir, const char *name, const char *text)
{
    char *path = dl_fmt("%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
    assert_int_equal(fclose(f), 0);
    free(path);
}

static void remove_file(const char *dir, const char *name)
{
    char *path = dl_fmt("%s/%s", dir, name);
    unlink(path);
    free(path);
}

static void builtin_tables_load_with_their_columns(void **state)
{
    dl_knowledge k;
    char *error = NULL;
    size_t i, r;
    (void)state;
    assert_true(dl_knowledge_load(&k, NULL, &error));
    assert_null(error);
    for (i = 0; i < DL_TABLE_COUNT; i++) {
        const dl_table *t = dl_knowledge_at(&k, (dl_table_id)i);
        assert_non_null(t);
        assert_ptr_equal(dl_knowledge_table(&k, dl_table_name(i)), t);
        assert_int_equal(t->id, i);
        assert_string_equal(t->origin, "built-in");
        assert_true(t->rows > 0);
        for (r = 0; r < t->rows; r++)
            assert_true(dl_table_get(t, r, "source")[0] != '\0');
    }
    /* every column tables.def lists is where the header says, in every built-in table
     * (the optional ones too: the shipped tables have them) */
    for (i = 0; i < DL_COLUMN_COUNT; i++) {
        const dl_table *t = dl_knowledge_at(&k, dl_column_table((dl_column_id)i));
        const char *name = dl_column_name((dl_column_id)i);
        assert_non_null(t);
        assert_non_null(name);
        for (r = 0; r < t->rows; r++)
            assert_ptr_equal(dl_table_cell(t, r, (dl_column_id)i), dl_table_get(t, r, name));
        assert_non_null(dl_table_cell(t, 0, (dl_column_id)i));
    }
    assert_null(dl_table_name(DL_TABLE_COUNT));
    assert_null(dl_knowledge_table(&k, "nope"));
    assert_null(dl_knowledge_at(&k, DL_TABLE_COUNT));
    dl_knowledge_free(&k);
}

/* Each table lists a required source column: a row must say where its fact comes from. */
static void every_table_requires_a_source(void **state)
{
    size_t i, c;
    (void)state;
    for (i = 0; i < DL_TABLE_COUNT; i++) {
        bool found = false;
        for (c = 0; c < DL_COLUMN_COUNT; c++)
            found = found || (dl_column_table((dl_column_id)c) == (dl_table_id)i &&
                              !strcmp(dl_column_name((dl_column_id)c), "source") &&
                              dl_column_required((dl_column_id)c));
        assert_true(found);
    }
}

/* A typed column reads only its own table; an optional column a file lacks reads NULL;
 * the index follows the file's column order, not tables.def's. */
static void typed_columns(void **state)
{
    static const char text[] = "source,min_driver_windows,cuda_version,min_driver_linux,"
                               "mvc_min_driver_windows,mvc_min_driver_linux\n"
                               "s,>=1.2,12.0,>=3.4,,\n";
    static const char releases[] =
        "torch_version,release_date,python_min,python_max,cuda_variants_linux,"
        "cuda_variants_windows,rocm_variants_linux,pypi_default_cuda_linux,"
        "torchvision,torchaudio,status,source\n"
        "2.0.0,2023-03-15,3.8,3.11,cu118,cu118,,cu117,0.15.0,2.0.0,stable,s\n";
    dl_table t;
    char *error = NULL;
    (void)state;
    assert_true(dl_table_parse(DL_TABLE_cuda_driver, "x.csv", text, strlen(text), &t, &error));
    assert_string_equal(dl_table_cell(&t, 0, DL_COL_cuda_driver_cuda_version), "12.0");
    assert_string_equal(dl_table_cell(&t, 0, DL_COL_cuda_driver_min_driver_linux), ">=3.4");
    assert_string_equal(dl_table_cell(&t, 0, DL_COL_cuda_driver_min_driver_windows), ">=1.2");
    assert_null(dl_table_cell(&t, 1, DL_COL_cuda_driver_cuda_version));
    assert_null(dl_table_cell(&t, 0, DL_COL_torch_releases_torch_version));
    assert_null(dl_table_cell(&t, 0, DL_COLUMN_COUNT));
    dl_table_free(&t);
    assert_true(dl_table_parse(DL_TABLE_torch_releases, "r.csv", releases, strlen(releases),
                               &t, &error));
    assert_string_equal(dl_table_cell(&t, 0, DL_COL_torch_releases_torch_version), "2.0.0");
    assert_null(dl_table_cell(&t, 0, DL_COL_torch_releases_xpu_wheels));
    dl_table_free(&t);
    assert_false(dl_table_parse(DL_TABLE_cuda_driver, "y.csv", "cuda_version,source\n1,s\n",
                                24, &t, &error));
    assert_string_equal(error, "y.csv:1: missing required column 'min_driver_linux'");
    free(error);
}

/* The six tables the rules will rely on, and a few values the shared data says. */
static void builtin_values(void **state)
{
    dl_knowledge k;
    char *error = NULL;
    const dl_table *t;
    (void)state;
    assert_true(dl_knowledge_load(&k, NULL, &error));
    t = dl_knowledge_table(&k, "cuda_driver");
    assert_non_null(t);
    assert_string_equal(dl_table_get(t, 0, "cuda_version"), "10.2");
    assert_string_equal(dl_table_get(t, 0, "min_driver_linux"), ">=440.33");
    assert_null(dl_table_get(t, 0, "no_such_column"));
    assert_null(dl_table_get(t, t->rows, "cuda_version"));
    t = dl_knowledge_table(&k, "torch_releases");
    assert_string_equal(dl_table_get(t, 0, "torch_version"), "1.12.0");
    assert_non_null(dl_knowledge_table(&k, "wheel_arches"));
    assert_non_null(dl_knowledge_table(&k, "gpu_compute_capability"));
    assert_non_null(dl_knowledge_table(&k, "cudnn"));
    assert_non_null(dl_knowledge_table(&k, "cudnn_libraries"));
    dl_knowledge_free(&k);
}

static void sources_are_split_and_deduplicated(void **state)
{
    dl_knowledge k;
    dl_strv sources = {0};
    char *error = NULL;
    size_t i, j;
    (void)state;
    assert_true(dl_knowledge_load(&k, NULL, &error));
    dl_table_sources(dl_knowledge_table(&k, "torch_releases"), &sources);
    assert_true(sources.n > 1);
    assert_string_equal(sources.v[0],
                        "https://github.com/pytorch/pytorch/blob/main/RELEASE.md"
                        "#release-compatibility-matrix");
    for (i = 0; i < sources.n; i++) {
        assert_null(strstr(sources.v[i], " ; "));
        for (j = 0; j < i; j++)
            assert_string_not_equal(sources.v[i], sources.v[j]);
    }
    dl_strv_free(&sources);
    dl_knowledge_free(&k);
}

static const char *const driver_csv =
    "cuda_version,min_driver_linux,min_driver_windows,mvc_min_driver_linux,"
    "mvc_min_driver_windows,source\r\n"
    "99.1,>=999.1,>=999.2,,,\"test ; other, \"\"quoted\"\"\"\r\n";

static void override_replaces_one_table(void **state)
{
    char dir[] = "/tmp/dlenv-know-XXXXXX";
    char *error = NULL, *expected;
    dl_knowledge k;
    const dl_table *t;
    (void)state;
    assert_non_null(mkdtemp(dir));
    write_file(dir, "cuda_driver.csv", driver_csv);
    write_file(dir, "unrelated.csv", "not,a,table\n\"");
    assert_true(dl_knowledge_load(&k, dir, &error));
    assert_null(error);
    t = dl_knowledge_table(&k, "cuda_driver");
    expected = dl_fmt("%s/cuda_driver.csv", dir);
    assert_string_equal(t->origin, expected);
    assert_int_equal(t->rows, 1);
    assert_string_equal(dl_table_get(t, 0, "min_driver_windows"), ">=999.2");
    assert_string_equal(dl_knowledge_table(&k, "torch_releases")->origin, "built-in");
    assert_string_equal(dl_knowledge_table(&k, "cudnn")->origin, "built-in");
    dl_knowledge_free(&k);
    free(expected);
    remove_file(dir, "cuda_driver.csv");
    remove_file(dir, "unrelated.csv");
    rmdir(dir);
}

/* Loads dir with one broken file and checks the one-line error names it. */
static void expect_broken(const char *dir, const char *name, const char *text,
                          const char *where_what)
{
    dl_knowledge k;
    char *error = NULL, *expected = dl_fmt("%s/%s%s", dir, name, where_what);
    write_file(dir, name, text);
    assert_false(dl_knowledge_load(&k, dir, &error));
    assert_non_null(error);
    assert_string_equal(error, expected);
    assert_null(dl_knowledge_table(&k, "cuda_driver")); /* nothing half-loaded */
    free(error);
    free(expected);
    remove_file(dir, name);
}

static void broken_override_names_the_file(void **state)
{
    char dir[] = "/tmp/dlenv-know-XXXXXX";
    (void)state;
    assert_non_null(mkdtemp(dir));
    expect_broken(dir, "cuda_driver.csv",
                  "cuda_version,min_driver_linux,min_driver_windows,mvc_min_driver_linux,"
                  "mvc_min_driver_windows,source\n1,2,3,4,5,\"x\n",
                  ":2:11: unterminated quoted field");
    expect_broken(dir, "cuda_driver.csv", "cuda_version,source\n12.0,x\n",
                  ":1: missing required column 'min_driver_linux'");
    expect_broken(dir, "cudnn_libraries.csv",
                  "cudnn_major,os,main_library,sublibraries,version_encoding,source\n"
                  "9,linux,libcudnn.so.9,,x,somewhere\n"
                  "9,windows,cudnn64_9.dll,,x, \n",
                  ":3: row has no source");
    expect_broken(dir, "gpu_compute_capability.csv",
                  "gpu_name,compute_capability,sm,architecture,source\nA,8.0,sm_80,Ampere\n",
                  ":2: row has 4 fields, the header has 5");
    /* a header and nothing else: nothing to plan with (exit 4, not 2 from the planner) */
    expect_broken(dir, "torch_releases.csv",
                  "torch_version,release_date,python_min,python_max,cuda_variants_linux,"
                  "cuda_variants_windows,rocm_variants_linux,pypi_default_cuda_linux,"
                  "torchvision,torchaudio,status,source\n",
                  ":2: no rows: the torch_releases table cannot be empty");
    rmdir(dir);
}

static void data_dir_must_be_a_directory(void **state)
{
    dl_knowledge k;
    char *error = NULL;
    (void)state;
    assert_false(dl_knowledge_load(&k, "/nonexistent/dlenv-data", &error));
    assert_string_equal(error,
                        "--data: cannot inspect /nonexistent/dlenv-data: No such file or "
                        "directory");
    free(error);
    assert_false(dl_knowledge_load(&k, DLENV_TEST_DATA "/unit/test_know_tables.c", &error));
    assert_non_null(strstr(error, "not a directory"));
    free(error);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(builtin_tables_load_with_their_columns),
        cmocka_unit_test(every_table_requires_a_source),
        cmocka_unit_test(typed_columns),
        cmocka_unit_test(builtin_values),
        cmocka_unit_test(sources_are_split_and_deduplicated),
        cmocka_unit_test(override_replaces_one_table),
        cmocka_unit_test(broken_override_names_the_file),
        cmocka_unit_test(data_dir_must_be_a_directory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
