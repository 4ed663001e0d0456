/* The registry a machine reads: its own (registry_win.c, registry_posix.c) or a fixture
 * written as text, held here as a flat list of keys and values. */
#include "os/registry.h"

#include "os/fs_names.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef enum value_type { VALUE_NONE, VALUE_TEXT, VALUE_DWORD, VALUE_MULTI } value_type;

/* One line of a fixture: a value of a key, or (type VALUE_NONE) the key's section. */
typedef struct entry {
    char *key;      /* normalised: HKLM\... or HKCU\... */
    char *name;     /* "" for the default value */
    value_type type;
    char *text;     /* VALUE_TEXT, VALUE_MULTI (entries joined by '|') */
    uint32_t dword;
} entry;

struct dl_registry {
    entry *entries;
    size_t n;
};

static bool ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

/* Whether key lies below parent; *rest is what follows "parent\". */
static bool is_below(const char *key, const char *parent, const char **rest)
{
    size_t n = strlen(parent);
    const char *p = key, *q = parent;
    for (; *q; p++, q++)
        if (tolower((unsigned char)*p) != tolower((unsigned char)*q))
            return false;
    if (key[n] != '\\')
        return false;
    *rest = key + n + 1;
    return true;
}

/* HKEY_LOCAL_MACHINE\X and HKLM\X name the same key; trailing backslashes go. */
static char *normalise_key(const char *key)
{
    static const char *const longs[][2] = {{"HKEY_LOCAL_MACHINE\\", "HKLM\\"},
                                           {"HKEY_CURRENT_USER\\", "HKCU\\"}};
    size_t i, n;
    char *out = NULL;
    for (i = 0; i < sizeof longs / sizeof longs[0] && !out; i++)
        if (dl_starts_with(key, longs[i][0]))
            out = dl_fmt("%s%s", longs[i][1], key + strlen(longs[i][0]));
    if (!out)
        out = dl_strdup(key);
    n = strlen(out);
    while (n && out[n - 1] == '\\')
        out[--n] = '\0';
    return out;
}

static char *trimmed(const char *s, size_t n)
{
    while (n && isspace((unsigned char)*s)) {
        s++;
        n--;
    }
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    return dl_strndup(s, n);
}

static entry *push(dl_registry *r, const char *key)
{
    entry *e;
    r->entries = dl_xrealloc(r->entries, (r->n + 1) * sizeof *r->entries);
    e = &r->entries[r->n++];
    memset(e, 0, sizeof *e);
    e->key = dl_strdup(key);
    return e;
}

/* "name = value" under the current key. */
static bool parse_value(dl_registry *r, const char *key, const char *line, size_t len,
                        char **why)
{
    const char *eq = memchr(line, '=', len);
    char *name, *value;
    entry *e;
    unsigned long long n = 0;
    if (!key) {
        *why = dl_strdup("a value before any [key]");
        return false;
    }
    if (!eq) {
        *why = dl_strdup("expected [key] or name = value");
        return false;
    }
    name = trimmed(line, (size_t)(eq - line));
    value = trimmed(eq + 1, len - (size_t)(eq + 1 - line));
    e = push(r, key);
    e->name = dl_strdup(strcmp(name, "@") == 0 ? "" : name);
    if (dl_starts_with(value, "dword:")) {
        const char *digits = value + 6;
        bool hex = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
        if (!dl_parse_u64(hex ? digits + 2 : digits, hex ? 16 : 10, &n) || n > 0xffffffffu) {
            *why = dl_fmt("%s: not a 32-bit number", value);
            free(name);
            free(value);
            return false;
        }
        e->type = VALUE_DWORD;
        e->dword = (uint32_t)n;
    } else if (dl_starts_with(value, "multi:")) {
        e->type = VALUE_MULTI;
        e->text = dl_strdup(value + 6);
    } else {
        e->type = VALUE_TEXT;
        e->text = dl_strdup(dl_starts_with(value, "sz:") ? value + 3 : value);
    }
    free(name);
    free(value);
    return true;
}

