/* Intel Extension for PyTorch (IPEX) beside a torch of another release: each IPEX X.Y is
 * built for torch X.Y alone, and the text gives both versions in prose or lists. */
#ifndef DLENV_EXPLAIN_IPEX_TEXT_H
#define DLENV_EXPLAIN_IPEX_TEXT_H

#include "explain/explain.h"

/* Adds extension_mismatch, with the IPEX release made for the text's torch, when the two
 * releases differ and nothing else was read. */
void dl_explain_ipex_beside_other_torch(dl_explanation *e);

#endif
