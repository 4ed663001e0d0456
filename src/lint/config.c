/* [tool.dlenv.lint] in pyproject.toml. Only that table is read, and only what it may hold:
 * strings ("error") and arrays of strings (["load", "amp"], one line or several), with
 * comments; any other key or value is an error naming its line, so a typo is never
 * silently ignored. */
#include "lint/config.h"

#include "os/os.h"

#include <stdlib.h>
#include <string.h>

static const char *skip_space(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* A basic or literal string at *p; NULL when there is none. */
static char *parse_string(const char **pp)
{
    const char *p = *pp, *end;
    char quote = *p;
    if (quote != '"' && quote != '\'')
        return NULL;
    end = strchr(p + 1, quote);
    if (!end || memchr(p + 1, '\n', (size_t)(end - p - 1)))
        return NULL;
    *pp = end + 1;
    return dl_strndup(p + 1, (size_t)(end - p - 1));
}

static bool rest_is_empty(const char *p)
{
    p = skip_space(p);
    return *p == '\0' || *p == '\n' || *p == '\r' || *p == '#';
}

/* The value at *pp: a string into *text, or an array (which may run over lines) into ids.
 * *line counts the newlines crossed. */
static bool parse_value(const char **pp, char **text, dl_strv *ids, unsigned *line)
{
    const char *p = skip_space(*pp);
    if (*p != '[') {
        *text = parse_string(&p);
        *pp = p;
        return *text && rest_is_empty(p);
    }
    p++;
    for (;;) {
        char *s;
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == ',' || *p == '#') {
            if (*p == '#')
                while (*p && *p != '\n')
                    p++;
            else
                *line += *p++ == '\n';
        }
        if (*p == ']') {
            *pp = p + 1;
            return rest_is_empty(p + 1);
        }
        if (!(s = parse_string(&p)))
            return false;
        dl_strv_add(ids, s);
    }
}

bool dl_lint_config_parse(dl_lint_config *c, const char *name, const char *text,
                          char **error)
{
    const char *p = text;
    unsigned line = 1;
    bool in_table = false;
    while (*p) {
        const char *eol = strchr(p, '\n'), *key, *q = skip_space(p);
        size_t key_len;
        unsigned at = line;
        if (*q == '[') {
            in_table = !strncmp(q, "[tool.dlenv.lint]", 17) && rest_is_empty(q + 17);
        } else if (in_table && !rest_is_empty(q)) {
            char *value = NULL, **slot = NULL;
            dl_strv *list = NULL, scratch = {0};
            key = q;
            while (*q && *q != '=' && *q != ' ' && *q != '\t' && *q != '\n')
                q++;
            key_len = (size_t)(q - key);
            q = skip_space(q);
            if (*q != '=') {
                *error = dl_fmt("%s:%u: [tool.dlenv.lint]: expected KEY = VALUE", name, at);
                return false;
            }
            q++;
#define KEY(k) (key_len == strlen(k) && !strncmp(key, k, key_len))
            if (KEY("select"))
                list = &c->select;
            else if (KEY("ignore"))
                list = &c->ignore;
            else if (KEY("fail-on"))
                slot = &c->fail_on;
            else if (KEY("os"))
                slot = &c->os;
            else if (KEY("torch"))
                slot = &c->torch;
            else if (KEY("cuda"))
                slot = &c->cuda;
#undef KEY
            if (!list && !slot) {
                *error = dl_fmt("%s:%u: [tool.dlenv.lint]: unknown key '%.*s' (select, "
                                "ignore, fail-on, os, torch, cuda)", name, at, (int)key_len,
                                key);
                return false;
            }
            if (!parse_value(&q, &value, list ? list : &scratch, &line) ||
                (slot && !value) || (list && value)) {
                free(value);
                dl_strv_free(&scratch);
                *error = dl_fmt("%s:%u: [tool.dlenv.lint]: '%.*s' wants %s", name, at,
                                (int)key_len, key, list ? "a list of rule ids" : "a string");
                return false;
            }
            if (slot) {
                free(*slot);
                *slot = value;
            }
            dl_strv_free(&scratch);
            eol = strchr(q, '\n');
        }
        if (!eol)
            break;
        p = eol + 1;
        line++;
    }
    return true;
}

bool dl_lint_config_load(dl_lint_config *c, char **error)
{
    dl_machine m = {NULL, true, NULL}; /* this machine (no root), as walk.c reads it */
    char *dir = dl_path_absolute(".");
    bool ok = true;
    memset(c, 0, sizeof *c);
    for (;;) {
        char *path = dl_path_join(dir, "pyproject.toml"), *data = NULL, *cut;
        size_t len;
        bool truncated;
        dl_io_error err = {DL_IO_OK, NULL};
        if (dl_fs_read(&m, path, 4u << 20, &data, &len, &truncated, &err)) {
            c->path = path;
            ok = dl_lint_config_parse(c, path, data, error);
            free(data);
            break;
        }
        dl_io_error_clear(&err);
        free(path);
        cut = strrchr(dir, '/');
        if (!cut || cut == dir)
            break;
        *cut = '\0';
    }
    free(dir);
    return ok;
}

void dl_lint_config_free(dl_lint_config *c)
{
    free(c->path);
    dl_strv_free(&c->select);
    dl_strv_free(&c->ignore);
    free(c->fail_on);
    free(c->os);
    free(c->torch);
    free(c->cuda);
    memset(c, 0, sizeof *c);
}
