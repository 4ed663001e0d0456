/* dlenv restore LOCK [PATH]: the environment a dlenv.lock records, made again by the same
 * transaction as setup (staging folder, install, proof, swap): the exact versions from the
 * lock's index lines, every wheel's sha256 checked where the lock has them
 * (--require-hashes), nothing else pulled in (--no-deps: the lock is the whole set). PATH
 * defaults to the folder the lock is in. Exit codes: those of setup. */
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/input.h"
#include "cli/output.h"
#include "cli/setup_python.h"
#include "cli/setup_transaction.h"

#include "base/str.h"
#include "os/os.h"
#include "setup/lockfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const dl_option dl_restore_options[] = {
    DL_OPT_FLAG("yes", 'y', yes, "do not ask before making the environment"),
    DL_OPT_FLAG("dry-run", 0, dry_run, "print the commands, change nothing"),
    DL_OPT_LOWER("tool", "TOOL", tool, "uv, venv or conda (default: uv when it is on PATH)"),
    DL_OPT_CALL("python", "PATH", dl_opt_set_python_path,
                "make it from this interpreter (default: pythonX.Y of the lock on PATH)"),
    DL_OPT_FLAG("allow-python-download", 0, allow_python_download,
                "no Python X.Y of the lock here: let uv fetch it (uv python install X.Y)"),
    DL_OPT_TEXT("wheelhouse", 0, "DIR", wheelhouse,
                "install from the wheels in DIR only (no index: pip --no-index --find-links)"),
    DL_OPT_FLAG("offline", 0, offline, "no index at all: needs --wheelhouse DIR"),
    DL_OPT_PROBE_TIMEOUT,
    DL_OPT_IMPORT_TIMEOUT,
    DL_OPT_END,
};

#define LOCK_MAX (4u << 20)

/* The folder a lock is in: ./env/dlenv.lock -> ./env */
static char *folder_of(const char *lock)
{
    size_t n = strlen(lock);
    while (n > 0 && lock[n - 1] != '/' && lock[n - 1] != '\\')
        n--;
    return n > 1 ? dl_strndup(lock, n - 1) : dl_strdup(".");
}

/* The lock's Python: --python PATH, conda's python=X.Y, else as setup finds X.Y (uv's,
 * fetched by uv with --allow-python-download; pythonX.Y on PATH; `py -X.Y`). */
static int python_for(dl_setup_job *job, const dl_lock *lock)
{
    job->python_version = dl_strdup(lock->python);
    if (job->tool == DL_TOOL_CONDA) { /* conda brings the lock's Python: python=X.Y */
        job->base_python = dl_strdup(lock->python);
        return DL_EXIT_OK;
    }
    if (job->cli->python) {
        job->base_python = dl_strdup(job->cli->python);
        return DL_EXIT_OK;
    }
    return dl_setup_python_of_version(job);
}

static int restore_from(dl_setup_job *job, const char *lock_path, const dl_lock *lock)
{
    int rc = dl_setup_choose_tool(job);
    char *plus;
    if (rc != DL_EXIT_OK || (rc = python_for(job, lock)) != DL_EXIT_OK)
        return rc;
    job->requirements = dl_path_absolute(lock_path);
    job->require_hashes = lock->all_hashed;
    job->no_deps = true;
    job->index_url = dl_strdup(lock->index_url);
    job->extra_index_url = dl_strdup(lock->extra_index_url);
    if (lock->torch) {
        job->torch = dl_strdup(lock->torch);
        plus = strchr(job->torch, '+');
        if (plus)
            *plus = '\0'; /* the variant is checked from the tag */
    }
    job->variant = dl_strdup(lock->variant);
    printf("Restore: %lu packages from %s (torch %s, Python %s), %s\n", (unsigned long)lock->n,
           lock_path, lock->torch ? lock->torch : "none", lock->python,
           lock->all_hashed ? "every wheel's sha256 checked" : "no hashes in the lock");
    return dl_setup_run(job);
}

int dl_cmd_restore(const dl_cli *cli, const dl_context *ctx)
{
    const char *lock_path = cli->args[0];
    dl_setup_job job;
    dl_lock lock;
    char *text, *error = NULL, *target;
    size_t len;
    int rc;
    if (!cli->n_args) {
        dl_cli_error("which lock? dlenv restore LOCK [PATH]");
        return DL_EXIT_USAGE;
    }
    text = dl_cli_read_input(lock_path, LOCK_MAX, &len);
    if (!text)
        return DL_EXIT_BAD_INPUT;
    if (!dl_lock_read(text, len, &lock, &error)) {
        dl_cli_error("%s: %s", lock_path, error);
        free(error);
        free(text);
        return DL_EXIT_BAD_INPUT;
    }
    free(text);
    target = cli->n_args > 1 ? dl_strdup(cli->args[1]) : folder_of(lock_path);
    rc = dl_setup_job_begin(&job, cli, ctx->know, target);
    if (rc == DL_EXIT_OK)
        rc = restore_from(&job, lock_path, &lock);
    dl_setup_job_free(&job);
    dl_lock_free(&lock);
    free(target);
    return rc;
}
