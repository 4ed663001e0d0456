/* cpu_only_build's general fix made concrete: the CUDA build of the torch release the text
 * shows (with its torchvision and torchaudio), else of the newest release with a build the
 * text's driver runs. The build is the newest of a CUDA major the driver runs where the text
 * shows the driver; else PyPI's Linux default for a named release, or the newest release's
 * oldest CUDA. */
#ifndef DLENV_EXPLAIN_CPU_BUILD_FIX_H
#define DLENV_EXPLAIN_CPU_BUILD_FIX_H

#include "explain/explain.h"

/* Replaces the table's "install the CUDA build ..." words with the command, when
 * torch_releases.csv knows the release and that build exists for the text's OS. */
void dl_explain_cpu_build_fix(const dl_knowledge *k, dl_explanation *e);

/* In a uv project (uv sync, uv run, uv.lock in the text) the install lines become uv's:
 * its venv has no pip, and its next sync would put the lockfile's CPU build back. */
void dl_explain_cpu_build_fix_for_uv(dl_explanation *e);

#endif
