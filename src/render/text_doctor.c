#include "render/text_doctor.h"

#include "base/str.h"

#include <stdlib.h>
#include <string.h>

#define WIDTH 80

static const char *mark(const dl_style *s, dl_severity sev)
{
    switch (sev) {
    case DL_SEV_FAILURE: return dl_glyph_fail(s);
    case DL_SEV_WARNING: return "!";
    case DL_SEV_INFO: return "i";
    default: return dl_glyph_ok(s);
    }
}

/* A layer's mark, as wide as ASCII's "ok" there, so the titles line up. */
static const char *state_mark(const dl_style *s, dl_layer_state st)
{
    switch (st) {
    case DL_STATE_FAILURE: return s->unicode ? dl_glyph_fail(s) : "x ";
    case DL_STATE_WARNING: return s->unicode ? "!" : "! ";
    case DL_STATE_INFO: return s->unicode ? "i" : "i ";
    case DL_STATE_UNKNOWN: return s->unicode ? "?" : "? ";
    case DL_STATE_SKIPPED: return s->unicode ? dl_glyph_skip(s) : "- ";
    default: return dl_glyph_ok(s);
    }
}

static dl_tone tone_of(dl_severity sev)
{
    return sev == DL_SEV_FAILURE ? DL_TONE_BAD
           : sev == DL_SEV_WARNING ? DL_TONE_WARN
           : sev == DL_SEV_INFO ? DL_TONE_DIM
                                : DL_TONE_GOOD;
}

static dl_tone state_tone(dl_layer_state st)
{
    return st == DL_STATE_UNKNOWN   ? DL_TONE_WARN
           : st == DL_STATE_SKIPPED ? DL_TONE_DIM
                                    : tone_of((dl_severity)st);
}

/* Wraps text at spaces into lines of WIDTH, every line after the first indented. */
static void wrapped(dl_buf *b, const char *text, size_t first_col, size_t indent)
{
    size_t col = first_col;
    const char *p = text;
    bool pending_space = false;
    while (*p) {
        size_t n = strcspn(p, " ");
        if (col > indent && col + (pending_space ? 1 : 0) + n > WIDTH) {
            dl_buf_printf(b, "\n%*s", (int)indent, "");
            col = indent;
        } else if (pending_space) {
            dl_buf_puts(b, " ");
            col++;
        }
        dl_buf_add(b, p, n);
        col += n;
        p += n;
        pending_space = *p == ' ';
        while (*p == ' ')
            p++;
    }
    dl_buf_puts(b, "\n");
}

static void layer_lines(dl_buf *b, const dl_doctor_view *v, const dl_style *s)
{
    size_t i;
    for (i = 0; i < DL_LAYER_COUNT; i++) {
        const dl_layer_judgement *l = &v->judged.layers[i];
        char *summary = l->consequence ? dl_fmt("%s (follows from the root cause)", l->summary)
                                       : dl_strdup(l->summary);
        dl_buf_printf(b, "  %s%s%s %-20s ", dl_style_on(s, state_tone(l->state)),
                      state_mark(s, l->state), dl_style_off(s, state_tone(l->state)),
                      dl_layer_title(l->layer));
        wrapped(b, summary, s->unicode ? 25 : 26, s->unicode ? 25 : 26);
        free(summary);
    }
}

static void finding_detail(dl_buf *b, const dl_finding *x, const dl_style *s)
{
    size_t i;
    if (x->evidence.count)
        dl_buf_puts(b, "  Evidence:\n");
    for (i = 0; i < x->evidence.count; i++) {
        const dl_pair *p = &DL_LIST_AT(x->evidence, dl_pair, i);
        char *line = dl_fmt("%s: %s", p->name, p->value);
        dl_buf_puts(b, "    ");
        wrapped(b, line, 4, 6);
        free(line);
    }
    if (x->fix.count)
        dl_buf_puts(b, "  Fix:\n");
    for (i = 0; i < x->fix.count; i++) {
        const char *step = DL_LIST_AT(x->fix, char *, i);
        if (step[0] == '#') /* a step in words, not a command */
            dl_buf_printf(b, "    %s%s%s\n", dl_style_on(s, DL_TONE_DIM), step,
                          dl_style_off(s, DL_TONE_DIM));
        else
            dl_buf_printf(b, "    %s$%s %s\n", dl_style_on(s, DL_TONE_HEAD),
                          dl_style_off(s, DL_TONE_HEAD), step);
    }
}

