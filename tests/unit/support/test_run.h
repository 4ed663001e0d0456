/* What the probe unit tests share: a machine opened on a fixture root, empty facts and an
 * ok outcome, and their release; assertions on text facts. */
#ifndef DLENV_TEST_RUN_H
#define DLENV_TEST_RUN_H

#include "facts/facts.h"
#include "os/os.h"
#include "probe/probe.h"

typedef struct dl_test_run {
    dl_machine m;
    dl_probe_ctx ctx;   /* m, default settings */
    dl_facts f;
    dl_probe_outcome out;
} dl_test_run;

/* Opens root, failing the test when it cannot. */
void dl_test_run_open(dl_test_run *r, const char *root);
void dl_test_run_free(dl_test_run *r);

/* A text fact that must be known with this value, or unknown with a reason that mentions
 * these words; the failure message shows what it was instead. */
void dl_assert_known(const dl_text *t, const char *value);
void dl_assert_unknown(const dl_text *t, const char *words);

#endif
