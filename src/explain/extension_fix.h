/* The fix for a compiled package built for another torch, named for the package the text
 * shows: each project publishes its builds its own way (PyG's wheel pages per torch and
 * CUDA, OpenMMLab's mim, vLLM's pinned torch, a source build of mamba or pytorch3d), and
 * "the build of that package that matches torch" leaves the user to find out which. */
#ifndef DLENV_EXPLAIN_EXTENSION_FIX_H
#define DLENV_EXPLAIN_EXTENSION_FIX_H

#include "explain/explain.h"

/* extension_mismatch with the catalog's general fix, where the text names one package
 * whose way of being rebuilt is known: that package's commands replace it. */
void dl_explain_extension_package_fix(dl_explanation *e);

#endif
