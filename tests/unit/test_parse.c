/* The paste reader: line ends, markdown fences, quoting, HTML entities, tabs, invalid
 * UTF-8, long lines, and the original line numbers kept for evidence; and the search the
 * signatures use. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "parse/paste.h"

#include <stdlib.h>
#include <string.h>

static void read_text(const char *text, dl_paste *p)
{
    dl_paste_read(text, strlen(text), p);
}

static void line_ends_and_numbers(void **state)
{
    dl_paste p;
    (void)state;
    read_text("one\r\ntwo\rthree\nfour", &p);
    assert_int_equal(p.count, 4);
    assert_string_equal(p.lines[1].text, "two");
    assert_string_equal(p.lines[3].text, "four");
    assert_int_equal(p.lines[3].number, 4);
    dl_paste_free(&p);
}

static void fences_quotes_entities_tabs(void **state)
{
    dl_paste p;
    (void)state;
    read_text("```text\n> > Error &lt;804&gt; &amp; more\n\tindented\n```\nafter", &p);
    /* The fence lines are dropped, the numbers of the others kept. */
    assert_int_equal(p.count, 3);
    assert_string_equal(p.lines[0].text, "Error <804> & more");
    assert_int_equal(p.lines[0].number, 2);
    assert_string_equal(p.lines[1].text, " indented");
    assert_int_equal(p.lines[2].number, 5);
    dl_paste_free(&p);
}

static void invalid_utf8_stays_readable(void **state)
{
    dl_paste p;
    const char text[] = "Auslagerungsdatei zu klein f\xfcr \x1b[31mrot";
    (void)state;
    dl_paste_read(text, sizeof text - 1, &p);
    assert_int_equal(p.count, 1);
    assert_non_null(strstr(p.lines[0].text, "f\\xFCr") ? strstr(p.lines[0].text, "f\\xFCr")
                                                       : strstr(p.lines[0].text, "f\\xfcr"));
    assert_null(strchr(p.lines[0].text, '\x1b'));
    dl_paste_free(&p);
}

static void long_lines_are_cut_and_nul_bytes_survive(void **state)
{
    dl_paste p;
    size_t n = 3 * DL_PASTE_MAX_LINE;
    char *text = malloc(n + 8);
    (void)state;
    memset(text, 'x', n);
    memcpy(text + n, "\nA\0B\n", 5);
    dl_paste_read(text, n + 5, &p);
    assert_int_equal(p.count, 2);
    assert_int_equal(strlen(p.lines[0].text), DL_PASTE_MAX_LINE);
    assert_non_null(strstr(p.lines[1].text, "A"));
    dl_paste_free(&p);
    free(text);
}

static void find_ignores_case_and_reports_lines(void **state)
{
    dl_paste p;
    (void)state;
    read_text("nothing\nFailed to initialize NVML: Driver/Library version mismatch\nend", &p);
    assert_int_equal(dl_paste_find(&p, 0, "driver/library version mismatch"), 1);
    assert_int_equal(dl_paste_find(&p, 2, "driver/library"), -1);
    assert_int_equal(dl_paste_find(&p, 0, "not there"), -1);
    dl_paste_free(&p);
    read_text("", &p);
    assert_int_equal(p.count, 0);
    assert_int_equal(dl_paste_find(&p, 0, "x"), -1);
    dl_paste_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(line_ends_and_numbers),
        cmocka_unit_test(fences_quotes_entities_tabs),
        cmocka_unit_test(invalid_utf8_stays_readable),
        cmocka_unit_test(long_lines_are_cut_and_nul_bytes_survive),
        cmocka_unit_test(find_ignores_case_and_reports_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
