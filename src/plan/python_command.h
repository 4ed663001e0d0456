/* How install commands start the interpreter: its own path on this machine (quoted for
 * the shell), a venv made first from a distribution's Python (which refuses pip, PEP 668),
 * or, for a machine described by flags, the launcher of its version (py -3.12,
 * python3.12; python3.13t for a free-threaded build). */
#ifndef DLENV_PLAN_PYTHON_COMMAND_H
#define DLENV_PLAN_PYTHON_COMMAND_H

#include "base/shell.h"
#include "plan/plan.h"

typedef struct dl_python_command {
    char *run;         /* the interpreter as a command: '/a b/bin/python', py -3.12 */
    char *uv_python;   /* uv's --python: the path (quoted) or the version (3.13t) */
    char *make_venv;   /* the command that makes the venv `run` names first, or NULL */
    char *conda_env;   /* the conda environment (prefix) the interpreter is in, or NULL */
} dl_python_command;

/* The shell the commands for this machine are written for. */
dl_shell dl_plan_shell(const dl_plan_machine *m);
/* path: the interpreter on this machine (NULL: described by m's version); externally
 * managed: a distribution's own Python; conda_env: the prefix of the conda environment it
 * belongs to (NULL: none). */
void dl_python_command_make(dl_shell sh, const char *path, bool externally_managed,
                            const char *conda_env, const dl_plan_machine *m,
                            dl_python_command *out);
void dl_python_command_free(dl_python_command *c);

#endif
