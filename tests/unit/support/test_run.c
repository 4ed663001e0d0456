#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_run.h"

#include <stdlib.h>
#include <string.h>

void dl_test_run_open(dl_test_run *r, const char *root)
{
    char *error = NULL;
    if (!dl_machine_open(&r->m, root, &error))
        fail_msg("cannot open root %s: %s", root, error);
    memset(&r->ctx, 0, sizeof r->ctx);
    r->ctx.machine = &r->m;
    dl_facts_init(&r->f);
    r->out.status = DL_PROBE_OK;
    r->out.detail = NULL;
}

void dl_test_run_free(dl_test_run *r)
{
    dl_facts_free(&r->f);
    free(r->out.detail);
    dl_machine_close(&r->m);
}

void dl_assert_known(const dl_text *t, const char *value)
{
    if (!t->value)
        fail_msg("expected '%s', got unknown (%s)", value, t->why ? t->why : "absent");
    assert_string_equal(t->value, value);
}

void dl_assert_unknown(const dl_text *t, const char *words)
{
    if (t->value)
        fail_msg("expected unknown (%s), got '%s'", words, t->value);
    assert_non_null(t->why);
    if (!strstr(t->why, words))
        fail_msg("reason '%s' does not mention '%s'", t->why, words);
}
