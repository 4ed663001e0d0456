/* What run and profile share: the options turned into the environment changes and the
 * command to run, with every check done (GPUs that exist, an interpreter or env that
 * exists) before anything starts or is written. */
#ifndef DLENV_CLI_RUN_SETUP_H
#define DLENV_CLI_RUN_SETUP_H

#include "base/str.h"
#include "cli/options.h"
#include "run/run_env.h"

#include <stdbool.h>

typedef struct dl_run_setup {
    dl_env_changes changes;
    dl_strv argv;            /* the command: `python`/`python3` is the chosen interpreter */
    char *interpreter;       /* --python / --env: its path; else NULL */
    char *label;             /* "GPU 1", "GPUs 0,2", "CPU only", with " (env NAME)" */
} dl_run_setup;

/* DL_EXIT_OK, or after one line on stderr DL_EXIT_USAGE / DL_EXIT_BAD_INPUT. need_command:
 * `dlenv run` must be given one; a profile need not. */
int dl_run_setup_make(const dl_cli *cli, bool need_command, dl_run_setup *s);
void dl_run_setup_free(dl_run_setup *s);

#endif
