#include "parse/paste.h"

#include "base/str.h"
#include "base/url.h"
#include "parse/paste_index.h"

#include <ctype.h>
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

/* The characters a web page, a word processor or a chat app puts where the writer typed
 * ASCII: no-break and other Unicode spaces read as a space, curly quotes as straight ones,
 * zero-width characters and a BOM as nothing. The length of the sequence at s (UTF-8) that
 * is one of them, with its replacement in *out ('\0': dropped); 0 for any other. */
static size_t typographic(const unsigned char *s, size_t n, char *out)
{
    if (n >= 2 && s[0] == 0xC2 && s[1] == 0xA0) {
        *out = ' ';
        return 2;
    }
    if (n < 3 || (s[0] != 0xE2 && s[0] != 0xE3 && s[0] != 0xEF))
        return 0;
    if (s[0] == 0xE2 && s[1] == 0x80) {
        unsigned char c = s[2];
        if (c <= 0x8A || c == 0xAF)
            *out = ' '; /* U+2000..U+200A, U+202F */
        else if (c >= 0x8B && c <= 0x8D)
            *out = '\0'; /* zero-width space, non-joiner, joiner */
        else if (c >= 0x98 && c <= 0x9B)
            *out = '\''; /* U+2018..U+201B */
        else if (c >= 0x9C && c <= 0x9F)
            *out = '"'; /* U+201C..U+201F */
        else
            return 0;
        return 3;
    }
    if (s[0] == 0xE2 && s[1] == 0x81 && (s[2] == 0x9F || s[2] == 0xA0)) {
        *out = s[2] == 0x9F ? ' ' : '\0'; /* medium mathematical space, word joiner */
        return 3;
    }
    if (s[0] == 0xE3 && s[1] == 0x80 && s[2] == 0x80) {
        *out = ' '; /* ideographic space */
        return 3;
    }
    if (s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF) {
        *out = '\0'; /* a BOM, at the start or where files were joined */
        return 3;
    }
    return 0;
}

/* A terminal's escape sequence at s: CSI ("\x1b[31m", "\x1b[2K") or OSC ("\x1b]8;;url\x07"),
 * the colours and links a coloured log keeps when it is copied; its length, 0 for none. */
static size_t escape_sequence(const char *s, size_t n)
{
    size_t i = 2;
    if (n < 2 || s[0] != '\x1b')
        return 0;
    if (s[1] == '[') {
        while (i < n && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] <= 0x3F)
            i++;
        while (i < n && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] <= 0x2F)
            i++;
        return i < n && (unsigned char)s[i] >= 0x40 && (unsigned char)s[i] <= 0x7E ? i + 1 : 0;
    }
    if (s[1] == ']') {
        for (; i < n; i++) {
            if (s[i] == '\x07')
                return i + 1;
            if (s[i] == '\x1b' && i + 1 < n && s[i + 1] == '\\')
                return i + 2;
        }
    }
    return 0;
}

/* One raw line as the writer typed it: entities decoded, terminal escapes dropped,
 * typographic spaces and quotes as ASCII, tabs as spaces; at most DL_PASTE_MAX_LINE bytes. */
static size_t decode(const char *s, size_t n, char *buf, bool *plain)
{
    size_t i, o, m = n < DL_PASTE_MAX_LINE ? n : DL_PASTE_MAX_LINE;
    /* most lines of a long log are printable ASCII without an entity: copied in one go up
     * to the first byte that is not; *plain when the whole line is */
    for (i = 0; i < m; i++) {
        unsigned char u = (unsigned char)s[i];
        if ((unsigned char)(u - 0x20) > 0x5E || u == '&')
            break;
    }
    *plain = i == n;
    memcpy(buf, s, i);
    for (o = i; i < n && o < DL_PASTE_MAX_LINE; i++) {
        unsigned char u = (unsigned char)s[i];
        char c;
        size_t used = 0;
        if (u == '&')
            used = entity(s + i, n - i, &c);
        else if (u == 0x1b && (used = escape_sequence(s + i, n - i)) != 0)
            c = '\0';
        else if (u >= 0xC2)
            used = typographic((const unsigned char *)s + i, n - i, &c);
        if (used) {
            if (c)
                buf[o++] = c;
            i += used - 1;
        } else {
            buf[o++] = u == '\t' ? ' ' : s[i];
        }
    }
    return o;
}

static bool digits(const char *s, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

/* A logger's dated prefix before the message: "2025-01-02 10:11:12,345 ERROR ",
 * "[2025-01-02T10:11:12Z] [INFO] ", "2025/01/02 10:11:12 - WARNING - ". Its length; 0 when
 * the line has none (the date and the time must both be there: a bare number starts many
 * real lines). */
static size_t dated_prefix(const char *s, size_t n)
{
    static const char *const levels[] = {"CRITICAL", "ERROR", "WARNING", "WARN", "INFO",
                                         "DEBUG", "TRACE", "FATAL"};
    size_t i = s[0] == '[' ? 1 : 0, k;
    if (n < i + 19 || !digits(s + i, 4) || (s[i + 4] != '-' && s[i + 4] != '/') ||
        !digits(s + i + 5, 2) || s[i + 7] != s[i + 4] || !digits(s + i + 8, 2) ||
        (s[i + 10] != ' ' && s[i + 10] != 'T') || !digits(s + i + 11, 2) || s[i + 13] != ':' ||
        !digits(s + i + 14, 2) || s[i + 16] != ':' || !digits(s + i + 17, 2))
        return 0;
    i += 19;
    if (i < n && (s[i] == ',' || s[i] == '.'))
        for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            ;
    if (i < n && s[i] == 'Z')
        i++;
    else if (i + 2 < n && (s[i] == '+' || s[i] == '-') && digits(s + i + 1, 2))
        for (i++; i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == ':'); i++)
            ;
    if (s[0] == '[' && i < n && s[i] == ']')
        i++;
    while (i < n && (s[i] == ' ' || s[i] == '-' || s[i] == '|'))
        i++;
    for (k = 0; k < sizeof levels / sizeof levels[0]; k++) {
        size_t at = i < n && s[i] == '[' ? i + 1 : i, len = strlen(levels[k]);
        if (n - at >= len && strncmp(s + at, levels[k], len) == 0) {
            at += len;
            if (s[i] == '[' && at < n && s[at] == ']')
                at++;
            if (at == n || s[at] == ' ' || s[at] == ':') {
                i = at;
                while (i < n && (s[i] == ' ' || s[i] == '-' || s[i] == '|' || s[i] == ':'))
                    i++;
            }
            break;
        }
    }
    return i;
}

