/* dlenv fleet report: each node's `dlenv report --json`, gathered by the site's launcher
 * (srun, pdsh, clush, an ssh loop) run here under --timeout, or read from saved files
 * (--from DIR|FILE...), judged one node at a time as `doctor --from` judges (the rules,
 * then the root cause) and kept as a fingerprint and a root cause only, then folded. */
#include "cli/fleet_report.h"

#include "cli/exit_codes.h"
#include "cli/facts_file.h"
#include "cli/input.h"
#include "cli/output.h"

#include "base/str.h"
#include "diff/fleet_fold.h"
#include "os/os.h"
#include "render/doctor_view.h"
#include "render/fleet_report_view.h"
#include "render/fleet_view.h"
#include "rules/rule_memo.h"
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>

/* A launcher that gives no --timeout still ends: ten minutes is longer than any sane
 * fan-out of `dlenv report --json`. */
#define DEFAULT_TIMEOUT_S 600.0
/* What is kept of the launcher's output (a report is some ten to a few hundred KB). */
#define MAX_LAUNCHER_OUTPUT ((size_t)512 * 1024 * 1024)
#define MAX_REPORT_BYTES ((size_t)64 * 1024 * 1024)

typedef struct fold_ctx {
    dl_fleet fleet;
    const dl_context *ctx;
    bool timed_out;        /* the launcher was killed at --timeout */
    double timeout_s;
} fold_ctx;

/* "8 x NVIDIA H100 80GB HBM3", or "1 x A, 1 x B" for mixed GPUs; NULL when NVML listed
 * none. */
static char *gpus_text(const dl_facts *f)
{
    dl_strv names = {0};
    dl_buf b = {0};
    size_t i, j;
    for (i = 0; i < f->nvml.gpus.count; i++) {
        const char *name = DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, i).name.value;
        dl_strv_add_once(&names, name ? name : "unknown");
    }
    for (i = 0; i < names.n; i++) {
        size_t count = 0;
        for (j = 0; j < f->nvml.gpus.count; j++) {
            const char *name = DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, j).name.value;
            count += !strcmp(name ? name : "unknown", names.v[i]);
        }
        dl_buf_printf(&b, "%s%zu x %s", i ? ", " : "", count, names.v[i]);
    }
    dl_strv_free(&names);
    return b.len ? dl_buf_take(&b) : NULL;
}

/* Fills x (all but its host) from a node's facts. memo: this thread's (rules/rule_memo.h). */
static void judge(const dl_context *ctx, dl_rule_memo *memo, const dl_facts *f,
                  dl_fleet_node *x)
{
    dl_findings fs;
    dl_doctor_view view;
    dl_rule_input rin;
    dl_fleet_info info;
    const char *fp[DL_FP_COUNT];
    char *gpus = gpus_text(f), *why = NULL;
    memset(&fs, 0, sizeof fs);
    memset(&rin, 0, sizeof rin);
    rin.facts = f;
    rin.know = ctx->know;
    dl_rules_run_memo(&rin, NULL, memo, &fs);
    dl_doctor_view_build(&view, f, &fs, NULL);
    dl_fleet_info_build(f, &info);
    x->state = DL_NODE_OK;
    if (view.judged.verdict == DL_VERDICT_FAILURE)
        x->state = DL_NODE_FAILING;
    else if (view.judged.verdict == DL_VERDICT_CANNOT_JUDGE) {
        dl_strv unknown = {0};
        x->state = DL_NODE_CANNOT_JUDGE;
        dl_doctor_view_unknown(&view, &unknown);
        why = unknown.n ? dl_strdup(unknown.v[0]) : NULL;
        dl_strv_free(&unknown);
    }
    fp[DL_FP_DRIVER] = info.driver;
    fp[DL_FP_MAX_CUDA] = info.max_cuda;
    fp[DL_FP_GPUS] = gpus;
    fp[DL_FP_TORCH] = info.torch;
    dl_fleet_node_set(x, fp, view.root && x->state == DL_NODE_FAILING ? view.root->id.value : NULL,
                      view.root && x->state == DL_NODE_FAILING ? view.root->title.value : NULL,
                      why);
    free(why);
    free(gpus);
    dl_fleet_info_free(&info);
    dl_doctor_view_free(&view);
    dl_findings_free(&fs);
}

