#include "probe/system/os_release.h"

#include "base/str.h"

#include <stdlib.h>
#include <string.h>

/* One value: unquoted, "double quoted" (with \ escapes) or 'single quoted'. */
static char *unquote(const char *v, size_t len)
{
    dl_buf b = {0};
    size_t i = 0;
    char quote = 0;
    if (len && (v[0] == '"' || v[0] == '\'')) {
        quote = v[0];
        i = 1;
    }
    for (; i < len; i++) {
        if (quote && v[i] == quote)
            break;
        if (quote != '\'' && v[i] == '\\' && i + 1 < len) {
            dl_buf_add(&b, &v[++i], 1);
            continue;
        }
        dl_buf_add(&b, &v[i], 1);
    }
    return dl_buf_take(&b);
}

void dl_os_release_parse(const char *text, size_t len, dl_os_release *rel)
{
    size_t pos = 0;
    memset(rel, 0, sizeof *rel);
    while (pos < len) {
        const char *line = text + pos;
        const char *nl = memchr(line, '\n', len - pos);
        size_t ll = nl ? (size_t)(nl - line) : len - pos;
        const char *eq = memchr(line, '=', ll);
        pos += ll + 1;
        while (ll && (line[ll - 1] == '\r' || line[ll - 1] == ' '))
            ll--;
        if (!eq || line[0] == '#' || eq == line)
            continue;
        rel->pairs = dl_xrealloc(rel->pairs, (rel->count + 1) * sizeof *rel->pairs);
        rel->pairs[rel->count].name = dl_strndup(line, (size_t)(eq - line));
        rel->pairs[rel->count].value = unquote(eq + 1, ll - (size_t)(eq - line) - 1);
        rel->count++;
    }
}

bool dl_os_release_read(const dl_machine *m, const char *path, dl_os_release *rel,
                        dl_io_error *err)
{
    char *data;
    size_t len;
    memset(rel, 0, sizeof *rel);
    if (!dl_fs_read(m, path, 64 * 1024, &data, &len, NULL, err))
        return false;
    dl_os_release_parse(data, len, rel);
    free(data);
    return true;
}

const char *dl_os_release_get(const dl_os_release *rel, const char *key)
{
    size_t i;
    for (i = rel->count; i-- > 0;) /* the last assignment wins, as in a shell */
        if (strcmp(rel->pairs[i].name, key) == 0)
            return rel->pairs[i].value;
    return NULL;
}

void dl_os_release_field(const dl_os_release *rel, const char *key, const char *path,
                         dl_text *t)
{
    const char *v = dl_os_release_get(rel, key);
    if (v && *v)
        dl_text_set(t, v);
    else
        dl_text_unknown(t, "%s has no %s", path, key);
}

void dl_os_release_free(dl_os_release *rel)
{
    size_t i;
    for (i = 0; i < rel->count; i++) {
        free(rel->pairs[i].name);
        free(rel->pairs[i].value);
    }
    free(rel->pairs);
    memset(rel, 0, sizeof *rel);
}

char *dl_glibc_version_in(const char *data, size_t len)
{
    static const char mark[] = "release version ";
    size_t ml = sizeof mark - 1, i;
    for (i = 0; i + ml < len; i++) {
        if (memcmp(data + i, mark, ml) == 0) {
            size_t j = i + ml, k = j;
            while (k < len && ((data[k] >= '0' && data[k] <= '9') || data[k] == '.'))
                k++;
            while (k > j && data[k - 1] == '.')
                k--;
            if (k > j)
                return dl_strndup(data + j, k - j);
        }
    }
    return NULL;
}

static bool find_musl(const dl_machine *m, char **name)
{
    static const char *const dirs[] = {"/lib", "/usr/lib"};
    size_t d, i;
    for (d = 0; d < 2; d++) {
        char **names;
        size_t n;
        bool found = false;
        if (!dl_fs_list(m, dirs[d], &names, &n, NULL))
            continue;
        for (i = 0; i < n && !found; i++)
            found = dl_starts_with(names[i], "ld-musl-");
        dl_fs_list_free(names, n);
        if (found) {
            *name = dl_strdup("musl");
            return true;
        }
    }
    return false;
}

bool dl_libc_from_root(const dl_machine *m, char **name, char **version, char **error)
{
    static const char *const paths[] = {
        "/lib/x86_64-linux-gnu/libc.so.6", "/lib/aarch64-linux-gnu/libc.so.6",
        "/lib64/libc.so.6", "/usr/lib64/libc.so.6", "/usr/lib/libc.so.6", "/lib/libc.so.6",
        "/lib/i386-linux-gnu/libc.so.6", "/lib/powerpc64le-linux-gnu/libc.so.6"};
    size_t i;
    *version = NULL;
    for (i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        char *data;
        size_t len;
        if (!dl_fs_read(m, paths[i], 8u << 20, &data, &len, NULL, NULL))
            continue;
        *version = dl_glibc_version_in(data, len);
        free(data);
        *name = dl_strdup("glibc");
        return true;
    }
    if (find_musl(m, name))
        return true;
    *error = dl_strdup("no libc.so.6 or ld-musl loader under the root");
    return false;
}