/* docker compose's service column: "app-server-1  | " (v2) or "app_server_1  | " (v1). The
 * name must end in the replica number and be followed by the bar, so that a table row or a
 * shell pipe is not taken for one. Its length; 0 when the line has none. */
static size_t compose_prefix(const char *s, size_t n)
{
    size_t i = 0, digits_at;
    while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '-' || s[i] == '_' || s[i] == '.'))
        i++;
    for (digits_at = i; digits_at > 0 && s[digits_at - 1] >= '0' && s[digits_at - 1] <= '9';)
        digits_at--;
    if (digits_at == i || digits_at < 2 || (s[digits_at - 1] != '-' && s[digits_at - 1] != '_'))
        return 0;
    if (i >= n || s[i] != ' ')
        return 0;
    while (i < n && s[i] == ' ')
        i++;
    if (i >= n || s[i] != '|')
        return 0;
    i++;
    return i < n && s[i] == ' ' ? i + 1 : i;
}

/* What a log writer put before the message: a dated logger's prefix, docker compose's
 * service column, or both ("svc-1  | 2025-01-02 10:11:12 ERROR "). */
static size_t log_prefix(const char *s, size_t n)
{
    size_t i = compose_prefix(s, n);
    return i + dated_prefix(s + i, n - i);
}

/* "> > text": e-mail and forum quoting, any depth; the length of the marks. */
static size_t quoting(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == '>' || (s[i] == ' ' && i + 1 < n && s[i + 1] == '>')))
        i += s[i] == '>' && i + 1 < n && s[i + 1] == ' ' ? 2 : 1;
    return i;
}

/* A markdown list's marker ("- ", "* ", "+ ", nested or not): an issue form's "- OS: Windows
 * 11" is the line "OS: Windows 11". Its length with the indentation before it; 0 for none. */
static size_t list_marker(const char *s, size_t n)
{
    size_t i = strspn(s, " ");
    if (i + 2 < n && (s[i] == '-' || s[i] == '*' || s[i] == '+') && s[i + 1] == ' ' &&
        s[i + 2] != ' ')
        return i + 2;
    return 0;
}

/* Markdown's inline marks around an issue form's field, which a reader of the rendered
 * text never sees: a bold name ("**PyTorch version**: 2.3.1") and a value as inline code
 * ("PyTorch version: `2.3.1`"). "**" goes only as a pair on the line ("**kwargs" stays);
 * backticks only as a pair right after a "key:" (elsewhere they mark a command, "then
 * `py app.py`", which readers use). Removed in place; the new length. */
static size_t drop_pair(char *s, size_t n, const char *mark)
{
    size_t m = strlen(mark), i = 0, o = 0;
    bool value_only = mark[0] == '`';
    while (i < n) {
        const char *close;
        bool after_key = i > 0 && (s[i - 1] == ':' || (i > 1 && s[i - 1] == ' ' &&
                                                       s[i - 2] == ':'));
        if (i + m < n && !memcmp(s + i, mark, m) && s[i + m] != ' ' && s[i + m] != mark[0] &&
            (!value_only || after_key) && (close = strstr(s + i + m, mark)) != NULL &&
            close[-1] != ' ') {
            size_t inner = (size_t)(close - s) - i - m;
            memmove(s + o, s + i + m, inner);
            o += inner;
            i = (size_t)(close - s) + m;
        } else {
            s[o++] = s[i++];
        }
    }
    s[o] = '\0';
    return o;
}

/* A markdown table's row of two cells, an issue form's "| OS | Windows 10 |", rewritten in
 * place as the field it is: "OS: Windows 10". A header separator ("|---|---|") and rows of
 * one cell or of three and more (nvidia-smi's tables) stay as they are. The new length. */
static size_t two_cell_row(char *s, size_t n)
{
    size_t bars = 0, k, first, second;
    char key[DL_PASTE_MAX_LINE + 1];
    while (n && s[n - 1] == ' ')
        n--;
    if (n < 5 || s[0] != '|' || s[n - 1] != '|')
        return n;
    for (k = 0; k < n; k++)
        bars += s[k] == '|';
    if (bars != 3 || strspn(s, "|-: ") == n)
        return n;
    first = strcspn(s + 1, "|") + 1;
    second = n - 1;
    memcpy(key, s + 1, first - 1);
    key[first - 1] = '\0';
    {
        char *kb = key + strspn(key, " "), *ke = key + strlen(key);
        const char *v = s + first + 1;
        size_t vn = second - first - 1, kn;
        while (ke > kb && ke[-1] == ' ')
            *--ke = '\0';
        while (vn && *v == ' ')
            v++, vn--;
        while (vn && v[vn - 1] == ' ')
            vn--;
        kn = strlen(kb);
        if (!kn || !vn)
            return n;
        memmove(s + kn + 2, v, vn);
        memcpy(s, kb, kn);
        s[kn] = ':';
        s[kn + 1] = ' ';
        return kn + 2 + vn;
    }
}

/* The length of s without a closing fence glued to its end ("... torch-2.4.0```"), and
 * the spaces before that fence. */
static size_t without_closing_fence(const char *s, size_t n)
{
    size_t m = n;
    while (m && s[m - 1] == '`')
        m--;
    if (n - m < 3 || !m)
        return n;
    while (m && s[m - 1] == ' ')
        m--;
    return m;
}

