/* torch imported from the user site (pip install --user) while an environment is active:
 * CPython puts the user site before the environment's site-packages, so that torch shadows
 * the environment's own. */
#ifndef DLENV_EXPLAIN_USER_SITE_H
#define DLENV_EXPLAIN_USER_SITE_H

#include "explain/explain.h"

/* Adds torch_shadowed when a line shows torch's files in a user site ("AppData\Roaming\
 * Python\Python311\site-packages\torch", "~/.local/lib/python3.10/site-packages/torch") and
 * the text shows a conda environment or venv active (its prompt "(name) PS C:\...>", an
 * "envs" folder). */
void dl_explain_user_site_torch(dl_explanation *e);

/* A traceback where torch comes from the environment but a package torch imports at start
 * (numpy, typing_extensions, ...) comes from the user site: the user site shadows the
 * environment's copy (torch_shadowed). */
void dl_explain_user_site_dependency(dl_explanation *e);

/* A traceback through a torch.py of the user's own (outside site-packages), or the writer
 * naming their file torch.py, beside the message of a half-imported torch ("partially
 * initialized module 'torch'", "module 'torch' has no attribute"): the file shadows PyTorch
 * (torch_shadowed; "a torch that is not PyTorch" steps back). */
void dl_explain_own_torch_py(dl_explanation *e);

/* A torch.py of the user's shadows torch in the folder a test ran from, while the text shows
 * torch running elsewhere (is_available() answered, a program logging its device) or another
 * failure (a +cpu torch beside the GPU): the file breaks only what runs from that folder, so
 * it steps back to a candidate, and the readings of the text may say why torch has no GPU. */
void dl_explain_own_torch_py_beside_running_torch(dl_explanation *e);

/* After the readings: where none named a cause, the torch.py is the cause again. */
void dl_explain_own_torch_py_when_alone(dl_explanation *e);

#endif
