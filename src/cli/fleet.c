/* dlenv fleet check: the doctor's checks without `import torch` and without measuring,
 * in the forms cluster health checkers read (render/fleet_*.c). `fleet report` (many
 * nodes folded into one picture) is fleet_report.c; Slurm's --drain and gres-conf are
 * fleet_slurm.c. */
#include "cli/exit_codes.h"
#include "cli/fleet_measured.h"
#include "cli/fleet_report.h"
#include "cli/fleet_slurm.h"
#include "cli/gather.h"
#include "cli/commands.h"
#include "cli/output.h"

#include "base/str.h"
#include "os/os.h"
#include "render/fleet_view.h"
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* How long NFD keeps the labels when no newer file comes: a timer that runs every few
 * minutes renews them long before; a node where dlenv stopped loses them within the hour. */
#define NFD_EXPIRY_S 3600

const dl_option dl_fleet_options[] = {
    DL_OPT_ROOT,
    DL_OPT_FROM,
    DL_OPT_PROBE_TIMEOUT,
    DL_OPT_PYTHON,
    DL_OPT_LOWER("format", "FORMAT", format,
                 "check: json (default), prom, nfd, nhc or slurm; report: text (default), "
                 "json or markdown"),
    DL_OPT_TEXT("textfile", 0, "DIR", textfile,
                "prom, nfd: write DIR/dlenv.prom or DIR/dlenv (temporary file, then rename)"),
    DL_OPT_TEXT("snapshot", 0, "FILE", snapshot,
                "prom: add verify's rates as shares of their peaks, from a saved `dlenv "
                "verify --json` (or snapshot) FILE"),
    DL_OPT_ROW("timeout", 0, "SECONDS", DL_OPTK_SECONDS, timeout_s,
               "report: kill the launcher after this long (default 600); hosts that had "
               "not answered are listed"),
    DL_OPT_TEXT("hosts", 0, "LIST", hosts,
                "report: the hosts expected to answer (gpu[01-32],login1); those that gave "
                "nothing are listed"),
    DL_OPT_FLAG("drain", 0, drain,
                "check --format slurm: drain this node in Slurm when it fails (reason "
                "\"dlenv: ...\"), resume it when healthy, if dlenv drained it"),
    DL_OPT_TEXT("node", 0, "NAME", node,
                "--drain, gres-conf: the node's Slurm name (default: $SLURMD_NODENAME, else "
                "the short host name)"),
    DL_OPT_END,
};

typedef char *(*render_fn)(const dl_fleet_input *in);

typedef struct fleet_format {
    const char *name;
    render_fn render;
    const char *file;      /* the name in --textfile DIR; NULL: stdout only */
    const char *staging;   /* written whole under this name first, then renamed to file:
                              nfd-worker reads every file but dot files, temporary ones too */
} fleet_format;

static const fleet_format formats[] = {
    {"json", dl_render_fleet_json, NULL, NULL},
    {"prom", dl_render_fleet_prom, "dlenv.prom", NULL}, /* node_exporter reads only *.prom */
    {"nfd", dl_render_fleet_nfd, "dlenv", ".dlenv"},
    {"nhc", dl_render_fleet_nhc, NULL, NULL},
    {"slurm", dl_render_fleet_slurm, NULL, NULL},
};

static int usage(const char *message)
{
    dl_cli_error("%s", message);
    return DL_EXIT_USAGE;
}

