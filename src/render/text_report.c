/* Walks the facts' schema, so every fact with a label is shown without a second list of
 * fields to keep in step. */
#include "render/text_report.h"

#include "base/str.h"
#include "facts/schema.h"

#include <stdlib.h>
#include <string.h>

#define WIDTH 80
#define LABEL_COL 22

typedef struct view {
    dl_buf out;
    const dl_style *style;
    char *last_why;   /* the reason on the line before */
    size_t repeats;   /* lines since then with the same reason, not shown one by one */
} view;

static size_t display_width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            w++;
    return w;
}

static char *human_bytes(long long v)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double x = (double)v;
    size_t u = 0;
    while (x >= 1024.0 && u + 1 < sizeof units / sizeof units[0]) {
        x /= 1024.0;
        u++;
    }
    return u ? dl_fmt("%.1f %s", x, units[u]) : dl_fmt("%lld B", v);
}

/* The value of a scalar field as text; *tone tells how to colour it. */
static char *scalar_text(const dl_field *fd, const void *p, dl_tone *tone)
{
    const char *why = NULL;
    *tone = DL_TONE_PLAIN;
    switch (fd->kind) {
    case DL_F_TEXT: {
        const dl_text *t = p;
        if (t->value)
            return dl_strdup(t->value);
        why = t->why;
        break;
    }
    case DL_F_INT: {
        const dl_int *v = p;
        if (v->known) {
            if (fd->flags & DL_FMT_HEX4)
                return dl_fmt("0x%04llx", v->value);
            if (fd->flags & DL_FMT_HEX6)
                return dl_fmt("0x%06llx", v->value);
            if (fd->flags & DL_FMT_BYTES)
                return human_bytes(v->value);
            return dl_fmt("%lld", v->value);
        }
        why = v->why;
        break;
    }
    case DL_F_FLAG: {
        const dl_flag *v = p;
        if (v->known)
            return dl_strdup(v->value ? "yes" : "no");
        why = v->why;
        break;
    }
    case DL_F_NUM: {
        const dl_num *v = p;
        if (v->known)
            return dl_fmt("%.2f", v->value);
        why = v->why;
        break;
    }
    default:
        break;
    }
    if (!why)
        return NULL; /* absent */
    *tone = DL_TONE_WARN;
    return dl_fmt("unknown: %s", why);
}

/* Writes text wrapped into the value column, breaking after spaces, commas or the
 * separators of path lists. */
static void put_wrapped(view *v, const char *text, size_t col, dl_tone tone)
{
    size_t avail = WIDTH > col + 10 ? WIDTH - col : 10;
    bool first = true;
    while (*text) {
        size_t len = strlen(text), cut = len;
        if (display_width(text) > avail) {
            size_t i, best = 0;
            for (i = 0; i < len && i < avail; i++)
                if (text[i] == ' ' || text[i] == ',' || text[i] == ':' || text[i] == ';' ||
                    (text[i] == '/' && i > 0))
                    best = i + 1;
            cut = best ? best : avail;
            while (cut < len && ((unsigned char)text[cut] & 0xC0) == 0x80)
                cut++; /* never split a UTF-8 sequence */
        }
        size_t shown = cut;
        while (shown && text[shown - 1] == ' ')
            shown--; /* no trailing blanks at a break */
        if (!first)
            dl_buf_printf(&v->out, "\n%*s", (int)col, "");
        dl_buf_printf(&v->out, "%s", dl_style_on(v->style, tone));
        dl_buf_add(&v->out, text, shown);
        dl_buf_printf(&v->out, "%s", dl_style_off(v->style, tone));
        text += cut;
        while (*text == ' ')
            text++;
        first = false;
    }
    dl_buf_puts(&v->out, "\n");
}

static void put_line(view *v, size_t indent, const char *label, const char *value, dl_tone tone)
{
    size_t used = indent + display_width(label);
    size_t col = LABEL_COL + indent - 2;
    dl_buf_printf(&v->out, "%*s%s", (int)indent, "", label);
    if (!*value) {
        dl_buf_puts(&v->out, "\n");
        return;
    }
    if (used + 1 > col) {
        dl_buf_printf(&v->out, "\n%*s", (int)col, "");
    } else {
        dl_buf_printf(&v->out, "%*s", (int)(col - used), "");
    }
    put_wrapped(v, value, col, tone);
}

static void render_object(view *v, const dl_schema *s, const void *obj, size_t indent);

