/* dlenv verify on the terminal: per group, each figure, its limit and the share of it
 * reached, then the performance findings and verify's own with their evidence and fixes. */
#include "render/text_verify.h"

#include "base/str.h"
#include "facts/query.h"
#include "render/doctor_view.h"
#include "rules/catalog.h"

#include <stdlib.h>
#include <string.h>

static void line(dl_buf *b, const dl_style *st, const dl_verify_line *l)
{
    double pct = dl_verify_line_pct(l);
    dl_tone tone = l->verdict == DL_SEV_WARNING || l->verdict == DL_SEV_FAILURE ? DL_TONE_WARN
                                                                                : DL_TONE_PLAIN;
    if (!l->known) {
        dl_tone why_tone = l->verdict >= DL_SEV_WARNING ? DL_TONE_WARN : DL_TONE_DIM;
        dl_buf_printf(b, "  %-26s %snot measured: %s%s\n", l->what,
                      dl_style_on(st, why_tone), l->why, dl_style_off(st, why_tone));
        return;
    }
    if (l->text) {
        dl_buf_printf(b, "  %-26s %s%s%s\n", l->what, dl_style_on(st, tone), l->text,
                      dl_style_off(st, tone));
        return;
    }
    dl_buf_printf(b, "  %-26s %s%9.1f %-6s%s", l->what, dl_style_on(st, tone), l->value,
                  l->unit, dl_style_off(st, tone));
    if (pct >= 0)
        dl_buf_printf(b, "  %5.1f%% of %.1f (%s)", pct, l->limit, l->limit_what);
    dl_buf_puts(b, "\n");
}

static void findings(dl_buf *b, const dl_findings *fs)
{
    size_t i, j;
    for (i = 0; i < fs->items.count; i++) {
        const dl_finding *x = &DL_LIST_AT(fs->items, dl_finding, i);
        if (!dl_q_text_is(&x->layer, "performance") && !dl_finding_is_measured(x))
            continue;
        dl_buf_printf(b, "\n%s: %s: %s\n", x->severity.value, x->id.value, x->title.value);
        for (j = 0; j < x->evidence.count; j++) {
            const dl_pair *e = &DL_LIST_AT(x->evidence, dl_pair, j);
            dl_buf_printf(b, "    %s: %s\n", e->name, e->value);
        }
        for (j = 0; j < x->fix.count; j++)
            dl_buf_printf(b, "    $ %s\n", DL_LIST_AT(x->fix, char *, j));
    }
}

char *dl_render_verify_text(const dl_verify_input *in, const dl_style *style)
{
    dl_buf b = {0};
    const char *group = "";
    size_t i;
    dl_buf_printf(&b, "%sdlenv verify%s  %s\n", dl_style_on(style, DL_TONE_HEAD),
                  dl_style_off(style, DL_TONE_HEAD),
                  in->facts->os.pretty_name.value ? in->facts->os.pretty_name.value : "");
    for (i = 0; i < in->view->count; i++) {
        const dl_verify_line *l = &in->view->lines[i];
        if (strcmp(l->group, group) != 0) {
            group = l->group;
            dl_buf_printf(&b, "\n%s\n", l->group_title);
        }
        line(&b, style, l);
    }
    findings(&b, in->findings);
    dl_buf_printf(&b, "\nVerdict: %s\n", dl_verdict_name(in->view->verdict));
    if (in->view->root && dl_finding_is_measured(in->view->root))
        dl_buf_printf(&b, "The GPU does not work here: %s: %s (the fix is above)\n",
                      in->view->root->id.value, in->view->root->title.value);
    else if (in->view->root)
        dl_buf_printf(&b, "torch does not work here: %s: %s (`dlenv doctor` has the fix)\n",
                      in->view->root->id.value, in->view->root->title.value);
    else if (in->view->verdict == DL_VERDICT_CANNOT_JUDGE)
        dl_buf_puts(&b, "Whether torch works here cannot be judged: `dlenv doctor` says which "
                        "layer is unknown.\n");
    return dl_buf_take(&b);
}