static int check_options(const dl_cli *cli, const fleet_format **out)
{
    size_t i;
    const char *name = cli->format ? cli->format : "json";
    if (!cli->n_args || strcmp(cli->args[0], "check"))
        return usage("fleet takes an action, check, report or gres-conf: dlenv fleet check "
                     "--format prom");
    if (cli->command_argc)
        return usage("fleet check takes no command");
    if (cli->timeout_s > 0 || cli->hosts)
        return usage("--timeout and --hosts go with fleet report");
    *out = NULL;
    for (i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (!strcmp(formats[i].name, name))
            *out = &formats[i];
    if (!*out) {
        char *m = dl_fmt("--format takes json, prom, nfd, nhc or slurm, not '%s'", name);
        int code = usage(m);
        free(m);
        return code;
    }
    if (cli->textfile && !(*out)->file)
        return usage("--textfile goes with --format prom or nfd");
    if (cli->snapshot && (*out)->render != dl_render_fleet_prom)
        return usage("--snapshot goes with --format prom");
    if (cli->drain && (*out)->render != dl_render_fleet_slurm)
        return usage("--drain goes with --format slurm");
    if (cli->node && !cli->drain)
        return usage("--node goes with --drain (and fleet gres-conf)");
    return DL_EXIT_OK;
}

static int verdict_code(dl_verdict verdict)
{
    if (verdict == DL_VERDICT_FAILURE)
        return DL_EXIT_FINDINGS;
    if (verdict == DL_VERDICT_CANNOT_JUDGE)
        return DL_EXIT_CANNOT_JUDGE;
    return DL_EXIT_OK;
}

static int write_textfile(const char *dir, const fleet_format *format, const char *text)
{
    char *path = dl_path_join(dir, format->file), *error = NULL;
    char *staged = format->staging ? dl_path_join(dir, format->staging) : NULL;
    int rc = DL_EXIT_OK;
    if (!dl_file_write_atomic(staged ? staged : path, text, strlen(text), &error) ||
        (staged && !dl_file_move_over(staged, path, &error))) {
        dl_cli_error("%s", error);
        free(error);
        rc = DL_EXIT_TOOL;
    }
    free(staged);
    free(path);
    return rc;
}

/* The node's health in Slurm's terms, and the line that becomes its drain reason. */
static int drain(const dl_cli *cli, const dl_fleet_input *in)
{
    dl_slurm_health health = DL_SLURM_HEALTHY;
    char *reason = NULL;
    int rc;
    if (in->view->judged.verdict == DL_VERDICT_FAILURE) {
        health = DL_SLURM_FAILING;
        reason = dl_render_fleet_nhc(in);
    } else if (in->view->judged.verdict == DL_VERDICT_CANNOT_JUDGE) {
        health = DL_SLURM_UNKNOWN;
    }
    rc = dl_fleet_slurm_drain(cli, health, reason);
    free(reason);
    return rc;
}

static int emit(const dl_cli *cli, const fleet_format *format, const dl_fleet_input *in)
{
    char *text = format->render(in);
    int rc = cli->textfile ? write_textfile(cli->textfile, format, text)
                           : dl_cli_write(text, format->render != dl_render_fleet_prom &&
                                                    format->render != dl_render_fleet_nfd &&
                                                    format->render != dl_render_fleet_slurm);
    free(text);
    return rc;
}

int dl_cmd_fleet(const dl_cli *cli, const dl_context *ctx)
{
    const fleet_format *format;
    dl_cli fast;
    dl_facts f;
    dl_findings fs;
    dl_doctor_view view;
    dl_fleet_input in;
    dl_rule_input rin;
    dl_fleet_measured measured;
    int rc;
    if (cli->n_args && !strcmp(cli->args[0], "report"))
        return cli->drain || cli->node
                   ? usage("--drain and --node go with fleet check --format slurm")
                   : dl_fleet_report(cli, ctx);
    if (cli->n_args && !strcmp(cli->args[0], "gres-conf"))
        return dl_fleet_gres_conf(cli, ctx);
    rc = check_options(cli, &format);
    if (rc != DL_EXIT_OK)
        return rc;
    memset(&measured, 0, sizeof measured);
    if (cli->snapshot) {
        rc = dl_fleet_measured_read(cli->snapshot, ctx->know, &measured);
        if (rc != DL_EXIT_OK) {
            dl_fleet_measured_free(&measured);
            return rc;
        }
    }
    /* A health check must be quick and must not hang on a broken CUDA: no import. */
    fast = *cli;
    fast.no_runtime = true;
    rc = dl_cli_gather(&fast, &f);
    if (rc != DL_EXIT_OK) {
        dl_facts_free(&f);
        dl_fleet_measured_free(&measured);
        return rc;
    }
    memset(&fs, 0, sizeof fs);
    rin.facts = &f;
    rin.know = ctx->know;
    dl_rules_run(&rin, NULL, &fs);
    dl_doctor_view_build(&view, &f, &fs, NULL);
    in.facts = &f;
    in.findings = &fs;
    in.view = &view;
    in.now = (long long)time(NULL);
    in.expiry_s = NFD_EXPIRY_S;
    in.measured = cli->snapshot ? &measured.view : NULL;
    in.measured_at = cli->snapshot ? measured.taken_at : -1;
    rc = emit(cli, format, &in);
    if (rc == DL_EXIT_OK && cli->drain)
        rc = drain(cli, &in);
    if (rc == DL_EXIT_OK)
        rc = verdict_code(view.judged.verdict);
    dl_doctor_view_free(&view);
    dl_findings_free(&fs);
    dl_facts_free(&f);
    dl_fleet_measured_free(&measured);
    return rc;
}
