#include "cli/setup_transaction.h"

#include "cli/exit_codes.h"
#include "cli/output.h"
#include "cli/setup_conda.h"
#include "cli/setup_proof.h"
#include "cli/snapshot.h"

#include "base/str.h"
#include "facts/query.h"
#include "os/os.h"
#include "rules/finding.h"
#include "setup/lockfile.h"
#include "setup/stage.h"
#include "setup/user_shell.h"

#include <cjson/cJSON.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define VENV_TIMEOUT_MS (5 * 60 * 1000)
#define INSTALL_TIMEOUT_MS (60 * 60 * 1000) /* a CUDA torch is gigabytes */
#define RESOLVE_TIMEOUT_MS (10 * 60 * 1000)
#define INDEX_TIMEOUT_S "20"

#ifdef _WIN32
#define THIS_WINDOWS true
#else
#define THIS_WINDOWS false
#endif

int dl_setup_job_begin(dl_setup_job *job, const dl_cli *cli, const dl_knowledge *know,
                       const char *target)
{
    char *abs = dl_path_absolute(target), *error = NULL;
    bool ok;
    memset(job, 0, sizeof *job);
    job->cli = cli;
    job->know = know;
    job->shown = target;
    ok = dl_setup_layout_make(abs, THIS_WINDOWS, dl_process_id(), &job->layout, &error);
    free(abs);
    if (!ok) {
        dl_cli_error("%s", error);
        free(error);
        return DL_EXIT_USAGE;
    }
    job->report = dl_fmt("%s.report.json", job->layout.staging);
    job->wheels = dl_fmt("%s%cdlenv-wheels", job->layout.staging,
                         job->layout.windows ? '\\' : '/');
    if (cli->offline && !cli->wheelhouse) {
        dl_cli_error("--offline: from which wheels? --wheelhouse DIR (`dlenv plan --offline` "
                     "lists the files to fetch on another machine)");
        return DL_EXIT_USAGE;
    }
    if (cli->wheelhouse) {
        if (dl_path_kind(cli->wheelhouse) != DL_FS_DIR) {
            dl_cli_error("--wheelhouse %s: no such folder", cli->wheelhouse);
            return DL_EXIT_USAGE;
        }
        job->wheelhouse = dl_path_absolute(cli->wheelhouse);
    }
    return DL_EXIT_OK;
}

void dl_setup_job_free(dl_setup_job *job)
{
    dl_setup_layout_free(&job->layout);
    free(job->uv);
    free(job->conda);
    free(job->base_python);
    free(job->python_version);
    dl_strv_free(&job->packages);
    dl_strv_free(&job->with);
    free(job->requirements);
    free(job->index_url);
    free(job->extra_index_url);
    free(job->torch);
    free(job->variant);
    free(job->report);
    free(job->wheelhouse);
    free(job->wheels);
    free(job->file_hashes);
    memset(job, 0, sizeof *job);
}

int dl_setup_choose_tool(dl_setup_job *job)
{
    const char *tool = job->cli->tool;
    job->uv = dl_proc_find("uv", dl_env_get("PATH"));
    if (tool && strcmp(tool, "uv") && strcmp(tool, "venv") && strcmp(tool, "conda")) {
        dl_cli_error("--tool '%s': expected uv, venv or conda", tool);
        return DL_EXIT_USAGE;
    }
    if (tool && !strcmp(tool, "conda")) {
        if (!(job->conda = dl_setup_find_conda())) {
            dl_cli_error("--tool conda: conda is not on PATH (nor CONDA_EXE set)");
            return DL_EXIT_USAGE;
        }
        job->tool = DL_TOOL_CONDA;
        dl_setup_layout_for_conda(&job->layout);
        return DL_EXIT_OK;
    }
    if (tool && !strcmp(tool, "uv") && !job->uv) {
        dl_cli_error("--tool uv: uv is not on PATH (https://docs.astral.sh/uv/)");
        return DL_EXIT_USAGE;
    }
    job->tool = job->uv && (!tool || !strcmp(tool, "uv")) ? DL_TOOL_UV : DL_TOOL_VENV;
    return DL_EXIT_OK;
}

/* ---- printing ------------------------------------------------------------------------- */

static dl_shell shell(void)
{
    bool known;
    return dl_setup_user_shell(THIS_WINDOWS, &known);
}

static void print_argv(const char *prefix, const dl_strv *argv)
{
    char *line = dl_setup_argv_line(shell(), argv);
    printf("%s%s\n", prefix, line);
    free(line);
}

static void venv_argv(const dl_setup_job *job, dl_strv *argv)
{
    dl_setup_venv_argv(job->tool, job->tool == DL_TOOL_CONDA ? job->conda : job->uv,
                       job->base_python, job->layout.staging, argv);
}

/* uv writes no report of what it installed, so no hashes: the environment's pip downloads
 * the files first (one download, uv installs from them offline) and they are hashed. A
 * wheelhouse is hashed where it is. */
static bool downloads_first(const dl_setup_job *job)
{
    return job->tool == DL_TOOL_UV && !job->wheelhouse;
}

static void download_argv(const dl_setup_job *job, dl_strv *argv)
{
    dl_setup_install in;
    memset(&in, 0, sizeof in);
    in.tool = job->tool;
    in.python = job->layout.staging_python;
    in.index_url = job->requirements ? NULL : job->index_url;
    in.extra_index_url = job->requirements ? NULL : job->extra_index_url;
    in.requirements = job->requirements;
    in.require_hashes = job->require_hashes;
    in.no_deps = job->no_deps;
    in.packages = job->requirements ? NULL : &job->packages;
    dl_setup_download_argv(&in, job->wheels, argv);
}

