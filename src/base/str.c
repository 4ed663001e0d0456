#include "base/str.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(size_t n)
{
    fprintf(stderr, "dlenv: out of memory (asked for %zu bytes)\n", n);
    abort();
}

void *dl_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory(n);
    return p;
}

void *dl_xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        out_of_memory(count * size);
    return p;
}

void *dl_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        out_of_memory(n);
    return q;
}

void *dl_xgrow(void *array, size_t *cap, size_t need, size_t elem)
{
    size_t n = *cap ? *cap : 16;
    if (need <= *cap)
        return array;
    while (n < need)
        n *= 2;
    *cap = n;
    return dl_xrealloc(array, n * elem);
}

char *dl_strdup(const char *s)
{
    return s ? dl_strndup(s, strlen(s)) : NULL;
}

char *dl_strndup(const char *s, size_t n)
{
    char *p;
    size_t len = 0;
    if (!s)
        return NULL;
    while (len < n && s[len])
        len++;
    p = dl_xmalloc(len + 1);
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

char *dl_vfmt(const char *fmt, va_list ap)
{
    va_list copy;
    int n;
    char *p;
    va_copy(copy, ap);
    n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0)
        return dl_strdup("(format error)");
    p = dl_xmalloc((size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

char *dl_fmt(const char *fmt, ...)
{
    va_list ap;
    char *p;
    va_start(ap, fmt);
    p = dl_vfmt(fmt, ap);
    va_end(ap);
    return p;
}

bool dl_fixed_vfmt(char *dst, size_t size, const char *fmt, va_list ap)
{
    static const char ellipsis[] = "\xe2\x80\xa6"; /* U+2026 in UTF-8 */
    size_t end;
    int n = vsnprintf(dst, size, fmt, ap);
    if (n >= 0 && (size_t)n < size)
        return true;
    if (n < 0)
        dst[0] = '\0';
    /* room for the ellipsis and the NUL, then back to the start of a character */
    end = strlen(dst);
    if (end > size - sizeof ellipsis)
        end = size - sizeof ellipsis;
    while (end > 0 && ((unsigned char)dst[end] & 0xC0) == 0x80)
        end--;
    memcpy(dst + end, ellipsis, sizeof ellipsis);
    return false;
}

bool dl_fixed_fmt(char *dst, size_t size, const char *fmt, ...)
{
    va_list ap;
    bool fit;
    va_start(ap, fmt);
    fit = dl_fixed_vfmt(dst, size, fmt, ap);
    va_end(ap);
    return fit;
}

bool dl_starts_with(const char *s, const char *prefix)
{
    return s && prefix && strncmp(s, prefix, strlen(prefix)) == 0;
}

bool dl_ends_with(const char *s, const char *suffix)
{
    size_t ls, lx;
    if (!s || !suffix)
        return false;
    ls = strlen(s);
    lx = strlen(suffix);
    return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

bool dl_contains_ci(const char *haystack, const char *needle)
{
    size_t n;
    if (!haystack || !needle)
        return false;
    n = strlen(needle);
    for (; *haystack; haystack++) {
        size_t i = 0;
        while (i < n && haystack[i] &&
               tolower((unsigned char)haystack[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return true;
    }
    return n == 0;
}

char *dl_trim(char *s)
{
    size_t len;
    while (*s && isspace((unsigned char)*s))
        s++;
    len = strlen(s);
    while (len && isspace((unsigned char)s[len - 1]))
        s[--len] = '\0';
    return s;
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when it is not one. Rejects
 * overlong forms, surrogates and code points past U+10FFFF. */
static size_t utf8_seq_len(const unsigned char *s, size_t avail)
{
    unsigned c = s[0];
    size_t need, i;
    unsigned cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        need = 2;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        need = 3;
        cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        need = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (avail < need)
        return 0;
    for (i = 1; i < need; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if ((need == 3 && cp < 0x800) || (need == 4 && cp < 0x10000) || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return need;
}

bool dl_utf8_valid(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        size_t n = utf8_seq_len((const unsigned char *)s + i, len - i);
        if (!n)
            return false;
        i += n;
    }
    return true;
}

/* The length of the character at p when it is kept as it is; 0 when it is escaped. */
static size_t kept_len(const unsigned char *p, size_t avail)
{
    size_t n = utf8_seq_len(p, avail);
    return n == 1 && (p[0] < 0x20 || p[0] == 0x7F) && p[0] != '\t' ? 0 : n;
}

char *dl_utf8_clean(const char *s, size_t len)
{
    dl_buf b = {0};
    size_t i = 0;
    if (!s)
        return NULL;
    while (i < len) {
        /* the kept characters are copied a run at a time: every fact read goes through */
        size_t start = i, n;
        while (i < len && (n = kept_len((const unsigned char *)s + i, len - i)) > 0)
            i += n;
        if (i > start)
            dl_buf_add(&b, s + start, i - start);
        if (i < len) {
            dl_buf_printf(&b, "\\x%02X", (unsigned char)s[i]);
            i++;
        }
    }
    return dl_buf_take(&b);
}

bool dl_parse_u64(const char *s, int base, unsigned long long *out)
{
    char *end;
    unsigned long long v;
    while (s && isspace((unsigned char)*s))
        s++;
    if (!s || !*s || *s == '-' || *s == '+')
        return false;
    errno = 0;
    v = strtoull(s, &end, base);
    if (errno || end == s)
        return false;
    while (isspace((unsigned char)*end))
        end++;
    if (*end)
        return false;
    *out = v;
    return true;
}

void dl_buf_add(dl_buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->len + n + 1)
            cap *= 2;
        b->data = dl_xrealloc(b->data, cap);
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void dl_buf_puts(dl_buf *b, const char *s)
{
    dl_buf_add(b, s, strlen(s));
}

void dl_buf_printf(dl_buf *b, const char *fmt, ...)
{
    va_list ap;
    char *s;
    va_start(ap, fmt);
    s = dl_vfmt(fmt, ap);
    va_end(ap);
    dl_buf_puts(b, s);
    free(s);
}

char *dl_buf_take(dl_buf *b)
{
    char *s = b->data ? b->data : dl_strdup("");
    b->data = NULL;
    b->len = b->cap = 0;
    return s;
}

void dl_buf_free(dl_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

void dl_strv_add(dl_strv *s, char *owned)
{
    s->v = dl_xrealloc(s->v, (s->n + 1) * sizeof *s->v);
    s->v[s->n++] = owned;
}

bool dl_strv_has(const dl_strv *s, const char *text)
{
    size_t i;
    for (i = 0; i < s->n; i++)
        if (!strcmp(s->v[i], text))
            return true;
    return false;
}

void dl_strv_add_once(dl_strv *s, const char *text)
{
    if (text && *text && !dl_strv_has(s, text))
        dl_strv_add(s, dl_strdup(text));
}

void dl_strv_free(dl_strv *s)
{
    size_t i;
    for (i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
    s->v = NULL;
    s->n = 0;
}

void dl_strv_split(dl_strv *s, const char *text, char sep)
{
    const char *p = text, *end;
    while (p && *p) {
        const char *a = p, *b;
        end = strchr(p, sep);
        b = end ? end : p + strlen(p);
        while (a < b && (*a == ' ' || *a == '\t'))
            a++;
        while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
            b--;
        if (b > a)
            dl_strv_add(s, dl_strndup(a, (size_t)(b - a)));
        p = end ? end + 1 : NULL;
    }
}

char *dl_ascii_lower(const char *s, size_t n)
{
    char *l = dl_strndup(s, n), *p;
    for (p = l; *p; p++)
        if (*p >= 'A' && *p <= 'Z')
            *p = (char)(*p - 'A' + 'a');
    return l;
}

static bool is_windows_path(const char *p)
{
    return (p[0] && p[1] == ':' && (p[2] == '\\' || p[2] == '/')) ||
           (p[0] == '\\' && p[1] == '\\');
}

/* The separator a path joined to dir gets: the one dir already uses, so that what is
 * printed is not "C:/proj\\train.py". A Windows path written with only forward slashes
 * keeps them (Windows reads both); on Windows a relative path with only backslashes keeps
 * those. Elsewhere a backslash is part of a name. */
static char separator_of(const char *dir)
{
    bool back = strchr(dir, '\\') != NULL, forward = strchr(dir, '/') != NULL;
    if (is_windows_path(dir))
        return forward && !back ? '/' : '\\';
#ifdef _WIN32
    if (back && !forward)
        return '\\';
#endif
    return '/';
}

char *dl_path_join(const char *dir, const char *name)
{
    char sep = separator_of(dir);
    bool ends = dl_ends_with(dir, "/") || dl_ends_with(dir, "\\");
    char *out = dl_fmt("%s%s%s", dir, ends ? "" : (sep == '/' ? "/" : "\\"), name);
    if (sep == '\\') {
        char *c;
        for (c = out + strlen(dir); *c; c++)
            if (*c == '/')
                *c = '\\';
    }
    return out;
}

char *dl_str_token(char **cursor, const char *seps)
{
    char *start = *cursor + strspn(*cursor, seps);
    char *end;
    if (!*start) {
        *cursor = start;
        return NULL;
    }
    end = start + strcspn(start, seps);
    *cursor = *end ? end + 1 : end;
    *end = '\0';
    return start;
}

static bool package_name_sep(char c)
{
    return c == '-' || c == '_' || c == '.';
}

bool dl_package_name_equal(const char *a, const char *b)
{
    if (!a || !b)
        return false;
    for (;;) {
        if (package_name_sep(*a) && package_name_sep(*b)) {
            while (package_name_sep(*a))
                a++;
            while (package_name_sep(*b))
                b++;
            continue;
        }
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
        if (!*a)
            return true;
        a++;
        b++;
    }
}

char *dl_str_replace(const char *line, const char *from, const char *to)
{
    size_t nf = strlen(from), nt = strlen(to), count = 0, n;
    const char *at;
    char *out, *w;
    if (!nf)
        return dl_strdup(line);
    for (at = strstr(line, from); at; at = strstr(at + nf, from))
        count++;
    n = strlen(line) + count * nt + 1;
    out = malloc(n);
    if (!out)
        return NULL;
    for (w = out; *line;) {
        if (!strncmp(line, from, nf)) {
            memcpy(w, to, nt);
            w += nt;
            line += nf;
        } else {
            *w++ = *line++;
        }
    }
    *w = '\0';
    return out;
}

bool dl_semicolon_list_has(const char *list, const char *item)
{
    size_t n = strlen(item);
    const char *at;
    for (at = list && n ? strstr(list, item) : NULL; at; at = strstr(at + 1, item))
        if ((at == list || at[-1] == ';') && (at[n] == '\0' || at[n] == ';'))
            return true;
    return false;
}

bool dl_str_in_path(const char *s, const char *at, size_t len)
{
    return (at > s && (at[-1] == '/' || at[-1] == '\\')) || at[len] == '/' || at[len] == '\\';
}

char *dl_str_grow(char *built, const char *from, size_t len, const char *with)
{
    char *grown = dl_fmt("%s%.*s%s", built ? built : "", (int)len, from, with ? with : "");
    free(built);
    return grown;
}
