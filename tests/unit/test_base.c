#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/str.h"
#include "base/url.h"

#include <stdlib.h>
#include <string.h>

static void fixed_fmt_marks_a_cut_with_an_ellipsis(void **state)
{
    char field[12];
    (void)state;
    assert_true(dl_fixed_fmt(field, sizeof field, "%s", "2.9.1"));
    assert_string_equal(field, "2.9.1");
    assert_true(dl_fixed_fmt(field, sizeof field, "%s", "12345678901")); /* exactly fits */
    assert_string_equal(field, "12345678901");
    assert_false(dl_fixed_fmt(field, sizeof field, "%s", "123456789012"));
    assert_string_equal(field, "12345678\xE2\x80\xA6");
    /* never half a character: "\xC3\xA9" (e-acute) straddling the cut goes whole */
    assert_false(dl_fixed_fmt(field, sizeof field, "%s", "1234567\xC3\xA9xyz"));
    assert_string_equal(field, "1234567\xE2\x80\xA6");
    assert_true(dl_utf8_valid(field, strlen(field)));
}

static void utf8_clean_keeps_valid_text(void **state)
{
    const char *s = "GeForce RTX 4090 \xE2\x80\x93 \xE4\xB8\xAD\xE6\x96\x87";
    char *c = dl_utf8_clean(s, strlen(s));
    (void)state;
    assert_string_equal(c, s);
    free(c);
}

static void utf8_clean_escapes_invalid_bytes_and_controls(void **state)
{
    const char s[] = "Caf\xE9 \x1B[31m\xC0\xAF\xED\xA0\x80 ok";
    char *c = dl_utf8_clean(s, sizeof s - 1);
    (void)state;
    assert_string_equal(c, "Caf\\xE9 \\x1B[31m\\xC0\\xAF\\xED\\xA0\\x80 ok");
    assert_true(dl_utf8_valid(c, strlen(c)));
    free(c);
}

static void utf8_valid_rejects_truncated_sequence(void **state)
{
    (void)state;
    assert_false(dl_utf8_valid("\xE4\xB8", 2));
    assert_true(dl_utf8_valid("\xE4\xB8\xAD", 3));
    assert_false(dl_utf8_valid("\xF5\x80\x80\x80", 4));
}

static void parse_u64_needs_the_whole_string(void **state)
{
    unsigned long long v;
    (void)state;
    assert_true(dl_parse_u64(" 10de\n", 16, &v));
    assert_int_equal(v, 0x10de);
    assert_false(dl_parse_u64("10dz", 16, &v));
    assert_false(dl_parse_u64("", 10, &v));
    assert_false(dl_parse_u64("-1", 10, &v));
    assert_false(dl_parse_u64("99999999999999999999999", 10, &v));
}

static void text_helpers(void **state)
{
    char s[] = "  padded \t\n";
    (void)state;
    assert_string_equal(dl_trim(s), "padded");
    assert_true(dl_starts_with("nvidia_uvm", "nvidia"));
    assert_false(dl_starts_with("nv", "nvidia"));
    assert_true(dl_ends_with("libcuda.so.1", ".so.1"));
    assert_true(dl_contains_ci("5.15.153.1-microsoft-standard-WSL2", "wsl2"));
    assert_false(dl_contains_ci("6.1.0-18-amd64", "microsoft"));
}

static void str_replace_replaces_every_one(void **state)
{
    char *a = dl_str_replace("nvidia-smi, then nvidia-smi -q", "nvidia-smi", "rocm-smi");
    char *b = dl_str_replace("no match here", "nvidia-smi", "rocm-smi");
    char *c = dl_str_replace("abc", "", "x");
    (void)state;
    assert_string_equal(a, "rocm-smi, then rocm-smi -q");
    assert_string_equal(b, "no match here");
    assert_string_equal(c, "abc");
    free(a);
    free(b);
    free(c);
}

static void semicolon_list_has_whole_entries(void **state)
{
    (void)state;
    assert_true(dl_semicolon_list_has("cu118;cu121;cu124", "cu121"));
    assert_true(dl_semicolon_list_has("cu118;cu121", "cu118"));
    assert_true(dl_semicolon_list_has("cu124", "cu124"));
    assert_false(dl_semicolon_list_has("cu1180;cu121", "cu118"));
    assert_false(dl_semicolon_list_has("xcu118;cu121", "cu118"));
    assert_false(dl_semicolon_list_has(NULL, "cu118"));
    assert_false(dl_semicolon_list_has("cu118", ""));
}

static void buffer_grows(void **state)
{
    dl_buf b = {0};
    char *s;
    int i;
    (void)state;
    for (i = 0; i < 1000; i++)
        dl_buf_printf(&b, "%d,", i);
    s = dl_buf_take(&b);
    assert_int_equal(strlen(s), 3890);
    assert_true(dl_starts_with(s, "0,1,2,"));
    assert_null(b.data);
    free(s);
}

