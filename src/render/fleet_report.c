/* fleet report as text, JSON and Markdown. Every node appears: the reference group as a
 * count, every other node by name with its difference, its root cause, what was wrong
 * with its text, or that it did not answer. */
#include "render/fleet_report_view.h"

#include "base/str.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

static const char *fp_title[DL_FP_COUNT] = {"driver", "CUDA up to", "GPUs", "torch"};

static const char *or_unknown(const char *s)
{
    return s ? s : "unknown";
}

static void fingerprint_line(dl_buf *b, char *const *fp)
{
    int k;
    for (k = 0; k < DL_FP_COUNT; k++)
        dl_buf_printf(b, "%s%s %s", k ? ", " : "", fp_title[k], or_unknown(fp[k]));
}

static void counts_line(dl_buf *b, const dl_fleet *fl)
{
    static const char *words[] = {"ok", "failing", "cannot be judged", "garbage output",
                                  "no answer"};
    int s;
    bool any = false;
    dl_buf_printf(b, "%zu node%s:", fl->n, fl->n == 1 ? "" : "s");
    for (s = 0; s <= DL_NODE_SILENT; s++)
        if (fl->n_state[s]) {
            dl_buf_printf(b, "%s %zu %s", any ? "," : "", fl->n_state[s], words[s]);
            any = true;
        }
    if (!any)
        dl_buf_puts(b, " none");
}

/* The nodes of one section, each as "host  detail"; heading and markdown bullet form. */
typedef enum section { SEC_OUTLIER, SEC_FAILING, SEC_JUDGE, SEC_GARBAGE, SEC_SILENT } section;

static char *detail(const dl_fleet *fl, const dl_fleet_node *x, section s)
{
    switch (s) {
    case SEC_OUTLIER: return dl_fleet_difference(fl, x);
    case SEC_FAILING:
        if (x->state != DL_NODE_FAILING)
            return NULL;
        return dl_fmt("%s: %s", or_unknown(x->root_id), or_unknown(x->root_title));
    case SEC_JUDGE:
        return x->state == DL_NODE_CANNOT_JUDGE ? dl_strdup(or_unknown(x->why)) : NULL;
    case SEC_GARBAGE:
        return x->state == DL_NODE_GARBAGE ? dl_strdup(or_unknown(x->why)) : NULL;
    case SEC_SILENT:
        return x->state == DL_NODE_SILENT ? dl_strdup(or_unknown(x->why)) : NULL;
    }
    return NULL;
}

static const char *section_title[] = {"Different from the reference", "Failing",
                                      "Cannot be judged", "Garbage output", "No answer"};

static void section_out(dl_buf *b, const dl_fleet *fl, section s, bool markdown)
{
    size_t i, count = 0;
    dl_buf body = {0};
    for (i = 0; i < fl->n; i++) {
        char *d = detail(fl, &fl->nodes[i], s);
        if (!d)
            continue;
        count++;
        if (markdown)
            dl_buf_printf(&body, "- `%s`: %s\n", fl->nodes[i].host, d);
        else
            dl_buf_printf(&body, "  %-12s %s\n", fl->nodes[i].host, d);
        free(d);
    }
    if (count) {
        if (markdown)
            dl_buf_printf(b, "\n### %s (%zu)\n\n", section_title[s], count);
        else
            dl_buf_printf(b, "\n%s (%zu):\n", section_title[s], count);
        dl_buf_add(b, body.data, body.len);
    }
    dl_buf_free(&body);
}

static char *render_words(const dl_fleet *fl, bool markdown)
{
    dl_buf b = {0};
    section s;
    dl_buf_puts(&b, markdown ? "## dlenv fleet report\n\n" : "dlenv fleet report  ");
    counts_line(&b, fl);
    dl_buf_puts(&b, "\n");
    if (fl->n_groups) {
        dl_buf_printf(&b, markdown ? "\n**Reference** (%zu of %zu reports): " :
                                     "\nReference (%zu of %zu reports): ",
                      fl->groups[0].n, fl->n - fl->n_state[DL_NODE_GARBAGE] -
                                           fl->n_state[DL_NODE_SILENT]);
        fingerprint_line(&b, fl->groups[0].fp);
        dl_buf_puts(&b, "\n");
    }
    for (s = SEC_OUTLIER; s <= SEC_SILENT; s++)
        section_out(&b, fl, s, markdown);
    return dl_buf_take(&b);
}

