#include "setup/stage.h"

#include "os/os.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool dl_setup_is_environment(const char *dir)
{
    char *cfg = dl_path_join(dir, "pyvenv.cfg"), *meta = dl_path_join(dir, "conda-meta");
    bool yes = dl_path_kind(cfg) == DL_FS_FILE || dl_path_kind(meta) == DL_FS_DIR;
    free(cfg);
    free(meta);
    return yes;
}

char *dl_setup_enclosing_environment(const char *path, bool windows)
{
    char *dir = dl_strdup(path);
    size_t n = strlen(dir);
    for (;;) {
        while (n > 0 && dir[n - 1] != '/' && !(windows && dir[n - 1] == '\\'))
            n--;
        if (n <= 1)
            break;
        dir[--n] = '\0'; /* the parent, without its separator */
        if (dl_setup_is_environment(dir))
            return dir;
    }
    free(dir);
    return NULL;
}

bool dl_setup_find_staging(const dl_setup_layout *l, dl_strv *stale, long *running_pid,
                           char **error)
{
    char **names;
    size_t n, i;
    *running_pid = 0;
    if (!dl_dir_list(l->parent, &names, &n, error))
        return false;
    for (i = 0; i < n; i++) {
        long pid = dl_setup_staging_pid(names[i], l->name);
        if (!pid || pid == dl_process_id())
            continue;
        if (dl_process_alive(pid))
            *running_pid = pid;
        else
            dl_strv_add(stale, dl_path_join(l->parent, names[i]));
    }
    dl_fs_list_free(names, n);
    return true;
}

static bool read_whole(const char *path, char **data, size_t *len)
{
    FILE *f = dl_fopen(path, "rb");
    dl_buf b = {0};
    char chunk[8192];
    size_t got;
    if (!f)
        return false;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        dl_buf_add(&b, chunk, got);
    fclose(f);
    *len = b.len;
    *data = dl_buf_take(&b);
    return true;
}

char *dl_setup_replace_all(const char *data, size_t len, const char *from, const char *to,
                           size_t *out_len)
{
    dl_buf b = {0};
    size_t fl = strlen(from), i = 0, last = 0;
    bool any = false;
    while (i + fl <= len) {
        if (!memcmp(data + i, from, fl)) {
            dl_buf_add(&b, data + last, i - last);
            dl_buf_puts(&b, to);
            i += fl;
            last = i;
            any = true;
        } else {
            i++;
        }
    }
    if (!any) {
        dl_buf_free(&b);
        return NULL;
    }
    dl_buf_add(&b, data + last, len - last);
    *out_len = b.len;
    return dl_buf_take(&b);
}

static bool relocate_file(const char *path, const dl_setup_layout *l, bool executable,
                          char **error)
{
    char *data, *fixed;
    size_t len, fixed_len = 0;
    bool ok = true;
    if (dl_path_kind(path) != DL_FS_FILE || !read_whole(path, &data, &len))
        return true; /* links (bin/python) and what cannot be read are left */
    fixed = dl_setup_replace_all(data, len, l->staging, l->target, &fixed_len);
    if (fixed) {
        ok = dl_file_write_atomic(path, fixed, fixed_len, error) &&
             (!executable || dl_file_make_executable(path, error));
        free(fixed);
    }
    free(data);
    return ok;
}

bool dl_setup_relocate(const dl_setup_layout *l, char **error)
{
    char *scripts = dl_path_join(l->staging, l->windows ? "Scripts" : "bin");
    char *cfg = dl_path_join(l->staging, "pyvenv.cfg");
    char **names = NULL;
    size_t n = 0, i;
    bool ok = dl_dir_list(scripts, &names, &n, error);
    for (i = 0; ok && i < n; i++) {
        char *path = dl_path_join(scripts, names[i]);
        ok = relocate_file(path, l, !l->windows, error);
        free(path);
    }
    ok = ok && relocate_file(cfg, l, false, error);
    dl_fs_list_free(names, n);
    free(scripts);
    free(cfg);
    return ok;
}

bool dl_setup_swap(const dl_setup_layout *l, bool *kept, char **error)
{
    char *why = NULL;
    *kept = dl_path_kind(l->target) != DL_FS_NONE;
    if (*kept) {
        if (!dl_tree_remove(l->previous, error) || !dl_path_rename(l->target, l->previous, error))
            return false;
    }
    if (dl_path_rename(l->staging, l->target, error))
        return true;
    if (*kept && !dl_path_rename(l->previous, l->target, &why)) {
        char *both = dl_fmt("%s; and the previous environment could not be put back (%s): "
                            "it is at %s", *error, why, l->previous);
        free(*error);
        free(why);
        *error = both;
    }
    return false;
}

bool dl_setup_rollback(const dl_setup_layout *l, char **error)
{
    /* the staging name is this process's own: free, and on the same file system */
    if (dl_path_kind(l->previous) != DL_FS_DIR) {
        *error = dl_fmt("no previous environment to go back to: %s does not exist (only a "
                        "setup that replaced an environment keeps one)", l->previous);
        return false;
    }
    if (dl_path_kind(l->target) != DL_FS_NONE &&
        !dl_path_rename(l->target, l->staging, error))
        return false;
    if (!dl_path_rename(l->previous, l->target, error)) {
        char *why = NULL;
        if (dl_path_kind(l->staging) != DL_FS_NONE && !dl_path_rename(l->staging, l->target, &why))
            free(why);
        return false;
    }
    if (dl_path_kind(l->staging) != DL_FS_NONE && !dl_path_rename(l->staging, l->previous, error))
        return false;
    return true;
}