static void others(dl_buf *b, const dl_doctor_input *in, const dl_style *s)
{
    size_t i;
    bool any = false;
    for (i = 0; i < in->findings->items.count; i++) {
        const dl_finding *x = &DL_LIST_AT(in->findings->items, dl_finding, i);
        int sev = dl_severity_of_name(x->severity.value);
        char *head;
        if (x == in->view->root)
            continue;
        if (!any)
            dl_buf_puts(b, "\nAlso found:\n");
        any = true;
        head = dl_fmt("%s %s: %s%s", mark(s, (dl_severity)sev), x->id.value, x->title.value,
                      x->consequence.value ? " (follows from the root cause)" : "");
        dl_buf_puts(b, "  ");
        wrapped(b, head, 2, 4);
        free(head);
        finding_detail(b, x, s);
    }
}

static void verbose_part(dl_buf *b, const dl_doctor_input *in)
{
    size_t i, n;
    const dl_rule *rules = dl_rule_table(&n);
    dl_buf_puts(b, "\nChecks:\n");
    for (i = 0; i < n; i++)
        dl_buf_printf(b, "  %-27s %s\n", rules[i].id,
                      dl_findings_has(in->findings, rules[i].id) ? "fired" : "passed");
    dl_buf_puts(b, "\nProbes:\n");
    for (i = 0; i < in->facts->tool.probes.count; i++) {
        const dl_probe_run *r = &DL_LIST_AT(in->facts->tool.probes, dl_probe_run, i);
        dl_buf_printf(b, "  %-16s %-13s %8.1f ms\n", dl_text_or(&r->name, "?"),
                      dl_text_or(&r->status, "unknown"),
                      r->duration_ms.known ? r->duration_ms.value : 0.0);
    }
}

/* No root cause: what the verdict is, and what it could not judge or did not check. */
static void verdict_lines(dl_buf *b, const dl_doctor_view *v, const dl_style *s)
{
    char *not_checked = dl_doctor_view_not_checked(v), *line;
    dl_verdict verdict = v->judged.verdict;
    dl_strv unknown = {0};
    size_t i;
    if (verdict == DL_VERDICT_CANNOT_JUDGE) {
        dl_buf_printf(b, "\n%sdlenv cannot judge this machine: no failure was found, but these "
                         "could not be checked:%s\n", dl_style_on(s, DL_TONE_WARN),
                      dl_style_off(s, DL_TONE_WARN));
        dl_doctor_view_unknown(v, &unknown);
        for (i = 0; i < unknown.n; i++) {
            dl_buf_puts(b, "  - ");
            wrapped(b, unknown.v[i], 4, 6);
        }
        dl_strv_free(&unknown);
    } else {
        line = verdict == DL_VERDICT_WARNING
                   ? dl_strdup(not_checked ? "No failure found; see the warnings below."
                                           : "PyTorch works here; see the warnings below.")
                   : dl_strdup(not_checked ? "No problem found in what was checked."
                                           : "Everything PyTorch needs on this machine works.");
        dl_buf_printf(b, "\n%s%s%s\n", dl_style_on(s, tone_of((dl_severity)verdict)), line,
                      dl_style_off(s, tone_of((dl_severity)verdict)));
        free(line);
    }
    if (not_checked) {
        line = dl_fmt("Not checked: %s.", not_checked);
        wrapped(b, line, 0, 2);
        free(line);
    }
    free(not_checked);
}

char *dl_render_doctor_text(const dl_doctor_input *in, const dl_style *s)
{
    dl_buf b = {0};
    const dl_doctor_view *v = in->view;
    size_t i;
    dl_buf_printf(&b, "%sdlenv doctor%s  %s\n\n", dl_style_on(s, DL_TONE_HEAD),
                  dl_style_off(s, DL_TONE_HEAD),
                  in->facts->os.pretty_name.value ? in->facts->os.pretty_name.value : "");
    layer_lines(&b, v, s);
    if (v->root) {
        char *head = dl_fmt("Root cause: %s: %s", v->root->id.value, v->root->title.value);
        dl_buf_printf(&b, "\n%s", dl_style_on(s, DL_TONE_BAD));
        wrapped(&b, head, 0, 2);
        dl_buf_puts(&b, dl_style_off(s, DL_TONE_BAD));
        free(head);
        finding_detail(&b, v->root, s);
    } else {
        verdict_lines(&b, v, s);
    }
    others(&b, in, s);
    if (v->notes.n)
        dl_buf_puts(&b, "\nGood to know:\n");
    for (i = 0; i < v->notes.n; i++) {
        dl_buf_puts(&b, "  - ");
        wrapped(&b, v->notes.v[i], 4, 4);
    }
    if (in->verbose)
        verbose_part(&b, in);
    return dl_buf_take(&b);
}