/* A fence line ("```", "```python", "~~~ shell") carries no text; one glued to the text it
 * opens ("```Installing collected packages: torch", "```Successfully installed
 * torch-2.4.0```") does. Where the text starts after the fence marks; 0 for a plain fence
 * (nothing after it but one info word: a language name has no space in it). */
static size_t glued_to_fence(const char *s, size_t n)
{
    size_t start = strspn(s, "`~"), end, k;
    if (start > n)
        start = n;
    end = start + without_closing_fence(s + start, n - start);
    while (start < end && s[start] == ' ')
        start++;
    for (k = start; k < end; k++)
        if (s[k] == ' ' || s[k] == ':' || s[k] == '(' || s[k] == '\'')
            return start;
    return 0;
}

/* One raw line, in buf (DL_PASTE_MAX_LINE + 1 bytes): decoded, log prefix, quoting and list
 * marker dropped. The text: buf itself, or a new allocation when it needed cleaning (free
 * it); NULL for a fence, which carries no text worth reading. */
static char *normalise(const char *s, size_t n, bool *fence, char *buf)
{
    size_t i, o;
    bool plain;
    o = decode(s, n, buf, &plain);
    /* a quoted log or a logged quote: either order */
    i = quoting(buf, o);
    i += log_prefix(buf + i, o - i);
    i += quoting(buf + i, o - i);
    i += list_marker(buf + i, o - i);
    if (o - i >= 3 && (strncmp(buf + i, "```", 3) == 0 || strncmp(buf + i, "~~~", 3) == 0)) {
        size_t text = glued_to_fence(buf + i, o - i);
        if (!text) {
            *fence = true;
            return NULL;
        }
        i += text;
    }
    o = i + without_closing_fence(buf + i, o - i);
    if (i) {
        memmove(buf, buf + i, o - i);
        o -= i;
    }
    if (buf[0] == '|')
        o = two_cell_row(buf, o);
    buf[o] = '\0';
    if (memchr(buf, '*', o))
        o = drop_pair(buf, o, "**");
    if (memchr(buf, '`', o))
        o = drop_pair(buf, o, "`");
    if (plain || plain_ascii(buf, o)) /* dropping marks above made nothing unplain */
        return dl_url_strip_userinfo(buf); /* a pasted index URL keeps no password */
    return dl_url_strip_userinfo(dl_utf8_clean(buf, o));
}

/* n bytes that live as long as p. */
static char *keep(dl_paste *p, size_t n)
{
    char *at;
    if (n > p->block_left) {
        size_t size = n > 1048576 ? n : 1048576;
        p->blocks = dl_xrealloc(p->blocks, (p->n_blocks + 1) * sizeof *p->blocks);
        p->blocks[p->n_blocks++] = p->block_next = dl_xmalloc(size);
        p->block_left = size;
    }
    at = p->block_next;
    p->block_next += n;
    p->block_left -= n;
    return at;
}

/* The line that holds byte `at` of lower_all, searched from line `from` on (the last line
 * whose start is at or before it). */
static size_t line_at(const dl_paste *p, size_t from, size_t at)
{
    size_t lo = from, hi = p->count;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->starts[mid] <= at)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Errors retyped from a screenshot carry the writer's spelling ("No Kernal Image",
 * "is_avaliable()"): the lower-case copies, which every search reads, spell the few words
 * the signatures turn on right. Only swaps of the same length, so that a column in the
 * copy is the same column in the text a quote shows; one pass over the joined copy each
 * (a long log is mostly lines without them), and the line's own copy follows. */
static void respell(dl_paste *p)
{
    static const char *const wrong[] = {"kernal", "avaliable", "compatable"};
    static const char *const right[] = {"kernel", "available", "compatible"};
    size_t k;
    for (k = 0; k < sizeof wrong / sizeof wrong[0]; k++) {
        size_t n = strlen(right[k]);
        char *at;
        for (at = strstr(p->lower_all, wrong[k]); at; at = strstr(at + n, wrong[k])) {
            size_t o = (size_t)(at - p->lower_all), i = line_at(p, 0, o);
            memcpy(at, right[k], n);
            memcpy(p->lines[i].lower + (o - p->starts[i]), right[k], n);
        }
    }
}

static void join_lower(dl_paste *p)
{
    size_t i, at = 0;
    p->starts = dl_xmalloc((p->count + 1) * sizeof *p->starts);
    for (i = 0; i < p->count; i++) {
        p->starts[i] = at;
        at += strlen(p->lines[i].lower) + 1;
    }
    p->starts[p->count] = at;
    p->lower_all = dl_xmalloc(at + 1);
    for (i = 0; i < p->count; i++) {
        size_t n = p->starts[i + 1] - p->starts[i] - 1;
        memcpy(p->lower_all + p->starts[i], p->lines[i].lower, n);
        p->lower_all[p->starts[i] + n] = '\n';
    }
    p->lower_all[at] = '\0';
    respell(p);
    p->index = dl_paste_index_build(p->lower_all, p->starts[p->count]);
}

/* UTF-16 text as UTF-8 (PowerShell 5's `python collect_env.py > out.txt` writes UTF-16 LE
 * with a BOM); NULL when data is not UTF-16: no BOM, and the first two characters are not
 * ASCII with a zero byte beside each. */
