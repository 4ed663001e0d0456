#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "probe/system/os_release.h"

#include <stdlib.h>
#include <string.h>

static void parses_quoting_and_comments(void **state)
{
    const char *text = "# comment\r\nNAME=\"Ubuntu\"\r\nVERSION_ID='22.04'\nID=ubuntu\n"
                       "PRETTY_NAME=\"Say \\\"hi\\\" \\\\ ok\"\nBROKEN LINE\nID=ubuntu2";
    dl_os_release rel;
    (void)state;
    dl_os_release_parse(text, strlen(text), &rel);
    assert_string_equal(dl_os_release_get(&rel, "NAME"), "Ubuntu");
    assert_string_equal(dl_os_release_get(&rel, "VERSION_ID"), "22.04");
    assert_string_equal(dl_os_release_get(&rel, "PRETTY_NAME"), "Say \"hi\" \\ ok");
    assert_string_equal(dl_os_release_get(&rel, "ID"), "ubuntu2");
    assert_null(dl_os_release_get(&rel, "VERSION"));
    dl_os_release_free(&rel);
}

static void missing_key_is_unknown_with_reason(void **state)
{
    dl_os_release rel;
    dl_text t = {0};
    (void)state;
    dl_os_release_parse("ID=arch\n", 8, &rel);
    dl_os_release_field(&rel, "VERSION_ID", "/etc/os-release", &t);
    assert_null(t.value);
    assert_string_equal(t.why, "/etc/os-release has no VERSION_ID");
    free(t.why);
    dl_os_release_free(&rel);
}

static void unterminated_quote_keeps_what_is_there(void **state)
{
    dl_os_release rel;
    (void)state;
    dl_os_release_parse("NAME=\"Debian", 12, &rel);
    assert_string_equal(dl_os_release_get(&rel, "NAME"), "Debian");
    dl_os_release_free(&rel);
}

static void glibc_version_from_binary_bytes(void **state)
{
    const char blob[] = "\177ELF\0\0junk GNU C Library (Debian GLIBC 2.36-9+deb12u4) stable "
                        "release version 2.36.\nCopyright";
    char *v;
    (void)state;
    v = dl_glibc_version_in(blob, sizeof blob - 1);
    assert_string_equal(v, "2.36");
    free(v);
    assert_null(dl_glibc_version_in("release version ", 16));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parses_quoting_and_comments),
        cmocka_unit_test(missing_key_is_unknown_with_reason),
        cmocka_unit_test(unterminated_quote_keeps_what_is_there),
        cmocka_unit_test(glibc_version_from_binary_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
