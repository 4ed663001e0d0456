/* A package that checks its dependencies when imported (transformers' "tokenizers>=0.11.1,
 * !=0.11.3,<0.14 is required for a normal functioning of this module, but found
 * tokenizers==0.15.0") names the requirement it needs: the fix installs that one, in the
 * message's own words, not an example. */
#ifndef DLENV_EXPLAIN_REQUIREMENT_FIX_H
#define DLENV_EXPLAIN_REQUIREMENT_FIX_H

#include "explain/explain.h"

/* Puts `python -m pip install "REQUIREMENT"` first in dependency_version_mismatch's fix. */
void dl_explain_requirement_fix(dl_explanation *e);

#endif
