/* dlenv setup's folder moves on real folders, here and (the same program) under Wine: the
 * swap keeps the previous environment, rollback swaps back, a staging folder whose process
 * is gone is found as stale, the staging path in the scripts becomes the target's, and
 * whole trees are removed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/str.h"
#include "os/os.h"
#include "setup/layout.h"
#include "setup/stage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#define WINDOWS true
#else
#define WINDOWS false
#endif

static char *scratch; /* a fresh folder per test */

static int make_scratch(void **state)
{
    const char *tmp = dl_env_get("TMPDIR");
    char *error = NULL, *abs;
    static unsigned n;
    (void)state;
    if (!tmp)
        tmp = dl_env_get("TEMP");
    abs = dl_path_absolute(tmp ? tmp : ".");
    scratch = dl_fmt("%s%cdlenv-stage-%ld-%u", abs, WINDOWS ? '\\' : '/', dl_process_id(), n++);
    free(abs);
    if (!dl_tree_remove(scratch, &error) || !dl_dir_make(scratch, &error)) {
        fprintf(stderr, "%s\n", error);
        free(error);
        return -1;
    }
    return 0;
}

static int remove_scratch(void **state)
{
    char *error = NULL;
    (void)state;
    if (!dl_tree_remove(scratch, &error)) {
        fprintf(stderr, "%s\n", error);
        free(error);
        return -1;
    }
    free(scratch);
    return 0;
}

static void put(const char *dir, const char *name, const char *text)
{
    char *path = dl_path_join(dir, name), *error = NULL;
    assert_true(dl_file_write_atomic(path, text, strlen(text), &error));
    free(path);
}

static char *read_text(const char *dir, const char *name)
{
    char *path = dl_path_join(dir, name);
    FILE *f = dl_fopen(path, "rb");
    char buf[512];
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    free(path);
    buf[n] = '\0';
    return dl_strdup(buf);
}

/* An environment at dir (pyvenv.cfg, a script naming its own folder), marked with tag. */
static void make_env(const char *dir, const char *tag)
{
    char *error = NULL, *scripts = dl_path_join(dir, WINDOWS ? "Scripts" : "bin"), *text;
    assert_true(dl_dir_make(dir, &error));
    assert_true(dl_dir_make(scripts, &error));
    text = dl_fmt("home = /usr/bin\ncommand = python -m venv %s\n", dir);
    put(dir, "pyvenv.cfg", text);
    free(text);
    text = dl_fmt("VIRTUAL_ENV=\"%s\"\n", dir);
    put(scripts, "activate", text);
    free(text);
    put(dir, "tag", tag);
    free(scripts);
}

static void layout(dl_setup_layout *l, long pid)
{
    char *target = dl_path_join(scratch, "env"), *error = NULL;
    assert_true(dl_setup_layout_make(target, WINDOWS, pid, l, &error));
    free(target);
}

static void swap_and_rollback(void **state)
{
    dl_setup_layout l;
    char *error = NULL, *text, *scripts;
    bool kept = true;
    (void)state;
    layout(&l, dl_process_id());
    assert_false(dl_setup_is_environment(l.target));
    make_env(l.staging, "first");
    assert_true(dl_setup_relocate(&l, &error));
    scripts = dl_path_join(l.staging, WINDOWS ? "Scripts" : "bin");
    text = read_text(scripts, "activate");
    assert_non_null(strstr(text, l.target));
    assert_null(strstr(text, "staging"));
    free(text);
    free(scripts);
    assert_true(dl_setup_swap(&l, &kept, &error));
    assert_false(kept);
    assert_true(dl_setup_is_environment(l.target));
    assert_int_equal(dl_path_kind(l.staging), DL_FS_NONE);

    make_env(l.staging, "second");
    assert_true(dl_setup_swap(&l, &kept, &error));
    assert_true(kept);
    text = read_text(l.target, "tag");
    assert_string_equal(text, "second");
    free(text);
    text = read_text(l.previous, "tag");
    assert_string_equal(text, "first");
    free(text);

    assert_true(dl_setup_rollback(&l, &error));
    text = read_text(l.target, "tag");
    assert_string_equal(text, "first");
    free(text);
    text = read_text(l.previous, "tag");
    assert_string_equal(text, "second");
    free(text);
    assert_int_equal(dl_path_kind(l.staging), DL_FS_NONE);
    dl_setup_layout_free(&l);
}

static void rollback_without_previous(void **state)
{
    dl_setup_layout l;
    char *error = NULL;
    (void)state;
    layout(&l, dl_process_id());
    make_env(l.target, "only");
    assert_false(dl_setup_rollback(&l, &error));
    assert_non_null(strstr(error, "no previous environment"));
    free(error);
    assert_true(dl_setup_is_environment(l.target));
    dl_setup_layout_free(&l);
}

static void swap_refuses_to_overwrite(void **state)
{
    char *a = dl_path_join(scratch, "a"), *b = dl_path_join(scratch, "b"), *error = NULL;
    (void)state;
    assert_true(dl_dir_make(a, &error));
    assert_true(dl_dir_make(b, &error));
    assert_false(dl_path_rename(a, b, &error));
    free(error);
    assert_int_equal(dl_path_kind(a), DL_FS_DIR);
    free(a);
    free(b);
}

static void stale_staging(void **state)
{
    dl_setup_layout mine, gone;
    dl_strv stale = {0};
    long running = -1;
    char *error = NULL;
    (void)state;
    layout(&mine, dl_process_id());
    /* a pid no process has: the largest one the name takes */
    layout(&gone, 0x7ffffffeL);
    make_env(gone.staging, "killed");
    make_env(mine.staging, "this run");
    assert_true(dl_setup_find_staging(&mine, &stale, &running, &error));
    assert_int_equal(running, 0);
    assert_int_equal(stale.n, 1);
    assert_string_equal(stale.v[0], gone.staging);
    dl_strv_free(&stale);
    assert_true(dl_tree_remove(gone.staging, &error));
    assert_int_equal(dl_path_kind(gone.staging), DL_FS_NONE);
    assert_true(dl_process_alive(dl_process_id()));
    dl_setup_layout_free(&mine);
    dl_setup_layout_free(&gone);
}

static void enclosing(void **state)
{
    char *outer = dl_path_join(scratch, "outer"), *inner = dl_path_join(outer, "lib"), *found;
    (void)state;
    make_env(outer, "outer");
    found = dl_setup_enclosing_environment(inner, WINDOWS);
    assert_non_null(found);
    assert_string_equal(found, outer);
    free(found);
    assert_null(dl_setup_enclosing_environment(outer, WINDOWS));
    free(outer);
    free(inner);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(swap_and_rollback, make_scratch, remove_scratch),
        cmocka_unit_test_setup_teardown(rollback_without_previous, make_scratch, remove_scratch),
        cmocka_unit_test_setup_teardown(swap_refuses_to_overwrite, make_scratch, remove_scratch),
        cmocka_unit_test_setup_teardown(stale_staging, make_scratch, remove_scratch),
        cmocka_unit_test_setup_teardown(enclosing, make_scratch, remove_scratch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