static char *from_utf16(const char *data, size_t len, size_t *out_len)
{
    const unsigned char *u = (const unsigned char *)data;
    bool le;
    size_t i = 2;
    dl_buf b = {0};
    if (len >= 2 && (u[0] == 0xFF || u[0] == 0xFE) && u[1] == (u[0] ^ 1))
        le = u[0] == 0xFF;
    else if (len >= 4 && u[0] && u[0] < 0x80 && !u[1] && u[2] && u[2] < 0x80 && !u[3])
        le = true, i = 0;
    else if (len >= 4 && !u[0] && u[1] && u[1] < 0x80 && !u[2] && u[3] && u[3] < 0x80)
        le = false, i = 0;
    else
        return NULL;
    for (; i + 1 < len; i += 2) {
        unsigned long c = le ? u[i] | (unsigned long)u[i + 1] << 8
                             : (unsigned long)u[i] << 8 | u[i + 1];
        char enc[4];
        size_t n;
        if (c >= 0xD800 && c <= 0xDBFF && i + 3 < len) {
            unsigned long d = le ? u[i + 2] | (unsigned long)u[i + 3] << 8
                                 : (unsigned long)u[i + 2] << 8 | u[i + 3];
            if (d >= 0xDC00 && d <= 0xDFFF) {
                c = 0x10000 + ((c - 0xD800) << 10) + (d - 0xDC00);
                i += 2;
            }
        }
        if (c >= 0xD800 && c <= 0xDFFF)
            c = 0xFFFD; /* an unpaired surrogate */
        if (c < 0x80) {
            enc[0] = (char)c;
            n = 1;
        } else if (c < 0x800) {
            enc[0] = (char)(0xC0 | c >> 6);
            enc[1] = (char)(0x80 | (c & 0x3F));
            n = 2;
        } else if (c < 0x10000) {
            enc[0] = (char)(0xE0 | c >> 12);
            enc[1] = (char)(0x80 | ((c >> 6) & 0x3F));
            enc[2] = (char)(0x80 | (c & 0x3F));
            n = 3;
        } else {
            enc[0] = (char)(0xF0 | c >> 18);
            enc[1] = (char)(0x80 | ((c >> 12) & 0x3F));
            enc[2] = (char)(0x80 | ((c >> 6) & 0x3F));
            enc[3] = (char)(0x80 | (c & 0x3F));
            n = 4;
        }
        dl_buf_add(&b, enc, n);
    }
    *out_len = b.len;
    return dl_buf_take(&b);
}

/* Where the raw line that starts at i ends (before its '\n', "\r\n" or '\r'). */
static size_t line_end(const char *data, size_t len, size_t i)
{
    /* memchr is many times faster than a loop over a 10 MB log's bytes */
    const char *nl = i < len ? memchr(data + i, '\n', len - i) : NULL;
    size_t end = nl ? (size_t)(nl - data) : len;
    const char *cr = end > i ? memchr(data + i, '\r', end - i) : NULL;
    return cr ? (size_t)(cr - data) : end;
}

/* Where the next line starts after a line that ends at end. */
static size_t next_line(const char *data, size_t len, size_t end)
{
    if (end < len && data[end] == '\r' && end + 1 < len && data[end + 1] == '\n')
        end++;
    return end < len ? end + 1 : end;
}

/* A line exactly as wide as a terminal (80 columns). Columns are characters (UTF-8
 * sequences). */
static bool terminal_wide(const char *s, size_t n)
{
    size_t i, cols = 0;
    if (n < DL_PASTE_WRAP_COLUMNS)
        return false;
    for (i = 0; i < n && cols <= DL_PASTE_WRAP_COLUMNS; i++)
        cols += ((unsigned char)s[i] & 0xC0) != 0x80;
    return cols == DL_PASTE_WRAP_COLUMNS;
}

/* A table's or a box's border: nvidia-smi's "|", "+", rich's box drawing (U+2500..U+257F). */
static bool border(const char *s, size_t n, bool at_end)
{
    const unsigned char *u = (const unsigned char *)s;
    if (!n)
        return false;
    if (at_end)
        return u[n - 1] == '|' || u[n - 1] == '+' ||
               (n >= 3 && u[n - 3] == 0xE2 && (u[n - 2] == 0x94 || u[n - 2] == 0x95));
    return u[0] == '|' || (u[0] == '+' && n > 1 && (u[1] == '-' || u[1] == '=')) ||
           (n >= 3 && u[0] == 0xE2 && (u[1] == 0x94 || u[1] == 0x95));
}

/* "Name: torch", "Python version: 3.8" (the space may be a no-break one, as a web page
 * copies it): a line of its own, not the rest of a cut one (which
 * would not start with a capital: "...undefined sy" + "mbol: _ZN3c10"). */
static bool key_value(const char *s, size_t n)
{
    size_t i = 1;
    if (!n || !isupper((unsigned char)s[0]))
        return false;
    while (i < n && i < 32 && (isalnum((unsigned char)s[i]) || s[i] == ' ' || s[i] == '-' ||
                               s[i] == '_'))
        i++;
    return i > 1 && i + 1 < n && s[i] == ':' && s[i - 1] != ' ' &&
           (s[i + 1] == ' ' || (i + 2 < n && !memcmp(s + i + 1, "\xC2\xA0", 2)));
}

/* A row of a package table as `conda list` and `pip list` print it: a package's name, two
 * spaces or more of padding, then its version ("torchvision               0.15.2"). */
static bool package_table_row(const char *s, size_t n)
{
    size_t i = 0, pad = 0;
    while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '-' || s[i] == '_' || s[i] == '.'))
        i++;
    while (i + pad < n && s[i + pad] == ' ')
        pad++;
    return i > 0 && pad >= 2 && i + pad < n && isdigit((unsigned char)s[i + pad]);
}

/* The start of next (m bytes) reads as code: its first token holds '(' or '.', or '_'
 * ("torch.cuda.is_available()", "print(x)"). */
static bool code_start(const char *next, size_t m)
{
    size_t i;
    for (i = 0; i < m && next[i] != ' '; i++)
        if (i && (next[i] == '(' || next[i] == '.' || next[i] == '_'))
            return true;
    return false;
}

/* next (m bytes) starts a statement of its own: a command or a line of torch code, which
 * no word of the line before goes on into ("GPU." + "torch.cuda...", "." + "pip install"). */
static bool statement_start(const char *next, size_t m)
{
    static const char *const starts[] = {"torch.", "print(", "import ", "from ", "python ",
                                         "python3 ", "pip ", "pip3 ", "conda ", "nvidia-smi",
                                         "nvcc "};
    size_t k;
    for (k = 0; k < sizeof starts / sizeof starts[0]; k++)
        if (m >= strlen(starts[k]) && !strncmp(next, starts[k], strlen(starts[k])))
            return true;
    return false;
}

