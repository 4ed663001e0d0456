/* dlenv diff for people: which two states, the headline, then each group's changes with
 * the schema's labels (old -> new), then the findings that appeared or went away. */
#include "render/diff_render.h"

#include "base/str.h"

#include <stdlib.h>
#include <string.h>

#define WIDTH 80

typedef struct view {
    dl_buf out;
    const dl_style *style;
    const char *arrow;
} view;

static void side_line(view *v, const char *word, const dl_diff_side *s)
{
    bool live = !strcmp(s->source, "-");
    dl_buf_printf(&v->out, "%-7s %s", word, live ? "this machine now" : s->source);
    if (s->host || s->taken_at)
        dl_buf_printf(&v->out, " (%s%s%s)", s->host ? s->host : "",
                      s->host && s->taken_at ? ", " : "", s->taken_at ? s->taken_at : "");
    if (!live && s->schema && !dl_starts_with(s->schema, "dlenv.snapshot/"))
        dl_buf_printf(&v->out, " [%s]", s->schema);
    dl_buf_puts(&v->out, "\n");
}

static char *value_text(const char *value, bool bytes)
{
    if (!value)
        return dl_strdup("(absent)");
    return bytes && !dl_starts_with(value, "unknown") ? dl_fmt("%s bytes", value)
                                                      : dl_strdup(value);
}

/* "old -> new" for a change, or the item that was added or removed. */
static char *values_of(const view *v, const dl_fact_change *c)
{
    char *o = value_text(c->old_value, c->bytes), *n = value_text(c->new_value, c->bytes);
    char *out = c->kind == DL_DIFF_ADDED     ? dl_fmt("added %s", n)
                : c->kind == DL_DIFF_REMOVED ? dl_fmt("removed %s", o)
                                             : dl_fmt("%s %s %s", o, v->arrow, n);
    free(o);
    free(n);
    return out;
}

static const char *mark_of(const dl_fact_change *c)
{
    return c->kind == DL_DIFF_ADDED ? "+" : c->kind == DL_DIFF_REMOVED ? "-" : "~";
}

static dl_tone tone_of(const dl_fact_change *c)
{
    return c->volatile_value ? DL_TONE_DIM
           : c->importance == DL_DIFF_HIGH ? DL_TONE_BAD
                                           : DL_TONE_PLAIN;
}

/* One change: "  ~ Label: old -> new" on one line when it fits, else the values below. */
static void change_line(view *v, const dl_fact_change *c)
{
    char *values = values_of(v, c);
    dl_tone t = tone_of(c);
    const char *tail = c->volatile_value ? " (volatile)" : "";
    bool fits = 4 + strlen(c->label) + 2 + strlen(values) + strlen(tail) <= WIDTH;
    dl_buf_printf(&v->out, "  %s%s %s%s", dl_style_on(v->style, t), mark_of(c), c->label,
                  fits ? ": " : "");
    if (fits)
        dl_buf_printf(&v->out, "%s%s%s\n", values, tail, dl_style_off(v->style, t));
    else
        dl_buf_printf(&v->out, "%s\n      %s%s\n", dl_style_off(v->style, t), values, tail);
    free(values);
}

static void headline(view *v, const dl_fact_change *h)
{
    char *values = values_of(v, h);
    dl_tone t = h->importance == DL_DIFF_HIGH ? DL_TONE_BAD : DL_TONE_HEAD;
    dl_buf_printf(&v->out, "\n%s%s %s%s\n", dl_style_on(v->style, t),
                  h->importance == DL_DIFF_HIGH ? dl_glyph_fail(v->style) : "Headline:",
                  h->note ? h->note : dl_diff_group_title(h->group),
                  dl_style_off(v->style, t));
    dl_buf_printf(&v->out, "    %s: %s\n", h->label, values);
    free(values);
}

