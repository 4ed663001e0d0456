/* fleet check as a node_exporter textfile (the Prometheus text exposition format 0.0.4):
 * one dlenv_check_status series per check (0 ok, 1 warning, 2 failure), dlenv_status for
 * the node, dlenv_info with the driver, the newest CUDA it runs, torch and the compute
 * capability, and the time of the run. Nothing DCGM's exporter already exports. */
#include "render/fleet_view.h"

#include "base/str.h"

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

static void check_lines(dl_buf *b, const dl_findings *fs)
{
    size_t i, n;
    const dl_rule *rules = dl_rule_table(&n);
    header(b, "dlenv_check_status",
           "Each dlenv doctor check on this node: 0 ok, 1 warning, 2 failure.");
    for (i = 0; i < n; i++) {
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

char *dl_render_fleet_prom(const dl_fleet_input *in)
{
    dl_buf b = {0};
    check_lines(&b, in->findings);
    status_lines(&b, in);
    info_lines(&b, in->facts);
    header(&b, "dlenv_last_run_timestamp_seconds", "When dlenv fleet check last ran.");
    dl_buf_printf(&b, "dlenv_last_run_timestamp_seconds %lld\n", in->now);
    return dl_buf_take(&b);
}
