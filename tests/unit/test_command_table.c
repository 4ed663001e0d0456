/* The command table and its option tables: what the parser relies on, and did-you-mean. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cli/commands.h"
#include "cli/suggest.h"

#include <stdlib.h>
#include <string.h>

/* The parser finds the command before it knows the command's options, so an option name
 * must take a value everywhere or nowhere, whichever table holds it. */
static void same_option_same_shape(void **state)
{
    const dl_command *a, *b;
    const dl_option *o, *p;
    (void)state;
    for (a = dl_commands; a->name; a++)
        for (o = a->options; o->name; o++) {
            assert_null(dl_option_find(dl_common_options, o->name, strlen(o->name), 0));
            for (b = dl_commands; b->name; b++) {
                p = dl_option_find(b->options, o->name, strlen(o->name), 0);
                if (p) {
                    assert_int_equal(p->arg != NULL, o->arg != NULL);
                    assert_int_equal(p->short_name, o->short_name);
                }
            }
        }
}

/* Each row complete, each command's options named once. */
static void rows_complete(void **state)
{
    const dl_command *c;
    const dl_option *o;
    (void)state;
    for (c = dl_commands; c->name; c++) {
        assert_non_null(c->summary);
        assert_non_null(c->run);
        assert_non_null(c->options);
        assert_non_null(c->positional.usage);
        assert_true(c->positional.max <= DL_CLI_MAX_ARGS ||
                    c->positional.max == DL_POSITIONAL_LIST);
        assert_ptr_equal(dl_command_find(c->name), c);
        for (o = c->options; o->name; o++) {
            assert_ptr_equal(dl_option_find(c->options, o->name, strlen(o->name), 0), o);
            assert_non_null(o->help);
            assert_true(o->kind != DL_OPTK_CALL || o->set);
        }
    }
    assert_null(dl_command_find("doctr"));
}

static void edit_distance(void **state)
{
    (void)state;
    assert_int_equal(dl_edit_distance("doctor", "doctor"), 0);
    assert_int_equal(dl_edit_distance("doctr", "doctor"), 1);
    assert_int_equal(dl_edit_distance("drvier", "driver"), 1); /* a swap is one step */
    assert_int_equal(dl_edit_distance("JSON", "json"), 0);
    assert_int_equal(dl_edit_distance("", "abc"), 3);
    assert_int_equal(dl_edit_distance("kitten", "sitting"), 3);
}

static void suggestions(void **state)
{
    (void)state;
    assert_string_equal(dl_command_suggest("doctr"), "doctor");
    assert_string_equal(dl_command_suggest("snapshto"), "snapshot");
    assert_string_equal(dl_command_suggest("Plan"), "plan");
    assert_null(dl_command_suggest("frobnicate"));
    assert_null(dl_command_suggest("xyz"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_option_same_shape),
        cmocka_unit_test(rows_complete),
        cmocka_unit_test(edit_distance),
        cmocka_unit_test(suggestions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