/* What a node printed instead of a report, for the listing: its first line, cut short. */
static char *not_a_report(const char *text, size_t len)
{
    size_t i = 0, n;
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
        i++;
    for (n = 0; i + n < len && text[i + n] != '\n' && text[i + n] != '\r' && n < 100; n++)
        ;
    if (!n)
        return dl_strdup("printed nothing");
    return dl_fmt("not a report: \"%.*s%s\"", (int)n, text + i,
                  i + n < len && text[i + n] != '\n' && text[i + n] != '\r' ? "..." : "");
}

/* One node's text: a report is judged; anything else is named for what it is. */
static void assess(const fold_ctx *c, dl_rule_memo *memo, const char *text, size_t len,
                   dl_fleet_node *x)
{
    dl_facts f;
    char *why = NULL;
    size_t start = len, obj = 0;
    bool found = dl_fleet_find_object(text, len, &start, &obj), begun = start < len;
    if (found) {
        bool ok = dl_cli_facts_from_text(text + start, obj, &f, &why);
        if (ok)
            judge(c->ctx, memo, &f, x);
        dl_facts_free(&f); /* initialised either way (cli/facts_file.h) */
        if (ok)
            return;
    }
    if (!found) {
        free(why);
        why = begun ? dl_strdup("a JSON document that does not end") : not_a_report(text, len);
    }
    /* a report cut short by the kill is a node that did not answer in time */
    if (c->timed_out && begun) {
        char *m = dl_fmt("answered only in part before the launcher was killed at "
                         "--timeout %g s (%s)", c->timeout_s, why);
        x->state = DL_NODE_SILENT;
        dl_fleet_node_set(x, NULL, NULL, NULL, m);
        free(m);
    } else {
        x->state = DL_NODE_GARBAGE;
        dl_fleet_node_set(x, NULL, NULL, NULL, why);
    }
    free(why);
}

/* ---- judging many nodes at once ------------------------------------------------------------
 * Each node is judged alone (its facts tree lives only while its rules run), so the nodes
 * are shared out among threads; results land in their own slot and are added in order. */

typedef struct job {
    char *host;
    char *path;            /* a saved report to read; NULL: text */
    const char *text;
    size_t len;
    bool unreadable;       /* path could not be read (said on stderr) */
    dl_fleet_node result;
} job;

/* Fewer nodes than this are judged on this thread: starting threads costs more. */
#define MIN_NODES_PER_THREAD 32
#define MAX_THREADS 16

typedef struct job_list {
    job *v;
    size_t n;
    const fold_ctx *c;
    unsigned threads;
    dl_rule_memo *memo[MAX_THREADS]; /* one per thread: a memo is not shared */
} job_list;

static void job_add(job_list *jobs, const char *host, const char *path, const char *text,
                    size_t len)
{
    job *j;
    jobs->v = dl_xrealloc(jobs->v, (jobs->n + 1) * sizeof *jobs->v);
    j = &jobs->v[jobs->n++];
    memset(j, 0, sizeof *j);
    j->host = dl_strdup(host);
    j->path = path ? dl_strdup(path) : NULL;
    j->text = text;
    j->len = len;
}

static void run_job(const fold_ctx *c, dl_rule_memo *memo, job *j)
{
    if (j->path) {
        size_t len = 0;
        char *text = dl_cli_read_input(j->path, MAX_REPORT_BYTES, &len);
        if (!text) {
            j->unreadable = true;
            return;
        }
        assess(c, memo, text, len, &j->result);
        free(text);
    } else
        assess(c, memo, j->text, j->len, &j->result);
}

static void job_thread(void *arg, unsigned index)
{
    job_list *jobs = arg;
    size_t i;
    for (i = index; i < jobs->n; i += jobs->threads)
        run_job(jobs->c, jobs->memo[index], &jobs->v[i]);
}

