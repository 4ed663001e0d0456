/* What changed between two sets of facts and their findings (`dlenv diff`). The facts are
 * walked through their schema (facts/schema.c), so every fact is compared without a
 * hand-written list; list items are matched by identity (an interpreter by its path, a
 * package by its name, a GPU by its UUID), not by position; values that differ from run to
 * run (clocks, memory in use, timings, measurements) are marked volatile and left out
 * unless asked for. Changes come in the order that matters: driver, CUDA, torch, Python,
 * libraries on the path, settings, then the rest. Pure: no I/O. */
#ifndef DLENV_DIFF_FACTS_DIFF_H
#define DLENV_DIFF_FACTS_DIFF_H

#include "rules/finding.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum dl_diff_group {
    DL_DIFF_DRIVER,
    DL_DIFF_CUDA,
    DL_DIFF_TORCH,
    DL_DIFF_PYTHON,
    DL_DIFF_LIBRARIES,
    DL_DIFF_SETTINGS,
    DL_DIFF_OTHER,
    DL_DIFF_GROUP_COUNT
} dl_diff_group;

typedef enum dl_diff_importance { DL_DIFF_LOW, DL_DIFF_MEDIUM, DL_DIFF_HIGH } dl_diff_importance;

typedef enum dl_diff_kind { DL_DIFF_CHANGED, DL_DIFF_ADDED, DL_DIFF_REMOVED } dl_diff_kind;

typedef struct dl_fact_change {
    dl_diff_group group;
    dl_diff_importance importance;
    dl_diff_kind kind;
    bool volatile_value;   /* differs run to run, or only an unknown's reason or a
                              version's precision changed; kept only when asked for */
    bool bytes;            /* the values are byte counts */
    char *path;            /* nvml.driver_version; list items by identity:
                              pythons[/usr/bin/python3].runtime.cuda */
    char *label;           /* the schema's labels: "NVML > Driver" */
    char *old_value;       /* as text ("unknown: why" for an unknown); NULL: absent */
    char *new_value;
    const char *note;      /* why a high-importance change matters; NULL otherwise */
    int rank;              /* among high ones, how strongly it claims the headline (0 first) */
    size_t seq;            /* discovery order, for a stable sort */
} dl_fact_change;

typedef enum dl_finding_change_kind {
    DL_FINDING_APPEARED,
    DL_FINDING_GONE,
    DL_FINDING_SEVERITY    /* the same finding at another severity */
} dl_finding_change_kind;

typedef struct dl_finding_change {
    dl_finding_change_kind kind;
    char *id;
    char *subject;         /* the fact it rests on: its first evidence key; "" when none */
    char *title;           /* the newer title when there is one */
    char *severity;        /* now; for a finding that went away, what it was */
    char *old_severity;    /* DL_FINDING_SEVERITY only */
} dl_finding_change;

typedef struct dl_diff {
    dl_fact_change *facts;
    size_t n_facts;
    dl_finding_change *findings;
    size_t n_findings;
    size_t n_volatile;     /* volatile changes seen, kept or not */
    size_t n_runtime_skipped; /* interpreters whose `import torch` ran on one side only:
                                 its results are not compared */
} dl_diff;

/* Adds every change from a (before) to b (after), volatile ones only when keep_volatile
 * (they are counted either way), sorted by group. */
void dl_diff_facts(const dl_facts *a, const dl_facts *b, bool keep_volatile, dl_diff *out);
/* Adds the findings that appeared, went away or changed severity, matched by id and
 * subject: failures first. */
void dl_diff_findings(const dl_findings *a, const dl_findings *b, dl_diff *out);
/* No change but volatile ones. */
bool dl_diff_equal(const dl_diff *d);
/* The change to lead with: the most important one, the first in group order; NULL when
 * no fact changed (volatile ones never lead). */
const dl_fact_change *dl_diff_headline(const dl_diff *d);
void dl_diff_free(dl_diff *d);

const char *dl_diff_group_name(dl_diff_group g);          /* "driver", for JSON */
const char *dl_diff_group_title(dl_diff_group g);         /* "Driver", for people */
const char *dl_diff_importance_name(dl_diff_importance i); /* "low", "medium", "high" */
const char *dl_diff_kind_name(dl_diff_kind k);             /* "changed", "added", "removed" */
const char *dl_finding_change_name(dl_finding_change_kind k); /* "appeared", "gone", "severity" */

#endif