/* next (m bytes) starts with a word of letters followed by a space: "it says ...". */
static bool word_then_space(const char *next, size_t m)
{
    size_t i = 0;
    while (i < m && isalpha((unsigned char)next[i]))
        i++;
    return i > 0 && i < m && next[i] == ' ';
}

/* s (n bytes) ends a sentence and next (m bytes) starts another: s's last word is plain
 * (letters, digits, '-'; not a path or code) and ends in '.', '!' or '?', and next starts
 * with a lower-case word. A sentence that ends at column 80 is no cut word: "...on my GTX
 * 1650." + "torch.cuda.is_available() returns False" must not read "1650.torch". A '.'
 * ends a sentence only before a statement, or after a number before a word ("1650." + "it
 * says"): "x = torch." + "cuda.is_available()", "python3." + "dll" go on. */
static bool sentence_ends(const char *s, size_t n, const char *next, size_t m)
{
    size_t i = n - 1;
    bool letter = false;
    if (n < 3 || !m || !strchr(".!?", s[n - 1]) || !isalnum((unsigned char)s[n - 2]) ||
        !islower((unsigned char)next[0]))
        return false;
    while (i > 0 && s[i - 1] != ' ') {
        unsigned char c = (unsigned char)s[--i];
        if (!isalnum(c) && c != '-')
            return false;
        letter = letter || isalpha(c);
    }
    if (i == 0)
        return false; /* one token as wide as the line: not prose */
    return s[n - 1] != '.' || statement_start(next, m) || (!letter && word_then_space(next, m));
}

/* The line s (n bytes) was cut at the terminal's width when it was copied, and next (m bytes)
 * is the rest of it: s is exactly 80 columns and no table row, and either s ends with the
 * space before a word, or the cut falls inside a word or a path (next starts with a lower-case
 * letter, a digit or a path's punctuation: "could n" + "ot be found", "torch\\l" +
 * "ib\\c10.dll", "(AM" + "D64)"). A next line that is indented or starts with a capitalised
 * word (unless the cut left a single space before a word), or that is a
 * "key: value" line, starts a line of its own ("...on win32" + "Type \"help\"", "...>pip show
 * torch" + "Name: torch"). */
static bool cut_at_terminal_width(const char *s, size_t n, const char *next, size_t m)
{
    unsigned char c;
    if (!m || !terminal_wide(s, n) || border(s, n, false) || border(s, n, true) ||
        border(next, m, false))
        return false;
    c = (unsigned char)next[0];
    /* conda list's rows fill 80 columns often: a row, then the next row */
    if (key_value(next, m) || sentence_ends(s, n, next, m) ||
        (package_table_row(s, n) && package_table_row(next, m)))
        return false;
    /* cut at the space between two words: " this platform.", " 1.5.0, 1.5.0+cpu" */
    if (c == ' ')
        return m > 2 && s[n - 1] != ' ' &&
               (islower((unsigned char)next[1]) || isdigit((unsigned char)next[1]) ||
                /* " UserWarning: ...", " RTX 4090 ...": a capitalised word the cut moved
                 * down with the one space before it; two spaces are an indent */
                (isupper((unsigned char)next[1]) && next[2] != ' ' && s[n - 1] != ':'));
    if (c == '\t')
        return false;
    /* a markdown list item ("- OS : Ubuntu", "* GPU: ..."), an issue template's next line */
    if ((c == '-' || c == '*') && m > 1 && next[1] == ' ')
        return false;
    if (s[n - 1] == ' ')
        return true;
    /* cut inside an upper-case word: "(AM" + "D64)", "No C" + "UDA support" */
    if (isupper(c))
        return isupper((unsigned char)s[n - 1]) && !(m > 1 && islower((unsigned char)next[1]));
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           (c && strchr("_./\\-:'\",;)]}+", c));
}

static size_t columns(const char *s, size_t n)
{
    size_t i, cols = 0;
    for (i = 0; i < n; i++)
        cols += ((unsigned char)s[i] & 0xC0) != 0x80;
    return cols;
}

/* s (n bytes) is a command typed at a shell's prompt ("C:\\venv>pip show torch", "~ $ echo
 * $LD_LIBRARY_PATH"): what follows is its output. */
static bool shell_command(const char *s, size_t n)
{
    static const char *const builtins[] = {"echo ", "set ", "export ", "where ", "which "};
    size_t i, k;
    for (i = 0; i + 1 < n; i++) {
        size_t at = s[i] == '>' ? i + 1 : s[i] == '$' && s[i + 1] == ' ' ? i + 2 : 0;
        if (!at)
            continue;
        if (statement_start(s + at, n - at))
            return true;
        for (k = 0; k < sizeof builtins / sizeof builtins[0]; k++)
            if (n - at >= strlen(builtins[k]) && !strncmp(s + at, builtins[k], strlen(builtins[k])))
                return true;
    }
    return false;
}

/* next (m bytes) reads on from s (n bytes) where a text box wrapped it: a lower-case word or
 * a number; or, where s stops inside a sentence (no '.', '!' or '?' at its end), a
 * capitalised word, a quoted one or a symbol ("... has no attribute" + "'_cuda_setDevice'",
 * "... compiled with" + "CUDA enabled."). A labelled line ("RuntimeError: ...", "Name:
 * torch"), a statement, a path (the output of "echo $LD_LIBRARY_PATH"), a shell's prompt
 * ("(venv) user@host") or a markdown mark starts a line of its own. */
static size_t spaces_in(const char *s, size_t n)
{
    size_t i, spaces = 0;
    for (i = 0; i < n; i++)
        spaces += s[i] == ' ';
    return spaces;
}