/* dry_run: the --with check, with pip's report, run by python (the base interpreter's pip
 * or the staging one's); else the install into the staging folder. */
static void install_argv(const dl_setup_job *job, bool dry_run, const char *python,
                         dl_strv *argv)
{
    dl_setup_install in;
    memset(&in, 0, sizeof in);
    in.tool = dry_run ? DL_TOOL_VENV : job->tool; /* the --with check needs pip's report */
    in.uv = job->uv;
    in.python = dry_run && python ? python : job->layout.staging_python;
    in.index_url = job->requirements ? NULL : job->index_url;
    in.extra_index_url = job->requirements ? NULL : job->extra_index_url;
    in.find_links = job->wheelhouse ? job->wheelhouse
                    : !dry_run && downloads_first(job) ? job->wheels : NULL;
    in.requirements = dry_run ? NULL : job->requirements;
    in.require_hashes = job->require_hashes && !dry_run;
    in.no_deps = job->no_deps && !dry_run;
    in.dry_run = dry_run;
    in.report = dry_run ? "-" : job->report;
    in.packages = dry_run || !job->requirements ? &job->packages : NULL;
    dl_setup_install_argv(&in, argv);
}

static void print_steps(const dl_setup_job *job)
{
    dl_strv argv = {0};
    const dl_setup_layout *l = &job->layout;
    printf("\nSteps (nothing changes at %s until the last one)%s:\n", l->target,
           !THIS_WINDOWS ? "" : shell() == DL_SHELL_CMD ? ", as cmd commands"
                                                          : ", as PowerShell commands");
    if (job->fetch_python) {
        dl_setup_uv_install_python_argv(job->uv, job->python_version, &argv);
        print_argv("  0. fetch Python (uv keeps it in its own folder, for later setups too):\n"
                   "       ", &argv);
        dl_strv_free(&argv);
    }
    bool exists = dl_path_kind(l->target) != DL_FS_NONE;
    int step = 1;
    venv_argv(job, &argv);
    print_argv("  1. make the environment in a staging folder:\n       ", &argv);
    dl_strv_free(&argv);
    if (job->with.n) {
        install_argv(job, true, job->base_python, &argv);
        printf("  %d. ", ++step);
        print_argv("check that the --with packages keep the planned torch (nothing is "
                   "installed; with the new environment's pip when this one has none):\n"
                   "       ", &argv);
        dl_strv_free(&argv);
    }
    if (downloads_first(job)) {
        download_argv(job, &argv);
        printf("  %d. ", ++step);
        print_argv("download the files (their sha256 go into the lock):\n       ", &argv);
        dl_strv_free(&argv);
    }
    install_argv(job, false, NULL, &argv);
    printf("  %d. ", ++step);
    print_argv("install, pinned:\n       ", &argv);
    dl_strv_free(&argv);
    printf("  %d. prove it: `import torch` in it, torch %s (%s), its devices, its matrix "
           "products against this machine's peak, and the doctor's checks\n", ++step,
           job->torch ? job->torch : "as locked", job->variant ? job->variant : "as locked");
    printf("  %d. move it into place: %s%s -> %s, then write %s and %s\n", ++step,
           exists ? "the current one to " : "", exists ? l->previous : l->staging, l->target,
           DL_SETUP_LOCK_NAME, DL_SETUP_SNAPSHOT_NAME);
    if (exists)
        printf("     (the current one stays at %s: `dlenv setup --rollback %s` puts it back)\n",
               l->previous, job->shown);
    fflush(stdout);
}

/* ---- the target ----------------------------------------------------------------------- */

static int check_target(const dl_setup_job *job)
{
    const dl_setup_layout *l = &job->layout;
    dl_fs_kind kind = dl_path_kind(l->target);
    char *outer;
    if (kind != DL_FS_NONE && (kind != DL_FS_DIR || !dl_setup_is_environment(l->target))) {
        dl_cli_error("%s exists and is not a Python environment (no pyvenv.cfg): setup "
                     "replaces only an environment; give a new path, or move it away",
                     l->target);
        return DL_EXIT_TARGET;
    }
    outer = dl_setup_enclosing_environment(l->target, l->windows);
    if (outer) {
        dl_cli_error("%s is inside the environment %s: give a path outside it", l->target,
                     outer);
        free(outer);
        return DL_EXIT_TARGET;
    }
    if (dl_path_kind(l->parent) != DL_FS_DIR) {
        dl_cli_error("%s: no such folder to make the environment in", l->parent);
        return DL_EXIT_TARGET;
    }
    return DL_EXIT_OK;
}

/* Staging folders of setups killed before they finished are removed, and said so. */
static int clean_stale(const dl_setup_job *job)
{
    dl_strv stale = {0};
    long running = 0;
    char *error = NULL;
    size_t i;
    int rc = DL_EXIT_OK;
    if (!dl_setup_find_staging(&job->layout, &stale, &running, &error)) {
        dl_cli_error("%s", error);
        free(error);
        return DL_EXIT_TARGET;
    }
    if (running) {
        dl_cli_error("another setup of %s is running (process %ld): wait for it to end",
                     job->layout.target, running);
        rc = DL_EXIT_BUSY;
    }
    for (i = 0; rc == DL_EXIT_OK && i < stale.n; i++) {
        if (!dl_tree_remove(stale.v[i], &error)) {
            dl_cli_error("%s", error);
            free(error);
            rc = DL_EXIT_TOOL;
        } else {
            printf("Removed %s: the staging folder of an earlier setup that did not finish "
                   "(its process is gone).\n", stale.v[i]);
        }
    }
    dl_strv_free(&stale);
    fflush(stdout);
    return rc;
}

