/* fleet check for Slurm's HealthCheckProgram (and a person reading its log): one line per
 * problem, the root cause first, in the words `--drain` puts into the drain reason. A
 * healthy node without warnings prints nothing. */
#include "render/fleet_view.h"

#include "base/str.h"

#include <stdlib.h>
#include <string.h>

static const char *text_or(const dl_text *t, const char *fallback)
{
    return t->value ? t->value : fallback;
}

/* Each id once: a rule may add one finding per interpreter or GPU. */
static void add_findings(const dl_findings *fs, const dl_finding *root, dl_severity want,
                         const char *prefix, dl_strv *seen, dl_buf *b)
{
    size_t i;
    for (i = 0; i < fs->items.count; i++) {
        const dl_finding *x = &DL_LIST_AT(fs->items, dl_finding, i);
        const char *id = text_or(&x->id, "unknown");
        if (x == root || dl_severity_of_name(text_or(&x->severity, "")) != (int)want ||
            dl_strv_has(seen, id))
            continue;
        dl_strv_add(seen, dl_strdup(id));
        dl_buf_printf(b, "dlenv: %s%s (%s)\n", prefix, text_or(&x->title, "failure"), id);
    }
}

char *dl_render_fleet_slurm(const dl_fleet_input *in)
{
    const dl_doctor_view *v = in->view;
    dl_strv seen = {0}, unknown = {0};
    dl_buf b = {0};
    size_t i;
    if (v->root) {
        char *line = dl_render_fleet_nhc(in);
        dl_buf_printf(&b, "%s\n", line);
        free(line);
        dl_strv_add(&seen, dl_strdup(text_or(&v->root->id, "unknown")));
    }
    add_findings(in->findings, v->root, DL_SEV_FAILURE, "", &seen, &b);
    if (v->judged.verdict == DL_VERDICT_CANNOT_JUDGE) {
        dl_doctor_view_unknown(v, &unknown);
        for (i = 0; i < unknown.n; i++)
            dl_buf_printf(&b, "dlenv: cannot judge %s\n", unknown.v[i]);
    }
    add_findings(in->findings, v->root, DL_SEV_WARNING, "warning: ", &seen, &b);
    dl_strv_free(&seen);
    dl_strv_free(&unknown);
    return b.len ? dl_buf_take(&b) : dl_strdup("");
}