static bool reads_on(const char *s, size_t n, const char *next, size_t m)
{
    unsigned char c = (unsigned char)next[0], last = (unsigned char)s[n - 1];
    size_t i;
    if (islower(c) || isdigit(c))
        return true;
    if (spaces_in(s, n) < 4)
        return false; /* a token or two as wide as the line, not a sentence */
    if (!(isupper(c) || (c && strchr("'\"`_", c))) || (last && strchr(".!?", last)) ||
        key_value(next, m) || statement_start(next, m) || shell_command(s, n) ||
        next[m - 1] == ':')
        return false; /* a line that introduces what follows: "Traceback (most recent ...):" */
    for (i = 0; i < m && next[i] != ' '; i++)
        if (next[i] == ':' && (i + 1 == m || next[i + 1] == ' '))
            return false; /* "RuntimeError: ...", "Note: ..." */
    return true;
}

/* s (n bytes) holds three spaces in a row after its indentation (a markdown code block's,
 * a quoted log's): a layout in columns, not prose. */
static bool in_columns(const char *s, size_t n)
{
    size_t i = 0, run = 0;
    while (i < n && s[i] == ' ')
        i++;
    for (; i < n && run < 3; i++)
        run = s[i] == ' ' ? run + 1 : 0;
    return run == 3;
}

/* The bytes of next's first word (m bytes; the raw text has no NUL after the line): up to
 * a space, a tab or a no-break space (a web page's copy has those between words). */
static size_t first_word(const char *next, size_t m)
{
    size_t i;
    for (i = 0; i < m && next[i] != ' ' && next[i] != '\t'; i++)
        if ((unsigned char)next[i] == 0xC2 && i + 1 < m && (unsigned char)next[i + 1] == 0xA0)
            break;
    return i;
}

/* next (m bytes) is a line of pip's resolver report: "<package> <version> requires ...",
 * one conflict per line, however long the line before it was. */
static bool requirement_line(const char *next, size_t m)
{
    size_t name = first_word(next, m), version;
    if (!name || name + 2 >= m || !isdigit((unsigned char)next[name + 1]))
        return false;
    version = first_word(next + name + 1, m - name - 1);
    return name + 1 + version + 10 <= m &&
           !memcmp(next + name + 1 + version, " requires ", 10);
}

/* A line a text box or a mail client wrapped at 80 columns where a space was: the next
 * line's first word would have reached the edge (that is why it was wrapped), the next line
 * reads on (reads_on), and the line neither introduces the next one (':') nor is laid out
 * in columns (a table's row, nvidia-smi's header: three spaces in a row, which prose has
 * not). */
static bool soft_wrapped(const char *s, size_t n, const char *next, size_t m)
{
    size_t cols, word;
    /* a short line (fewer bytes than 60 columns need) goes on only before a long word: the
     * cheap test first, as most lines of a log are short and go on nowhere */
    if (!m || s[n - 1] == ' ' || s[n - 1] == ':' || (n < 60 && first_word(next, m) < 30) ||
        !reads_on(s, n, next, m) || border(s, n, false) || border(s, n, true) ||
        in_columns(s, n) || requirement_line(next, m))
        return false;
    word = columns(next, first_word(next, m));
    cols = columns(s, n);
    /* a short line is wrapped only where it is a sentence (four spaces: not "where python")
     * before a word too long to have fitted on any line of prose (a path, a DLL's name) */
    if ((cols < 60 && (word < 30 || spaces_in(s, n) < 4)) || cols > DL_PASTE_WRAP_COLUMNS)
        return false;
    /* a sentence followed by a line of code: "...on my GTX 1650." + "torch.cuda..." */
    if (strchr(".!?", s[n - 1]) && code_start(next, m))
        return false;
    return cols + 1 + word >= DL_PASTE_WRAP_COLUMNS; /* a word that would reach the edge */
}

/* next (m bytes) is one symbol's name: letters, digits, '_', '@', '.', and at most a
 * closing quote or code mark. */
static bool one_symbol(const char *next, size_t m)
{
    size_t i;
    if (m < 2 || !(next[0] == '_' || isalpha((unsigned char)next[0])))
        return false;
    for (i = 0; i < m; i++)
        if (!(isalnum((unsigned char)next[i]) || (next[i] && strchr("_@.", next[i]))) &&
            !(i == m - 1 && strchr("`'\"", next[i]))) /* a closing quote or code mark */
            return false;
    return true;
}

/* next starts with a path: "..\aten\src", "./x", "/usr/lib", "~/x", "C:\x". */
static bool path_start(const char *next, size_t m)
{
    if (m >= 3 && isalpha((unsigned char)next[0]) && next[1] == ':' &&
        (next[2] == '\\' || next[2] == '/'))
        return true;
    if (m < 2)
        return false;
    if (next[0] == '/' || next[0] == '\\')
        return isalnum((unsigned char)next[1]) || next[1] == next[0] || next[1] == '.';
    return (next[0] == '.' || next[0] == '~') &&
           (next[1] == '/' || next[1] == '\\' || next[1] == '.');
}

static bool ends_with(const char *s, size_t n, const char *tail)
{
    size_t t = strlen(tail);
    return n >= t && memcmp(s + n - t, tail, t) == 0;
}

/* s (n bytes, not ended by a NUL) holds word. */
static bool contains(const char *s, size_t n, const char *word)
{
    size_t w = strlen(word), i;
    for (i = 0; i + w <= n; i++)
        if (memcmp(s + i, word, w) == 0)
            return true;
    return false;
}

static bool starts_with(const char *s, size_t n, const char *head)
{
    size_t h = strlen(head);
    return n >= h && memcmp(s, head, h) == 0;
}

/* A message that a text box wrapped where soft_wrapped's measures do not apply (the ':'
 * that keeps other lines apart is the message's own, or the line is short because the
 * next word is long): a loader's "undefined symbol:" + the mangled name, the shell's
 * "bash: nvidia-smi:" + "command not found", pip's "... requirement torch==X" +
 * "(from versions: ...)", "... unknown error at" / "in" / "from" + a path, and a sentence
 * that ends in ':' + one path ("Could not load this library:" + the path). The next
 * line's first word must have crossed column 80 (that is why it was wrapped). */
