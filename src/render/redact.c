/* --redact. A name is replaced only where it stands whole (the user "ana" is not in
 * "anaconda"), and the user name only inside a path or an address (/home/ana, C:\Users\Ana,
 * ana@host): a user called "root" or "user" must not turn "Root cause" into "<user> cause".
 * Matching ignores ASCII case, as Windows does (C:\Users\Ana is c:\users\ana, and WSL
 * writes DESKTOP-7Q2 as desktop-7q2): a name left in is worse than a word changed. In JSON
 * only string values change, never keys, so the document keeps its schema. */
#include "render/redact.h"

#include "base/str.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct rule {
    const char *from;
    const char *to;
    bool ignore_case;
    bool in_path_only; /* the user: only as a path component or before '@' */
    bool path_start;   /* the home: not inside another path (/srv/root is not /root) */
    bool domain_after; /* the host: ana-laptop.lan is ana-laptop too */
} rule;

/* Characters that continue a name: "ana" inside "anaconda", "ana.smith" or "ana-laptop"
 * is not the user "ana". */
static bool name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

static bool same(const char *a, const char *b, size_t n, bool ignore_case)
{
    size_t i;
    if (!ignore_case)
        return strncmp(a, b, n) == 0;
    for (i = 0; i < n; i++)
        if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i]))
            return false;
    return true;
}

static bool whole_at(const char *start, const char *p, const rule *r, size_t n)
{
    char before = p > start ? p[-1] : '\0', after = p[n];
    if (!same(p, r->from, n, r->ignore_case))
        return false;
    if ((name_char(before) && name_char(r->from[0])) ||
        (name_char(after) && name_char(r->from[n - 1]) && !(r->domain_after && after == '.')))
        return false;
    if (r->path_start && (name_char(before) || before == '/' || before == '\\'))
        return false;
    return !r->in_path_only || before == '/' || before == '\\' || after == '/' ||
           after == '\\' || after == '@';
}

/* text[0..len) with every whole occurrence of r->from replaced, appended to b. */
static void replace_into(dl_buf *b, const char *text, size_t len, const rule *r)
{
    size_t n = r->from ? strlen(r->from) : 0, i = 0, done = 0;
    if (n < 3 || strcmp(r->from, "/") == 0) {
        dl_buf_add(b, text, len);
        return;
    }
    while (i + n <= len) {
        if (whole_at(text, text + i, r, n)) {
            dl_buf_add(b, text + done, i - done);
            dl_buf_puts(b, r->to);
            i += n;
            done = i;
        } else {
            i++;
        }
    }
    dl_buf_add(b, text + done, len - done);
}

/* C:\Users\ana as JSON writes it: C:\\Users\\ana. NULL when it has no backslash. */
static char *json_escaped(const char *path)
{
    dl_buf b = {0};
    if (!path || !strchr(path, '\\'))
        return NULL;
    for (; *path; path++)
        dl_buf_add(&b, *path == '\\' ? "\\\\" : path, *path == '\\' ? 2 : 1);
    return dl_buf_take(&b);
}

/* The rules in order: the home directory first (it holds the user name), then the host
 * (which may too), then the user. */
static size_t rules_for(const dl_redaction *r, char *home_json, rule out[4])
{
    size_t n = 0;
    rule home_escaped = {home_json, "~", true, false, true, false};
    rule home = {r->home, "~", true, false, true, false};
    rule host = {r->host, "<host>", true, false, false, true};
    rule user = {r->user, "<user>", true, true, false, false};
    if (home_json)
        out[n++] = home_escaped;
    out[n++] = home;
    out[n++] = host;
    out[n++] = user;
    return n;
}

static char *apply(const char *text, size_t len, const rule *rules, size_t count)
{
    char *cur = dl_strndup(text, len), *next;
    size_t i;
    for (i = 0; i < count; i++) {
        dl_buf nb = {0};
        replace_into(&nb, cur, strlen(cur), &rules[i]);
        next = dl_buf_take(&nb);
        free(cur);
        cur = next;
    }
    return cur;
}

char *dl_redact(const char *text, const dl_redaction *r)
{
    char *home_json = json_escaped(r->home), *out;
    rule rules[4];
    out = apply(text, strlen(text), rules, rules_for(r, home_json, rules));
    free(home_json);
    return out;
}

/* The end of the JSON string whose opening quote is at s[0]: its closing quote. */
static const char *string_end(const char *s)
{
    for (s++; *s && *s != '"'; s++)
        if (*s == '\\' && s[1])
            s++;
    return s;
}

static bool is_key(const char *after_quote)
{
    while (*after_quote == ' ' || *after_quote == '\t' || *after_quote == '\n' ||
           *after_quote == '\r')
        after_quote++;
    return *after_quote == ':';
}

/* One string value (its escaped text, without quotes): the user's or host's name alone
 * becomes the placeholder, however short ("vm" as a host); otherwise the rules apply
 * inside it. */
static void redact_value(dl_buf *b, const char *s, size_t len, const dl_redaction *r,
                         const rule *rules, size_t count)
{
    char *done;
    if (r->host && strlen(r->host) == len && len > 0 && same(s, r->host, len, true)) {
        dl_buf_puts(b, "<host>");
        return;
    }
    if (r->user && strlen(r->user) == len && len > 0 && same(s, r->user, len, true)) {
        dl_buf_puts(b, "<user>");
        return;
    }
    done = apply(s, len, rules, count);
    dl_buf_puts(b, done);
    free(done);
}

char *dl_redact_json(const char *text, const dl_redaction *r)
{
    char *home_json = json_escaped(r->home);
    rule rules[4];
    size_t count = rules_for(r, home_json, rules);
    dl_buf b = {0};
    const char *p = text;
    while (*p) {
        const char *q = strchr(p, '"'), *end;
        if (!q) {
            dl_buf_puts(&b, p);
            break;
        }
        end = string_end(q);
        dl_buf_add(&b, p, (size_t)(q - p) + 1);
        if (*end && !is_key(end + 1))
            redact_value(&b, q + 1, (size_t)(end - q - 1), r, rules, count);
        else
            dl_buf_add(&b, q + 1, (size_t)(end - q - 1));
        if (!*end)
            break;
        dl_buf_puts(&b, "\"");
        p = end + 1;
    }
    free(home_json);
    return dl_buf_take(&b);
}