static int confirm(const dl_cli *cli)
{
    char answer[16];
    if (cli->yes)
        return DL_EXIT_OK;
    if (!dl_term_is_tty(1) && !dl_term_is_tty(2)) {
        /* piped: ask anyway, a line on stdin answers */
    }
    printf("\nProceed? [y/N] ");
    fflush(stdout);
    if (!fgets(answer, sizeof answer, stdin) || (answer[0] != 'y' && answer[0] != 'Y')) {
        printf("\n");
        dl_cli_error("not confirmed: nothing was changed (--yes proceeds without asking)");
        return DL_EXIT_DECLINED;
    }
    return DL_EXIT_OK;
}

/* ---- the steps ------------------------------------------------------------------------ */

/* Runs argv with its output shown as it comes (echo) or captured only; r is the caller's. */
static void run(const dl_strv *argv, int timeout_ms, bool echo, dl_proc_result *r)
{
    dl_proc_opts o;
    const char **v = dl_xcalloc(argv->n + 1, sizeof *v);
    size_t i;
    for (i = 0; i < argv->n; i++)
        v[i] = argv->v[i];
    memset(&o, 0, sizeof o);
    o.timeout_ms = timeout_ms;
    o.echo = echo;
    o.max_output = 8u << 20;
    dl_proc_run(v, &o, r);
    free(v);
}

static bool succeeded(const dl_proc_result *r)
{
    return r->started && r->exited && r->exit_code == 0 && !r->timed_out;
}

static char *how_it_ended(const dl_proc_result *r)
{
    if (!r->started)
        return dl_fmt("it could not start: %s", r->error ? r->error : "unknown");
    if (r->timed_out)
        return dl_fmt("it did not finish in %.0f s and was stopped", r->duration_ms / 1000);
    if (!r->exited)
        return dl_fmt("it was killed by %s", dl_signal_name(r->term_signal)
                                                  ? dl_signal_name(r->term_signal) : "a signal");
    return dl_fmt("it exited with %d", r->exit_code);
}

/* The staging folder and the report removed; the error said; the exit code. */
static int abandon(const dl_setup_job *job, int rc)
{
    char *error = NULL;
    if (!dl_tree_remove(job->layout.staging, &error)) {
        dl_cli_error("and the staging folder could not be removed: %s", error);
        free(error);
    }
    (void)dl_tree_remove(job->report, &error);
    fprintf(stderr, "Nothing was changed at %s; the staging folder is removed.\n",
            job->layout.target);
    return rc;
}

static const char *INDEX_CHECK =
    "import sys, urllib.request, urllib.error\n"
    "try:\n"
    "    urllib.request.urlopen(sys.argv[1], timeout=float(sys.argv[2])).close()\n"
    "except urllib.error.HTTPError:\n"
    "    pass\n"
    "except Exception as e:\n"
    "    print('%s: %s' % (type(e).__name__, e))\n"
    "    sys.exit(3)\n";

/* The index answers at all (an HTTP error is the installer's to explain); checked with the
 * base interpreter before anything is made. */
static int check_index(const dl_setup_job *job, const char *url)
{
    dl_strv argv = {0};
    dl_proc_result r;
    int rc = DL_EXIT_OK;
    char *probe;
    /* uv's --python may be a version ("3.12"), which is no program to run */
    if (!url || job->wheelhouse || dl_starts_with(url, "file:") ||
        (job->tool == DL_TOOL_UV && !strpbrk(job->base_python, "/\\")))
        return DL_EXIT_OK;
    probe = dl_fmt("%s%storch/", url, dl_ends_with(url, "/") ? "" : "/");
    dl_strv_add(&argv, dl_strdup(job->base_python));
    dl_strv_add(&argv, dl_strdup("-c"));
    dl_strv_add(&argv, dl_strdup(INDEX_CHECK));
    dl_strv_add(&argv, probe);
    dl_strv_add(&argv, dl_strdup(INDEX_TIMEOUT_S));
    run(&argv, 60000, false, &r);
    if (r.started && r.exited && r.exit_code == 3) {
        dl_cli_error("the package index %s does not answer: %s", url, dl_trim(r.out));
        fprintf(stderr, "Nothing was changed. Check the address (--index-mirror), the network "
                        "or the proxy (HTTPS_PROXY).\n");
        rc = DL_EXIT_INDEX_UNREACHABLE;
    }
    dl_proc_result_free(&r);
    dl_strv_free(&argv);
    return rc;
}

/* --allow-python-download: uv fetches the planned Python before anything is made. */
static int fetch_python(const dl_setup_job *job)
{
    dl_strv argv = {0};
    dl_proc_result r;
    int rc = DL_EXIT_OK;
    if (!job->fetch_python)
        return DL_EXIT_OK;
    dl_setup_uv_install_python_argv(job->uv, job->python_version, &argv);
    print_argv("\n$ ", &argv);
    fflush(stdout);
    run(&argv, VENV_TIMEOUT_MS, true, &r);
    if (!succeeded(&r)) {
        char *how = how_it_ended(&r);
        dl_cli_error("uv could not fetch Python %s: %s (it downloads from GitHub's "
                     "python-build-standalone releases, or UV_PYTHON_INSTALL_MIRROR); "
                     "nothing was made", job->python_version, how);
        free(how);
        rc = DL_EXIT_NO_PYTHON;
    }
    dl_proc_result_free(&r);
    dl_strv_free(&argv);
    return rc;
}

