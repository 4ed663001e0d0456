/* What `dlenv verify` shows: each measured figure next to its limit and a verdict, built
 * once from the facts and findings, drawn by text_verify.c and json_verify.c. */
#ifndef DLENV_RENDER_VERIFY_VIEW_H
#define DLENV_RENDER_VERIFY_VIEW_H

#include "rules/rules.h"

typedef struct dl_verify_line {
    const char *group;        /* "cpu", "torch_cpu", "gpu" */
    const char *what;         /* "fp32 peak, all cores" */
    const char *key;          /* JSON key, unit included: fp32_gflops_all */
    bool known;
    double value;
    char *why;                /* when not known */
    const char *unit;         /* GFLOPS, GB/s */
    bool has_limit;
    double limit;
    char *limit_what;         /* "1 core x 2 threads" */
    dl_severity verdict;
} dl_verify_line;

typedef struct dl_verify_view {
    dl_verify_line lines[16];
    size_t count;
    dl_severity verdict;      /* the worst line or performance finding */
} dl_verify_view;

void dl_verify_view_build(dl_verify_view *v, const dl_facts *f, const dl_findings *fs);
void dl_verify_view_free(dl_verify_view *v);
/* The share of its limit a line reached, in percent; negative when there is none. */
double dl_verify_line_pct(const dl_verify_line *l);

#endif
