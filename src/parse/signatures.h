/* The error-signature catalog (data/error_signatures.csv) matched against pasted text.
 * A signature's all_of is groups joined by "&&", each group alternatives joined by "||",
 * matched as substrings ignoring ASCII case, anywhere in the text; none_of vetoes. Tokens
 * are stable text (error codes, symbol names, torch's own messages) rather than a whole
 * English sentence, so translated or truncated pastes still match. */
#ifndef DLENV_PARSE_SIGNATURES_H
#define DLENV_PARSE_SIGNATURES_H

#include "know/tables.h"
#include "parse/paste.h"

#define DL_SIG_MAX_GROUPS 8

typedef struct dl_signature_hit {
    size_t row;                         /* in the error_signatures table */
    size_t lines[DL_SIG_MAX_GROUPS];    /* paste line index that matched each group */
    size_t n_lines;
} dl_signature_hit;

typedef struct dl_signature_hits {
    dl_signature_hit *v;
    size_t n;
} dl_signature_hits;

void dl_signatures_match(const dl_table *catalog, const dl_paste *p, dl_signature_hits *out);
void dl_signature_hits_free(dl_signature_hits *h);
/* A general hit ("no kernel image") yields to a specific one that also matched and that it
 * names as an alternative ("too old"): the text has told them apart. Two that name each
 * other are equals: both stay. explain and doctor (on an import error) both ask this. */
bool dl_signature_yields(const dl_table *catalog, const dl_signature_hits *hits, size_t i);

#endif