static bool message_wrapped(const char *s, size_t n, const char *next, size_t m)
{
    size_t cols;
    bool goes = false;
    if (!m)
        return false;
    if (ends_with(s, n, "undefined symbol:"))
        goes = one_symbol(next, m);
    else if (s[n - 1] == ':')
        goes = starts_with(next, m, "command not found") ||
               (spaces_in(s, n) >= 4 && path_start(next, m) && first_word(next, m) == m);
    else if (starts_with(next, m, "(from versions:"))
        goes = contains(s, n, " requirement ");
    else if (ends_with(s, n, " at") || ends_with(s, n, " in") || ends_with(s, n, " from"))
        goes = path_start(next, m);
    if (!goes || (cols = columns(s, n)) > DL_PASTE_WRAP_COLUMNS)
        return false;
    return cols + 1 + columns(next, first_word(next, m)) >= DL_PASTE_WRAP_COLUMNS;
}

/* How the line s goes on in next: 0 it does not, 1 it was cut (joined as it is), 2 it was
 * wrapped at a space (joined with the space). */
static int goes_on(const char *s, size_t n, const char *next, size_t m)
{
    if (!n || !m)
        return 0; /* an empty line is a line of its own, and nothing runs on into one */
    if (log_prefix(next, m))
        return 0; /* a logger's next line, not the rest of this one */
    if (cut_at_terminal_width(s, n, next, m))
        return 1;
    return soft_wrapped(s, n, next, m) || message_wrapped(s, n, next, m) ? 2 : 0;
}

/* n bytes of src with A-Z as a-z; branch-free and on buffers that cannot overlap, so
 * that the compiler can do many bytes at once (a long log is mostly this). */
static void lower_copy(char *restrict dst, const char *restrict src, size_t n)
{
    size_t k;
    for (k = 0; k < n; k++) {
        unsigned char c = (unsigned char)src[k];
        dst[k] = (char)(c | (unsigned char)((unsigned char)(c - 'A') < 26u) << 5);
    }
}

/* An issue form's unticked box ("- [ ] Linux in WSL" beside "- [x] Windows") is an option
 * the writer did not choose: its words say nothing of the machine. The lower-case copy,
 * which every search reads, keeps the box and blanks the words (the same length, so that
 * offsets hold); the text, which quotes show, keeps them. */
static void blank_unticked(char *low)
{
    size_t i = low[0] == '[' ? 1 : 0;
    if (!i)
        return;
    while (low[i] == ' ')
        i++;
    if (i < 2 || low[i] != ']' || low[i + 1] != ' ')
        return;
    for (i += 2; low[i]; i++)
        low[i] = ' ';
}

/* An issue form's example in a key, "OS (e.g., Linux):" or "PyTorch Version (e.g. 1.0):",
 * and its list of choices, "(Linux, Windows, ...)", are the form's and not the writer's:
 * the lower-case copy blanks them (the same length, as above), so that an empty answer
 * reads as no answer. */
static void blank_examples(char *low)
{
    char *at = low;
    while ((at = strstr(at, "(e.g")) != NULL) {
        char *close = strchr(at, ')');
        if (!close)
            return;
        /* a form's key ends at its colon; an example in prose ("errors (e.g. No CUDA
         * GPUs are available)") is the writer's words */
        if (close[1 + strspn(close + 1, " *")] == ':')
            memset(at, ' ', (size_t)(close - at + 1));
        at = close + 1;
    }
    /* a form's list of choices ending in an ellipsis, "What operating system (Linux,
     * Windows, ...) and version?": the form's, not the writer's */
    for (at = strchr(low, '('); at; at = strchr(at + 1, '(')) {
        char *close = strchr(at, ')');
        if (!close)
            return;
        if (close - at > 5 && !strncmp(close - 5, ", ...", 5))
            memset(at, ' ', (size_t)(close - at + 1));
    }
}

/* A requirement's environment marker names the systems it is for, not this machine:
 * "sys_platform != 'darwin'" in a pyproject is on every system but a Mac. The lower-case
 * copy blanks the quoted system name (the same length, as above); the key and operator
 * stay for the rules that read a marker as a marker. */
static void blank_marker_systems(char *low)
{
    static const char *const keys[] = {"sys_platform", "platform_system", "os_name"};
    size_t k;
    /* two of the keys hold "platform": most lines have neither word, and a long log pays
     * two searches a line, not three */
    if (!strstr(low, "platform") && !strstr(low, "os_name"))
        return;
    for (k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        char *at = low;
        while ((at = strstr(at, keys[k])) != NULL) {
            char *v = at + strlen(keys[k]), *close;
            v += strspn(v, " ");
            if (!strncmp(v, "==", 2) || !strncmp(v, "!=", 2))
                v += 2;
            else if (!strncmp(v, "not in", 6))
                v += 6;
            else if (!strncmp(v, "in ", 3))
                v += 2;
            else {
                at = v;
                continue;
            }
            v += strspn(v, " \\");
            if ((*v == '\'' || *v == '"') && (close = strchr(v + 1, *v)) != NULL) {
                memset(v + 1, ' ', (size_t)(close - v - 1));
                v = close;
            }
            at = v;
        }
    }
}

static void add_line(dl_paste *out, size_t *cap, const char *text, size_t number)
{
    size_t n = strlen(text);
    dl_paste_line *line;
    if (out->count == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        out->lines = dl_xrealloc(out->lines, *cap * sizeof *out->lines);
    }
    line = &out->lines[out->count++];
    line->text = keep(out, 2 * (n + 1));
    line->lower = line->text + n + 1;
    memcpy(line->text, text, n + 1);
    lower_copy(line->lower, text, n + 1);
    blank_unticked(line->lower);
    blank_examples(line->lower);
    blank_marker_systems(line->lower);
    line->number = number;
}