static int make_env(const dl_setup_job *job)
{
    dl_strv argv = {0};
    dl_proc_result r;
    int rc = DL_EXIT_OK;
    venv_argv(job, &argv);
    print_argv("\n$ ", &argv);
    fflush(stdout);
    run(&argv, VENV_TIMEOUT_MS, true, &r);
    if (!succeeded(&r) || dl_path_kind(job->layout.staging_python) == DL_FS_NONE) {
        char *how = how_it_ended(&r);
        dl_cli_error("the environment could not be made: %s", how);
        free(how);
        rc = abandon(job, DL_EXIT_INSTALL_FAILED);
    }
    dl_proc_result_free(&r);
    dl_strv_free(&argv);
    return rc;
}

static int failure_code(dl_install_failure f)
{
    switch (f) {
    case DL_INSTALL_UNREACHABLE: return DL_EXIT_INDEX_UNREACHABLE;
    case DL_INSTALL_NOT_FOUND: return DL_EXIT_NOT_FOUND;
    case DL_INSTALL_HASH_MISMATCH: return DL_EXIT_HASH_MISMATCH;
    case DL_INSTALL_CONFLICT: return DL_EXIT_INSTALL_FAILED;
    case DL_INSTALL_DISK_FULL: return DL_EXIT_DISK_FULL;
    case DL_INSTALL_FAILED: break;
    }
    return DL_EXIT_INSTALL_FAILED;
}

/* pip could not do the dry run at all: none in that interpreter, one older than 23, or
 * one that refuses an externally managed Python even for a dry run. */
static bool pip_cannot(const dl_proc_result *r)
{
    return r->started && r->exited && r->exit_code != 0 && r->err &&
           (strstr(r->err, "No module named pip") || strstr(r->err, "no such option") ||
            strstr(r->err, "externally-managed-environment"));
}

#define DEFERRED (-1)

/* The --with packages resolved together with the planned torch by python's pip, nothing
 * installed: a package that needs another torch is refused here. DEFERRED when that pip
 * cannot (the caller asks the new environment's pip instead). */
static int check_with(const dl_setup_job *job, const char *python)
{
    dl_strv argv = {0};
    dl_proc_result r;
    dl_lock resolved;
    char *error = NULL;
    int rc = DL_EXIT_OK;
    bool base = python != NULL;
    if (!job->with.n)
        return DL_EXIT_OK;
    install_argv(job, true, python, &argv);
    print_argv("\n$ ", &argv);
    fflush(stdout);
    run(&argv, RESOLVE_TIMEOUT_MS, false, &r);
    memset(&resolved, 0, sizeof resolved);
    if (base && pip_cannot(&r)) {
        printf("(this interpreter's pip cannot: the new environment's pip will)\n");
        rc = DEFERRED;
    } else if (!succeeded(&r)) {
        dl_install_failure f = dl_setup_install_failure(r.err);
        char *how = how_it_ended(&r);
        fprintf(stderr, "%s", r.err ? r.err : "");
        if (f == DL_INSTALL_CONFLICT) {
            dl_cli_error("refused: the --with packages need another torch than the planned "
                         "%s (pip's resolver: %s); nothing was installed", job->torch, how);
            rc = DL_EXIT_WITH_CONFLICT;
        } else {
            dl_cli_error("the --with packages cannot be resolved: %s (%s)",
                         dl_install_failure_text(f), how);
            rc = failure_code(f);
        }
        free(how);
    } else if (!dl_lock_from_pip_report(r.out, r.out_len, &resolved, &error)) {
        dl_cli_error("pip's dry run gave no report (pip 23 or newer is needed): %s", error);
        free(error);
        rc = DL_EXIT_INSTALL_FAILED;
    } else if (!dl_setup_torch_as_planned(dl_lock_version_of(&resolved, "torch"), job->torch,
                                          job->variant)) {
        dl_cli_error("refused: with the --with packages pip would install torch %s, not the "
                     "planned %s (%s); nothing was installed",
                     dl_lock_version_of(&resolved, "torch") ? dl_lock_version_of(&resolved, "torch")
                                                            : "(none)",
                     job->torch, job->variant);
        rc = DL_EXIT_WITH_CONFLICT;
    } else {
        printf("The --with packages keep torch %s.\n", dl_lock_version_of(&resolved, "torch"));
    }
    dl_lock_free(&resolved);
    dl_proc_result_free(&r);
    dl_strv_free(&argv);
    if (rc == DL_EXIT_OK || rc == DEFERRED)
        return rc;
    if (!base)
        return abandon(job, rc);
    fprintf(stderr, "Nothing was made or changed.\n");
    return rc;
}

/* An installer step (pip download, pip/uv install) run with its output shown; its failure
 * said as what it means, the staging folder abandoned. */
static int installer_step(const dl_setup_job *job, const dl_strv *argv, const char *what)
{
    dl_proc_result r;
    int rc = DL_EXIT_OK;
    print_argv("\n$ ", argv);
    fflush(stdout);
    run(argv, INSTALL_TIMEOUT_MS, true, &r);
    if (!succeeded(&r)) {
        dl_install_failure f = dl_setup_install_failure(r.err);
        char *how = how_it_ended(&r);
        dl_cli_error("the %s failed: %s (%s)", what, dl_install_failure_text(f), how);
        free(how);
        rc = abandon(job, failure_code(f));
    }
    dl_proc_result_free(&r);
    return rc;
}

