/* The POSIX side of src/os: files under a root (links must not escape it) and child
 * processes with timeouts. Real files, real processes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/str.h"
#include "os/os.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[256];
static char outside[300], outside_marker[300]; /* host files next to the root, never read */

static void put(const char *rel, const char *text)
{
    char *p = dl_fmt("%s%s", root, rel);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    free(p);
}

static void dir(const char *rel)
{
    char *p = dl_fmt("%s%s", root, rel);
    mkdir(p, 0755);
    free(p);
}

static void link_(const char *target, const char *rel)
{
    char *p = dl_fmt("%s%s", root, rel);
    assert_int_equal(symlink(target, p), 0);
    free(p);
}

static void put_host(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The host has OUTSIDE files at /tmp/dlenv-os-XXXXXX-outside and -marker. Inside the root:
 * the same machine path of the first is a link to itself (a loop: resolution gives up, and
 * the raw path must not then be handed to the kernel, which would follow the link out to
 * the host's file); the second exists inside too; a relative link climbs far above the
 * root; a FIFO and a link to it. */
static void hostile_tree(void)
{
    char *rel, *p;
    snprintf(outside, sizeof outside, "%s-outside", root);
    snprintf(outside_marker, sizeof outside_marker, "%s-marker", root);
    put_host(outside, "OUTSIDE\n");
    put_host(outside_marker, "OUTSIDE\n");
    dir("/tmp");
    rel = dl_fmt("%s", outside);
    link_(outside, rel);
    free(rel);
    put(outside_marker, "INSIDE\n");
    dir("/hostile");
    link_("../../../../../../../../tmp", "/hostile/up");
    link_(outside, "/hostile/out");
    p = dl_fmt("%s/hostile/fifo", root);
    assert_int_equal(mkfifo(p, 0644), 0);
    free(p);
    link_("/hostile/fifo", "/hostile/to-fifo");
}

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/dlenv-os-XXXXXX");
    if (!mkdtemp(root))
        return -1;
    dir("/etc");
    dir("/usr");
    dir("/usr/lib");
    put("/usr/lib/os-release", "ID=inside\n");
    link_("/usr/lib/os-release", "/etc/os-release");   /* absolute: must stay inside */
    link_("../../../../../../etc/hostname", "/etc/up"); /* .. must stop at the root */
    put("/etc/hostname", "inside-host\n");
    link_("loop", "/etc/loop");
    hostile_tree();
    return 0;
}

static int teardown(void **state)
{
    const char *argv[] = {"rm", "-rf", root, NULL};
    dl_proc_opts o = {5000, 0, NULL, NULL, false};
    dl_proc_result r;
    (void)state;
    dl_proc_run(argv, &o, &r);
    dl_proc_result_free(&r);
    remove(outside);
    remove(outside_marker);
    return 0;
}

static void absolute_links_resolve_inside_the_root(void **state)
{
    dl_machine m;
    char *err = NULL, *data;
    dl_io_error e = {0};
    (void)state;
    assert_true(dl_machine_open(&m, root, &err));
    assert_false(m.live);
    assert_true(dl_fs_read(&m, "/etc/os-release", 1024, &data, NULL, NULL, &e));
    assert_string_equal(data, "ID=inside\n");
    free(data);
    assert_true(dl_fs_read(&m, "/etc/up", 1024, &data, NULL, NULL, &e));
    assert_string_equal(data, "inside-host\n");
    free(data);
    dl_machine_close(&m);
}

static void errors_say_what_and_why(void **state)
{
    dl_machine m;
    char *err = NULL, *data, *target;
    dl_io_error e = {0};
    (void)state;
    assert_true(dl_machine_open(&m, root, &err));
    assert_false(dl_fs_read(&m, "/proc/cpuinfo", 1024, &data, NULL, NULL, &e));
    assert_int_equal(e.status, DL_IO_NOT_FOUND);
    assert_string_equal(e.message, "cannot read /proc/cpuinfo: No such file or directory");
    dl_io_error_clear(&e);
    assert_false(dl_fs_read(&m, "/etc/loop", 1024, &data, NULL, NULL, &e));
    assert_int_equal(e.status, DL_IO_FAILED);
    dl_io_error_clear(&e);
    assert_true(dl_fs_readlink(&m, "/etc/os-release", &target, &e));
    assert_string_equal(target, "/usr/lib/os-release");
    free(target);
    dl_machine_close(&m);
}

static void read_limit_reports_truncation(void **state)
{
    dl_machine m;
    char *err = NULL, *data;
    size_t len;
    bool truncated;
    (void)state;
    assert_true(dl_machine_open(&m, root, &err));
    assert_true(dl_fs_read(&m, "/etc/hostname", 6, &data, &len, &truncated, NULL));
    assert_int_equal(len, 6);
    assert_true(truncated);
    free(data);
    assert_true(dl_fs_read(&m, "/etc/hostname", 12, &data, &len, &truncated, NULL));
    assert_false(truncated);
    free(data);
    dl_machine_close(&m);
}

/* Reads at an offset: inside the file, across its end (short), past it (nothing), through
 * an absolute link that must stay inside the root, and a missing file. */
static void read_at_an_offset(void **state)
{
    dl_machine m;
    char *err = NULL, buf[16];
    size_t got = 99;
    dl_io_error e = {0};
    (void)state;
    assert_true(dl_machine_open(&m, root, &err));
    /* "inside-host\n" */
    assert_true(dl_fs_read_at(&m, "/etc/hostname", 7, buf, 4, &got, &e));
    assert_int_equal(got, 4);
    assert_memory_equal(buf, "host", 4);
    assert_true(dl_fs_read_at(&m, "/etc/hostname", 0, buf, 6, &got, &e));
    assert_int_equal(got, 6);
    assert_memory_equal(buf, "inside", 6);
    assert_true(dl_fs_read_at(&m, "/etc/hostname", 9, buf, sizeof buf, &got, &e));
    assert_int_equal(got, 3);
    assert_memory_equal(buf, "st\n", 3);
    assert_true(dl_fs_read_at(&m, "/etc/hostname", 12, buf, sizeof buf, &got, &e));
    assert_int_equal(got, 0);
    assert_true(dl_fs_read_at(&m, "/etc/hostname", (uint64_t)1 << 40, buf, sizeof buf, &got,
                              &e));
    assert_int_equal(got, 0);
    assert_true(dl_fs_read_at(&m, "/etc/hostname", UINT64_MAX, buf, sizeof buf, &got, &e));
    assert_int_equal(got, 0);
    assert_true(dl_fs_read_at(&m, "/etc/hostname", 3, buf, 0, &got, &e));
    assert_int_equal(got, 0);
    assert_true(dl_fs_read_at(&m, "/etc/os-release", 3, buf, 6, &got, &e));
    assert_int_equal(got, 6);
    assert_memory_equal(buf, "inside", 6);
    assert_int_equal(e.status, DL_IO_OK);
    assert_null(e.message);
    got = 99;
    assert_false(dl_fs_read_at(&m, "/etc/missing", 0, buf, sizeof buf, &got, &e));
    assert_int_equal(got, 0);
    assert_int_equal(e.status, DL_IO_NOT_FOUND);
    assert_string_equal(e.message, "cannot read /etc/missing: No such file or directory");
    dl_io_error_clear(&e);
    assert_false(dl_fs_read_at(&m, "/etc/loop", 0, buf, sizeof buf, &got, &e));
    assert_int_equal(e.status, DL_IO_FAILED);
    dl_io_error_clear(&e);
    dl_machine_close(&m);
}

/* A loop through an absolute link is an error: nothing outside the root is read, by any of
 * the calls that take a machine path. */
static void a_link_loop_never_reads_the_host(void **state)
{
    dl_machine m;
    char *err = NULL, *data = NULL, buf[16], *other = NULL;
    size_t got = 0;
    dl_io_error e = {0};
    const char *paths[2];
    size_t i;
    (void)state;
    paths[0] = outside;
    other = dl_fmt("/hostile/out");
    paths[1] = other;
    assert_true(dl_machine_open(&m, root, &err));
    for (i = 0; i < 2; i++) {
        assert_false(dl_fs_read(&m, paths[i], 1024, &data, NULL, NULL, &e));
        assert_int_equal(e.status, DL_IO_FAILED);
        assert_non_null(strstr(e.message, "Too many levels of symbolic links"));
        dl_io_error_clear(&e);
        assert_false(dl_fs_read_at(&m, paths[i], 0, buf, sizeof buf, &got, &e));
        assert_int_equal(got, 0);
        dl_io_error_clear(&e);
        assert_null(dl_lines_open(&m, paths[i], &e));
        dl_io_error_clear(&e);
        assert_int_equal(dl_fs_kind_of(&m, paths[i], &e), DL_FS_NONE);
        dl_io_error_clear(&e);
        assert_null(dl_fs_realpath(&m, paths[i], &e));
        dl_io_error_clear(&e);
        assert_false(dl_fs_can_read_write(&m, paths[i], &e));
        dl_io_error_clear(&e);
    }
    free(other);
    dl_machine_close(&m);
}

/* ".." above the root stays at the root, also from a relative link; the root's own copy is
 * read, not the host's. */
static void dot_dot_stops_at_the_root(void **state)
{
    dl_machine m;
    char *err = NULL, *data, *path, *real;
    const char *name = strrchr(outside_marker, '/') + 1;
    dl_io_error e = {0};
    (void)state;
    assert_true(dl_machine_open(&m, root, &err));
    path = dl_fmt("/hostile/up/%s", name);
    assert_true(dl_fs_read(&m, path, 1024, &data, NULL, NULL, &e));
    assert_string_equal(data, "INSIDE\n");
    free(data);
    real = dl_fs_realpath(&m, path, &e);
    assert_string_equal(real, outside_marker);
    free(real);
    free(path);
    path = dl_fmt("/../../..%s", outside_marker);
    assert_true(dl_fs_read(&m, path, 1024, &data, NULL, NULL, &e));
    assert_string_equal(data, "INSIDE\n");
    free(data);
    free(path);
    dl_machine_close(&m);
}

/* Under a root a Windows path names ROOT/<drive>/...: either slash, either case of the
 * drive letter, ".." stopping at the root as for any path, errors naming the path as
 * given. */
static void windows_paths_read_below_the_root(void **state)
{
    dl_machine m;
    char *err = NULL, *data = NULL, *path, *p;
    dl_io_error e = {0};
    (void)state;
    dir("/C");
    dir("/C/x");
    put("/C/x/file.txt", "INSIDE-C\n");
    assert_true(dl_machine_open(&m, root, &err));
    assert_true(dl_fs_read(&m, "C:\\x\\file.txt", 1024, &data, NULL, NULL, &e));
    assert_string_equal(data, "INSIDE-C\n");
    free(data);
    assert_true(dl_fs_read(&m, "c:/x\\file.txt", 1024, &data, NULL, NULL, &e));
    assert_string_equal(data, "INSIDE-C\n");
    free(data);
    assert_int_equal(dl_fs_kind_of(&m, "C:\\x", NULL), DL_FS_DIR);
    path = dl_fmt("C:\\..\\..\\..%s", outside_marker);
    for (p = path; *p; p++)
        if (*p == '/')
            *p = '\\';
    assert_true(dl_fs_read(&m, path, 1024, &data, NULL, NULL, &e));
    assert_string_equal(data, "INSIDE\n");
    free(data);
    free(path);
    assert_false(dl_fs_read(&m, "C:\\x\\none.txt", 1024, &data, NULL, NULL, &e));
    assert_int_equal(e.status, DL_IO_NOT_FOUND);
    assert_non_null(strstr(e.message, "C:\\x\\none.txt"));
    dl_io_error_clear(&e);
    dl_machine_close(&m);
}

/* A FIFO (directly or through a link) is refused at once, never opened: opening one for
 * reading waits for a writer forever. */
static void a_fifo_is_not_opened(void **state)
{
    dl_machine m, live;
    char *err = NULL, *data, buf[4], *host_fifo = dl_fmt("%s/hostile/fifo", root);
    const char *paths[] = {"/hostile/fifo", "/hostile/to-fifo"};
    size_t got, i;
    dl_io_error e = {0};
    (void)state;
    assert_true(dl_machine_open(&m, root, &err));
    assert_true(dl_machine_open(&live, "/", &err));
    for (i = 0; i < 2; i++) {
        assert_false(dl_fs_read(&m, paths[i], 1024, &data, NULL, NULL, &e));
        assert_int_equal(e.status, DL_IO_FAILED);
        assert_non_null(strstr(e.message, "not a regular file (a FIFO)"));
        dl_io_error_clear(&e);
        assert_false(dl_fs_read_at(&m, paths[i], 0, buf, sizeof buf, &got, &e));
        dl_io_error_clear(&e);
        assert_null(dl_lines_open(&m, paths[i], &e));
        dl_io_error_clear(&e);
        assert_int_equal(dl_fs_kind_of(&m, paths[i], NULL), DL_FS_OTHER);
    }
    assert_false(dl_fs_read(&live, host_fifo, 1024, &data, NULL, NULL, &e));
    assert_string_equal(strstr(e.message, "not a regular"), "not a regular file (a FIFO)");
    dl_io_error_clear(&e);
    free(host_fifo);
    dl_machine_close(&live);
    dl_machine_close(&m);
}

static void bad_roots_are_refused(void **state)
{
    dl_machine m;
    char *err = NULL, *file = dl_fmt("%s/etc/hostname", root);
    (void)state;
    assert_false(dl_machine_open(&m, "/nonexistent/dlenv-root", &err));
    assert_string_equal(err, "--root /nonexistent/dlenv-root: No such file or directory");
    free(err);
    err = NULL;
    assert_false(dl_machine_open(&m, file, &err));
    assert_non_null(strstr(err, "not a directory"));
    free(err);
    free(file);
}

static void listing_is_sorted(void **state)
{
    dl_machine m;
    char *err = NULL, **names;
    size_t n;
    (void)state;
    assert_true(dl_machine_open(&m, root, &err));
    assert_true(dl_fs_list(&m, "/etc", &names, &n, NULL));
    assert_int_equal(n, 4);
    assert_string_equal(names[0], "hostname");
    assert_string_equal(names[3], "up");
    dl_fs_list_free(names, n);
    dl_machine_close(&m);
}

static void lines_handle_crlf_long_lines_and_no_final_newline(void **state)
{
    dl_machine m;
    dl_lines *l;
    char *err = NULL, *longline = dl_xmalloc(5001);
    const char *line;
    size_t len;
    (void)state;
    memset(longline, 'x', 5000);
    longline[5000] = '\0';
    {
        char *text = dl_fmt("a\nbb\r\n%s\nlast", longline);
        put("/etc/lines", text);
        free(text);
    }
    assert_true(dl_machine_open(&m, root, &err));
    l = dl_lines_open(&m, "/etc/lines", NULL);
    assert_non_null(l);
    assert_string_equal(dl_lines_next(l, &len), "a");
    assert_string_equal(dl_lines_next(l, &len), "bb");
    assert_int_equal(len, 2);
    line = dl_lines_next(l, &len);
    assert_int_equal(len, 5000);
    assert_string_equal(line, longline);
    assert_string_equal(dl_lines_next(l, &len), "last");
    assert_null(dl_lines_next(l, &len));
    dl_lines_close(l);
    free(longline);
    dl_machine_close(&m);
}

/* One endless line (a 300 MB pci.ids of one line) costs DL_LINES_MAX, not its size: the
 * line is cut and the next one read whole. */
static void an_endless_line_is_cut(void **state)
{
    dl_machine m;
    dl_lines *l;
    char *err = NULL, *p = dl_fmt("%s/etc/oneline", root);
    FILE *f = fopen(p, "wb");
    const char *line;
    size_t len, i;
    (void)state;
    assert_non_null(f);
    for (i = 0; i < 4096; i++)
        fputs("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789ab"
              "cdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef012345",
              f);
    fputs("\nnext\n", f);
    fclose(f);
    assert_true(dl_machine_open(&m, root, &err));
    l = dl_lines_open(&m, "/etc/oneline", NULL);
    assert_non_null(l);
    line = dl_lines_next(l, &len);
    assert_non_null(line);
    assert_true(len >= DL_LINES_MAX && len < 4096 * 150);
    assert_true(len <= 2 * DL_LINES_MAX);
    assert_string_equal(dl_lines_next(l, &len), "next");
    assert_null(dl_lines_next(l, &len));
    dl_lines_close(l);
    remove(p);
    free(p);
    dl_machine_close(&m);
}

static void process_output_and_exit_code(void **state)
{
    const char *argv[] = {"sh", "-c", "printf 'out'; printf 'err' >&2; exit 3", NULL};
    dl_proc_opts o = {5000, 0, NULL, NULL, false};
    dl_proc_result r;
    (void)state;
    dl_proc_run(argv, &o, &r);
    assert_true(r.started);
    assert_true(r.exited);
    assert_int_equal(r.exit_code, 3);
    assert_string_equal(r.out, "out");
    assert_string_equal(r.err, "err");
    dl_proc_result_free(&r);
}

static void process_timeout_kills_the_group(void **state)
{
    /* The grandchild holds stdout open: only killing the whole group ends the read. */
    const char *argv[] = {"sh", "-c", "sleep 30 & sleep 30", NULL};
    dl_proc_opts o = {300, 0, NULL, NULL, false};
    dl_proc_result r;
    (void)state;
    dl_proc_run(argv, &o, &r);
    assert_true(r.started);
    assert_true(r.timed_out);
    assert_false(r.exited);
    assert_int_equal(r.term_signal, 9);
    assert_true(r.duration_ms < 5000);
    dl_proc_result_free(&r);
}

/* The child exits at once, but what it started in the background holds its stdout: the
 * answer is read and the child's exit reported within the grace period, not at the
 * deadline as if it had not finished (and the leftover is killed with its group). */
static void process_exit_ends_the_read(void **state)
{
    const char *argv[] = {"sh", "-c", "echo answer; sleep 30 & exit 5", NULL};
    dl_proc_opts o = {10000, 0, NULL, NULL, false};
    dl_proc_result r;
    (void)state;
    dl_proc_run(argv, &o, &r);
    assert_true(r.started);
    assert_false(r.timed_out);
    assert_true(r.exited);
    assert_int_equal(r.exit_code, 5);
    assert_string_equal(r.out, "answer\n");
    assert_true(r.duration_ms < 3000);
    dl_proc_result_free(&r);
}

static void process_output_is_bounded(void **state)
{
    const char *argv[] = {"sh", "-c", "yes | head -c 1000000", NULL};
    dl_proc_opts o = {10000, 1000, NULL, NULL, false};
    dl_proc_result r;
    (void)state;
    dl_proc_run(argv, &o, &r);
    assert_true(r.exited);
    assert_int_equal(r.exit_code, 0);
    assert_int_equal(r.out_len, 1000);
    assert_true(r.out_truncated);
    dl_proc_result_free(&r);
}

static void process_missing_program_and_env(void **state)
{
    const char *missing[] = {"dlenv-no-such-program", NULL};
    const char *env_argv[] = {"/bin/sh", "-c", "printf '%s' \"$ONLY\"", NULL};
    const char *env[] = {"ONLY=this", NULL};
    dl_proc_opts o = {5000, 0, NULL, NULL, false};
    dl_proc_result r;
    (void)state;
    dl_proc_run(missing, &o, &r);
    assert_false(r.started);
    assert_string_equal(r.error, "dlenv-no-such-program: not found on PATH");
    dl_proc_result_free(&r);
    o.env = env;
    dl_proc_run(env_argv, &o, &r);
    assert_string_equal(r.out, "this");
    dl_proc_result_free(&r);
}

static void dynamic_library_reports_its_path(void **state)
{
    char *err = NULL, *path;
    dl_lib *lib = dl_lib_open("libm.so.6", &err);
    dl_lib *none;
    (void)state;
    assert_non_null(lib);
    assert_non_null(dl_lib_sym(lib, "cos"));
    path = dl_lib_path(lib);
    assert_non_null(path);
    assert_true(path[0] == '/');
    free(path);
    dl_lib_close(lib);
    none = dl_lib_open("libdlenv-missing.so.1", &err);
    assert_null(none);
    assert_non_null(strstr(err, "libdlenv-missing.so.1"));
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(absolute_links_resolve_inside_the_root),
        cmocka_unit_test(errors_say_what_and_why),
        cmocka_unit_test(read_limit_reports_truncation),
        cmocka_unit_test(read_at_an_offset),
        cmocka_unit_test(a_link_loop_never_reads_the_host),
        cmocka_unit_test(dot_dot_stops_at_the_root),
        cmocka_unit_test(windows_paths_read_below_the_root),
        cmocka_unit_test(a_fifo_is_not_opened),
        cmocka_unit_test(bad_roots_are_refused),
        cmocka_unit_test(listing_is_sorted),
        cmocka_unit_test(lines_handle_crlf_long_lines_and_no_final_newline),
        cmocka_unit_test(an_endless_line_is_cut),
        cmocka_unit_test(process_output_and_exit_code),
        cmocka_unit_test(process_timeout_kills_the_group),
        cmocka_unit_test(process_exit_ends_the_read),
        cmocka_unit_test(process_output_is_bounded),
        cmocka_unit_test(process_missing_program_and_env),
        cmocka_unit_test(dynamic_library_reports_its_path),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
