#include "facts/json_check.h"

#include "base/str.h"

#include <stdlib.h>
#include <string.h>

/* cJSON's own nesting limit (CJSON_NESTING_LIMIT): deeper would fail there anyway. */
#define MAX_DEPTH 1000

typedef struct checker {
    const char *s;
    size_t len, pos;
    int depth;
    const char *why;   /* the first failure */
} checker;

static bool fail(checker *c, const char *why)
{
    if (!c->why)
        c->why = why;
    return false;
}

static bool at_end(const checker *c)
{
    return c->pos >= c->len;
}

static char peek(const checker *c)
{
    return at_end(c) ? '\0' : c->s[c->pos];
}

static void skip_space(checker *c)
{
    while (!at_end(c) && (peek(c) == ' ' || peek(c) == '\t' || peek(c) == '\r' ||
                          peek(c) == '\n'))
        c->pos++;
}

static bool is_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

static int hex_value(char ch)
{
    return is_digit(ch) ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                                   : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
}

/* Four hexadecimal digits after "\u" at c->pos; -1 when they are not. */
static long hex4(checker *c)
{
    long v = 0;
    int i;
    if (c->len - c->pos < 4)
        return -1;
    for (i = 0; i < 4; i++) {
        int h = hex_value(c->s[c->pos + (size_t)i]);
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    c->pos += 4;
    return v;
}

/* "\uXXXX" (the backslash and u already read), a surrogate pair whole. */
static bool unicode_escape(checker *c)
{
    long v = hex4(c), low;
    if (v < 0)
        return fail(c, "a \\u escape needs four hexadecimal digits");
    if (v == 0)
        return fail(c, "\\u0000 (a NUL character) in a string");
    if (v >= 0xDC00 && v <= 0xDFFF)
        return fail(c, "a \\u escape holds the second half of a surrogate pair alone");
    if (v < 0xD800 || v > 0xDBFF)
        return true;
    if (c->len - c->pos < 2 || c->s[c->pos] != '\\' || c->s[c->pos + 1] != 'u')
        return fail(c, "a \\u escape holds the first half of a surrogate pair alone");
    c->pos += 2;
    low = hex4(c);
    if (low < 0xDC00 || low > 0xDFFF)
        return fail(c, "a \\u escape holds the first half of a surrogate pair alone");
    return true;
}

static bool escape(checker *c)
{
    char ch;
    c->pos++; /* the backslash */
    if (at_end(c))
        return fail(c, "a string is not closed");
    ch = c->s[c->pos++];
    if (ch == 'u')
        return unicode_escape(c);
    if (!strchr("\"\\/bfnrt", ch) || !ch)
        return fail(c, "an unknown escape in a string");
    return true;
}

/* One UTF-8 sequence at c->pos (its first byte is 0x80 or above). */
static bool utf8_sequence(checker *c)
{
    unsigned char lead = (unsigned char)c->s[c->pos];
    size_t n = lead >= 0xC2 && lead <= 0xDF ? 2 : lead >= 0xE0 && lead <= 0xEF ? 3
               : lead >= 0xF0 && lead <= 0xF4 ? 4 : 0;
    if (!n || c->len - c->pos < n || !dl_utf8_valid(c->s + c->pos, n))
        return fail(c, "invalid UTF-8 in a string");
    c->pos += n;
    return true;
}

static bool string(checker *c)
{
    c->pos++; /* the opening quote */
    for (;;) {
        unsigned char ch;
        if (at_end(c))
            return fail(c, "a string is not closed");
        ch = (unsigned char)c->s[c->pos];
        if (ch == '"') {
            c->pos++;
            return true;
        }
        if (ch == '\\') {
            if (!escape(c))
                return false;
        } else if (ch < 0x20) {
            return fail(c, "a control character in a string (it must be escaped)");
        } else if (ch >= 0x80) {
            if (!utf8_sequence(c))
                return false;
        } else {
            c->pos++;
        }
    }
}

static bool digits(checker *c)
{
    size_t start = c->pos;
    while (is_digit(peek(c)))
        c->pos++;
    return c->pos > start;
}

/* -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
static bool number(checker *c)
{
    if (peek(c) == '-')
        c->pos++;
    if (peek(c) == '0')
        c->pos++;
    else if (!digits(c))
        return fail(c, "a malformed number");
    if (peek(c) == '.') {
        c->pos++;
        if (!digits(c))
            return fail(c, "a malformed number");
    }
    if (peek(c) == 'e' || peek(c) == 'E') {
        c->pos++;
        if (peek(c) == '+' || peek(c) == '-')
            c->pos++;
        if (!digits(c))
            return fail(c, "a malformed number");
    }
    return true;
}

static bool literal(checker *c, const char *word)
{
    size_t n = strlen(word);
    if (c->len - c->pos < n || memcmp(c->s + c->pos, word, n) != 0)
        return fail(c, "expected a value");
    c->pos += n;
    return true;
}

static bool value(checker *c);

/* The members of an object or the items of an array, up to close; the opening bracket is
 * at c->pos. */
static bool container(checker *c, bool object)
{
    char close = object ? '}' : ']';
    if (++c->depth > MAX_DEPTH)
        return fail(c, "nested deeper than 1000 levels");
    c->pos++;
    skip_space(c);
    if (peek(c) == close) {
        c->pos++;
        c->depth--;
        return true;
    }
    for (;;) {
        if (object) {
            if (peek(c) != '"')
                return fail(c, "expected a member name in double quotes");
            if (!string(c))
                return false;
            skip_space(c);
            if (peek(c) != ':')
                return fail(c, "expected ':' after a member name");
            c->pos++;
            skip_space(c);
        }
        if (!value(c))
            return false;
        skip_space(c);
        if (peek(c) == close) {
            c->pos++;
            c->depth--;
            return true;
        }
        if (peek(c) != ',')
            return fail(c, object ? "expected ',' or '}'" : "expected ',' or ']'");
        c->pos++;
        skip_space(c);
    }
}

static bool value(checker *c)
{
    char ch = peek(c);
    if (at_end(c))
        return fail(c, "the document ends early");
    if (ch == '{' || ch == '[')
        return container(c, ch == '{');
    if (ch == '"')
        return string(c);
    if (ch == '-' || is_digit(ch))
        return number(c);
    if (ch == 't')
        return literal(c, "true");
    if (ch == 'f')
        return literal(c, "false");
    if (ch == 'n')
        return literal(c, "null");
    return fail(c, "expected a value");
}

/* "line 3, column 14" of byte at in text (columns count characters, not bytes). */
static char *position(const char *text, size_t at)
{
    size_t line = 1, column = 1, i;
    for (i = 0; i < at; i++) {
        if (text[i] == '\n') {
            line++;
            column = 1;
        } else if (((unsigned char)text[i] & 0xC0) != 0x80) {
            column++;
        }
    }
    return dl_fmt("line %zu, column %zu", line, column);
}

bool dl_json_check(const char *text, size_t len, char **error)
{
    checker c;
    char *where;
    memset(&c, 0, sizeof c);
    c.s = text;
    c.len = len;
    skip_space(&c);
    if (at_end(&c)) {
        *error = dl_strdup("empty, not JSON");
        return false;
    }
    if (value(&c)) {
        skip_space(&c);
        if (at_end(&c))
            return true;
        where = position(text, c.pos);
        *error = dl_fmt("not valid JSON: more text after the document (%s)", where);
        free(where);
        return false;
    }
    where = position(text, c.pos < len ? c.pos : len);
    *error = dl_fmt("not valid JSON (%s): %s", where, c.why);
    free(where);
    return false;
}