char *dl_render_fleet_report_text(const dl_fleet *fl)
{
    return render_words(fl, false);
}

char *dl_render_fleet_report_markdown(const dl_fleet *fl)
{
    return render_words(fl, true);
}

static void add_text_or_null(cJSON *o, const char *name, const char *value)
{
    if (value)
        cJSON_AddStringToObject(o, name, value);
    else
        cJSON_AddNullToObject(o, name);
}

static cJSON *fingerprint_json(char *const *fp)
{
    cJSON *o = cJSON_CreateObject();
    int k;
    for (k = 0; k < DL_FP_COUNT; k++)
        add_text_or_null(o, dl_fleet_fp_name(k), fp[k]);
    return o;
}

static cJSON *groups_json(const dl_fleet *fl)
{
    cJSON *a = cJSON_CreateArray();
    size_t g, i;
    for (g = 0; g < fl->n_groups; g++) {
        cJSON *o = fingerprint_json(fl->groups[g].fp), *hosts = cJSON_CreateArray();
        cJSON_AddNumberToObject(o, "count", (double)fl->groups[g].n);
        for (i = 0; i < fl->n; i++)
            if (fl->nodes[i].state != DL_NODE_GARBAGE && fl->nodes[i].state != DL_NODE_SILENT &&
                fl->nodes[i].group == g)
                cJSON_AddItemToArray(hosts, cJSON_CreateString(fl->nodes[i].host));
        cJSON_AddItemToObject(o, "hosts", hosts);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

static cJSON *node_json(const dl_fleet *fl, const dl_fleet_node *x)
{
    cJSON *o = cJSON_CreateObject();
    char *diff = dl_fleet_difference(fl, x);
    cJSON_AddStringToObject(o, "host", x->host);
    cJSON_AddStringToObject(o, "state", dl_node_state_name(x->state));
    add_text_or_null(o, "difference", diff);
    free(diff);
    if (x->state == DL_NODE_FAILING) {
        cJSON *r = cJSON_CreateObject();
        add_text_or_null(r, "id", x->root_id);
        add_text_or_null(r, "title", x->root_title);
        cJSON_AddItemToObject(o, "root_cause", r);
    } else
        cJSON_AddNullToObject(o, "root_cause");
    add_text_or_null(o, "why", x->why);
    return o;
}

char *dl_render_fleet_report_json(const dl_fleet *fl)
{
    cJSON *doc = cJSON_CreateObject(), *counts = cJSON_CreateObject(),
          *nodes = cJSON_CreateArray();
    char *text, *out;
    size_t i;
    int s;
    cJSON_AddStringToObject(doc, "schema", "dlenv.fleet_report/1");
    cJSON_AddNumberToObject(doc, "nodes", (double)fl->n);
    for (s = 0; s <= DL_NODE_SILENT; s++)
        cJSON_AddNumberToObject(counts, dl_node_state_name((dl_node_state)s),
                                (double)fl->n_state[s]);
    cJSON_AddItemToObject(doc, "counts", counts);
    if (fl->n_groups)
        cJSON_AddItemToObject(doc, "reference", fingerprint_json(fl->groups[0].fp));
    else
        cJSON_AddNullToObject(doc, "reference");
    cJSON_AddItemToObject(doc, "groups", groups_json(fl));
    /* every node that is not a healthy member of the reference group */
    for (i = 0; i < fl->n; i++) {
        const dl_fleet_node *x = &fl->nodes[i];
        if (x->state == DL_NODE_OK && x->group == 0)
            continue;
        cJSON_AddItemToArray(nodes, node_json(fl, x));
    }
    cJSON_AddItemToObject(doc, "attention", nodes);
    text = cJSON_Print(doc);
    out = dl_strdup(text);
    cJSON_free(text);
    cJSON_Delete(doc);
    return out;
}