static int run_jobs(fold_ctx *c, job_list *jobs)
{
    unsigned cpus = dl_cpu_count_online();
    size_t i;
    int rc = DL_EXIT_OK;
    char *error = NULL;
    jobs->c = c;
    jobs->threads = cpus < MAX_THREADS ? cpus : MAX_THREADS;
    if (jobs->n / MIN_NODES_PER_THREAD < jobs->threads)
        jobs->threads = (unsigned)(jobs->n / MIN_NODES_PER_THREAD);
    for (i = 0; i < MAX_THREADS; i++)
        jobs->memo[i] = dl_rule_memo_new();
    if (jobs->threads < 2 || !dl_threads_run(jobs->threads, job_thread, jobs, &error)) {
        free(error); /* no threads: the same work here, one node after another */
        jobs->threads = 1;
        job_thread(jobs, 0);
    }
    for (i = 0; i < MAX_THREADS; i++)
        dl_rule_memo_free(jobs->memo[i]);
    for (i = 0; i < jobs->n; i++) {
        job *j = &jobs->v[i];
        if (j->unreadable)
            rc = DL_EXIT_BAD_INPUT;
        else
            dl_fleet_take(&c->fleet, j->host, &j->result);
        free(j->host);
        free(j->path);
    }
    free(jobs->v);
    memset(jobs, 0, sizeof *jobs);
    return rc;
}

static void add_output(fold_ctx *c, const char *out, size_t len)
{
    dl_fleet_part *parts;
    job_list jobs = {0};
    size_t n, i, plain = 0;
    dl_fleet_split(out, len, &parts, &n);
    for (i = 0; i < n; i++) {
        char *name = parts[i].host ? NULL : dl_fmt("#%zu", ++plain);
        job_add(&jobs, parts[i].host ? parts[i].host : name, NULL, parts[i].text, parts[i].len);
        free(name);
    }
    run_jobs(c, &jobs);
    dl_fleet_parts_free(parts, n);
}

/* A saved report's host: its file name without the folder and ".json". */
static char *host_of_path(const char *path)
{
    const char *base = path, *s;
    size_t len;
    for (s = path; *s; s++)
        if (*s == '/' || *s == '\\')
            base = s + 1;
    len = strlen(base);
    if (len > 5 && dl_ends_with(base, ".json"))
        len -= 5;
    return dl_strndup(base, len);
}

static void add_file(job_list *jobs, const char *path)
{
    char *host = host_of_path(path);
    job_add(jobs, host, path, NULL, 0);
    free(host);
}

/* A folder: every *.json in it, in name order. */
static int add_path(job_list *jobs, const char *path)
{
    char **names, *error = NULL;
    size_t n, i;
    if (dl_path_kind(path) != DL_FS_DIR) {
        add_file(jobs, path);
        return DL_EXIT_OK;
    }
    if (!dl_dir_list(path, &names, &n, &error)) {
        dl_cli_error("%s", error);
        free(error);
        return DL_EXIT_BAD_INPUT;
    }
    for (i = 0; i < n; i++)
        if (dl_ends_with(names[i], ".json")) {
            char *file = dl_path_join(path, names[i]);
            add_file(jobs, file);
            free(file);
        }
    dl_fs_list_free(names, n);
    return DL_EXIT_OK;
}

static int add_saved(fold_ctx *c, const dl_cli *cli)
{
    job_list jobs = {0};
    size_t i;
    int rc = add_path(&jobs, cli->from);
    for (i = 0; i < cli->command_argc && rc == DL_EXIT_OK; i++)
        rc = add_path(&jobs, cli->command_argv[i]);
    if (rc == DL_EXIT_OK)
        return run_jobs(c, &jobs);
    for (i = 0; i < jobs.n; i++) {
        free(jobs.v[i].host);
        free(jobs.v[i].path);
    }
    free(jobs.v);
    return rc;
}

