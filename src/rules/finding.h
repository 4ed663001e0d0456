/* Findings: what the rules conclude from the facts. Each has a stable id from
 * DIAGNOSES.md, a layer, a severity, a title in plain words, the evidence it rests on
 * (facts with their values) and the fix as exact commands. Rules only add findings;
 * renderers only read them. */
#ifndef DLENV_RULES_FINDING_H
#define DLENV_RULES_FINDING_H

#include "facts/facts.h"
#include "facts/schema.h"

/* Layers from the bottom up: the lowest failing one is the root cause. */
typedef enum dl_layer {
    DL_LAYER_HARDWARE,
    DL_LAYER_DRIVER,
    DL_LAYER_CONTAINER,
    DL_LAYER_LIBRARIES,
    DL_LAYER_PYTHON,
    DL_LAYER_TORCH_BUILD,
    DL_LAYER_TORCH_RUNTIME,
    DL_LAYER_PERFORMANCE,
    DL_LAYER_COUNT
} dl_layer;

typedef enum dl_severity { DL_SEV_OK, DL_SEV_INFO, DL_SEV_WARNING, DL_SEV_FAILURE } dl_severity;

typedef struct dl_finding {
    dl_text id;
    dl_text layer;
    dl_text severity;
    dl_text title;
    dl_list evidence;     /* dl_pair: fact path -> value as text */
    dl_list fix;          /* text: commands or steps, in order */
    dl_flag consequence;  /* follows from the root cause below it */
} dl_finding;

typedef struct dl_findings {
    dl_list items;        /* dl_finding */
    dl_text root_cause;   /* the id, or absent when nothing fails */
} dl_findings;

extern const dl_schema dl_finding_schema;
extern const dl_schema dl_findings_schema;

const char *dl_layer_name(dl_layer l);
const char *dl_layer_title(dl_layer l);
const char *dl_severity_name(dl_severity s);
int dl_layer_of_name(const char *name);       /* -1 when unknown */
int dl_severity_of_name(const char *name);    /* -1 when unknown */

/* Adds a finding and returns it for evidence and fixes; its layer is the catalog's for
 * the id (rules/catalog.c), "unknown" for an id the catalog lacks, which never becomes
 * the root cause. */
dl_finding *dl_finding_add(dl_findings *f, const char *id, dl_severity sev,
                           const char *title_fmt, ...)
    DL_PRINTF_LIKE(4, 5)
    ;
void dl_finding_evidence(dl_finding *f, const char *fact, const char *fmt, ...)
    DL_PRINTF_LIKE(3, 4)
    ;
void dl_finding_fix(dl_finding *f, const char *fmt, ...)
    DL_PRINTF_LIKE(2, 3)
    ;
/* The finding's fix is one step holding `words` (the table's general fix, which a reading
 * that knows more replaces). */
bool dl_finding_fix_is_only(const dl_finding *f, const char *words);
/* Drops the finding's fix steps, for a reading that writes better ones. */
void dl_finding_fix_clear(dl_finding *f);
bool dl_findings_has(const dl_findings *f, const char *id);
/* A failure with this id is among the findings (a warning or a note with it is not). */
bool dl_findings_has_failure(const dl_findings *f, const char *id);
/* Every failure among the findings has this id (true when there is none); *last is the last
 * of them, or NULL. For readings that only refine what one reading named. */
bool dl_findings_failures_all(dl_findings *f, const char *id, dl_finding **last);
/* The finding with this id (the first), or NULL: for rules that add to one finding that
 * another rule row started (power_plan_saving on Windows and from NVML). */
dl_finding *dl_findings_get(dl_findings *f, const char *id);
/* Raises a finding's severity to sev; never lowers it. */
void dl_finding_raise(dl_finding *x, dl_severity sev);
bool dl_q_failure(const dl_finding *x);
void dl_findings_free(dl_findings *f);

#endif