static void render_textlist(view *v, size_t indent, const dl_field *fd, const dl_list *l)
{
    dl_buf joined = {0};
    size_t i;
    if (!l->known) {
        if (l->why) {
            char *t = dl_fmt("unknown: %s", l->why);
            if (v->last_why && strcmp(v->last_why, t) == 0) {
                v->repeats++;
                free(t);
                return;
            }
            put_line(v, indent, fd->label, t, DL_TONE_WARN);
            free(v->last_why);
            v->last_why = t;
        }
        return;
    }
    for (i = 0; i < l->count; i++)
        dl_buf_printf(&joined, "%s%s", i ? ", " : "", DL_LIST_AT(*l, char *, i));
    put_line(v, indent, fd->label, l->count ? joined.data : "none", DL_TONE_PLAIN);
    dl_buf_free(&joined);
}

/* Path lists read best one directory a line. */
static void render_dict(view *v, size_t indent, const dl_list *l)
{
    size_t i;
    if (!l->count) {
        put_line(v, indent, "(none set)", "", DL_TONE_DIM);
        return;
    }
    for (i = 0; i < l->count; i++) {
        const dl_pair *p = &DL_LIST_AT(*l, dl_pair, i);
        char *value = dl_strdup(p->value);
        char *c;
        /* A list of folders wraps at its separators: ';' on Windows (where ':' follows
         * every drive letter), ':' elsewhere. */
        char sep = strchr(value, ';') ? ';' : ':';
        if (strstr(p->name, "PATH"))
            for (c = value; *c; c++)
                if (*c == sep)
                    *c = ' ';
        put_line(v, indent, p->name, *value ? value : "(empty)", DL_TONE_PLAIN);
        free(value);
    }
}

static void render_probes(view *v, size_t indent, const dl_list *l)
{
    size_t i;
    for (i = 0; i < l->count; i++) {
        const dl_probe_run *r = &DL_LIST_AT(*l, dl_probe_run, i);
        bool ok = r->status.value && strcmp(r->status.value, "ok") == 0;
        bool skipped = r->status.value && strcmp(r->status.value, "skipped") == 0;
        dl_tone tone = ok ? DL_TONE_GOOD : skipped ? DL_TONE_DIM : DL_TONE_WARN;
        const char *glyph = ok ? dl_glyph_ok(v->style)
                                : skipped ? dl_glyph_skip(v->style) : dl_glyph_fail(v->style);
        char *text = dl_fmt("%s%s%s %s %.1f ms%s%s", dl_style_on(v->style, tone), glyph,
                            dl_style_off(v->style, tone), r->status.value ? r->status.value : "?",
                            r->duration_ms.known ? r->duration_ms.value : 0.0,
                            r->detail.value ? ": " : "", r->detail.value ? r->detail.value : "");
        put_line(v, indent, r->name.value ? r->name.value : "?", text, DL_TONE_PLAIN);
        free(text);
    }
}

/* titled: the list has a section heading of its own (top level), so an empty one needs
 * no label. */
static void render_list(view *v, size_t indent, const dl_field *fd, const dl_list *l,
                        bool titled)
{
    size_t i;
    if (!l->known) {
        char *t = dl_fmt("unknown: %s", l->why ? l->why : "not gathered");
        if (v->last_why && strcmp(v->last_why, t) == 0) {
            v->repeats++;
            free(t);
            return;
        }
        put_line(v, indent, fd->label, t, DL_TONE_WARN);
        free(v->last_why);
        v->last_why = t;
        return;
    }
    if (fd->sub == &dl_probe_run_schema) {
        render_probes(v, indent, l);
        return;
    }
    if (!l->count) {
        if (titled)
            put_line(v, indent, "(none found)", "", DL_TONE_DIM);
        else
            put_line(v, indent, fd->label, "none", DL_TONE_PLAIN);
    }
    for (i = 0; i < l->count; i++) {
        dl_buf_printf(&v->out, "%*s%s%s %zu%s\n", (int)indent, "", dl_style_on(v->style, DL_TONE_HEAD),
                      fd->sub->name, i + 1, dl_style_off(v->style, DL_TONE_HEAD));
        render_object(v, fd->sub, (const char *)l->items + i * fd->sub->size, indent + 2);
    }
}

