/* dlenv setup [PATH]: a working PyTorch environment, made as a transaction: the plan (the
 * same answer as `dlenv plan`), shown as the exact commands and confirmed once; a staging
 * folder beside PATH with its own interpreter; a pinned install with that interpreter's
 * installer; the proof (the doctor's probes and rules on it); only then the swap into
 * place, the lock and a snapshot. `--rollback PATH` puts back the environment the last
 * setup replaced. Exit codes: cli/exit_codes.h (10-20), docs/setup.md. */
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/gather.h"
#include "cli/output.h"
#include "cli/setup_conda.h"
#include "cli/setup_python.h"
#include "cli/setup_transaction.h"

#include "base/str.h"
#include "facts/query.h"
#include "os/os.h"
#include "plan/commands.h"
#include "plan/machine_facts.h"
#include "plan/plan.h"
#include "setup/stage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_TARGET ".venv"
#ifdef _WIN32
#define THIS_WINDOWS true
#else
#define THIS_WINDOWS false
#endif
#define PYPI_SIMPLE "https://pypi.org/simple"

static bool set_with(dl_cli *cli, const dl_option *o, const char *value, char **error)
{
    (void)o;
    if (!strstr(value, "==")) {
        *error = dl_fmt("--with '%s': expected a pinned package, NAME==VERSION", value);
        return false;
    }
    if (cli->n_with >= DL_CLI_MAX_WITH) {
        *error = dl_fmt("--with: at most %d packages", DL_CLI_MAX_WITH);
        return false;
    }
    cli->with[cli->n_with++] = value;
    return true;
}

#define SETUP_COMMON_OPTIONS                                                                \
    DL_OPT_FLAG("yes", 'y', yes, "do not ask before making the environment"),               \
    DL_OPT_FLAG("dry-run", 0, dry_run, "print the plan and the commands, change nothing"),  \
    DL_OPT_LOWER("tool", "TOOL", tool,                                                     \
                 "uv, venv or conda (default: uv when it is on PATH, else venv)"),       \
    DL_OPT_TEXT("wheelhouse", 0, "DIR", wheelhouse,                                         \
                "install from the wheels in DIR only (no index: pip --no-index --find-links)"), \
    DL_OPT_FLAG("offline", 0, offline, "no index at all: needs --wheelhouse DIR"),           \
    DL_OPT_PROBE_TIMEOUT, DL_OPT_IMPORT_TIMEOUT

const dl_option dl_setup_options[] = {
    DL_OPT_FLAG("cpu", 0, cpu, "a CPU-only torch, whatever GPU is here"),
    DL_OPT_LOWER("for", "KIND", for_kind,
                 "only this kind of build: cpu, cuda, rocm, xpu, mps (as `dlenv plan --for`)"),
    DL_OPT_CALL("python", "PATH|X.Y", dl_opt_set_python_or_version,
                "make it from this interpreter, or from Python X.Y found on PATH"),
    DL_OPT_FLAG("allow-python-download", 0, allow_python_download,
                "no Python X.Y here: let uv fetch it (uv python install X.Y)"),
    DL_OPT_TEXT("torch", 0, "VERSION", torch, "only this torch: 2.3, 2.3.1 or >=2.1,<2.4"),
    DL_OPT_CALL("with", "PKG==V", set_with,
                "also install this package, repeatable; refused if it needs another torch"),
    DL_OPT_TEXT("name", 0, "NAME", name,
                "the environment ~/.venvs/NAME instead of PATH (--tool conda: conda's NAME)"),
    DL_OPT_INDEX_MIRROR,
    DL_OPT_TEXT("extra-index-url", 0, "URL", extra_index_url,
                "where torch's dependencies come from (default https://pypi.org/simple; "
                "none: only the index)"),
    DL_OPT_FLAG("rollback", 0, rollback,
                "put back the environment the last setup of PATH replaced"),
    DL_OPT_FLAG("prove", 0, prove,
                "only the proof, on the environment at PATH as it is; nothing changed"),
    DL_OPT_FLAG("force", 0, force,
                "make it anew even when PATH already has the planned torch (else only proven)"),
    SETUP_COMMON_OPTIONS,
    DL_OPT_END,
};

/* A conda environment (conda-meta/) is moved with conda, never as a bare folder. */
static bool conda_prefix(const char *dir)
{
    char *meta = dl_path_join(dir, "conda-meta");
    bool yes = dl_path_kind(meta) == DL_FS_DIR;
    free(meta);
    return yes;
}

static bool conda_rollback(const dl_setup_layout *l, char **error)
{
    char *conda = dl_setup_find_conda();
    bool ok;
    if (!conda) {
        *error = dl_fmt("%s is a conda environment, and conda is not on PATH (nor CONDA_EXE "
                        "set) to move it", l->target);
        return false;
    }
    ok = dl_setup_conda_rollback(conda, l, error);
    free(conda);
    return ok;
}

