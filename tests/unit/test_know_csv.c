#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "know/csv.h"

#include <stdlib.h>
#include <string.h>

/* Parses text that must be well-formed; the caller frees c. */
static void parse_ok(const char *text, size_t len, dl_csv *c)
{
    char *error = NULL;
    bool ok = dl_csv_parse("t.csv", text, len, c, &error);
    if (!ok)
        fail_msg("unexpected error: %s", error);
    assert_null(error);
}

/* Parses text that must fail with exactly this message. */
static void parse_fails(const char *text, size_t len, const char *expected)
{
    dl_csv c;
    char *error = NULL;
    assert_false(dl_csv_parse("t.csv", text, len, &c, &error));
    assert_non_null(error);
    assert_string_equal(error, expected);
    assert_int_equal(c.rows, 0);
    assert_null(c.cells);
    free(error);
}

static const char *cell(const dl_csv *c, size_t row, size_t col)
{
    return c->cells[row * c->cols + col];
}

static void plain_table(void **state)
{
    const char *text = "a,b,c\n1,2,3\n4,5,6\n";
    dl_csv c;
    (void)state;
    parse_ok(text, strlen(text), &c);
    assert_int_equal(c.cols, 3);
    assert_int_equal(c.rows, 2);
    assert_string_equal(c.header[2], "c");
    assert_string_equal(cell(&c, 0, 0), "1");
    assert_string_equal(cell(&c, 1, 2), "6");
    assert_int_equal(c.lines[0], 2);
    assert_int_equal(c.lines[1], 3);
    assert_int_equal(dl_csv_column(&c, "b"), 1);
    assert_int_equal(dl_csv_column(&c, "z"), -1);
    dl_csv_free(&c);
}

static void quotes_commas_and_newlines(void **state)
{
    const char *text = "name,note\n"
                       "\"a, b\",\"say \"\"hi\"\"\"\n"
                       "\"two\nlines\",\"\"\n"
                       "x,\"\"\"\"\n";
    dl_csv c;
    (void)state;
    parse_ok(text, strlen(text), &c);
    assert_int_equal(c.rows, 3);
    assert_string_equal(cell(&c, 0, 0), "a, b");
    assert_string_equal(cell(&c, 0, 1), "say \"hi\"");
    assert_string_equal(cell(&c, 1, 0), "two\nlines");
    assert_string_equal(cell(&c, 1, 1), "");
    assert_string_equal(cell(&c, 2, 1), "\"");
    /* A row's line is where it starts; the embedded newline moves the next one down. */
    assert_int_equal(c.lines[1], 3);
    assert_int_equal(c.lines[2], 5);
    dl_csv_free(&c);
}

static void crlf_and_embedded_crlf(void **state)
{
    const char *text = "a,b\r\n1,\"x\r\ny\"\r\n2,3\r\n";
    dl_csv c;
    (void)state;
    parse_ok(text, strlen(text), &c);
    assert_int_equal(c.rows, 2);
    assert_string_equal(c.header[1], "b");
    assert_string_equal(cell(&c, 0, 1), "x\ny");
    assert_string_equal(cell(&c, 1, 1), "3");
    assert_int_equal(c.lines[1], 4);
    dl_csv_free(&c);
}

static void empty_fields(void **state)
{
    const char *text = "a,b,c\n,,\n1,,\n,,3";
    dl_csv c;
    (void)state;
    parse_ok(text, strlen(text), &c);
    assert_int_equal(c.rows, 3);
    assert_string_equal(cell(&c, 0, 0), "");
    assert_string_equal(cell(&c, 0, 2), "");
    assert_string_equal(cell(&c, 1, 0), "1");
    assert_string_equal(cell(&c, 2, 2), "3");
    dl_csv_free(&c);
}

static void trailing_newline_or_not(void **state)
{
    dl_csv with, without;
    (void)state;
    parse_ok("a,b\n1,2\n", 8, &with);
    parse_ok("a,b\n1,2", 7, &without);
    assert_int_equal(with.rows, 1);
    assert_int_equal(without.rows, 1);
    assert_string_equal(cell(&with, 0, 1), "2");
    assert_string_equal(cell(&without, 0, 1), "2");
    dl_csv_free(&with);
    dl_csv_free(&without);
}

