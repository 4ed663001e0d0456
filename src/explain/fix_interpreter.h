/* The interpreter a fix's pip runs under: where the text shows the Python that runs the
 * program (a ComfyUI portable's python_embeded\python.exe, a venv's), "python -m pip" in a
 * fix written for any text would reach another Python (or none) and leave the failing one as
 * it was. */
#ifndef DLENV_EXPLAIN_FIX_INTERPRETER_H
#define DLENV_EXPLAIN_FIX_INTERPRETER_H

#include "explain/explain.h"

/* Rewrites each finding's "python -m pip ..." command to start with that interpreter. */
void dl_explain_fix_interpreter(dl_explanation *e);

#endif