static const char *HASH_FILES =
    "import hashlib, os, sys\n"
    "for f in sorted(os.listdir(sys.argv[1])):\n"
    "    if f.endswith('.whl'):\n"
    "        name, version = f.split('-')[:2]\n"
    "    elif f.endswith('.tar.gz') or f.endswith('.zip'):\n"
    "        name, _, version = f[:-7 if f.endswith('.tar.gz') else -4].rpartition('-')\n"
    "    else:\n"
    "        continue\n"
    "    h = hashlib.sha256()\n"
    "    with open(os.path.join(sys.argv[1], f), 'rb') as fh:\n"
    "        for chunk in iter(lambda: fh.read(1 << 20), b''):\n"
    "            h.update(chunk)\n"
    "    print('%s\\t%s\\t%s' % (name, version, h.hexdigest()))\n";

/* The sha256 of the files uv installed from (the download or the wheelhouse), by the new
 * environment's interpreter; the download is then removed (it must not move into place). */
static int hash_files(dl_setup_job *job)
{
    dl_strv argv = {0};
    dl_proc_result r;
    char *error = NULL;
    int rc = DL_EXIT_OK;
    if (job->tool != DL_TOOL_UV)
        return DL_EXIT_OK; /* pip's report has each file's sha256 */
    dl_strv_add(&argv, dl_strdup(job->layout.staging_python));
    dl_strv_add(&argv, dl_strdup("-c"));
    dl_strv_add(&argv, dl_strdup(HASH_FILES));
    dl_strv_add(&argv, dl_strdup(job->wheelhouse ? job->wheelhouse : job->wheels));
    run(&argv, RESOLVE_TIMEOUT_MS, false, &r);
    if (succeeded(&r)) {
        job->file_hashes = dl_strdup(r.out ? r.out : "");
    } else {
        char *how = how_it_ended(&r);
        dl_cli_error("the downloaded files could not be hashed for the lock: %s: %s", how,
                     r.err ? dl_trim(r.err) : "");
        free(how);
        rc = abandon(job, DL_EXIT_TOOL);
    }
    dl_proc_result_free(&r);
    dl_strv_free(&argv);
    if (rc == DL_EXIT_OK && downloads_first(job) && !dl_tree_remove(job->wheels, &error)) {
        dl_cli_error("%s", error);
        free(error);
        rc = abandon(job, DL_EXIT_TOOL);
    }
    return rc;
}

static int install(dl_setup_job *job)
{
    dl_strv argv = {0};
    int rc = DL_EXIT_OK;
    if (downloads_first(job)) {
        download_argv(job, &argv);
        rc = installer_step(job, &argv, "download");
        dl_strv_free(&argv);
    }
    if (rc == DL_EXIT_OK) {
        install_argv(job, false, NULL, &argv);
        rc = installer_step(job, &argv, "install");
        dl_strv_free(&argv);
    }
    return rc == DL_EXIT_OK ? hash_files(job) : rc;
}

/* ---- the proof (cli/setup_proof.c) ---------------------------------------------------- */

/* The staging interpreter proven; any failure abandons the staging folder. */
static int prove(const dl_setup_job *job, dl_snapshot *snap)
{
    int rc = dl_setup_prove_python(job, job->layout.staging_python, snap);
    return rc == DL_EXIT_OK ? rc : abandon(job, rc);
}

int dl_setup_prove_existing(const dl_cli *cli, const dl_knowledge *know, const char *target)
{
    dl_setup_job job;
    dl_snapshot snap;
    int rc = dl_setup_job_begin(&job, cli, know, target);
    if (rc != DL_EXIT_OK)
        return rc;
    if (dl_path_kind(job.layout.python) == DL_FS_NONE) {
        dl_cli_error("--prove %s: no environment there (no %s)", target, job.layout.python);
        dl_setup_job_free(&job);
        return DL_EXIT_TARGET;
    }
    memset(&snap, 0, sizeof snap);
    rc = dl_setup_prove_python(&job, job.layout.python, &snap);
    if (rc == DL_EXIT_OK)
        printf("The environment at %s works.\n", job.layout.target);
    dl_snapshot_free(&snap);
    dl_setup_job_free(&job);
    return rc;
}

/* ---- into place ----------------------------------------------------------------------- */

static void utc_now(char *out, size_t n)
{
    time_t now = time(NULL);
    const struct tm *t = gmtime(&now);
    if (!t || !strftime(out, n, "%Y-%m-%dT%H:%M:%SZ", t))
        snprintf(out, n, "unknown");
}

/* uv writes no report: the versions from `pip inspect` in the environment (uv venv --seed
 * put pip there), the hashes from the files it installed from (hash_files). */
static bool inspected_packages(const dl_setup_job *job, dl_lock *lock, char **error)
{
    dl_strv argv = {0};
    dl_proc_result r;
    bool ok;
    dl_strv_add(&argv, dl_strdup(job->layout.python));
    dl_strv_add(&argv, dl_strdup("-m"));
    dl_strv_add(&argv, dl_strdup("pip"));
    dl_strv_add(&argv, dl_strdup("inspect"));
    dl_strv_add(&argv, dl_strdup("--local"));
    run(&argv, RESOLVE_TIMEOUT_MS, false, &r);
    ok = succeeded(&r) && dl_lock_from_pip_report(r.out, r.out_len, lock, error);
    if (ok && job->file_hashes) {
        (void)dl_lock_fill_hashes(lock, job->file_hashes);
        dl_lock_keep_hashed(lock); /* the rest came with the environment, not from uv */
    }
    if (!succeeded(&r))
        *error = dl_fmt("`pip inspect` in %s failed (pip 22.2 or newer is needed)",
                        job->layout.target);
    dl_proc_result_free(&r);
    dl_strv_free(&argv);
    return ok;
}