static int rollback(const char *target)
{
    dl_setup_layout l;
    char *abs = dl_path_absolute(target), *error = NULL;
    bool ok = dl_setup_layout_make(abs, THIS_WINDOWS, dl_process_id(), &l, &error);
    free(abs);
    if (!ok) {
        dl_cli_error("%s", error);
        free(error);
        return DL_EXIT_USAGE;
    }
    if (!(conda_prefix(l.target) ? conda_rollback(&l, &error) : dl_setup_rollback(&l, &error))) {
        dl_cli_error("%s", error);
        free(error);
        dl_setup_layout_free(&l);
        return DL_EXIT_SWAP_FAILED;
    }
    printf("Rolled back: %s is the environment it was before the last setup; the one that "
           "setup made is at %s (--rollback again swaps them back).\n", l.target, l.previous);
    dl_setup_layout_free(&l);
    return DL_EXIT_OK;
}

/* --tool conda --name NAME: conda's own named environment. NULL after the error. */
static char *conda_named(const char *name)
{
    char *conda = dl_setup_find_conda(), *prefix, *error = NULL;
    if (!conda) {
        dl_cli_error("--tool conda: conda is not on PATH (nor CONDA_EXE set)");
        return NULL;
    }
    prefix = dl_setup_conda_named_prefix(conda, name, &error);
    if (!prefix) {
        dl_cli_error("%s", error);
        free(error);
    }
    free(conda);
    return prefix;
}

/* PATH, --name NAME (~/.venvs/NAME; conda's environment NAME with --tool conda), or .venv.
 * NULL after an error. */
static char *target_of(const dl_cli *cli)
{
    const char *home;
    if (cli->n_args)
        return dl_strdup(cli->args[0]);
    if (!cli->name)
        return dl_strdup(DEFAULT_TARGET);
    if (cli->tool && !strcmp(cli->tool, "conda"))
        return conda_named(cli->name);
    home = dl_env_get("HOME");
    if (!home)
        home = dl_env_get("USERPROFILE");
    return home ? dl_fmt("%s/.venvs/%s", home, cli->name) : dl_fmt(".venvs/%s", cli->name);
}

/* The interpreter the environment is made from: --python PATH; for --python X.Y the one uv
 * finds (tool uv: fetched first when --allow-python-download lets it), else pythonX.Y on
 * PATH (or what `py -X.Y` runs, when only the launcher is there); else the one `python`
 * means here. */
static int base_python(dl_setup_job *job, const dl_facts *f, const dl_plan_machine *m)
{
    const dl_cli *cli = job->cli;
    const dl_python *main = dl_q_main_python(f);
    job->python_version = dl_fmt("%u.%u%s", m->py_major, m->py_minor,
                                 m->py_free_threaded ? "t" : "");
    if (job->tool == DL_TOOL_CONDA)
        job->base_python = dl_strdup(job->python_version); /* conda brings it: python=X.Y */
    else if (!cli->python_version.major && main && main->path.value)
        job->base_python = dl_strdup(main->path.value);
    if (!m->py_major) {
        dl_cli_error("no Python found here to make the environment from: install one "
                     "(python.org, `uv python install 3.12`, or your distribution's python3 "
                     "package), or give one with --python PATH");
        return DL_EXIT_NO_PYTHON;
    }
    return job->base_python ? DL_EXIT_OK : dl_setup_python_of_version(job);
}

static void print_plan(const dl_setup_job *job, const dl_plan_candidate *c)
{
    printf("Plan: torch %s (%s)%s%s for Python %s, from %s\n", c->torch, c->variant,
           c->torchvision[0] ? ", torchvision " : "", c->torchvision, job->python_version,
           job->index_url ? job->index_url : "PyPI");
    if (job->with.n) {
        size_t i;
        printf("  with:");
        for (i = 0; i < job->with.n; i++)
            printf(" %s", job->with.v[i]);
        printf("\n");
    }
    printf("  environment: %s (%s), made from %s%s\n", job->layout.target,
           job->tool == DL_TOOL_UV ? "uv venv" : job->tool == DL_TOOL_CONDA ? "conda create"
                                                                              : "python -m venv",
           job->fetch_python || job->tool == DL_TOOL_CONDA ? "Python " : "", job->base_python);
    if (job->fetch_python)
        printf("  Python %s is not here: uv fetches it first (--allow-python-download)\n",
               job->python_version);
}

/* --cpu, or --for KIND (checked in dl_cmd_setup) */
static dl_plan_want want_of(const dl_cli *cli)
{
    static const struct { const char *name; dl_plan_want want; } kinds[] = {
        {"cpu", DL_WANT_CPU}, {"cuda", DL_WANT_CUDA}, {"rocm", DL_WANT_ROCM},
        {"xpu", DL_WANT_XPU}, {"mps", DL_WANT_MPS}};
    size_t i;
    if (cli->cpu)
        return DL_WANT_CPU;
    for (i = 0; cli->for_kind && i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strcmp(cli->for_kind, kinds[i].name))
            return kinds[i].want;
    return DL_WANT_ANY;
}

/* The plan for this machine (as `dlenv plan` makes it, --cpu/--gpu choosing the kind),
 * its packages pinned into job. */
