/* `dlenv setup --tool conda`'s swap: the proven staging prefix becomes the target with
 * `conda rename`, the environment it replaces kept (renamed to the previous prefix) until
 * that has succeeded, and renamed back when it has not. Each command is printed and its
 * output shown. */
#ifndef DLENV_CLI_SETUP_CONDA_H
#define DLENV_CLI_SETUP_CONDA_H

#include "setup/layout.h"

#include <stdbool.h>

/* conda: its path (CONDA_EXE, as conda's activation sets it, else conda on PATH); NULL
 * when there is none. Caller frees. */
char *dl_setup_find_conda(void);

/* The older previous removed, target -> previous (when there), staging -> target; the
 * previous put back when the last step fails. *kept: a previous environment was kept. */
bool dl_setup_conda_swap(const char *conda, const dl_setup_layout *l, bool *kept,
                         char **error);

#endif
