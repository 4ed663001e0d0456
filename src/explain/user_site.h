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

#endif
