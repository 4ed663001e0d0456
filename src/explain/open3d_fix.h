#ifndef DLENV_EXPLAIN_OPEN3D_FIX_H
#define DLENV_EXPLAIN_OPEN3D_FIX_H

#include "explain/explain.h"

/* Open3D-ML's version check names the torch minor its ops were built for ("needs PyTorch
 * version 1.12.*, but version 1.13.1+cu116 is installed!"): the fix installs that minor's
 * newest release, from PyTorch's index for the installed build's CUDA where the release
 * has it on the OS, instead of the catalog's example. */
void dl_explain_open3d_fix(const dl_knowledge *k, dl_explanation *e);

#endif