static int plan_into(dl_setup_job *job)
{
    const dl_cli *cli = job->cli;
    dl_cli quiet = *cli;
    dl_facts f;
    dl_plan_machine m;
    dl_plan plan;
    dl_plan_constraints cons;
    dl_plan_commands cmds;
    dl_python_command py;
    const dl_plan_candidate *c;
    char *error = NULL;
    size_t i;
    int rc;
    memset(&plan, 0, sizeof plan);
    quiet.no_runtime = true;
    quiet.python = cli->python;
    rc = dl_cli_gather(&quiet, &f);
    if (rc != DL_EXIT_OK) {
        dl_facts_free(&f);
        return rc;
    }
    dl_plan_machine_from_facts(&f, NULL, job->know, &m);
    if (cli->python_version.major) {
        m.py_major = cli->python_version.major;
        m.py_minor = cli->python_version.minor;
        m.py_free_threaded = cli->python_version.free_threaded;
    }
    cons.want = want_of(cli);
    cons.torch = cli->torch;
    if (!dl_plan_make(job->know, &m, &cons, &plan, &error)) {
        dl_cli_error("%s", error);
        free(error);
        dl_facts_free(&f);
        return DL_EXIT_USAGE;
    }
    if (plan.best < 0) {
        dl_cli_error("no torch build fits this machine%s%s (`dlenv plan --why%s%s` says why)",
                     cli->cpu || cli->for_kind ? " as a build for " : "",
                     cli->cpu ? "cpu" : cli->for_kind ? cli->for_kind : "",
                     cli->cpu || cli->for_kind ? " --for " : "",
                     cli->cpu ? "cpu" : cli->for_kind ? cli->for_kind : "");
        dl_plan_free(&plan);
        dl_facts_free(&f);
        return DL_EXIT_FINDINGS;
    }
    c = &plan.c[plan.best];
    if ((rc = base_python(job, &f, &m)) == DL_EXIT_OK) {
        memset(&py, 0, sizeof py);
        py.run = dl_strdup("python");
        py.uv_python = dl_strdup("python");
        dl_plan_commands_make(job->know, &plan, c, &m, &py, cli->index_mirror, &cmds);
        dl_strv_split(&job->packages, cmds.packages, ' ');
        for (i = 0; i < cli->n_with; i++) {
            dl_strv_add(&job->packages, dl_strdup(cli->with[i]));
            dl_strv_add(&job->with, dl_strdup(cli->with[i]));
        }
        job->index_url = dl_strdup(cmds.index_url);
        job->extra_index_url = !cli->extra_index_url ? dl_strdup(PYPI_SIMPLE)
                               : strcmp(cli->extra_index_url, "none") ? dl_strdup(cli->extra_index_url)
                                                                      : NULL;
        job->torch = dl_strdup(c->torch);
        job->variant = dl_strdup(c->variant);
        print_plan(job, c);
        dl_plan_commands_free(&cmds);
        dl_python_command_free(&py);
    }
    dl_plan_free(&plan);
    dl_facts_free(&f);
    return rc;
}

int dl_cmd_setup(const dl_cli *cli, const dl_context *ctx)
{
    dl_setup_job job;
    char *target;
    int rc;
    if (cli->rollback) {
        if (!cli->n_args) {
            dl_cli_error("--rollback: which environment? dlenv setup --rollback PATH");
            return DL_EXIT_USAGE;
        }
        return rollback(cli->args[0]);
    }
    if (cli->prove) {
        if (!cli->n_args) {
            dl_cli_error("--prove: which environment? dlenv setup --prove PATH");
            return DL_EXIT_USAGE;
        }
        return dl_setup_prove_existing(cli, ctx->know, cli->args[0]);
    }
    if (cli->cpu && cli->for_kind && strcmp(cli->for_kind, "cpu")) {
        dl_cli_error("--cpu and --for %s exclude each other", cli->for_kind);
        return DL_EXIT_USAGE;
    }
    if (cli->for_kind && want_of(cli) == DL_WANT_ANY) {
        dl_cli_error("--for '%s': expected cpu, cuda, rocm, xpu or mps", cli->for_kind);
        return DL_EXIT_USAGE;
    }
    if (cli->n_args && cli->name) {
        dl_cli_error("PATH and --name exclude each other");
        return DL_EXIT_USAGE;
    }
    if (!(target = target_of(cli)))
        return DL_EXIT_USAGE;
    rc = dl_setup_job_begin(&job, cli, ctx->know, target);
    if (rc == DL_EXIT_OK && cli->name && !cli->dry_run) {
        char *error = NULL; /* ~/.venvs, the first time */
        if (!dl_dir_make(job.layout.parent, &error)) {
            dl_cli_error("%s", error);
            free(error);
            rc = DL_EXIT_TARGET;
        }
    }
    if (rc == DL_EXIT_OK && (rc = dl_setup_choose_tool(&job)) == DL_EXIT_OK &&
        (rc = plan_into(&job)) == DL_EXIT_OK)
        rc = dl_setup_run(&job);
    dl_setup_job_free(&job);
    free(target);
    return rc;
}
