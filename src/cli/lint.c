/* dlenv lint [PATH...]: Python training scripts checked for what breaks on Windows, on
 * CPU-only machines and on new torch releases (src/lint/, docs/lint.md). Built in only
 * with its parser (cmake/lint_grammar.cmake); without it this command says so and exits
 * DL_EXIT_NOT_BUILT. */
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/output.h"

#include "base/str.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const dl_option dl_lint_options[] = {
    DL_OPT_JSON,
    DL_OPT_FLAG("sarif", 0, sarif, "print SARIF 2.1.0 (GitHub code scanning)"),
    DL_OPT_FLAG("fix", 0, fix, "apply the safe fixes (amp API, raw strings, encoding=) in place"),
    DL_OPT_FLAG("diff", 0, diff, "print the safe fixes as a unified diff; change nothing"),
    DL_OPT_FLAG("unsafe-fixes", 0, unsafe_fixes,
                "also offer the unsafe fixes (weights_only=True, map_location=\"cpu\", the "
                "__main__ guard), applied with --fix or shown with --diff; review them"),
    DL_OPT_LOWER("fail-on", "LEVEL", fail_on,
                 "exit 1 when a finding at or above LEVEL remains: error, warning (default), "
                 "info"),
    DL_OPT_TEXT("select", 0, "IDS", select, "only these rule ids (comma-separated)"),
    DL_OPT_TEXT("ignore", 0, "IDS", ignore, "not these rule ids (comma-separated)"),
    DL_OPT_TEXT("env", 0, "current|FILE", env_name,
                "judge for this machine (the default), or the one a saved report describes"),
    DL_OPT_LOWER("os", "OS", os, "judge for linux, windows or macos"),
    DL_OPT_TEXT("torch", 0, "X.Y", torch, "judge for this torch release"),
    DL_OPT_LOWER("cuda", "yes|no", cuda, "judge for a machine with (or without) a CUDA device"),
    DL_OPT_END,
};

#ifndef DLENV_HAVE_LINT

int dl_cmd_lint(const dl_cli *cli, const dl_context *ctx)
{
    (void)cli;
    (void)ctx;
    dl_cli_error("lint is not built into this binary (it was built without the tree-sitter "
                 "Python parser; see docs/lint.md)");
    return DL_EXIT_NOT_BUILT;
}

#else

#include "facts/query.h"
#include "lint/config.h"
#include "lint/lint.h"
#include "os/os.h"
#include "probe/probe.h"
#include "cli/facts_file.h"
#include "cli/gather.h"

/* The torch the facts' main Python holds (static: its package metadata). */
static void torch_of(const dl_facts *f, dl_lint_target *t)
{
    const dl_python *py = dl_q_main_python(f);
    const char *v = py ? dl_q_torch_version(py) : NULL;
    if (!v || sscanf(v, "%u.%u", &t->torch_major, &t->torch_minor) != 2)
        t->torch_major = t->torch_minor = 0;
}

/* --env FILE: the machine a saved report (`dlenv report --json`, a snapshot) describes. */
static bool saved_target(const char *path, dl_lint_target *t)
{
    dl_facts f;
    if (dl_cli_read_facts(path, &f) != DL_EXIT_OK) {
        dl_facts_free(&f); /* it is initialised either way (cli/facts_file.h) */
        return false;
    }
    t->os = dl_q_is_windows(&f) ? DL_LINT_OS_WINDOWS
            : dl_q_text_is(&f.os.family, "linux") ? DL_LINT_OS_LINUX
            : dl_q_text_is(&f.os.family, "macos") ? DL_LINT_OS_MACOS : DL_LINT_OS_UNKNOWN;
    torch_of(&f, t);
    t->cuda = dl_q_has_nvidia_gpu(&f) ? DL_LINT_YES : DL_LINT_NO;
    dl_facts_free(&f);
    return true;
}

/* This machine, cheaply: the OS this binary runs on, the torch its main Python's
 * site-packages hold (read, not imported), an NVIDIA GPU on the PCI bus. */
static void current_target(const dl_cli *cli, dl_lint_target *t)
{
    dl_facts f;
    dl_machine m;
    dl_probe_ctx ctx;
    dl_probe_outcome out = {DL_PROBE_OK, NULL};
    char *error = NULL;
#if defined(_WIN32)
    t->os = DL_LINT_OS_WINDOWS;
#elif defined(__APPLE__)
    t->os = DL_LINT_OS_MACOS;
    t->cuda = DL_LINT_NO;
#else
    t->os = DL_LINT_OS_LINUX;
#endif
    if (!dl_machine_open(&m, "/", &error)) {
        free(error);
        return;
    }
    dl_facts_init(&f);
    ctx.machine = &m;
    dl_cli_probe_settings(cli, &ctx.settings);
    ctx.settings.no_runtime = true;
    dl_probe_python(&ctx, &f, &out);
    free(out.detail);
    torch_of(&f, t);
#if !defined(_WIN32) && !defined(__APPLE__)
    out.detail = NULL;
    dl_probe_pci(&ctx, &f, &out);
    t->cuda = out.status == DL_PROBE_OK ? (dl_q_has_nvidia_gpu(&f) ? DL_LINT_YES : DL_LINT_NO)
                                        : DL_LINT_UNKNOWN;
    free(out.detail);
#endif
    free((char *)ctx.settings.self_path);
    dl_facts_free(&f);
    dl_machine_close(&m);
}

/* What the target is described by: the command line, else [tool.dlenv.lint]. */
typedef struct described {
    const char *os, *torch, *cuda;
} described;

