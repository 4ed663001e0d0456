/* `dlenv fleet report`: many nodes' reports folded into one picture. The launcher's output
 * (pdsh/clush "host: " lines, srun --label "N: " lines, or plain concatenated JSON) is
 * split into one text per node; each node is then kept as a few strings only (its
 * fingerprint and its root cause), never its whole facts tree, so ten thousand nodes fit
 * in little memory. Nodes are grouped by fingerprint; the largest group is the reference
 * and every other node is named with how it differs. Pure: no I/O. */
#ifndef DLENV_DIFF_FLEET_FOLD_H
#define DLENV_DIFF_FLEET_FOLD_H

#include <stdbool.h>
#include <stddef.h>

/* What tells nodes apart: the same order in every node and in the renderers. */
enum { DL_FP_DRIVER, DL_FP_MAX_CUDA, DL_FP_GPUS, DL_FP_TORCH, DL_FP_COUNT };

typedef enum dl_node_state {
    DL_NODE_OK,           /* no failure (warnings allowed) */
    DL_NODE_FAILING,      /* a failure: root_id, root_title */
    DL_NODE_CANNOT_JUDGE, /* no failure, but a layer could not be judged */
    DL_NODE_GARBAGE,      /* its text is not a report: why */
    DL_NODE_SILENT        /* no answer in time: why */
} dl_node_state;

typedef struct dl_fleet_node {
    char *host;
    dl_node_state state;
    char *fp[DL_FP_COUNT]; /* NULL: unknown (garbage and silent nodes: all NULL) */
    char *root_id, *root_title;
    char *why;
    size_t group;          /* index in groups; reports only */
} dl_fleet_node;

typedef struct dl_fleet_group {
    char *fp[DL_FP_COUNT]; /* borrowed from its first node */
    size_t n;
} dl_fleet_group;

typedef struct dl_fleet {
    dl_fleet_node *nodes;
    size_t n, cap;
    dl_fleet_group *groups; /* after dl_fleet_fold: largest first, so groups[0] is the
                               reference (ties: the first seen) */
    size_t n_groups;
    size_t n_state[DL_NODE_SILENT + 1];
} dl_fleet;

/* One node's text, split out of a launcher's output. */
typedef struct dl_fleet_part {
    char *host;            /* NULL: no prefix said (plain output); the caller names it */
    char *text;
    size_t len;
} dl_fleet_part;

/* Splits out into one part per JSON document: lines with a "host: " prefix go to that
 * host (all of one host's lines together, prefix removed); lines without a prefix form
 * a plain stream of concatenated documents. A host's line that a launcher cut in pieces
 * (srun --label past its buffer) is joined again where the cut lies inside a JSON string,
 * number or literal. Text that is not a JSON object becomes its own part (the caller finds
 * it is not a report). Parts come in order of first sight. */
void dl_fleet_split(const char *out, size_t len, dl_fleet_part **parts, size_t *n);
/* The first JSON object in text that opens a line, brace to matching brace: the report in
 * a host's text among what else its shell printed. False when there is none (or it does
 * not close). */
bool dl_fleet_find_object(const char *text, size_t len, size_t *start, size_t *obj_len);
void dl_fleet_parts_free(dl_fleet_part *parts, size_t n);

/* Adds a node; strings are copied. fp: DL_FP_COUNT values, each may be NULL. */
dl_fleet_node *dl_fleet_add(dl_fleet *fl, const char *host, dl_node_state state);
void dl_fleet_node_set(dl_fleet_node *x, const char *const *fp, const char *root_id,
                       const char *root_title, const char *why);
/* Adds x (filled outside the fleet, host unset) under host; x is left empty. */
void dl_fleet_take(dl_fleet *fl, const char *host, dl_fleet_node *x);
bool dl_fleet_has(const dl_fleet *fl, const char *host);
/* Groups the reports by fingerprint and counts the states. */
void dl_fleet_fold(dl_fleet *fl);
/* How x differs from the reference: "driver 535.104.05 vs 550.54.14 on 31 nodes; torch
 * ..."; NULL when it does not (or x is not a report). Caller frees. */
char *dl_fleet_difference(const dl_fleet *fl, const dl_fleet_node *x);
const char *dl_fleet_fp_name(int field);      /* "driver", "max_cuda", "gpus", "torch" */
const char *dl_node_state_name(dl_node_state s); /* "ok", "failing", "cannot_judge",
                                                    "garbage", "no_answer" */
void dl_fleet_free(dl_fleet *fl);
/* A host list as pdsh and Slurm write it ("gpu[01-04,09],login1") appended to out, one
 * name each. */
struct dl_strv; /* base/str.h */
void dl_fleet_hosts_expand(const char *list, struct dl_strv *out);

#endif