static void render_field(view *v, const dl_field *fd, const void *p, size_t indent)
{
    char *text;
    dl_tone tone;
    switch (fd->kind) {
    case DL_F_OBJECT:
        render_object(v, fd->sub, p, indent);
        return;
    case DL_F_TEXTLIST:
        if (fd->label)
            render_textlist(v, indent, fd, p);
        return;
    case DL_F_LIST:
        render_list(v, indent, fd, p, false);
        return;
    case DL_F_DICT:
        render_dict(v, indent, p);
        return;
    default:
        break;
    }
    if (!fd->label)
        return;
    text = scalar_text(fd, p, &tone);
    if (text && tone == DL_TONE_WARN) {
        if (v->last_why && strcmp(v->last_why, text) == 0) {
            v->repeats++; /* summed up in one line by render_object */
            free(text);
            return;
        }
        free(v->last_why);
        v->last_why = dl_strdup(text);
    } else if (text) {
        free(v->last_why);
        v->last_why = NULL;
    }
    if (text)
        put_line(v, indent, fd->label, text, tone);
    free(text);
}

/* Facts that are unknown for the reason just shown are counted, not repeated. */
static void flush_repeats(view *v, size_t indent)
{
    char *line;
    if (!v->repeats)
        return;
    line = dl_fmt("%zu more unknown for the same reason", v->repeats);
    v->repeats = 0;
    dl_buf_printf(&v->out, "%*s%s%s%s\n", (int)indent, "", dl_style_on(v->style, DL_TONE_DIM),
                  line, dl_style_off(v->style, DL_TONE_DIM));
    free(line);
}

static void render_object(view *v, const dl_schema *s, const void *obj, size_t indent)
{
    size_t i, before;
    for (i = 0; i < s->count; i++) {
        before = v->out.len;
        render_field(v, &s->fields[i], (const char *)obj + s->fields[i].offset, indent);
        if (v->out.len != before && v->repeats) {
            /* the field just drawn came after a run: put the count before it */
            char *drawn = dl_strdup(v->out.data + before);
            v->out.len = before;
            v->out.data[before] = '\0';
            flush_repeats(v, indent);
            dl_buf_puts(&v->out, drawn);
            free(drawn);
        }
    }
    flush_repeats(v, indent);
}

static void heading(view *v, const char *title)
{
    dl_buf_printf(&v->out, "%s%s%s\n", dl_style_on(v->style, DL_TONE_HEAD), title,
                  dl_style_off(v->style, DL_TONE_HEAD));
}

/* Where the terminal cannot show UTF-8, names read from the machine (a distribution's
 * localised name, a GPU's (TM)) must not arrive as mojibake: each character outside ASCII
 * becomes '?', in place (the text only gets shorter). */
static void ascii_only(char *s)
{
    char *w = s;
    if (!s)
        return;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x80)
            *w++ = *s;
        else if ((c & 0xC0) != 0x80)
            *w++ = '?';
    }
    *w = '\0';
}

/* Objects, lists and dictionaries open a section; a labelled scalar at the top level
 * belongs to the section before it (pci_ids to the GPUs). */
char *dl_render_report_text(const dl_facts *f, const dl_style *style)
{
    view v = {{0}, style, NULL, 0};
    size_t i;
    bool first = true;
    for (i = 0; i < dl_facts_schema.count; i++) {
        const dl_field *fd = &dl_facts_schema.fields[i];
        const void *p = (const char *)f + fd->offset;
        if (!fd->label)
            continue;
        if (fd->kind == DL_F_TEXT || fd->kind == DL_F_INT || fd->kind == DL_F_FLAG ||
            fd->kind == DL_F_NUM) {
            render_field(&v, fd, p, 2);
            continue;
        }
        if (fd->kind == DL_F_OBJECT) {
            /* a section with nothing in it (no measurements without verify) is left out */
            size_t start = v.out.len;
            render_object(&v, fd->sub, p, 2);
            if (v.out.len == start)
                continue;
            {
                char *body = dl_strdup(v.out.data + start);
                v.out.len = start;
                v.out.data[start] = '\0';
                if (!first)
                    dl_buf_puts(&v.out, "\n");
                first = false;
                heading(&v, fd->label);
                dl_buf_puts(&v.out, body);
                free(body);
            }
            continue;
        }
        if (!first)
            dl_buf_puts(&v.out, "\n");
        first = false;
        heading(&v, fd->label);
        if (fd->kind == DL_F_DICT)
            render_dict(&v, 2, p);
        else
            render_list(&v, 2, fd, p, true);
    }
    free(v.last_why);
    if (!style->unicode)
        ascii_only(v.out.data);
    return dl_buf_take(&v.out);
}
