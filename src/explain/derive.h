/* Facts the text implies without saying them: the CUDA a driver version runs, a named GPU's
 * compute capability, and PyPI's Windows wheel being a CPU build. Run once, before the rules. */
#ifndef DLENV_EXPLAIN_DERIVE_H
#define DLENV_EXPLAIN_DERIVE_H

#include "explain/explain.h"

/* Sets what the text implies in e->facts (and e->gpu, the GPU's possible capabilities). */
void dl_explain_derive_facts(const dl_knowledge *k, dl_explanation *e);

#endif
