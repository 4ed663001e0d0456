#include "setup/lockfile.h"

#include "base/str.h"

#include <cjson/cJSON.h>

#include <stdlib.h>
#include <string.h>

static const char *json_text(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* archive_info.hashes.sha256 (pip >= 23), else archive_info.hash "sha256=..." */
static char *sha256_of(const cJSON *download)
{
    const cJSON *archive = cJSON_GetObjectItemCaseSensitive(download, "archive_info");
    const cJSON *hashes = cJSON_GetObjectItemCaseSensitive(archive, "hashes");
    const char *h = json_text(hashes, "sha256");
    if (h)
        return dl_strdup(h);
    h = json_text(archive, "hash");
    return h && dl_starts_with(h, "sha256=") ? dl_strdup(h + 7) : NULL;
}

static void add_package(dl_lock *lock, const char *name, const char *version, char *sha256,
                        const char *url)
{
    dl_locked_package *p;
    lock->packages = dl_xrealloc(lock->packages, (lock->n + 1) * sizeof *lock->packages);
    p = &lock->packages[lock->n++];
    p->name = dl_strdup(name);
    p->version = dl_strdup(version);
    p->sha256 = sha256;
    p->url = dl_strdup(url);
}

static void count_hashes(dl_lock *lock)
{
    size_t i;
    lock->all_hashed = lock->n > 0;
    for (i = 0; i < lock->n; i++)
        if (!lock->packages[i].sha256)
            lock->all_hashed = false;
}

/* What every venv holds of its own, not what was installed into it. */
static bool seeded(const char *name)
{
    return !strcmp(name, "pip") || !strcmp(name, "setuptools") || !strcmp(name, "wheel");
}

bool dl_lock_from_pip_report(const char *text, size_t len, dl_lock *lock, char **error)
{
    cJSON *root = cJSON_ParseWithLength(text, len);
    const cJSON *install = cJSON_GetObjectItemCaseSensitive(root, "install"), *item;
    bool inspect = false;
    if (!cJSON_IsArray(install)) {
        install = cJSON_GetObjectItemCaseSensitive(root, "installed");
        inspect = true;
    }
    if (!cJSON_IsArray(install)) {
        *error = dl_strdup("pip's report has no \"install\" (pip install --report) or "
                           "\"installed\" (pip inspect) list");
        cJSON_Delete(root);
        return false;
    }
    cJSON_ArrayForEach(item, install)
    {
        const cJSON *meta = cJSON_GetObjectItemCaseSensitive(item, "metadata");
        const cJSON *download = cJSON_GetObjectItemCaseSensitive(item, "download_info");
        const char *name = json_text(meta, "name"), *version = json_text(meta, "version");
        if (name && version && !(inspect && seeded(name)))
            add_package(lock, name, version, sha256_of(download), json_text(download, "url"));
    }
    cJSON_Delete(root);
    count_hashes(lock);
    return true;
}

const char *dl_lock_version_of(const dl_lock *lock, const char *name)
{
    size_t i;
    for (i = 0; i < lock->n; i++)
        if (dl_package_name_equal(lock->packages[i].name, name))
            return lock->packages[i].version;
    return NULL;
}

size_t dl_lock_fill_hashes(dl_lock *lock, const char *lines)
{
    dl_strv v = {0};
    size_t i, j, filled = 0;
    dl_strv_split(&v, lines, '\n');
    for (i = 0; i < lock->n; i++) {
        dl_locked_package *p = &lock->packages[i];
        for (j = 0; !p->sha256 && j < v.n; j++) {
            char *name = v.v[j], *version = strchr(name, '\t'), *sha;
            if (!version || !(sha = strchr(version + 1, '\t')))
                continue;
            *version = '\0';
            *sha = '\0';
            if (dl_package_name_equal(name, p->name) && !strcmp(version + 1, p->version) &&
                strcspn(sha + 1, "\r") == 64) {
                p->sha256 = dl_strndup(sha + 1, 64);
                filled++;
            }
            *version = '\t';
            *sha = '\t';
        }
    }
    dl_strv_free(&v);
    count_hashes(lock);
    return filled;
}

void dl_lock_keep_hashed(dl_lock *lock)
{
    size_t i, kept = 0;
    for (i = 0; i < lock->n; i++) {
        dl_locked_package *p = &lock->packages[i];
        if (p->sha256) {
            lock->packages[kept++] = *p;
            continue;
        }
        free(p->name);
        free(p->version);
        free(p->url);
    }
    lock->n = kept;
    count_hashes(lock);
}

static void header(dl_buf *b, const char *key, const char *value)
{
    if (value)
        dl_buf_printf(b, "# %s: %s\n", key, value);
}

char *dl_lock_write(const dl_lock *lock, const char *made_at, const char *host)
{
    dl_buf b = {0};
    size_t i, missing = 0;
    dl_buf_printf(&b, "# " DL_LOCK_SCHEMA ": made by `dlenv setup`%s%s%s%s; "
                  "`dlenv restore` installs it again\n",
                  host ? " on " : "", host ? host : "", made_at ? " at " : "",
                  made_at ? made_at : "");
    header(&b, "python", lock->python);
    header(&b, "torch", lock->torch);
    header(&b, "variant", lock->variant);
    header(&b, "tool", lock->tool);
    for (i = 0; i < lock->n; i++)
        missing += lock->packages[i].sha256 == NULL;
    if (lock->all_hashed) {
        dl_buf_puts(&b, "# hashes: the sha256 of every file installed (pip checks them: "
                        "--require-hashes)\n");
    } else {
        dl_buf_printf(&b, "# hashes: none written: no sha256 is known for");
        for (i = 0; i < lock->n; i++)
            if (!lock->packages[i].sha256)
                dl_buf_printf(&b, " %s", lock->packages[i].name);
        dl_buf_puts(&b, " (pip checks hashes for all packages or none)\n");
    }
    if (lock->index_url)
        dl_buf_printf(&b, "--index-url %s\n", lock->index_url);
    if (lock->extra_index_url)
        dl_buf_printf(&b, "--extra-index-url %s\n", lock->extra_index_url);
    for (i = 0; i < lock->n; i++) {
        const dl_locked_package *p = &lock->packages[i];
        dl_buf_printf(&b, "%s==%s", p->name, p->version);
        if (lock->all_hashed)
            dl_buf_printf(&b, " \\\n    --hash=sha256:%s", p->sha256);
        dl_buf_puts(&b, "\n");
    }
    (void)missing;
    return dl_buf_take(&b);
}

static char *value_after(const char *line, const char *key)
{
    size_t n = strlen(key);
    if (strncmp(line, "# ", 2) || strncmp(line + 2, key, n) || strncmp(line + 2 + n, ": ", 2))
        return NULL;
    return dl_strdup(line + 4 + n);
}

/* One line of the lock (continuations joined). */
static bool read_line(char *line, size_t number, dl_lock *lock, char **error)
{
    char *v, *eq, *hash;
    line = dl_trim(line);
    if (!*line)
        return true;
    if (line[0] == '#') {
        if ((v = value_after(line, "python")) != NULL) { free(lock->python); lock->python = v; }
        else if ((v = value_after(line, "torch")) != NULL) { free(lock->torch); lock->torch = v; }
        else if ((v = value_after(line, "variant")) != NULL) { free(lock->variant); lock->variant = v; }
        else if ((v = value_after(line, "tool")) != NULL) { free(lock->tool); lock->tool = v; }
        return true;
    }
    if (dl_starts_with(line, "--index-url ")) {
        free(lock->index_url);
        lock->index_url = dl_strdup(dl_trim(line + 12));
        return true;
    }
    if (dl_starts_with(line, "--extra-index-url ")) {
        free(lock->extra_index_url);
        lock->extra_index_url = dl_strdup(dl_trim(line + 18));
        return true;
    }
    eq = strstr(line, "==");
    if (!eq || eq == line) {
        *error = dl_fmt("line %lu: expected name==version, got '%.60s'", (unsigned long)number,
                        line);
        return false;
    }
    hash = strstr(eq, "--hash=sha256:");
    *eq = '\0';
    v = eq + 2;
    v[strcspn(v, " \t\\")] = '\0';
    add_package(lock, dl_trim(line), v,
                hash ? dl_strndup(hash + 14, strcspn(hash + 14, " \t\\")) : NULL, NULL);
    return true;
}

bool dl_lock_read(const char *text, size_t len, dl_lock *lock, char **error)
{
    dl_buf logical = {0};
    size_t i = 0, number = 1, first = 1;
    bool ok = true;
    memset(lock, 0, sizeof *lock);
    if (len < 2 + strlen(DL_LOCK_SCHEMA) || strncmp(text, "# " DL_LOCK_SCHEMA, 2 + strlen(DL_LOCK_SCHEMA))) {
        *error = dl_strdup("not a dlenv.lock: it does not start with '# " DL_LOCK_SCHEMA "'");
        return false;
    }
    while (ok && i < len) {
        size_t end = i;
        char *line;
        while (end < len && text[end] != '\n')
            end++;
        dl_buf_add(&logical, text + i, end - i);
        i = end + 1;
        if (logical.len && logical.data[logical.len - 1] == '\\') {
            logical.data[--logical.len] = ' ';
            number++;
            continue;
        }
        line = dl_buf_take(&logical);
        ok = read_line(line, first, lock, error);
        free(line);
        first = ++number;
    }
    dl_buf_free(&logical);
    count_hashes(lock);
    if (ok && (!lock->n || !lock->python)) {
        *error = dl_strdup(!lock->n ? "the lock names no package" : "the lock has no '# python:' line");
        ok = false;
    }
    if (!ok)
        dl_lock_free(lock);
    return ok;
}

void dl_lock_free(dl_lock *lock)
{
    size_t i;
    for (i = 0; i < lock->n; i++) {
        free(lock->packages[i].name);
        free(lock->packages[i].version);
        free(lock->packages[i].sha256);
        free(lock->packages[i].url);
    }
    free(lock->packages);
    free(lock->python);
    free(lock->torch);
    free(lock->variant);
    free(lock->tool);
    free(lock->index_url);
    free(lock->extra_index_url);
    memset(lock, 0, sizeof *lock);
}
