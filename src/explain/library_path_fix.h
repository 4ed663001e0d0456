/* ld_library_path_conflict's fix named for the folder the text shows the other library in:
 * the general "find the other copy and drop its folder from LD_LIBRARY_PATH" does nothing
 * where that folder is the loader's own (a distribution's package) or the conda
 * environment's lib. */
#ifndef DLENV_EXPLAIN_LIBRARY_PATH_FIX_H
#define DLENV_EXPLAIN_LIBRARY_PATH_FIX_H

#include "explain/explain.h"

/* Rewrites the general fix of an ld_library_path_conflict finding whose evidence shows the
 * path of the library that was loaded: remove the distribution's package (its folder is
 * in ld.so.cache, not LD_LIBRARY_PATH), remove the conda environment's cudatoolkit (reached
 * through torch's RPATH), or take that exact folder out of LD_LIBRARY_PATH. */
void dl_explain_library_path_fix(dl_explanation *e);

#endif
