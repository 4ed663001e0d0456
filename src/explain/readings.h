/* What the text's own facts say about a signature's guess: pip's list of versions, a wheel's
 * file name against the Python, the GPU against "no kernel image". Each reading either keeps
 * the signature's finding, replaces it by the one the facts show, or drops it. */
#ifndef DLENV_EXPLAIN_READINGS_H
#define DLENV_EXPLAIN_READINGS_H

#include "facts/facts.h"
#include "know/tables.h"
#include "parse/paste.h"

/* The finding id the text supports instead of `id` (a signature's), "" to drop it, or id. */
const char *dl_reading_for(const dl_knowledge *k, const dl_paste *p, const dl_facts *f,
                           const char *id);

#endif
