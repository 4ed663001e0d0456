/* `dlenv explain` as text: the most likely root cause with the lines of the text that
 * support it, the candidates the text cannot tell apart, what to ask for, and the facts
 * the text gave. */
#include "render/explain_view.h"

#include "base/str.h"
#include "facts/value.h"

#include <string.h>

static void finding(dl_buf *b, const dl_finding *x)
{
    size_t i;
    dl_buf_printf(b, "%s: %s\n  From the text:\n", x->id.value, x->title.value);
    for (i = 0; i < x->evidence.count; i++) {
        const dl_pair *p = &DL_LIST_AT(x->evidence, dl_pair, i);
        dl_buf_printf(b, "    %s: %s\n", p->name, p->value);
    }
    if (x->fix.count)
        dl_buf_printf(b, "  Fix:\n");
    for (i = 0; i < x->fix.count; i++) {
        const char *step = DL_LIST_AT(x->fix, char *, i);
        dl_buf_printf(b, "    %s%s\n", step[0] == '#' ? "" : "$ ", step);
    }
}

static void facts(dl_buf *b, const dl_explanation *e)
{
    size_t i;
    if (!e->where.n)
        return;
    dl_buf_printf(b, "\nWhat the text says about the machine:\n");
    for (i = 0; i < e->where.n; i++)
        dl_buf_printf(b, "  %-34s L%zu: %s\n", e->where.where[i].fact,
                      e->paste.lines[e->where.where[i].line].number,
                      e->paste.lines[e->where.where[i].line].text);
}

char *dl_render_explain_text(const dl_explanation *e, const char *name, const dl_style *s)
{
    dl_buf b = {0};
    const dl_finding *r = dl_explanation_root(e, NULL);
    size_t i;
    dl_buf_printf(&b, "%sdlenv explain%s  %s (%zu lines)\n\n", dl_style_on(s, DL_TONE_HEAD),
                  dl_style_off(s, DL_TONE_HEAD), name, e->paste.count);
    if (r) {
        dl_buf_printf(&b, "%s%s Most likely%s ", dl_style_on(s, DL_TONE_BAD), dl_glyph_fail(s),
                      dl_style_off(s, DL_TONE_BAD));
        finding(&b, r);
    } else {
        dl_buf_printf(&b, "No known problem is recognisable in this text.\n");
    }
    if (e->alternatives.n) {
        dl_buf_printf(&b, "\nThe text cannot rule out:");
        for (i = 0; i < e->alternatives.n; i++)
            dl_buf_printf(&b, "%s %s", i ? "," : "", e->alternatives.v[i]);
        dl_buf_printf(&b, "\n");
    }
    if (e->ask.n || !r) {
        dl_buf_printf(&b, "\nAsk for:\n");
        for (i = 0; i < e->ask.n; i++)
            dl_buf_printf(&b, "  - %s\n", e->ask.v[i]);
        if (!r)
            dl_buf_printf(&b, "  - the whole error, from the first line of the traceback\n");
    }
    facts(&b, e);
    return dl_buf_take(&b);
}
