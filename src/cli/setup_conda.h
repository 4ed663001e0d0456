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

/* The prefix of conda's environment called name (--name NAME): NAME in the first of
 * conda's envs_dirs (`conda info --json`), where `conda create --name` would put it. NULL
 * with *error when conda cannot say. */
char *dl_setup_conda_named_prefix(const char *conda, const char *name, char **error);

/* The older previous removed, target -> previous (when there), staging -> target; the
 * previous put back when the last step fails. *kept: a previous environment was kept. */
bool dl_setup_conda_swap(const char *conda, const dl_setup_layout *l, bool *kept,
                         char **error);

/* --rollback of a conda prefix: target -> staging (a free name), previous -> target,
 * staging -> previous, each with `conda rename` (a folder rename would leave each prefix
 * naming the other's place); the first step undone when the second fails. */
bool dl_setup_conda_rollback(const char *conda, const dl_setup_layout *l, char **error);

#endif
