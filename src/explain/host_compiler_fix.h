/* nvcc refuses a host compiler newer than its CUDA supports and says the limit ("gcc
 * versions later than 10 are not supported!"): the fix names that gcc, not an example. */
#ifndef DLENV_EXPLAIN_HOST_COMPILER_FIX_H
#define DLENV_EXPLAIN_HOST_COMPILER_FIX_H

#include "explain/explain.h"

/* extension_mismatch read from nvcc's host compiler check, with the catalog's fix (gcc 12
 * as the example): the gcc the text's own message allows. */
void dl_explain_host_compiler_fix(dl_explanation *e);

#endif