static bool parse_target(const dl_cli *cli, const described *d, dl_lint_target *t,
                         bool *bad_input)
{
    memset(t, 0, sizeof *t);
    t->cuda = DL_LINT_UNKNOWN;
    if (cli->env_name && strcmp(cli->env_name, "current") != 0) {
        if (!saved_target(cli->env_name, t)) {
            *bad_input = true; /* said why */
            return false;
        }
    } else if ((!d->os && !d->torch && !d->cuda) || cli->env_name) {
        current_target(cli, t);
    }
    if (d->os && !dl_lint_os_parse(d->os, &t->os)) {
        dl_cli_error("--os %s: not linux, windows or macos", d->os);
        return false;
    }
    if (d->torch && sscanf(d->torch, "%u.%u", &t->torch_major, &t->torch_minor) != 2) {
        dl_cli_error("--torch %s: not X.Y", d->torch);
        return false;
    }
    if (d->cuda) {
        if (strcmp(d->cuda, "yes") && strcmp(d->cuda, "no")) {
            dl_cli_error("--cuda %s: not yes or no", d->cuda);
            return false;
        }
        t->cuda = !strcmp(d->cuda, "yes") ? DL_LINT_YES : DL_LINT_NO;
    }
    dl_lint_target_describe(t);
    return true;
}

static bool parse_ids(const char *option, const char *text, const dl_strv *configured,
                      dl_strv *ids)
{
    size_t i;
    if (text)
        dl_strv_split(ids, text, ',');
    else
        for (i = 0; i < configured->n; i++)
            dl_strv_add(ids, dl_strdup(configured->v[i]));
    for (i = 0; i < ids->n; i++)
        if (!dl_lint_rule_known(ids->v[i])) {
            dl_cli_error("--%s: no rule '%s' (docs/lint.md lists them)", option, ids->v[i]);
            return false;
        }
    return true;
}

static int exit_code(const dl_lint_run *run, dl_lint_severity fail_on)
{
    size_t i;
    if (run->errors.n)
        return DL_EXIT_TOOL;
    for (i = 0; i < run->findings.n; i++)
        if (!run->findings.v[i].fixed && run->findings.v[i].severity >= fail_on)
            return DL_EXIT_FINDINGS;
    return DL_EXIT_OK;
}

/* The settings from the command line over [tool.dlenv.lint]; false after a usage error. */
static bool settings(const dl_cli *cli, const dl_lint_config *cfg, dl_lint_settings *opts,
                     dl_lint_severity *fail_on, bool *bad_input)
{
    const char *level = cli->fail_on ? cli->fail_on : cfg->fail_on;
    described d;
    d.os = cli->os ? cli->os : cfg->os;
    d.torch = cli->torch ? cli->torch : cfg->torch;
    d.cuda = cli->cuda ? cli->cuda : cfg->cuda;
    if (level && !dl_lint_severity_parse(level, fail_on)) {
        dl_cli_error("--fail-on %s: not error, warning or info", level);
        return false;
    }
    if ((cli->json && cli->sarif) || (cli->fix && cli->diff)) {
        dl_cli_error("%s", cli->fix && cli->diff ? "--fix and --diff exclude each other"
                                                  : "--json and --sarif exclude each other");
        return false;
    }
    return parse_ids("select", cli->select, &cfg->select, &opts->select) &&
           parse_ids("ignore", cli->ignore, &cfg->ignore, &opts->ignore) &&
           parse_target(cli, &d, &opts->target, bad_input);
}

int dl_cmd_lint(const dl_cli *cli, const dl_context *ctx)
{
    static const char *const here[] = {"."};
    dl_lint_settings opts;
    dl_lint_config cfg;
    dl_lint_run run;
    dl_lint_severity fail_on = DL_LINT_WARNING;
    char *out, *error = NULL;
    int rc;
    bool ok, bad_input = false;
    (void)ctx;
    memset(&opts, 0, sizeof opts);
    if (!dl_lint_config_load(&cfg, &error)) {
        dl_cli_error("%s", error);
        free(error);
        dl_lint_config_free(&cfg);
        return DL_EXIT_BAD_INPUT;
    }
    ok = settings(cli, &cfg, &opts, &fail_on, &bad_input);
    dl_lint_config_free(&cfg);
    if (!ok) {
        dl_strv_free(&opts.select);
        dl_strv_free(&opts.ignore);
        dl_lint_target_free(&opts.target);
        return bad_input ? DL_EXIT_BAD_INPUT : DL_EXIT_USAGE;
    }
    opts.fix = cli->fix;
    opts.diff = cli->diff;
    opts.unsafe_fixes = cli->unsafe_fixes;
    if (cli->n_paths)
        dl_lint_paths(cli->paths, cli->n_paths, &opts, &run);
    else
        dl_lint_paths(here, 1, &opts, &run);
    if (cli->diff)
        out = dl_strdup(run.diff ? run.diff : "");
    else if (cli->json)
        out = dl_lint_render_json(&run, &opts);
    else if (cli->sarif)
        out = dl_lint_render_sarif(&run, &opts);
    else
        out = dl_lint_render_text(&run, &opts);
    rc = dl_cli_write(out ? out : "", cli->json || cli->sarif);
    if (rc == DL_EXIT_OK)
        rc = exit_code(&run, fail_on);
    free(out);
    dl_lint_run_free(&run);
    dl_strv_free(&opts.select);
    dl_strv_free(&opts.ignore);
    dl_lint_target_free(&opts.target);
    return rc;
}

#endif