/* The lock's packages: pip's report of the install (versions, the index's sha256). */
static bool lock_packages(const dl_setup_job *job, dl_lock *lock, char **error)
{
    dl_machine m;
    char *data = NULL;
    size_t len = 0;
    bool truncated = false, ok;
    dl_io_error err;
    memset(&err, 0, sizeof err);
    if (job->tool == DL_TOOL_UV)
        return inspected_packages(job, lock, error);
    if (!dl_machine_open(&m, "/", error))
        return false;
    ok = dl_fs_read(&m, job->report, 64u << 20, &data, &len, &truncated, &err);
    dl_machine_close(&m);
    if (!ok) {
        *error = dl_fmt("pip's report %s: %s", job->report,
                        err.message ? err.message : "unreadable");
        dl_io_error_clear(&err);
        return false;
    }
    ok = dl_lock_from_pip_report(data, len, lock, error);
    free(data);
    if (ok && job->file_hashes)
        (void)dl_lock_fill_hashes(lock, job->file_hashes);
    return ok;
}

/* A path as it appears inside a JSON string. */
static char *json_escaped(const char *s)
{
    cJSON *item = cJSON_CreateString(s);
    char *quoted = cJSON_PrintUnformatted(item), *inner;
    size_t n = quoted ? strlen(quoted) : 0;
    inner = n >= 2 ? dl_strndup(quoted + 1, n - 2) : dl_strdup(s);
    cJSON_free(quoted);
    cJSON_Delete(item);
    return inner;
}

/* The proof's snapshot, its paths naming the environment where it now is (the facts were
 * gathered in the staging folder). */
static char *snapshot_in_place(const dl_setup_job *job, const dl_snapshot *snap)
{
    char *json = dl_snapshot_to_json_text(snap);
    char *from = json_escaped(job->layout.staging), *to = json_escaped(job->layout.target);
    size_t n = 0;
    char *moved = dl_setup_replace_all(json, strlen(json), from, to, &n);
    free(from);
    free(to);
    if (!moved)
        return json;
    free(json);
    return moved;
}

/* The lock's header from the plan, then the lock written atomically and said. */
static int write_lock(const dl_setup_job *job, dl_lock *lock, const char *host)
{
    char when[32], *text, *error = NULL;
    int rc = DL_EXIT_OK;
    utc_now(when, sizeof when);
    lock->torch = dl_strdup(dl_lock_version_of(lock, "torch"));
    lock->variant = dl_strdup(job->variant);
    lock->index_url = dl_strdup(job->index_url);
    lock->extra_index_url = dl_strdup(job->extra_index_url);
    text = dl_lock_write(lock, when, host);
    if (!dl_file_write_atomic(job->layout.lock, text, strlen(text), &error)) {
        dl_cli_error("%s", error);
        free(error);
        rc = DL_EXIT_TOOL;
    } else {
        printf("Lock: %s (%lu packages, %s)\n", job->layout.lock, (unsigned long)lock->n,
               lock->all_hashed ? "every file's sha256"
                                : "no hashes: some file's sha256 is unknown (its header "
                                  "says which)");
    }
    free(text);
    return rc;
}

static int write_snapshot(const dl_setup_job *job, const dl_snapshot *snap)
{
    char *json = snapshot_in_place(job, snap), *text, *error = NULL;
    int rc = DL_EXIT_OK;
    text = dl_fmt("%s\n", json);
    free(json);
    if (!dl_file_write_atomic(job->layout.snapshot, text, strlen(text), &error)) {
        dl_cli_error("%s", error);
        free(error);
        rc = DL_EXIT_TOOL;
    } else {
        printf("Snapshot: %s (compare later: dlenv diff %s -)\n", job->layout.snapshot,
               job->layout.snapshot);
    }
    free(text);
    return rc;
}

static int write_lock_and_snapshot(const dl_setup_job *job, dl_snapshot *snap)
{
    dl_lock lock;
    char *error = NULL;
    int rc = DL_EXIT_OK, snap_rc;
    memset(&lock, 0, sizeof lock);
    if (!lock_packages(job, &lock, &error)) {
        dl_cli_error("no lock written: %s", error);
        free(error);
        rc = DL_EXIT_TOOL;
    } else {
        lock.python = dl_strdup(job->python_version);
        lock.tool = dl_strdup(job->tool == DL_TOOL_UV      ? "uv"
                              : job->tool == DL_TOOL_CONDA ? "conda"
                                                           : "venv");
        rc = write_lock(job, &lock, snap->host);
    }
    snap_rc = write_snapshot(job, snap);
    dl_lock_free(&lock);
    (void)dl_tree_remove(job->report, &error);
    return rc != DL_EXIT_OK ? rc : snap_rc;
}

/* An environment made without dlenv: its Python X.Y on the first line, then what is
 * installed in its own site-packages (not the system's it may see), as pip inspect's JSON
 * names it. importlib.metadata alone: it may have no pip. */
static const char *INSTALLED_PACKAGES =
    "import json, sys, sysconfig\n"
    "from importlib import metadata\n"
    "paths = sysconfig.get_paths()\n"
    "seen, found = set(), []\n"
    "for d in metadata.distributions(path=sorted({paths['purelib'], paths['platlib']})):\n"
    "    name = d.metadata['Name']\n"
    "    if name and name.lower() not in seen:\n"
    "        seen.add(name.lower())\n"
    "        found.append({'metadata': {'name': name, 'version': d.version}})\n"
    "found.sort(key=lambda p: p['metadata']['name'].lower())\n"
    "print('%d.%d%s' % (sys.version_info[0], sys.version_info[1],\n"
    "                  't' if sysconfig.get_config_var('Py_GIL_DISABLED') else ''))\n"
    "print(json.dumps({'installed': found}))\n";