static void groups(view *v, const dl_diff *d)
{
    int shown = -1;
    size_t i;
    for (i = 0; i < d->n_facts; i++) {
        const dl_fact_change *c = &d->facts[i];
        if ((int)c->group != shown) {
            dl_buf_printf(&v->out, "\n%s%s%s\n", dl_style_on(v->style, DL_TONE_HEAD),
                          dl_diff_group_title(c->group), dl_style_off(v->style, DL_TONE_HEAD));
            shown = (int)c->group;
        }
        change_line(v, c);
    }
}

static void findings(view *v, const dl_diff *d)
{
    size_t i;
    if (!d->n_findings)
        return;
    dl_buf_printf(&v->out, "\n%sFindings%s\n", dl_style_on(v->style, DL_TONE_HEAD),
                  dl_style_off(v->style, DL_TONE_HEAD));
    for (i = 0; i < d->n_findings; i++) {
        const dl_finding_change *f = &d->findings[i];
        bool bad = f->kind != DL_FINDING_GONE && !strcmp(f->severity, "failure");
        dl_tone t = bad ? DL_TONE_BAD : f->kind == DL_FINDING_GONE ? DL_TONE_GOOD
                                                                   : DL_TONE_PLAIN;
        dl_buf_printf(&v->out, "  %s%s %s", dl_style_on(v->style, t),
                      f->kind == DL_FINDING_APPEARED ? "+ appeared" :
                      f->kind == DL_FINDING_GONE ? "- went away" : "~ now",
                      f->id);
        if (f->kind == DL_FINDING_SEVERITY)
            dl_buf_printf(&v->out, " (%s %s %s)", f->old_severity, v->arrow, f->severity);
        else
            dl_buf_printf(&v->out, " (%s)", f->severity);
        dl_buf_printf(&v->out, "%s\n", dl_style_off(v->style, t));
        if (*f->title)
            dl_buf_printf(&v->out, "      %s\n", f->title);
    }
}

static size_t count_kept(const dl_diff *d)
{
    size_t i, n = 0;
    for (i = 0; i < d->n_facts; i++)
        n += !d->facts[i].volatile_value;
    return n;
}

static void summary(view *v, const dl_diff_input *in)
{
    const dl_diff *d = in->diff;
    size_t n = count_kept(d);
    dl_buf_puts(&v->out, "\n");
    if (dl_diff_equal(d))
        dl_buf_puts(&v->out, "No changes");
    else
        dl_buf_printf(&v->out, "%zu change%s, %zu finding%s changed", n, n == 1 ? "" : "s",
                      d->n_findings, d->n_findings == 1 ? "" : "s");
    if (d->n_volatile && !in->verbose)
        dl_buf_printf(&v->out, " (%zu volatile value%s ignored: -v shows them)",
                      d->n_volatile, d->n_volatile == 1 ? "" : "s");
    else if (d->n_volatile)
        dl_buf_printf(&v->out, " (and %zu volatile value%s)", d->n_volatile,
                      d->n_volatile == 1 ? "" : "s");
    dl_buf_puts(&v->out, ".\n");
    if (d->n_runtime_skipped)
        dl_buf_printf(&v->out, "`import torch` ran on one side only for %zu interpreter%s "
                               "(--no-runtime?): its results were not compared.\n",
                      d->n_runtime_skipped, d->n_runtime_skipped == 1 ? "" : "s");
}

char *dl_render_diff_text(const dl_diff_input *in, const dl_style *style)
{
    view v;
    const dl_fact_change *h = dl_diff_headline(in->diff);
    memset(&v, 0, sizeof v);
    v.style = style;
    v.arrow = style->unicode ? "\xE2\x86\x92" : "->"; /* U+2192 rightwards arrow */
    side_line(&v, "Before:", &in->a);
    side_line(&v, "After:", &in->b);
    if (h)
        headline(&v, h);
    groups(&v, in->diff);
    findings(&v, in->diff);
    summary(&v, in);
    return dl_buf_take(&v.out);
}
