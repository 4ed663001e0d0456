/* A package whose install replaced torch under the companions installed for it. */
#ifndef DLENV_EXPLAIN_TORCH_PULLED_H
#define DLENV_EXPLAIN_TORCH_PULLED_H

#include "explain/explain.h"

/* Two or more of pip's conflict lines agree ("torchvision ... requires torch==X, but you
 * have torch Y", torchaudio and torchtext alike) and the text installs xformers (in words,
 * or pip's log collects it before a pinned torch): xformers pinned torch Y over X
 * (extension_mismatch; the companions' mismatch steps back to a candidate). The fix puts
 * torch X back with an xformers built for it, in one command. */
void dl_explain_torch_pulled_by_xformers(dl_explanation *e);

/* The same agreement of two or more companions without xformers to blame (a requirements
 * file or a notebook cell pinned the other torch): torchvision_mismatch's fix gets a note
 * naming every companion left behind, and the two ways out. */
void dl_explain_companions_left_behind_note(dl_explanation *e);

#endif
