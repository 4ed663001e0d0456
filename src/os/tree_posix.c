/* Whole folders (POSIX): what a path is, renaming one in a step (or a file over another),
 * removing one with all it holds, and whether a process runs: what `dlenv setup` needs to
 * stage an environment beside its target and swap it into place. */
#include "os/os.h"

#include "base/str.h"
#include "os/fs_names.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

dl_fs_kind dl_path_kind(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return DL_FS_NONE;
    if (S_ISDIR(st.st_mode))
        return DL_FS_DIR;
    return S_ISREG(st.st_mode) ? DL_FS_FILE : DL_FS_OTHER;
}

bool dl_path_rename(const char *from, const char *to, char **error)
{
    /* rename() replaces an empty folder or a file silently: refused here first */
    if (dl_path_kind(to) != DL_FS_NONE) {
        *error = dl_fmt("cannot rename %s to %s: %s exists", from, to, to);
        return false;
    }
    if (rename(from, to) != 0) {
        *error = dl_fmt("cannot rename %s to %s: %s", from, to, strerror(errno));
        return false;
    }
    return true;
}

bool dl_file_move_over(const char *from, const char *to, char **error)
{
    if (rename(from, to) != 0) {
        *error = dl_fmt("cannot rename %s to %s: %s", from, to, strerror(errno));
        return false;
    }
    return true;
}

static bool remove_entries(const char *dir, char **error)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    bool ok = true;
    if (!d) {
        *error = dl_fmt("cannot open the folder %s: %s", dir, strerror(errno));
        return false;
    }
    while (ok && (e = readdir(d)) != NULL) {
        char *child;
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        child = dl_path_join(dir, e->d_name);
        ok = dl_tree_remove(child, error);
        free(child);
    }
    closedir(d);
    return ok;
}

bool dl_tree_remove(const char *path, char **error)
{
    dl_fs_kind kind = dl_path_kind(path);
    if (kind == DL_FS_NONE)
        return true;
    if (kind == DL_FS_DIR) {
        if (!remove_entries(path, error))
            return false;
        if (rmdir(path) != 0) {
            *error = dl_fmt("cannot remove the folder %s: %s", path, strerror(errno));
            return false;
        }
        return true;
    }
    if (unlink(path) != 0) {
        *error = dl_fmt("cannot remove %s: %s", path, strerror(errno));
        return false;
    }
    return true;
}

long dl_process_id(void)
{
    return (long)getpid();
}

char *dl_parent_process_name(void)
{
    return NULL;
}

bool dl_process_alive(long pid)
{
    /* EPERM: it exists, owned by someone else */
    return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

bool dl_dir_list(const char *dir, char ***names, size_t *count, char **error)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t cap = 0;
    *names = NULL;
    *count = 0;
    if (!d) {
        *error = dl_fmt("cannot open the folder %s: %s", dir, strerror(errno));
        return false;
    }
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            dl_names_push(names, count, &cap, dl_strdup(e->d_name));
    closedir(d);
    dl_names_sort(*names, *count);
    return true;
}