static void expect_join(const char *dir, const char *name, const char *want)
{
    char *got = dl_path_join(dir, name);
    assert_string_equal(got, want);
    free(got);
}

static void path_join_uses_the_directory_separator(void **state)
{
    (void)state;
    expect_join("/usr/local", "cuda", "/usr/local/cuda");
    expect_join("/usr/local/", "bin/nvcc", "/usr/local/bin/nvcc");
    expect_join("C:\\Python312", "Lib/site-packages", "C:\\Python312\\Lib\\site-packages");
    expect_join("C:\\", "Windows", "C:\\Windows");
    /* the separator the directory already uses, not a mix */
    expect_join("C:/Users/li", "torch", "C:/Users/li/torch");
    expect_join("C:/", "a/b", "C:/a/b");
    expect_join("C:/Users\\li", "a/b", "C:/Users\\li\\a\\b");
    expect_join("\\\\server\\share", "x/y", "\\\\server\\share\\x\\y");
    /* a Linux path with a backslash in a name stays a Linux path */
    expect_join("/tmp/a\\b", "c", "/tmp/a\\b/c");
}

static void expect_stripped(const char *in, const char *want)
{
    char *copy = dl_strdup(in);
    assert_string_equal(dl_url_strip_userinfo(copy), want);
    free(copy);
}

/* The userinfo of every URL goes, with its '@'; the rest of the text stays. */
static void urls_lose_their_credentials(void **state)
{
    (void)state;
    expect_stripped("https://user:secret@host/simple/x", "https://host/simple/x");
    expect_stripped("https://TOKEN@github.com/o/r.git", "https://github.com/o/r.git");
    expect_stripped("git+https://u:p@h:8443/r.git@v1.0", "git+https://h:8443/r.git@v1.0");
    expect_stripped("https://u:p@ss@host?q=a@b#f@g", "https://host?q=a@b#f@g");
    expect_stripped("from (https://a:b@h/x) and http://c:d@i", "from (https://h/x) and http://i");
    expect_stripped("\"https://a:b@h\"", "\"https://h\"");
    expect_stripped("file:///home/u@x/f", "file:///home/u@x/f");
    expect_stripped("user@host:path and a://", "user@host:path and a://");
    expect_stripped("://a:b@h", "://a:b@h");
    expect_stripped("", "");
}

/* Tokens as strtok_r cuts them: runs of separators are one cut, none is empty. */
static void tokens_skip_empty_fields(void **state)
{
    char text[] = "..a.bc..d.";
    char *cursor = text;
    (void)state;
    assert_string_equal(dl_str_token(&cursor, "."), "a");
    assert_string_equal(dl_str_token(&cursor, "."), "bc");
    assert_string_equal(dl_str_token(&cursor, ".\n"), "d");
    assert_null(dl_str_token(&cursor, "."));
    assert_null(dl_str_token(&cursor, "."));
}

static void package_names_compare_as_pep503(void **state)
{
    (void)state;
    assert_true(dl_package_name_equal("flash-attn", "Flash_Attn"));
    assert_true(dl_package_name_equal("flash_attn", "flash.attn"));
    assert_true(dl_package_name_equal("a--b", "A_b"));
    assert_false(dl_package_name_equal("flash-attn", "flashattn"));
    assert_false(dl_package_name_equal("torch", "torchvision"));
    assert_false(dl_package_name_equal("torchvision", "torch"));
    assert_false(dl_package_name_equal(NULL, "torch"));
}

static void word_in_path_touches_a_separator(void **state)
{
    const char *unix_path = "/home/radeon/x", *win = "C:\\Users\\iris\\x", *prose = "a radeon card";
    (void)state;
    assert_true(dl_str_in_path(unix_path, strstr(unix_path, "radeon"), 6));
    assert_true(dl_str_in_path(win, strstr(win, "iris"), 4));
    assert_false(dl_str_in_path(prose, strstr(prose, "radeon"), 6));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(path_join_uses_the_directory_separator),
        cmocka_unit_test(urls_lose_their_credentials),
        cmocka_unit_test(utf8_clean_keeps_valid_text),
        cmocka_unit_test(utf8_clean_escapes_invalid_bytes_and_controls),
        cmocka_unit_test(utf8_valid_rejects_truncated_sequence),
        cmocka_unit_test(parse_u64_needs_the_whole_string),
        cmocka_unit_test(text_helpers),
        cmocka_unit_test(str_replace_replaces_every_one),
        cmocka_unit_test(semicolon_list_has_whole_entries),
        cmocka_unit_test(word_in_path_touches_a_separator),
        cmocka_unit_test(buffer_grows),
        cmocka_unit_test(tokens_skip_empty_fields),
        cmocka_unit_test(fixed_fmt_marks_a_cut_with_an_ellipsis),
        cmocka_unit_test(package_names_compare_as_pep503),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
