/* The Windows file layer under --root (built and run under Wine by tests/windows/run.sh):
 * ".." stops at the root, a DOS device name is refused, a link is not followed, and a
 * file outside the root is never read. Real files in a scratch folder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/str.h"
#include "os/os.h"

#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char parent[MAX_PATH], root[MAX_PATH + 16];

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void mkdir_(const char *path)
{
    CreateDirectoryA(path, NULL);
}

/* parent\outside.txt is this machine's file; parent\root\C\x\file.txt the tree's. */
static int setup(void **state)
{
    char tmp[MAX_PATH], *p;
    (void)state;
    if (!GetTempPathA(sizeof tmp, tmp))
        return -1;
    snprintf(parent, sizeof parent, "%sdlenv-os-win-%lu", tmp, (unsigned long)GetCurrentProcessId());
    snprintf(root, sizeof root, "%s\\root", parent);
    mkdir_(parent);
    mkdir_(root);
    p = dl_fmt("%s\\C", root);
    mkdir_(p);
    free(p);
    p = dl_fmt("%s\\C\\x", root);
    mkdir_(p);
    free(p);
    p = dl_fmt("%s\\C\\x\\file.txt", root);
    put(p, "INSIDE");
    free(p);
    p = dl_fmt("%s\\outside.txt", parent);
    put(p, "OUTSIDE");
    free(p);
    return 0;
}

static int teardown(void **state)
{
    char *p;
    (void)state;
    p = dl_fmt("%s\\C\\x\\file.txt", root);
    DeleteFileA(p);
    free(p);
    p = dl_fmt("%s\\C\\link", root);
    RemoveDirectoryA(p);
    DeleteFileA(p);
    free(p);
    p = dl_fmt("%s\\C\\x", root);
    RemoveDirectoryA(p);
    free(p);
    p = dl_fmt("%s\\C", root);
    RemoveDirectoryA(p);
    free(p);
    RemoveDirectoryA(root);
    p = dl_fmt("%s\\outside.txt", parent);
    DeleteFileA(p);
    free(p);
    RemoveDirectoryA(parent);
    return 0;
}

static void dot_dot_stops_at_the_root(void **state)
{
    static const char *const escapes[] = {"C:\\..\\..\\outside.txt", "/../outside.txt",
                                          "C:/x/../../../outside.txt", "\\..\\..\\outside.txt"};
    dl_machine m;
    char *err = NULL, *data = NULL, buf[8];
    dl_io_error e = {0};
    size_t i, got;
    (void)state;
    assert_true(dl_machine_open(&m, root, &err));
    for (i = 0; i < sizeof escapes / sizeof escapes[0]; i++) {
        assert_false(dl_fs_read(&m, escapes[i], 64, &data, NULL, NULL, &e));
        assert_int_equal(e.status, DL_IO_NOT_FOUND);
        dl_io_error_clear(&e);
        assert_false(dl_fs_read_at(&m, escapes[i], 0, buf, sizeof buf, &got, &e));
        dl_io_error_clear(&e);
        assert_null(dl_lines_open(&m, escapes[i], &e));
        dl_io_error_clear(&e);
        assert_int_equal(dl_fs_kind_of(&m, escapes[i], NULL), DL_FS_NONE);
    }
    assert_true(dl_fs_read(&m, "C:\\x\\..\\..\\..\\C\\x\\file.txt", 64, &data, NULL, NULL, &e));
    assert_string_equal(data, "INSIDE");
    free(data);
    data = dl_fs_realpath(&m, "C:\\x\\.\\..\\x\\file.txt", &e);
    assert_string_equal(data, "C:\\x\\file.txt");
    free(data);
    dl_machine_close(&m);
}

static void a_dos_device_is_not_opened(void **state)
{
    dl_machine m;
    char *err = NULL, *data = NULL;
    dl_io_error e = {0};
    (void)state;
    assert_true(dl_machine_open(&m, root, &err));
    assert_false(dl_fs_read(&m, "C:\\x\\CON", 64, &data, NULL, NULL, &e));
    assert_string_equal(e.message, "cannot read C:\\x\\CON: not a plain file name under --root");
    dl_io_error_clear(&e);
    assert_false(dl_fs_read(&m, "C:\\x\\nul.txt", 64, &data, NULL, NULL, &e));
    assert_int_equal(e.status, DL_IO_FAILED);
    dl_io_error_clear(&e);
    dl_machine_close(&m);
}

/* A symbolic link in the tree to this machine's folder: not followed. Where the system (or
 * Wine) cannot make one, there is nothing to check. */
static void a_link_is_not_followed(void **state)
{
    dl_machine m;
    char *err = NULL, *data = NULL, *link = dl_fmt("%s\\C\\link", root);
    dl_io_error e = {0};
    (void)state;
    if (!CreateSymbolicLinkA(link, parent, SYMBOLIC_LINK_FLAG_DIRECTORY | 0x2)) {
        free(link);
        skip();
    }
    free(link);
    assert_true(dl_machine_open(&m, root, &err));
    /* Windows says the link is not followed; Wine's links do not lead anywhere here */
    assert_false(dl_fs_read(&m, "C:\\link\\outside.txt", 64, &data, NULL, NULL, &e));
    assert_true(strstr(e.message, "not followed under --root") || e.status == DL_IO_NOT_FOUND);
    dl_io_error_clear(&e);
    dl_machine_close(&m);
}

/* The child exits at once, but a helper it started in the background holds its stdout:
 * the answer is read and the exit reported within the grace period, not at the deadline
 * as if it had not finished. */
static void process_exit_ends_the_read(void **state)
{
    const char *argv[] = {"cmd.exe", "/c",
                          "start /b cmd /c ping -n 20 127.0.0.1 >nul & echo answer& exit 5",
                          NULL};
    dl_proc_opts o = {15000, 0, NULL, NULL, false};
    dl_proc_result r;
    (void)state;
    dl_proc_run(argv, &o, &r);
    assert_true(r.started);
    assert_false(r.timed_out);
    assert_true(r.exited);
    assert_int_equal(r.exit_code, 5);
    assert_non_null(strstr(r.out, "answer"));
    assert_true(r.duration_ms < 8000);
    dl_proc_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dot_dot_stops_at_the_root),
        cmocka_unit_test(a_dos_device_is_not_opened),
        cmocka_unit_test(a_link_is_not_followed),
        cmocka_unit_test(process_exit_ends_the_read),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
