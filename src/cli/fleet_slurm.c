/* `fleet check --drain` and `fleet gres-conf` (fleet_slurm.h). */
#include "cli/fleet_slurm.h"

#include "base/str.h"
#include "cli/exit_codes.h"
#include "cli/gather.h"
#include "cli/output.h"
#include "os/os.h"
#include "render/fleet_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* slurmd starts its HealthCheckProgram with no PATH at all: look where Slurm's packages
 * put scontrol. */
#define SCONTROL_FALLBACK_PATH "/usr/bin:/usr/local/bin:/opt/slurm/bin:/usr/sbin"
/* slurmd kills a HealthCheckProgram after 60 s; two scontrol calls must fit well inside. */
#define SCONTROL_TIMEOUT_MS 15000

char *dl_fleet_node_name(const dl_cli *cli, char **why)
{
    const char *env = dl_env_get("SLURMD_NODENAME");
    dl_uname u;
    char *name = NULL;
    if (cli->node && cli->node[0])
        return dl_strdup(cli->node);
    if (env && env[0])
        return dl_strdup(env);
    if (!dl_os_uname(&u, why))
        return NULL;
    if (u.nodename && u.nodename[0])
        name = dl_strndup(u.nodename, strcspn(u.nodename, "."));
    else
        *why = dl_strdup("the host name is empty; give --node NAME");
    dl_uname_free(&u);
    return name;
}

/* The command as a person would type it, for messages. */
static char *command_words(char *argv[DL_SLURM_MAX_ARGV])
{
    dl_buf b = {0};
    size_t i;
    for (i = 0; i < DL_SLURM_MAX_ARGV && argv[i]; i++)
        dl_buf_printf(&b, "%s%s", i ? " " : "", argv[i]);
    return dl_buf_take(&b);
}

/* scontrol's last words (its fatal line comes after a few error lines). */
static const char *last_line(char *text)
{
    char *end, *start;
    if (!text)
        return "no message";
    end = text + strlen(text);
    while (end > text && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
        *--end = '\0';
    start = strrchr(text, '\n');
    start = start ? start + 1 : text;
    return *start ? start : "no message";
}

/* Runs scontrol with argv[1...]; false with *why (its words when it said no). */
static bool scontrol(char *argv[DL_SLURM_MAX_ARGV], dl_proc_result *r, char **why)
{
    const char *path = dl_env_get("PATH");
    char *program = dl_proc_find(argv[0], path && path[0] ? path : SCONTROL_FALLBACK_PATH);
    dl_proc_opts opts;
    const char *args[DL_SLURM_MAX_ARGV];
    char *words;
    size_t i;
    memset(r, 0, sizeof *r);
    if (!program) {
        *why = dl_strdup("scontrol is not on PATH (nor in " SCONTROL_FALLBACK_PATH ")");
        return false;
    }
    args[0] = program;
    for (i = 1; i < DL_SLURM_MAX_ARGV; i++)
        args[i] = argv[i];
    memset(&opts, 0, sizeof opts);
    opts.timeout_ms = SCONTROL_TIMEOUT_MS;
    opts.max_output = 1 << 20;
    dl_proc_run(args, &opts, r);
    free(program);
    if (r->started && !r->timed_out && r->exited && r->exit_code == 0)
        return true;
    words = command_words(argv);
    if (!r->started)
        *why = dl_fmt("%s could not start: %s", words, r->error ? r->error : "unknown");
    else if (r->timed_out)
        *why = dl_fmt("%s did not answer within %d s", words, SCONTROL_TIMEOUT_MS / 1000);
    else
        *why = dl_fmt("%s failed: %s", words, last_line(r->err));
    free(words);
    return false;
}

/* The node as scontrol shows it, or false with *why. */
static bool read_node(const char *node, dl_slurm_node *now, char **why)
{
    char *argv[DL_SLURM_MAX_ARGV];
    dl_proc_result r;
    bool ok;
    dl_slurm_show_argv(node, argv);
    ok = scontrol(argv, &r, why) && dl_slurm_node_parse(r.out, now, why);
    dl_proc_result_free(&r);
    dl_slurm_argv_free(argv);
    return ok;
}

int dl_fleet_slurm_drain(const dl_cli *cli, dl_slurm_health health, const char *reason)
{
    char *why = NULL, *node = dl_fleet_node_name(cli, &why);
    dl_slurm_node now;
    dl_slurm_step step;
    dl_proc_result r;
    int rc = DL_EXIT_OK;
    if (!node || !read_node(node, &now, &why)) {
        dl_cli_error("--drain: %s", why ? why : "unknown");
        free(why);
        free(node);
        return DL_EXIT_TOOL;
    }
    dl_slurm_drain_step(node, health, reason, &now, &step);
    if (step.verb == DL_SLURM_KEEP) {
        fprintf(stderr, "dlenv: node %s (%s%s%s): %s\n", node, now.state,
                now.reason ? ", reason: " : "", now.reason ? now.reason : "", step.why);
    } else if (scontrol(step.argv, &r, &why)) {
        fprintf(stderr, "dlenv: node %s %s: %s\n", node,
                step.verb == DL_SLURM_DRAIN ? "drained" : "resumed", step.why);
        dl_proc_result_free(&r);
    } else {
        dl_cli_error("--drain: %s", why);
        dl_proc_result_free(&r);
        rc = DL_EXIT_TOOL;
    }
    free(why);
    dl_slurm_argv_free(step.argv);
    dl_slurm_node_free(&now);
    free(node);
    return rc;
}

int dl_fleet_gres_conf(const dl_cli *cli, const dl_context *ctx)
{
    dl_cli fast = *cli;
    dl_facts f;
    char *why = NULL, *node, *text;
    int rc;
    (void)ctx;
    if (cli->command_argc || cli->format || cli->textfile || cli->drain || cli->timeout_s > 0 ||
        cli->hosts) {
        dl_cli_error("fleet gres-conf takes --node, --root, --from and --probe-timeout only");
        return DL_EXIT_USAGE;
    }
    node = dl_fleet_node_name(cli, &why);
    if (!node) {
        dl_cli_error("%s", why ? why : "no node name; give --node NAME");
        free(why);
        return DL_EXIT_TOOL;
    }
    fast.no_runtime = true; /* NVML is all it needs: no `import torch` */
    rc = dl_cli_gather(&fast, &f);
    if (rc == DL_EXIT_OK) {
        text = dl_render_gres_conf(&f, node);
        rc = dl_cli_write(text, false);
        free(text);
        if (rc == DL_EXIT_OK && !dl_gres_conf_complete(&f))
            rc = DL_EXIT_CANNOT_JUDGE;
    }
    dl_facts_free(&f);
    free(node);
    return rc;
}
