/* A file of the user's named like a standard module that torch imports while it starts
 * ("dis.py", "inspect.py", "typing.py"): Python finds it first, in the script's folder, and
 * torch's import then fails in a way that looks like a broken or fake torch. */
#ifndef DLENV_EXPLAIN_STDLIB_SHADOW_H
#define DLENV_EXPLAIN_STDLIB_SHADOW_H

#include "explain/explain.h"

/* torch_shadowed, naming the file, when a traceback imports such a file of the user's from
 * torch's or the standard library's own frames; the readings of a torch that is not
 * PyTorch or fails to import step back to candidates. */
void dl_explain_own_file_hides_stdlib(dl_explanation *e);

#endif
