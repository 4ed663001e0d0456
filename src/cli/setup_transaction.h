/* What `dlenv setup` and `dlenv restore` share: one transaction that makes an environment
 * in a staging folder beside the target, installs pinned packages with the environment's
 * own installer, proves it works (the doctor's probes and rules, run on the new
 * interpreter), and only then swaps it into place and writes the lock and a snapshot.
 * Whatever fails, the staging folder is removed and the target is as it was; the exit code
 * says which step failed (cli/exit_codes.h, docs/setup.md). */
#ifndef DLENV_CLI_SETUP_TRANSACTION_H
#define DLENV_CLI_SETUP_TRANSACTION_H

#include "cli/options.h"
#include "know/tables.h"
#include "setup/commands.h"
#include "setup/layout.h"

typedef struct dl_setup_job {
    const dl_cli *cli;
    const dl_knowledge *know;
    const char *shown;         /* the target as typed, for the activation lines */
    dl_setup_layout layout;
    dl_setup_tool tool;
    char *uv;                  /* uv's path, tool uv */
    char *conda;               /* conda's path, tool conda */
    char *base_python;         /* the interpreter the venv is made from (uv: its --python) */
    char *python_version;      /* "3.11" */
    bool fetch_python;         /* uv python install python_version first */
    dl_strv packages;          /* torch==2.9.1 torchvision==0.24.1, then the --with ones */
    dl_strv with;              /* the --with packages alone */
    char *requirements;        /* restore: the lock, installed with -r */
    bool require_hashes, no_deps;
    char *index_url, *extra_index_url;
    char *torch, *variant;     /* what the new environment's torch must be */
    char *report;              /* pip's --report file beside the staging folder */
    char *wheelhouse;          /* --wheelhouse DIR, absolute: the only source of wheels */
    char *wheels;              /* tool uv: the staging folder's dlenv-wheels, where the
                                  environment's pip downloads what uv then installs from
                                  (uv reports no hashes: the lock's are those files') */
    char *file_hashes;         /* "NAME\tVERSION\tSHA256" lines of those files */
} dl_setup_job;

/* Fills the layout for target (made absolute); an exit code after the one-line error. */
int dl_setup_job_begin(dl_setup_job *job, const dl_cli *cli, const dl_knowledge *know,
                       const char *target);
void dl_setup_job_free(dl_setup_job *job);

/* uv when --tool uv or (no --tool) when it is on PATH; conda only when asked (--tool
 * conda: the layout's interpreters then a conda prefix's); else venv. An exit code. */
int dl_setup_choose_tool(dl_setup_job *job);

/* Prints the steps as the exact commands, asks once (unless --yes), then runs them: a
 * check of the target and stale staging folders, the Python uv fetches (fetch_python), the
 * index, the environment, the --with
 * check, the install, the proof, the swap, the lock. --dry-run stops after printing. */
int dl_setup_run(dl_setup_job *job);

/* The proof alone (--prove), on the environment at target as it is, nothing changed: its
 * interpreter's runtime probe with the quick matrix products, and the doctor's rules. The
 * devices expected are those of its torch's build (a CUDA build must see a GPU) unless
 * --cpu. DL_EXIT_OK or DL_EXIT_VERIFY_FAILED (or a usage/target error). */
int dl_setup_prove_existing(const dl_cli *cli, const dl_knowledge *know, const char *target);

#endif
