/* fleet check as a node_exporter textfile (the Prometheus text exposition format 0.0.4):
 * one dlenv_check_status series per check (0 ok, 1 warning, 2 failure), dlenv_status for
 * the node, dlenv_info with the driver, the newest CUDA it runs, torch and the compute
 * capability, and the time of the run; with --snapshot, each rate verify measured as a
 * share of its peak and when it was measured. Nothing DCGM's exporter already exports
 * (clocks, temperatures, utilisation: what the GPU does now, not what it can do). */
#include "render/fleet_view.h"

#include "base/str.h"

#include <string.h>

/* A label value as the text format wants it: backslash, double quote and line feed
 * escaped. Facts hold no other control characters. */
static void put_label(dl_buf *b, const char *name, const char *value)
{
    const char *p;
    dl_buf_printf(b, "%s=\"", name);
    for (p = value; *p; p++) {
        if (*p == '\\')
            dl_buf_puts(b, "\\\\");
        else if (*p == '"')
            dl_buf_puts(b, "\\\"");
        else if (*p == '\n')
            dl_buf_puts(b, "\\n");
        else
            dl_buf_add(b, p, 1);
    }
    dl_buf_puts(b, "\"");
}

static void header(dl_buf *b, const char *name, const char *help)
{
    dl_buf_printf(b, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

/* Whether a rule before rules[i] has its id: one check can be two rules (Windows' and
 * Linux's power_plan_saving), and a series twice in one file is an error to Prometheus. */
static bool id_seen(const dl_rule *rules, size_t i)
{
    size_t j;
    for (j = 0; j < i; j++)
        if (!strcmp(rules[j].id, rules[i].id))
            return true;
    return false;
}

static void check_lines(dl_buf *b, const dl_findings *fs)
{
    size_t i, n;
    const dl_rule *rules = dl_rule_table(&n);
    header(b, "dlenv_check_status",
           "Each dlenv doctor check on this node: 0 ok, 1 warning, 2 failure.");
    for (i = 0; i < n; i++) {
        if (id_seen(rules, i))
            continue;
        dl_buf_puts(b, "dlenv_check_status{");
        put_label(b, "check", rules[i].id);
        dl_buf_puts(b, ",");
        put_label(b, "layer", dl_layer_name(dl_rule_layer(&rules[i])));
        dl_buf_printf(b, "} %d\n", dl_fleet_check_level(fs, rules[i].id));
    }
}

static void status_lines(dl_buf *b, const dl_fleet_input *in)
{
    const dl_finding *root = in->view->root;
    header(b, "dlenv_status",
           "1 for the node's state (ok, warning, failure, cannot_judge) with its root cause.");
    dl_buf_puts(b, "dlenv_status{");
    put_label(b, "status", dl_fleet_status(in));
    dl_buf_puts(b, ",");
    put_label(b, "root_cause", root && root->id.value ? root->id.value : "");
    dl_buf_puts(b, ",");
    put_label(b, "layer", root && root->layer.value ? root->layer.value : "");
    dl_buf_puts(b, "} 1\n");
}

static void info_lines(dl_buf *b, const dl_facts *f)
{
    dl_fleet_info info;
    dl_fleet_info_build(f, &info);
    header(b, "dlenv_info", "The driver, the newest CUDA it runs, torch and the GPUs' "
                            "compute capability, as dlenv found them (unknown: empty).");
    dl_buf_puts(b, "dlenv_info{");
    put_label(b, "driver", info.driver ? info.driver : "");
    dl_buf_puts(b, ",");
    put_label(b, "max_cuda", info.max_cuda ? info.max_cuda : "");
    dl_buf_puts(b, ",");
    put_label(b, "torch", info.torch ? info.torch : "");
    dl_buf_puts(b, ",");
    put_label(b, "capability", info.capability ? info.capability : "");
    dl_buf_puts(b, "} 1\n");
    dl_fleet_info_free(&info);
}

/* A rate next to the hardware's peak (FLOPS, bandwidth). verify's clock under load and its
 * largest allocation stay out: DCGM's exporter already exports clocks and memory use. */
static bool peak_rate(const dl_verify_line *l)
{
    return l->known && l->has_limit && !l->text && l->limit > 0 &&
           (!strcmp(l->unit, "GFLOPS") || !strcmp(l->unit, "TFLOPS") ||
            !strcmp(l->unit, "GB/s"));
}

/* Each rate verify measured as a share of its peak: 0.93 is 93 % of what the hardware can
 * do. A figure not measured, or one without a known peak, gives no series (not a zero). */
static void measured_lines(dl_buf *b, const dl_verify_view *v, long long at)
{
    size_t i;
    bool any = false;
    for (i = 0; i < v->count; i++) {
        const dl_verify_line *l = &v->lines[i];
        if (!peak_rate(l))
            continue;
        if (!any)
            header(b, "dlenv_verify_peak_ratio",
                   "dlenv verify's rate (FLOPS, bandwidth) as a share of the hardware's "
                   "peak (1 = the peak), from the file given to --snapshot.");
        any = true;
        dl_buf_puts(b, "dlenv_verify_peak_ratio{");
        put_label(b, "group", l->group);
        dl_buf_puts(b, ",");
        put_label(b, "figure", l->key);
        dl_buf_printf(b, "} %.4f\n", l->value / l->limit);
    }
    if (any && at >= 0) {
        header(b, "dlenv_verify_timestamp_seconds",
               "When the figures of dlenv_verify_peak_ratio were measured.");
        dl_buf_printf(b, "dlenv_verify_timestamp_seconds %lld\n", at);
    }
}

char *dl_render_fleet_prom(const dl_fleet_input *in)
{
    dl_buf b = {0};
    check_lines(&b, in->findings);
    status_lines(&b, in);
    info_lines(&b, in->facts);
    header(&b, "dlenv_last_run_timestamp_seconds", "When dlenv fleet check last ran.");
    dl_buf_printf(&b, "dlenv_last_run_timestamp_seconds %lld\n", in->now);
    if (in->measured)
        measured_lines(&b, in->measured, in->measured_at);
    return dl_buf_take(&b);
}
