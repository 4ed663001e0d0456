/* What `dlenv verify` shows: each measured figure next to its limit and a verdict, built
 * once from the facts, findings and knowledge (the per-architecture rates of
 * data/gpu_arch.csv), drawn by text_verify.c and json_verify.c. The verdicts are the
 * rules' (rules/gpu_measured.c, rules/verdict.c): a line is marked when a finding names
 * its figure, and the run's verdict is the judgement of rules/verdict.c. */
#ifndef DLENV_RENDER_VERIFY_VIEW_H
#define DLENV_RENDER_VERIFY_VIEW_H

#include "know/tables.h"
#include "rules/rules.h"
#include "rules/verdict.h"

typedef struct dl_verify_line {
    char *group;              /* "cpu", "torch_cpu", "gpu0", "torch_gpu0" */
    char *group_title;        /* "GPU 0: NVIDIA H200 (sm_90, 132 SMs), dlenv's kernels" */
    const char *what;         /* "fp32 peak, all cores" */
    const char *key;          /* JSON key, unit included: fp32_gflops_all */
    bool known;
    double value;
    char *text;               /* a line whose value is words (the kernel check) */
    char *why;                /* when not known */
    const char *unit;         /* GFLOPS, GB/s */
    bool has_limit;
    double limit;
    char *limit_what;         /* "1 core x 2 threads" */
    dl_severity verdict;
} dl_verify_line;

typedef struct dl_verify_view {
    dl_verify_line *lines;
    size_t count, cap;
    dl_judgement judged;      /* rules/verdict.c on the findings, verify's own included:
                                 verify and doctor never disagree on whether torch works */
    dl_verdict verdict;       /* that, as verify says it (information is ok) */
    const dl_finding *root;   /* the doctor's root cause, when it found a failure */
} dl_verify_view;

void dl_verify_view_build(dl_verify_view *v, const dl_facts *f, const dl_findings *fs,
                          const dl_knowledge *know);
void dl_verify_view_free(dl_verify_view *v);
/* The share of its limit a line reached, in percent; negative when there is none. */
double dl_verify_line_pct(const dl_verify_line *l);

/* Building blocks for the view's parts (verify_view.c, verify_view_gpu.c): a line for a
 * number (unknown keeps its reason), its limit (taking `what`, freed when the limit is
 * unknown), a line whose value is words. */
dl_verify_line *dl_verify_add(dl_verify_view *v, const char *group, const char *title,
                              const char *what, const char *key, const char *unit,
                              const dl_num *value);
void dl_verify_limit(dl_verify_line *l, double limit, char *what);
dl_verify_line *dl_verify_add_text(dl_verify_view *v, const char *group, const char *title,
                                   const char *what, const char *key, const dl_text *value);
bool dl_verify_has_finding(const dl_findings *fs, const char *id);
/* The worst severity of the findings whose evidence names this fact; ok when none does. */
dl_severity dl_verify_finding_on(const dl_findings *fs, const char *fact);
void dl_verify_view_gpu(dl_verify_view *v, const dl_facts *f, const dl_findings *fs,
                        const dl_knowledge *know);

#endif