/* One line: a comment, a [key] (which becomes the current key) or a value. */
static bool parse_line(dl_registry *r, const char *line, size_t len, char **key, char **why)
{
    char *t = trimmed(line, len);
    bool ok = true;
    size_t n = strlen(t);
    if (!n || t[0] == '#' || t[0] == ';') {
        /* blank or a comment */
    } else if (t[0] == '[' && t[n - 1] == ']') {
        char *raw = dl_strndup(t + 1, n - 2);
        free(*key);
        *key = normalise_key(raw);
        free(raw);
        push(r, *key)->name = NULL;
    } else {
        ok = parse_value(r, *key, t, n, why);
    }
    free(t);
    return ok;
}

dl_registry *dl_registry_parse(const char *text, char **error)
{
    dl_registry *r = dl_xcalloc(1, sizeof *r);
    char *key = NULL, *why = NULL;
    const char *line = text;
    unsigned number = 1;
    while (*line) {
        size_t len = strcspn(line, "\n");
        if (!parse_line(r, line, len, &key, &why)) {
            *error = dl_fmt("line %u: %s", number, why);
            free(why);
            free(key);
            dl_registry_free(r);
            return NULL;
        }
        line += len;
        if (*line)
            line++;
        number++;
    }
    free(key);
    return r;
}

void dl_registry_free(dl_registry *r)
{
    size_t i;
    if (!r)
        return;
    for (i = 0; i < r->n; i++) {
        free(r->entries[i].key);
        free(r->entries[i].name);
        free(r->entries[i].text);
    }
    free(r->entries);
    free(r);
}

static const entry *find(const dl_registry *r, const char *key, const char *value,
                         value_type type)
{
    char *k = normalise_key(key);
    const entry *found = NULL;
    size_t i;
    for (i = 0; i < r->n && !found; i++) {
        const entry *e = &r->entries[i];
        if (e->name && e->type == type && ieq(e->key, k) && ieq(e->name, value ? value : ""))
            found = e;
    }
    free(k);
    return found;
}

bool dl_reg_text(const dl_machine *m, const char *key, const char *value, char **out)
{
    const entry *e;
    if (!m->registry)
        return dl_reg_live_text(key, value, out);
    e = find(m->registry, key, value, VALUE_TEXT);
    *out = e ? dl_strdup(e->text) : NULL;
    return e != NULL;
}

bool dl_reg_dword(const dl_machine *m, const char *key, const char *value, uint32_t *out)
{
    const entry *e;
    if (!m->registry)
        return dl_reg_live_dword(key, value, out);
    e = find(m->registry, key, value, VALUE_DWORD);
    if (e)
        *out = e->dword;
    return e != NULL;
}

bool dl_reg_multi(const dl_machine *m, const char *key, const char *value, dl_strv *out)
{
    const entry *e;
    const char *p;
    if (!m->registry)
        return dl_reg_live_multi(key, value, out);
    e = find(m->registry, key, value, VALUE_MULTI);
    for (p = e ? e->text : NULL; p && *p;) {
        size_t n = strcspn(p, "|");
        dl_strv_add(out, dl_strndup(p, n));
        p += n;
        if (*p)
            p++;
    }
    return e != NULL;
}

/* The next component below key of every key under it, once each (case-insensitively). */
bool dl_reg_subkeys(const dl_machine *m, const char *key, dl_strv *out)
{
    char *k;
    bool exists = false;
    size_t i, j;
    if (!m->registry)
        return dl_reg_live_subkeys(key, out);
    k = normalise_key(key);
    for (i = 0; i < m->registry->n; i++) {
        const char *rest = NULL, *e = m->registry->entries[i].key;
        char *name;
        bool seen = false;
        if (ieq(e, k))
            exists = true;
        if (!is_below(e, k, &rest))
            continue;
        exists = true;
        name = dl_strndup(rest, strcspn(rest, "\\"));
        for (j = 0; j < out->n && !seen; j++)
            seen = ieq(out->v[j], name);
        if (seen)
            free(name);
        else
            dl_strv_add(out, name);
    }
    free(k);
    dl_names_sort(out->v, out->n);
    return exists;
}