static int run_launcher(fold_ctx *c, const dl_cli *cli)
{
    dl_proc_opts opts;
    dl_proc_result r;
    const char **argv = dl_xcalloc(cli->command_argc + 1, sizeof *argv);
    size_t i;
    for (i = 0; i < cli->command_argc; i++)
        argv[i] = cli->command_argv[i];
    memset(&opts, 0, sizeof opts);
    c->timeout_s = cli->timeout_s > 0 ? cli->timeout_s : DEFAULT_TIMEOUT_S;
    opts.timeout_ms = (int)(c->timeout_s * 1000.0);
    opts.max_output = MAX_LAUNCHER_OUTPUT;
    dl_proc_run(argv, &opts, &r);
    free(argv);
    if (!r.started) {
        dl_cli_error("cannot run the launcher %s: %s", cli->command_argv[0],
                     r.error ? r.error : "unknown reason");
        dl_proc_result_free(&r);
        return DL_EXIT_TOOL;
    }
    c->timed_out = r.timed_out;
    add_output(c, r.out ? r.out : "", r.out_len);
    if (r.out_truncated)
        dl_cli_error("the launcher's output was cut at %zu MiB: the nodes after it are "
                     "missing", MAX_LAUNCHER_OUTPUT >> 20);
    dl_proc_result_free(&r);
    return DL_EXIT_OK;
}

/* Hosts named in --hosts that gave nothing are listed, never dropped; without --hosts a
 * launcher killed at --timeout is itself listed, as nobody can say who was missing. */
static void add_silent(fold_ctx *c, const dl_cli *cli)
{
    dl_strv hosts = {0};
    size_t i;
    char *why = c->timed_out
                    ? dl_fmt("no answer: the launcher was killed at --timeout %g s", c->timeout_s)
                    : dl_strdup("no answer: the launcher ended without a report from it");
    if (cli->hosts)
        dl_fleet_hosts_expand(cli->hosts, &hosts);
    for (i = 0; i < hosts.n; i++)
        if (!dl_fleet_has(&c->fleet, hosts.v[i]))
            dl_fleet_node_set(dl_fleet_add(&c->fleet, hosts.v[i], DL_NODE_SILENT), NULL, NULL,
                              NULL, why);
    if (!cli->hosts && c->timed_out)
        dl_fleet_node_set(
            dl_fleet_add(&c->fleet, "(launcher)", DL_NODE_SILENT), NULL, NULL, NULL,
            "killed at --timeout; which hosts had not answered is not known (give --hosts)");
    dl_strv_free(&hosts);
    free(why);
}

static int exit_code(const dl_fleet *fl)
{
    if (fl->n_state[DL_NODE_FAILING])
        return DL_EXIT_FINDINGS;
    if (fl->n_state[DL_NODE_SILENT] || fl->n_state[DL_NODE_GARBAGE])
        return DL_EXIT_NO_ANSWER;
    if (fl->n_state[DL_NODE_CANNOT_JUDGE])
        return DL_EXIT_CANNOT_JUDGE;
    return DL_EXIT_OK;
}

static int usage(const char *message)
{
    dl_cli_error("%s", message);
    return DL_EXIT_USAGE;
}

int dl_fleet_report(const dl_cli *cli, const dl_context *ctx)
{
    const char *format = cli->format ? cli->format : "text";
    fold_ctx c;
    char *text;
    int rc = DL_EXIT_OK;
    if (strcmp(format, "text") && strcmp(format, "json") && strcmp(format, "markdown"))
        return usage("fleet report: --format takes text, json or markdown");
    if (!cli->from && !cli->command_argc)
        return usage("fleet report needs a launcher (fleet report -- pdsh -w 'gpu[1-4]' "
                     "dlenv report --json) or --from DIR");
    if (cli->textfile || cli->root)
        return usage("fleet report takes no --textfile or --root");
    memset(&c, 0, sizeof c);
    c.ctx = ctx;
    if (cli->from) {
        if (cli->timeout_s > 0)
            return usage("--timeout goes with a launcher, not --from");
        rc = add_saved(&c, cli);
    } else
        rc = run_launcher(&c, cli);
    if (rc == DL_EXIT_OK) {
        add_silent(&c, cli);
        dl_fleet_fold(&c.fleet);
        text = !strcmp(format, "json") ? dl_render_fleet_report_json(&c.fleet)
               : !strcmp(format, "markdown") ? dl_render_fleet_report_markdown(&c.fleet)
                                             : dl_render_fleet_report_text(&c.fleet);
        rc = dl_cli_write(text, !strcmp(format, "json"));
        free(text);
        if (rc == DL_EXIT_OK)
            rc = exit_code(&c.fleet);
    }
    dl_fleet_free(&c.fleet);
    return rc;
}
