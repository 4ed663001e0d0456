/* --redact: whole names only; paths in any case, plain and JSON-escaped; the user name
 * only in paths and addresses; JSON keys never. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "render/redact.h"

#include <stdlib.h>

static void expect(const dl_redaction *r, const char *text, const char *want)
{
    char *got = dl_redact(text, r);
    assert_string_equal(got, want);
    free(got);
}

static void expect_json(const dl_redaction *r, const char *text, const char *want)
{
    char *got = dl_redact_json(text, r);
    assert_string_equal(got, want);
    free(got);
}

static void linux_paths_and_names(void **state)
{
    const dl_redaction r = {"/home/ana", "ana", "ana-laptop"};
    (void)state;
    expect(&r, "/home/ana/venv/bin/python", "~/venv/bin/python");
    /* A longer name that starts with the user's is someone else's. */
    expect(&r, "/home/anastasia/x and /home/ana", "/home/anastasia/x and ~");
    expect(&r, "/home/ana/anaconda3/bin/python", "~/anaconda3/bin/python");
    expect(&r, "host ana-laptop, user ana@ana-laptop", "host <host>, user <user>@<host>");
    expect(&r, "/srv/Ana/data /mnt/ana", "/srv/<user>/data /mnt/<user>");
    expect(&r, "banana ana.smith", "banana ana.smith");
    expect(&r, "Ana-Laptop.lan ana-laptop2", "<host>.lan ana-laptop2");
}

/* A user called "root": the word stays, the home and paths go. */
static void user_named_like_a_word(void **state)
{
    const dl_redaction r = {"/root", "root", "build-07"};
    (void)state;
    expect(&r, "Root cause: driver_not_loaded (root of the tree)",
           "Root cause: driver_not_loaded (root of the tree)");
    expect(&r, "/root/.venv/bin/python and /srv/root/x", "~/.venv/bin/python and /srv/<user>/x");
}

static void windows_paths(void **state)
{
    const dl_redaction r = {"C:\\Users\\Ana", "Ana", "DESKTOP-7Q2"};
    (void)state;
    expect(&r, "C:\\Users\\Ana\\venv\\Scripts\\python.exe", "~\\venv\\Scripts\\python.exe");
    expect(&r, "{\"path\":\"C:\\\\Users\\\\Ana\\\\venv\\\\python.exe\"}",
           "{\"path\":\"~\\\\venv\\\\python.exe\"}");
    expect(&r, "c:\\users\\ana\\AppData", "~\\AppData");
    expect(&r, "c:/users/ana/x on desktop-7q2", "c:/users/<user>/x on <host>");
}

static void json_values_not_keys(void **state)
{
    const dl_redaction r = {"/root", "root", "build-07"};
    const dl_redaction w = {"C:\\Users\\Ana", "Ana", "DESKTOP-7Q2"};
    (void)state;
    expect_json(&r, "{\"root\": \"/root/x\", \"host\": \"build-07\", \"user\" : \"root\"}",
                "{\"root\": \"~/x\", \"host\": \"<host>\", \"user\" : \"<user>\"}");
    expect_json(&r, "{\"root_cause\":\"a \\\"quoted\\\" root\",\"n\":[\"build-07.lan\"]}",
                "{\"root_cause\":\"a \\\"quoted\\\" root\",\"n\":[\"<host>.lan\"]}");
    expect_json(&w, "{\"python\":\"C:\\\\Users\\\\ana\\\\venv\"}", "{\"python\":\"~\\\\venv\"}");
}

static void short_or_missing_values_left_alone(void **state)
{
    const dl_redaction none = {NULL, NULL, NULL};
    const dl_redaction tiny = {"/", "al", "pc"};
    (void)state;
    expect(&none, "/home/ana", "/home/ana");
    expect(&tiny, "/home/al on pc", "/home/al on pc");
    /* in JSON, a value that is the name and nothing else is the name, however short */
    expect_json(&tiny, "{\"host\":\"pc\",\"os\":\"pc linux\",\"user\":\"AL\"}",
                "{\"host\":\"<host>\",\"os\":\"pc linux\",\"user\":\"<user>\"}");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(linux_paths_and_names),
        cmocka_unit_test(user_named_like_a_word),
        cmocka_unit_test(windows_paths),
        cmocka_unit_test(json_values_not_keys),
        cmocka_unit_test(short_or_missing_values_left_alone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
