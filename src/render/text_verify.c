/* dlenv verify on the terminal: per group, each figure, its limit and the share of it
 * reached, then the performance findings with their evidence and fixes. */
#include "render/text_verify.h"

#include "base/str.h"
#include "render/doctor_view.h"
#include "rules/query.h"

#include <stdlib.h>
#include <string.h>

static const char *group_title(const char *group, const dl_facts *f, char *buf, size_t n)
{
    const dl_cpu_measure *c = &f->cpu_measure;
    const dl_python *py = dl_q_main_python(f);
    if (!strcmp(group, "cpu"))
        snprintf(buf, n, "CPU, native (%s kernel, %lld threads)",
                 c->isa.value ? c->isa.value : "no", c->threads.known ? c->threads.value : 0);
    else if (!strcmp(group, "torch_cpu"))
        snprintf(buf, n, "torch on the CPU (%s, torch %s)",
                 py && py->path.value ? py->path.value : "python",
                 py && py->runtime.version.value ? py->runtime.version.value : "?");
    else
        snprintf(buf, n, "GPU");
    return buf;
}

static void line(dl_buf *b, const dl_style *st, const dl_verify_line *l)
{
    double pct = dl_verify_line_pct(l);
    dl_tone tone = l->verdict == DL_SEV_WARNING || l->verdict == DL_SEV_FAILURE ? DL_TONE_WARN
                                                                                : DL_TONE_PLAIN;
    if (!l->known) {
        dl_buf_printf(b, "  %-26s %snot measured: %s%s\n", l->what,
                      dl_style_on(st, DL_TONE_DIM), l->why, dl_style_off(st, DL_TONE_DIM));
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
        if (!dl_q_text_is(&x->layer, "performance"))
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
    char title[512];
    size_t i;
    dl_buf_printf(&b, "%sdlenv verify%s  %s\n", dl_style_on(style, DL_TONE_HEAD),
                  dl_style_off(style, DL_TONE_HEAD),
                  in->facts->os.pretty_name.value ? in->facts->os.pretty_name.value : "");
    for (i = 0; i < in->view->count; i++) {
        const dl_verify_line *l = &in->view->lines[i];
        if (strcmp(l->group, group) != 0) {
            group = l->group;
            dl_buf_printf(&b, "\n%s\n", group_title(group, in->facts, title, sizeof title));
        }
        line(&b, style, l);
    }
    findings(&b, in->findings);
    dl_buf_printf(&b, "\nVerdict: %s\n", dl_severity_word(in->view->verdict));
    return dl_buf_take(&b);
}
