/* Evidence from a pasted text: a finding quotes the lines it rests on, keyed by their line
 * number ("L12"), so the text view shows each line once beside the finding. */
#ifndef DLENV_EXPLAIN_QUOTE_H
#define DLENV_EXPLAIN_QUOTE_H

#include "parse/paste.h"
#include "rules/finding.h"

#include <stddef.h>

/* Adds the paste's line (an index into p->lines) as evidence, unless x quotes it already. */
void dl_quote_line(dl_finding *x, const dl_paste *p, size_t line);

#endif