/* A markdown code block by indentation: a paragraph (the lines between blank ones) whose
 * every line is indented by four columns or more. The indentation its lines share is
 * markup, not text; what is left (a traceback's own) stays. */
static void unindent_blocks(dl_paste *p)
{
    size_t a = 0;
    while (a < p->count) {
        size_t b = a, common = DL_PASTE_MAX_LINE, k;
        for (; b < p->count; b++) {
            size_t indent = strspn(p->lines[b].text, " ");
            if (!p->lines[b].text[indent])
                break;
            if (indent < common)
                common = indent;
        }
        if (b > a && common >= 4)
            for (k = a; k < b; k++) {
                size_t n = strlen(p->lines[k].text) - common + 1;
                memmove(p->lines[k].text, p->lines[k].text + common, n);
                memmove(p->lines[k].lower, p->lines[k].lower + common, n);
            }
        a = b + 1;
    }
}

void dl_paste_read(const char *data, size_t len, dl_paste *out)
{
    size_t i = 0, number = 0, cap = 0, original = len;
    char *utf8 = from_utf16(data, len, &len);
    char *buf = dl_xmalloc(DL_PASTE_MAX_LINE + 1);
    memset(out, 0, sizeof *out);
    out->bytes = original;
    if (utf8)
        data = utf8;
    while (i < len) {
        size_t start = i, end = line_end(data, len, i), first = ++number;
        bool fence = false;
        char *text;
        i = next_line(data, len, end);
        if (i < len && goes_on(data + start, end - start, data + i, line_end(data, len, i) - i)) {
            /* the pieces of one line cut or wrapped at 80 columns, joined again */
            dl_buf joined = {0};
            size_t piece = start, piece_end = end;
            int how;
            dl_buf_add(&joined, data + start, end - start);
            while (i < len && joined.len < DL_PASTE_MAX_LINE &&
                   (how = goes_on(data + piece, piece_end - piece, data + i,
                                  line_end(data, len, i) - i)) != 0) {
                piece = i;
                piece_end = line_end(data, len, i);
                i = next_line(data, len, piece_end);
                number++;
                if (how == 2)
                    dl_buf_add(&joined, " ", 1);
                dl_buf_add(&joined, data + piece, piece_end - piece);
            }
            text = normalise(joined.data, joined.len, &fence, buf);
            dl_buf_free(&joined);
        } else {
            text = normalise(data + start, end - start, &fence, buf);
        }
        if (text)
            add_line(out, &cap, text, first);
        if (text != buf)
            free(text);
    }
    free(buf);
    free(utf8);
    unindent_blocks(out);
    join_lower(out);
}

void dl_paste_free(dl_paste *p)
{
    size_t i;
    for (i = 0; i < p->n_blocks; i++)
        free(p->blocks[i]);
    free(p->blocks);
    free(p->lines);
    free(p->lower_all);
    free(p->starts);
    dl_paste_index_free(p->index);
    memset(p, 0, sizeof *p);
}

long dl_paste_find(const dl_paste *p, size_t from, const char *needle)
{
    const char *hit;
    if (from >= p->count || !*needle)
        return -1;
    hit = dl_paste_index_find(p->index, p->lower_all, p->starts[from], needle);
    if (!hit)
        return -1;
    return (long)line_at(p, from, (size_t)(hit - p->lower_all));
}

bool dl_line_has_any(const char *s, const char *const *words, size_t n)
{
    size_t k;
    for (k = 0; k < n; k++)
        if (strstr(s, words[k]))
            return true;
    return false;
}

long dl_paste_find_any(const dl_paste *p, const char *const *needles, size_t n)
{
    size_t k;
    for (k = 0; k < n; k++) {
        long i = dl_paste_find(p, 0, needles[k]);
        if (i >= 0)
            return i;
    }
    return -1;
}

long dl_paste_find_where(const dl_paste *p, size_t from, const char *needle,
                         dl_paste_accept_fn accept)
{
    size_t len = strlen(needle);
    long i;
    for (i = dl_paste_find(p, from, needle); i >= 0; i = dl_paste_find(p, (size_t)i + 1, needle)) {
        const char *low = p->lines[i].lower, *at;
        for (at = strstr(low, needle); at; at = strstr(at + 1, needle))
            if (accept(low, at, len))
                return i;
    }
    return -1;
}

void dl_paste_cursor_init(dl_paste_cursor *c, const dl_paste *p, const char *const *marks,
                          size_t n)
{
    size_t k;
    c->paste = p;
    c->marks = marks;
    c->n = n < DL_PASTE_CURSOR_MARKS ? n : DL_PASTE_CURSOR_MARKS;
    c->nearest = -1;
    for (k = 0; k < c->n; k++) {
        c->next[k] = dl_paste_find(p, 0, marks[k]);
        if (c->next[k] >= 0 && (c->nearest < 0 || c->next[k] < c->nearest))
            c->nearest = c->next[k];
    }
}

bool dl_paste_cursor_at(dl_paste_cursor *c, size_t line)
{
    size_t k;
    /* most lines of a long log come before the nearest mark's */
    if (c->nearest < 0 || (size_t)c->nearest > line)
        return false;
    c->nearest = -1;
    for (k = 0; k < c->n; k++) {
        /* a kept line before this one is past: find the mark's next */
        if (c->next[k] >= 0 && (size_t)c->next[k] < line)
            c->next[k] = dl_paste_find(c->paste, line, c->marks[k]);
        if (c->next[k] >= 0 && (c->nearest < 0 || c->next[k] < c->nearest))
            c->nearest = c->next[k];
    }
    return c->nearest == (long)line;
}

long dl_paste_find_any_where(const dl_paste *p, const char *const *needles, size_t n,
                             dl_paste_accept_fn accept)
{
    size_t k;
    for (k = 0; k < n; k++) {
        long i = dl_paste_find_where(p, 0, needles[k], accept);
        if (i >= 0)
            return i;
    }
    return -1;
}
