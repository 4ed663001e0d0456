/* dlenv explain's engine: pasted text -> lines -> facts (parse/text_facts.c) and error
 * signatures (parse/signatures.c) -> the same rules as doctor on those facts, merged with
 * the signatures' findings -> the most likely root cause, the candidates the text cannot
 * tell apart, and what to ask for to decide. Pure: the caller reads the input. */
#ifndef DLENV_EXPLAIN_EXPLAIN_H
#define DLENV_EXPLAIN_EXPLAIN_H

#include "explain/readings.h"
#include "facts/facts.h"
#include "know/tables.h"
#include "parse/paste.h"
#include "parse/text_facts.h"
#include "rules/finding.h"

typedef struct dl_explanation {
    dl_paste paste;
    dl_facts facts;           /* what the text says about the machine */
    dl_text_facts where;      /* the line each fact came from */
    dl_findings findings;     /* root_cause set when one stands out */
    dl_strv alternatives;     /* finding ids the text cannot rule out */
    dl_strv ask;              /* commands whose output would decide */
    dl_strv notes;            /* what the text shows at fault outside the environment */
    size_t signatures;        /* how many catalog signatures matched */
    dl_gpu_span gpu;          /* the capabilities the text's GPU may have */
} dl_explanation;

void dl_explain(const dl_knowledge *k, const char *text, size_t len, dl_explanation *out);
void dl_explanation_free(dl_explanation *e);
/* The root cause's finding, or NULL; *index (when given) its place in findings. */
const dl_finding *dl_explanation_root(const dl_explanation *e, size_t *index);

#endif
