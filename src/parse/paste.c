#include "parse/paste.h"

#include "base/str.h"
#include "base/url.h"

#include <stdlib.h>
#include <string.h>

/* &lt; &gt; &amp; &quot; &#39; &#x27; &nbsp;: what a web page or an issue's HTML leaves. */
static size_t entity(const char *s, size_t n, char *out)
{
    static const struct { const char *name; char c; } names[] = {
        {"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&#39;", '\''},
        {"&#x27;", '\''}, {"&apos;", '\''}, {"&nbsp;", ' '}};
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t len = strlen(names[i].name);
        if (n >= len && strncmp(s, names[i].name, len) == 0) {
            *out = names[i].c;
            return len;
        }
    }
    return 0;
}

/* Printable ASCII needs no cleaning: most of a long log is. */
static bool plain_ascii(const char *s, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
            return false;
    return true;
}

/* One raw line: entities decoded, tabs as spaces, quoting and fences dropped. */
static char *normalise(const char *s, size_t n, bool *fence)
{
    size_t i = 0, o = 0;
    char *buf, *clean;
    /* "> > text": e-mail and forum quoting, any depth. */
    while (i < n && (s[i] == '>' || (s[i] == ' ' && i + 1 < n && s[i + 1] == '>')))
        i += s[i] == '>' && i + 1 < n && s[i + 1] == ' ' ? 2 : 1;
    if (n - i >= 3 && (strncmp(s + i, "```", 3) == 0 || strncmp(s + i, "~~~", 3) == 0)) {
        *fence = true; /* the fence line itself carries no text worth reading */
        return NULL;
    }
    buf = dl_xmalloc((n - i < DL_PASTE_MAX_LINE ? n - i : DL_PASTE_MAX_LINE) + 1);
    for (; i < n && o < DL_PASTE_MAX_LINE; i++) {
        char c;
        size_t used = s[i] == '&' ? entity(s + i, n - i, &c) : 0;
        if (used) {
            buf[o++] = c;
            i += used - 1;
        } else {
            buf[o++] = s[i] == '\t' ? ' ' : s[i];
        }
    }
    buf[o] = '\0';
    if (plain_ascii(buf, o))
        return dl_url_strip_userinfo(buf); /* a pasted index URL keeps no password */
    clean = dl_utf8_clean(buf, o);
    free(buf);
    return dl_url_strip_userinfo(clean);
}

static void join_lower(dl_paste *p)
{
    dl_buf b = {0};
    size_t i;
    p->starts = dl_xmalloc((p->count + 1) * sizeof *p->starts);
    for (i = 0; i < p->count; i++) {
        p->starts[i] = b.len;
        dl_buf_puts(&b, p->lines[i].lower);
        dl_buf_add(&b, "\n", 1);
    }
    p->starts[p->count] = b.len;
    p->lower_all = dl_buf_take(&b);
}

void dl_paste_read(const char *data, size_t len, dl_paste *out)
{
    size_t i = 0, number = 0, cap = 0;
    memset(out, 0, sizeof *out);
    out->bytes = len;
    while (i < len) {
        size_t start = i, end;
        bool fence = false;
        char *text;
        while (i < len && data[i] != '\n' && data[i] != '\r')
            i++;
        end = i;
        if (i < len && data[i] == '\r' && i + 1 < len && data[i + 1] == '\n')
            i++;
        if (i < len)
            i++;
        number++;
        text = normalise(data + start, end - start, &fence);
        if (!text)
            continue;
        if (out->count == cap) {
            cap = cap ? cap * 2 : 64;
            out->lines = dl_xrealloc(out->lines, cap * sizeof *out->lines);
        }
        out->lines[out->count].text = text;
        out->lines[out->count].lower = dl_ascii_lower(text, strlen(text));
        out->lines[out->count].number = number;
        out->count++;
    }
    join_lower(out);
}

void dl_paste_free(dl_paste *p)
{
    size_t i;
    for (i = 0; i < p->count; i++) {
        free(p->lines[i].text);
        free(p->lines[i].lower);
    }
    free(p->lines);
    free(p->lower_all);
    free(p->starts);
    memset(p, 0, sizeof *p);
}

long dl_paste_find(const dl_paste *p, size_t from, const char *needle)
{
    const char *hit;
    size_t lo, hi, at;
    if (from >= p->count || !*needle)
        return -1;
    hit = strstr(p->lower_all + p->starts[from], needle);
    if (!hit)
        return -1;
    at = (size_t)(hit - p->lower_all);
    /* The line whose start is the last one at or before the hit. */
    lo = from;
    hi = p->count;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->starts[mid] <= at)
            lo = mid;
        else
            hi = mid;
    }
    return (long)lo;
}
