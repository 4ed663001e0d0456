/* Helpers over tree-sitter-python nodes that the rules share. */
#include "lint/engine.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

const char *dl_lint_text(const dl_lint_file *f, TSNode n, size_t *len)
{
    uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
    if (b > f->len || a > b)
        a = b = 0;
    *len = b - a;
    return f->src + a;
}

bool dl_lint_text_is(const dl_lint_file *f, TSNode n, const char *text)
{
    size_t len;
    const char *t = dl_lint_text(f, n, &len);
    return len == strlen(text) && !memcmp(t, text, len);
}

bool dl_lint_is(TSNode n, const char *type)
{
    return !ts_node_is_null(n) && !strcmp(ts_node_type(n), type);
}

TSNode dl_lint_kwarg(const dl_lint_file *f, TSNode call, const char *name)
{
    TSNode args = ts_node_child_by_field_name(call, "arguments", 9), none = {{0}, 0, 0};
    uint32_t i, n;
    if (ts_node_is_null(args))
        return none;
    n = ts_node_named_child_count(args);
    for (i = 0; i < n; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (dl_lint_is(a, "keyword_argument")) {
            TSNode key = ts_node_child_by_field_name(a, "name", 4);
            if (!ts_node_is_null(key) && dl_lint_text_is(f, key, name))
                return ts_node_child_by_field_name(a, "value", 5);
        }
    }
    return none;
}

TSNode dl_lint_arg(TSNode call, unsigned index)
{
    TSNode args = ts_node_child_by_field_name(call, "arguments", 9), none = {{0}, 0, 0};
    uint32_t i, n;
    unsigned seen = 0;
    if (ts_node_is_null(args) || !dl_lint_is(args, "argument_list"))
        return none;
    n = ts_node_named_child_count(args);
    for (i = 0; i < n; i++) {
        TSNode a = ts_node_named_child(args, i);
        const char *t = ts_node_type(a);
        if (!strcmp(t, "keyword_argument") || !strcmp(t, "comment") ||
            !strcmp(t, "list_splat") || !strcmp(t, "dictionary_splat"))
            continue;
        if (seen++ == index)
            return a;
    }
    return none;
}

bool dl_lint_has_splat(TSNode call)
{
    TSNode args = ts_node_child_by_field_name(call, "arguments", 9);
    uint32_t i, n;
    if (ts_node_is_null(args))
        return false;
    n = ts_node_named_child_count(args);
    for (i = 0; i < n; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (dl_lint_is(a, "list_splat") || dl_lint_is(a, "dictionary_splat"))
            return true;
    }
    return false;
}

bool dl_lint_string_of(const dl_lint_file *f, TSNode n, dl_lint_string *s)
{
    TSNode start, end;
    size_t len, i;
    const char *t;
    memset(s, 0, sizeof *s);
    if (!dl_lint_is(n, "string") || ts_node_child_count(n) < 2)
        return false;
    start = ts_node_child(n, 0);
    end = ts_node_child(n, ts_node_child_count(n) - 1);
    if (!dl_lint_is(start, "string_start") || !dl_lint_is(end, "string_end"))
        return false;
    t = dl_lint_text(f, start, &len);
    for (i = 0; i < len && isalpha((unsigned char)t[i]); i++) {
        char c = (char)tolower((unsigned char)t[i]);
        if (i < sizeof s->prefix - 1)
            s->prefix[i] = c;
        s->raw |= c == 'r';
        s->bytes |= c == 'b';
        s->fstring |= c == 'f';
    }
    s->prefix_len = i;
    s->quote_len = len - i;
    if (s->quote_len != 1 && s->quote_len != 3)
        return false;
    s->body_start = ts_node_end_byte(start);
    s->body_end = ts_node_start_byte(end);
    return s->body_end >= s->body_start;
}

bool dl_lint_string_is(const dl_lint_file *f, TSNode n, const char *text)
{
    dl_lint_string s;
    size_t want = strlen(text);
    if (!dl_lint_string_of(f, n, &s) || s.fstring)
        return false;
    return s.body_end - s.body_start == want && !memcmp(f->src + s.body_start, text, want);
}

bool dl_lint_is_true(TSNode n)
{
    return dl_lint_is(n, "true");
}

bool dl_lint_int_value(const dl_lint_file *f, TSNode n, long long *value)
{
    char buf[32];
    size_t len;
    const char *t;
    char *end;
    if (!dl_lint_is(n, "integer"))
        return false;
    t = dl_lint_text(f, n, &len);
    if (len == 0 || len >= sizeof buf)
        return false;
    memcpy(buf, t, len);
    buf[len] = '\0';
    *value = strtoll(buf, &end, 0);
    return *end == '\0';
}

bool dl_lint_name_ends(const char *qualified, const char *last)
{
    size_t q, l = strlen(last);
    if (!qualified)
        return false;
    q = strlen(qualified);
    if (q == l)
        return !strcmp(qualified, last);
    return q > l && qualified[q - l - 1] == '.' && !strcmp(qualified + q - l, last);
}
