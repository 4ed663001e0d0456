/* A compiled package beside torch (vLLM, flash-attn, xformers, torchaudio...) that fails to
 * load the CUDA runtime of another CUDA major than torch's: it was built for that CUDA. */
#ifndef DLENV_EXPLAIN_EXTENSION_RUNTIME_H
#define DLENV_EXPLAIN_EXTENSION_RUNTIME_H

#include "explain/explain.h"

/* Adds extension_mismatch (torchvision_mismatch for torchvision / torchaudio) when a line
 * names libcudart.so.N and a compiled package's import or library next to it (three lines
 * before to one after), torch's own import is not what fails there, and torch's CUDA,
 * when the text gives it, has another major than N. */
void dl_explain_extension_runtime(dl_explanation *e);

#endif
