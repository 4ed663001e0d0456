/* A cause read from the text alone (no signature row, no rule): its finding, the fix, the
 * candidates the text leaves and the question that would decide. Readings that fire when
 * nothing else was found describe themselves with one of these. */
#ifndef DLENV_EXPLAIN_TEXT_CAUSE_H
#define DLENV_EXPLAIN_TEXT_CAUSE_H

#include "explain/explain.h"

typedef struct dl_text_cause {
    const char *id;               /* a finding id (DIAGNOSES.md) */
    const char *title;            /* why, in one sentence */
    const char *fix;              /* a "# ..." line: what to do */
    const char *alternatives[3];  /* the candidates it leaves, NULL after the last */
    const char *ask;              /* what to ask for to decide; NULL when nothing would */
} dl_text_cause;

/* Adds the cause's finding, quoting the paste's line `line` and, when `also` >= 0, that
 * line too; returns the finding. */
dl_finding *dl_text_cause_add(dl_explanation *e, const dl_text_cause *c, long line, long also);

/* The cause told in the text's terms: the failure of the same id already found takes its
 * title, fix, candidates and question (its evidence stays); without one, it is added,
 * quoting `line`. Returns the finding. */
dl_finding *dl_text_cause_restate(dl_explanation *e, const dl_text_cause *c, long line);

/* The failures among the findings whose id is one of ids step back: warnings, named as
 * candidates (another cause read from the same symptom is the root). */
void dl_text_causes_step_back(dl_explanation *e, const char *const *ids, size_t n);
/* Something was read as a cause: a failure among the findings (a candidate that stepped back
 * to a warning leaves room for the readings that come after it). */
bool dl_text_cause_read(const dl_explanation *e);
/* The line the text's fact (a schema path: "nvml.gpus[0].name") was read from; -1 when the
 * text gave it none. */
long dl_text_line_of_fact(const dl_explanation *e, const char *fact);
/* The line that names the GPU: where the facts' first GPU was read when its vendor is (or,
 * with is = false, is not) `vendor` (a dl_gpu_vendor, plan/plan.h); else the first line
 * holding one of words; -1 when none. */
long dl_text_gpu_line(const dl_explanation *e, int vendor, bool is, const char *const *words,
                      size_t n);
/* torch got past its import: it answered is_available() or a program logged its device (a
 * version alone may be an issue form's field, typed while the import failed). */
bool dl_text_torch_ran(const dl_explanation *e);

#endif
