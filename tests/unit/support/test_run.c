#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_run.h"

#include <stdlib.h>

void dl_test_run_open(dl_test_run *r, const char *root)
{
    char *error = NULL;
    if (!dl_machine_open(&r->m, root, &error))
        fail_msg("cannot open root %s: %s", root, error);
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