static void header_only_and_bom(void **state)
{
    const char *text = "\xEF\xBB\xBF" "a,b\n";
    dl_csv c;
    (void)state;
    parse_ok(text, strlen(text), &c);
    assert_int_equal(c.rows, 0);
    assert_int_equal(c.cols, 2);
    assert_string_equal(c.header[0], "a"); /* the byte-order mark is not part of the name */
    dl_csv_free(&c);
}

static void utf8_values_and_character_columns(void **state)
{
    const char *text = "a,b\n\xC3\xA9t\xC3\xA9,\"x\n";
    dl_csv c;
    (void)state;
    parse_ok("a\n\xE4\xB8\xAD\xE6\x96\x87\n", 9, &c);
    assert_string_equal(cell(&c, 0, 0), "\xE4\xB8\xAD\xE6\x96\x87");
    dl_csv_free(&c);
    /* "été," is four characters (six bytes): the quote is in column 5. */
    parse_fails(text, strlen(text), "t.csv:2:5: unterminated quoted field");
}

static void unterminated_quote(void **state)
{
    (void)state;
    parse_fails("a,b\n1,\"open\n2,3\n", 16, "t.csv:2:3: unterminated quoted field");
}

static void quote_inside_unquoted_field(void **state)
{
    (void)state;
    parse_fails("a,b\n1,ab\"c\n", 11,
                "t.csv:2:5: quote inside an unquoted field (quote the whole field, double the "
                "quote)");
}

static void text_after_closing_quote(void **state)
{
    (void)state;
    parse_fails("a,b\n\"x\"y,1\n", 11, "t.csv:2:4: text after the closing quote of a field");
}

static void field_count_mismatch(void **state)
{
    (void)state;
    parse_fails("a,b,c\n1,2,3\n1,2\n", 16, "t.csv:3: row has 2 fields, the header has 3");
    parse_fails("a,b\n1,2,3\n", 10, "t.csv:2: row has 3 fields, the header has 2");
    /* A blank line is a row of one empty field, not something to skip silently. */
    parse_fails("a,b\n1,2\n\n3,4\n", 13, "t.csv:3: row has 1 field, the header has 2");
    /* The line reported is where the row starts, even after a quoted newline. */
    parse_fails("a,b\n\"x\ny\"\n", 10, "t.csv:2: row has 1 field, the header has 2");
}

static void invalid_utf8(void **state)
{
    (void)state;
    parse_fails("a,b\n1,x\xFF\n", 9, "t.csv:2:4: invalid UTF-8 (byte 0xff)");
    /* Inside a quoted field too, and a truncated sequence at the end. */
    parse_fails("a\n\"\xC3\xA9\n\xC3\"\n", 9, "t.csv:3:1: invalid UTF-8 (byte 0xc3)");
    parse_fails("a\n\xE2\x82", 4, "t.csv:2:1: invalid UTF-8 (byte 0xe2)");
    /* An overlong encoding of '/' is not UTF-8. */
    parse_fails("a\n\xC0\xAF\n", 5, "t.csv:2:1: invalid UTF-8 (byte 0xc0)");
}

static void nul_byte(void **state)
{
    (void)state;
    parse_fails("a,b\n1,2\0\n", 9, "t.csv:2:4: NUL byte");
}

static void bare_carriage_return(void **state)
{
    (void)state;
    parse_fails("a,b\r1,2\n", 8, "t.csv:1:4: carriage return without a line feed");
}

static void bad_headers(void **state)
{
    (void)state;
    parse_fails("", 0, "t.csv:1: empty file: no header row");
    parse_fails("a,,c\n1,2,3\n", 11, "t.csv:1: header column 2 has no name");
    parse_fails("a,b,a\n1,2,3\n", 12, "t.csv:1: the header names column 'a' twice");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plain_table),
        cmocka_unit_test(quotes_commas_and_newlines),
        cmocka_unit_test(crlf_and_embedded_crlf),
        cmocka_unit_test(empty_fields),
        cmocka_unit_test(trailing_newline_or_not),
        cmocka_unit_test(header_only_and_bom),
        cmocka_unit_test(utf8_values_and_character_columns),
        cmocka_unit_test(unterminated_quote),
        cmocka_unit_test(quote_inside_unquoted_field),
        cmocka_unit_test(text_after_closing_quote),
        cmocka_unit_test(field_count_mismatch),
        cmocka_unit_test(invalid_utf8),
        cmocka_unit_test(nul_byte),
        cmocka_unit_test(bare_carriage_return),
        cmocka_unit_test(bad_headers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