/* The lock of an adopted environment: the versions installed in it (their files' sha256
 * are not known: what was downloaded then is gone), its own Python, no tool. */
static bool installed_packages(const dl_setup_job *job, dl_lock *lock, char **error)
{
    dl_strv argv = {0};
    dl_proc_result r;
    const char *json;
    bool ok = false;
    dl_strv_add(&argv, dl_strdup(job->layout.python));
    dl_strv_add(&argv, dl_strdup("-c"));
    dl_strv_add(&argv, dl_strdup(INSTALLED_PACKAGES));
    run(&argv, 60000, false, &r);
    json = succeeded(&r) && r.out ? strchr(r.out, '\n') : NULL;
    if (!json) {
        char *how = how_it_ended(&r);
        *error = dl_fmt("its packages could not be listed: %s", how);
        free(how);
    } else {
        lock->python = dl_strndup(r.out, (size_t)(json - r.out));
        ok = dl_lock_from_pip_report(json + 1, strlen(json + 1), lock, error);
    }
    dl_proc_result_free(&r);
    dl_strv_free(&argv);
    return ok;
}

/* An adopted environment without a lock or a snapshot (made by hand, or by an older dlenv)
 * gets them once proven, written as a setup writes them; the ones it has are kept. */
static int record_adopted(const dl_setup_job *job, const dl_snapshot *snap)
{
    bool need_lock = dl_path_kind(job->layout.lock) == DL_FS_NONE;
    bool need_snap = dl_path_kind(job->layout.snapshot) == DL_FS_NONE;
    dl_lock lock;
    char *error = NULL;
    int rc = DL_EXIT_OK, snap_rc = DL_EXIT_OK;
    if (!need_lock && !need_snap)
        return DL_EXIT_OK;
    memset(&lock, 0, sizeof lock);
    if (need_lock && !installed_packages(job, &lock, &error)) {
        dl_cli_error("no lock written: %s", error);
        free(error);
        rc = DL_EXIT_TOOL;
    } else if (need_lock) {
        rc = write_lock(job, &lock, snap->host);
    }
    if (need_snap)
        snap_rc = write_snapshot(job, snap);
    dl_lock_free(&lock);
    return rc != DL_EXIT_OK ? rc : snap_rc;
}

/* How to start the environment, in the shell dlenv was typed in (both of Windows' when
 * that cannot be told); heading: "Done. Activate it" or the dry run's. */
static void print_activation(const dl_setup_job *job, const char *heading)
{
    dl_setup_activation a;
    bool known;
    dl_shell sh = dl_setup_user_shell(THIS_WINDOWS, &known);
    char *python = dl_shell_quote(sh, job->layout.python);
    if (job->tool == DL_TOOL_CONDA) /* a named one by its name */
        dl_setup_conda_activation_make(job->cli->name && !job->cli->n_args ? job->cli->name
                                                                          : job->shown,
                                       job->layout.windows, &a);
    else
        dl_setup_activation_make(job->shown, job->layout.windows, &a);
    printf("\n%s:\n", heading);
    if (a.sh)
        printf("  %s\n", a.sh);
    else if (known)
        printf("  %s\n", sh == DL_SHELL_CMD ? a.cmd : a.powershell);
    else
        printf("  PowerShell: %s\n  cmd:        %s\n", a.powershell, a.cmd);
    printf("or run in it without activating: dlenv run --python %s -- python train.py\n",
           python);
    free(python);
    dl_setup_activation_free(&a);
}

static int swap_into_place(const dl_setup_job *job, dl_snapshot *snap)
{
    char *error = NULL;
    bool kept = false;
    if (job->tool == DL_TOOL_VENV && !dl_setup_relocate(&job->layout, &error)) {
        dl_cli_error("%s", error);
        free(error);
        return abandon(job, DL_EXIT_SWAP_FAILED);
    }
    if (job->tool == DL_TOOL_CONDA ? !dl_setup_conda_swap(job->conda, &job->layout, &kept, &error)
                                   : !dl_setup_swap(&job->layout, &kept, &error)) {
        dl_cli_error("%s", error);
        free(error);
        return abandon(job, DL_EXIT_SWAP_FAILED);
    }
    printf("\nIn place: %s%s%s\n", job->layout.target, kept ? " (the previous one is at " : "",
           kept ? job->layout.previous : "");
    if (kept)
        printf("  `dlenv setup --rollback %s` puts it back)\n", job->shown);
    return write_lock_and_snapshot(job, snap);
}

/* The --with check: with the base interpreter's pip before anything is made (a dry run
 * with a report is allowed even where PEP 668 forbids installing), else with the new
 * environment's once it exists. */
static int make_env_checked(const dl_setup_job *job)
{
    bool runnable = job->base_python && strpbrk(job->base_python, "/\\");
    int checked = runnable ? check_with(job, job->base_python) : DEFERRED;
    int rc;
    if (checked != DL_EXIT_OK && checked != DEFERRED)
        return checked;
    if ((rc = make_env(job)) != DL_EXIT_OK)
        return rc;
    return checked == DEFERRED ? check_with(job, NULL) : DL_EXIT_OK;
}

static const char *INSTALLED_VERSIONS =
    "import sys\n"
    "try:\n"
    "    from importlib import metadata\n"
    "except ImportError:\n"
    "    sys.exit(3)\n"
    "for name in sys.argv[1:]:\n"
    "    try:\n"
    "        version = metadata.version(name)\n"
    "    except Exception:\n"
    "        version = ''\n"
    "    print('%s\\t%s' % (name, version))\n";

