/* `--python PATH` and `--env NAME` for run and profile: the interpreter to run in, and the
 * environment (venv, conda env, or a plain installation) it belongs to. */
#ifndef DLENV_CLI_RUN_PYTHON_H
#define DLENV_CLI_RUN_PYTHON_H

#include "cli/options.h"
#include "run/run_env.h"

typedef struct dl_run_python {
    char *interpreter;   /* NULL: neither option was given */
    char *prefix;        /* the env's prefix */
    char *bin_dir;       /* the interpreter's directory */
    dl_env_kind kind;
} dl_run_python;

/* Finds the interpreter (files only: none is started) and returns DL_EXIT_OK, or prints
 * one line and returns DL_EXIT_BAD_INPUT (no such interpreter, no env of that name, or
 * several). */
int dl_run_find_python(const dl_cli *cli, dl_run_python *py);
void dl_run_python_free(dl_run_python *py);

#endif