/* One planned NAME==V against the line the environment answered for it (NAME<TAB>VERSION):
 * that version, or the torch family's with the variant's tag (2.9.1+cpu). */
static bool has_planned(const dl_setup_job *job, const char *pin, const char *line)
{
    const char *eq = strstr(pin, "=="), *tab = strchr(line, '\t');
    if (!eq || !tab || !tab[1])
        return false;
    return !strcmp(tab + 1, eq + 2) || dl_setup_torch_as_planned(tab + 1, eq + 2, job->variant);
}

/* The target already is an environment with every planned package at its planned version
 * (its metadata asked, nothing imported): *have says what it has. Not for restore (the
 * lock is the whole set) nor under --force. */
static bool already_as_planned(const dl_setup_job *job, char **have)
{
    dl_strv argv = {0}, lines = {0};
    dl_proc_result r;
    dl_buf b = {0};
    size_t i;
    bool all;
    if (job->requirements || job->cli->force || !job->packages.n ||
        dl_path_kind(job->layout.python) == DL_FS_NONE)
        return false;
    dl_strv_add(&argv, dl_strdup(job->layout.python));
    dl_strv_add(&argv, dl_strdup("-c"));
    dl_strv_add(&argv, dl_strdup(INSTALLED_VERSIONS));
    for (i = 0; i < job->packages.n; i++)
        dl_strv_add(&argv, dl_strndup(job->packages.v[i], strcspn(job->packages.v[i], "=")));
    run(&argv, 60000, false, &r);
    if (succeeded(&r) && r.out)
        dl_strv_split(&lines, r.out, '\n');
    all = lines.n >= job->packages.n;
    for (i = 0; all && i < job->packages.n; i++) {
        char *line = dl_trim(lines.v[i]);
        all = has_planned(job, job->packages.v[i], line);
        dl_buf_printf(&b, "%s%s", i ? ", " : "", line);
    }
    for (i = 0; i < b.len; i++)
        if (b.data[i] == '\t')
            b.data[i] = ' ';
    *have = dl_buf_take(&b);
    dl_strv_free(&lines);
    dl_proc_result_free(&r);
    dl_strv_free(&argv);
    if (!all) {
        free(*have);
        *have = NULL;
    }
    return all;
}

/* Which of the lock and the snapshot the target lacks, as said; NULL: it has both. */
static const char *missing_records(const dl_setup_job *job)
{
    bool lock = dl_path_kind(job->layout.lock) == DL_FS_NONE;
    bool snap = dl_path_kind(job->layout.snapshot) == DL_FS_NONE;
    return lock && snap ? DL_SETUP_LOCK_NAME " and " DL_SETUP_SNAPSHOT_NAME
           : lock       ? DL_SETUP_LOCK_NAME
           : snap       ? DL_SETUP_SNAPSHOT_NAME
                        : NULL;
}

/* What is there is what the plan would make: proven as it is, nothing installed. */
static int adopt(const dl_setup_job *job, char *have)
{
    const char *missing = missing_records(job);
    dl_snapshot snap;
    int rc;
    printf("\n%s already is an environment with %s, as planned: setup only proves it, "
           "nothing is installed (--force makes it anew).\n", job->layout.target, have);
    free(have);
    if (missing)
        printf("It has no %s: %s.\n", missing,
               job->cli->dry_run ? "a setup without --dry-run writes it once it is proven"
                                 : "written once it is proven, as a setup writes them");
    if (job->cli->dry_run) {
        printf("\n--dry-run: nothing was done.\n");
        return DL_EXIT_OK;
    }
    memset(&snap, 0, sizeof snap);
    rc = dl_setup_prove_python(job, job->layout.python, &snap);
    if (rc == DL_EXIT_OK && !missing)
        printf("The environment at %s works as planned; nothing was changed.\n",
               job->layout.target);
    else if (rc == DL_EXIT_OK)
        printf("The environment at %s works as planned; nothing in it was installed or "
               "changed.\n", job->layout.target);
    if (rc == DL_EXIT_OK)
        rc = record_adopted(job, &snap);
    else
        fprintf(stderr, "Nothing was changed at %s (`dlenv setup --force` makes it anew).\n",
                job->layout.target);
    dl_snapshot_free(&snap);
    return rc;
}

int dl_setup_run(dl_setup_job *job)
{
    char *have = NULL;
    dl_snapshot snap;
    int rc;
    memset(&snap, 0, sizeof snap);
    if ((rc = check_target(job)) != DL_EXIT_OK)
        return rc;
    if (already_as_planned(job, &have))
        return adopt(job, have);
    print_steps(job);
    if (job->cli->dry_run) {
        print_activation(job, "Once it is made, activate it");
        printf("\n--dry-run: nothing was done.\n");
        return DL_EXIT_OK;
    }
    if ((rc = confirm(job->cli)) != DL_EXIT_OK || (rc = clean_stale(job)) != DL_EXIT_OK ||
        (rc = fetch_python(job)) != DL_EXIT_OK ||
        (rc = check_index(job, job->index_url)) != DL_EXIT_OK ||
        (rc = make_env_checked(job)) != DL_EXIT_OK ||
        (rc = install(job)) != DL_EXIT_OK || (rc = prove(job, &snap)) != DL_EXIT_OK)
        goto done;
    rc = swap_into_place(job, &snap);
    if (rc == DL_EXIT_OK)
        print_activation(job, "Done. Activate it");
done:
    dl_snapshot_free(&snap);
    return rc;
}
