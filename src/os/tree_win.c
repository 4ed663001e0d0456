/* Whole folders (Windows): what a path is, renaming one in a step (MoveFileExW without
 * REPLACE_EXISTING; a file over another: with it), removing one with all it holds (a
 * junction or symbolic link is removed, never followed), and whether a process runs. */
#include "os/os.h"

#include "base/str.h"
#include "os/fs_names.h"
#include "os/wide_win.h"

#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <tlhelp32.h>

#include <stdlib.h>
#include <string.h>

dl_fs_kind dl_path_kind(const char *path)
{
    wchar_t *w = dl_wide(path);
    DWORD a = GetFileAttributesW(w);
    free(w);
    if (a == INVALID_FILE_ATTRIBUTES)
        return DL_FS_NONE;
    if (a & FILE_ATTRIBUTE_REPARSE_POINT)
        return DL_FS_OTHER;
    return (a & FILE_ATTRIBUTE_DIRECTORY) ? DL_FS_DIR : DL_FS_FILE;
}

bool dl_path_rename(const char *from, const char *to, char **error)
{
    wchar_t *wf = dl_wide(from), *wt = dl_wide(to);
    bool ok = MoveFileExW(wf, wt, 0) != 0;
    if (!ok)
        *error = dl_fmt("cannot rename %s to %s: Windows error %lu", from, to,
                        (unsigned long)GetLastError());
    free(wf);
    free(wt);
    return ok;
}

bool dl_file_move_over(const char *from, const char *to, char **error)
{
    wchar_t *wf = dl_wide(from), *wt = dl_wide(to);
    bool ok = MoveFileExW(wf, wt, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH) != 0;
    if (!ok)
        *error = dl_fmt("cannot rename %s to %s: Windows error %lu", from, to,
                        (unsigned long)GetLastError());
    free(wf);
    free(wt);
    return ok;
}

static bool remove_one(const char *path, DWORD attributes, char **error)
{
    wchar_t *w = dl_wide(path);
    bool ok;
    if (attributes & FILE_ATTRIBUTE_READONLY)
        SetFileAttributesW(w, attributes & ~(DWORD)FILE_ATTRIBUTE_READONLY);
    ok = (attributes & FILE_ATTRIBUTE_DIRECTORY) ? RemoveDirectoryW(w) != 0
                                                 : DeleteFileW(w) != 0;
    if (!ok)
        *error = dl_fmt("cannot remove %s: Windows error %lu", path,
                        (unsigned long)GetLastError());
    free(w);
    return ok;
}

static bool remove_entries(const char *dir, char **error)
{
    char *pattern = dl_path_join(dir, "*");
    wchar_t *w = dl_wide(pattern);
    WIN32_FIND_DATAW fd;
    HANDLE h = FindFirstFileW(w, &fd);
    bool ok = true;
    free(pattern);
    free(w);
    if (h == INVALID_HANDLE_VALUE)
        return true; /* empty, or gone */
    do {
        char *name = dl_narrow(fd.cFileName), *child;
        if (strcmp(name, ".") && strcmp(name, "..")) {
            child = dl_path_join(dir, name);
            ok = dl_tree_remove(child, error);
            free(child);
        }
        free(name);
    } while (ok && FindNextFileW(h, &fd));
    FindClose(h);
    return ok;
}

bool dl_tree_remove(const char *path, char **error)
{
    wchar_t *w = dl_wide(path);
    DWORD a = GetFileAttributesW(w);
    free(w);
    if (a == INVALID_FILE_ATTRIBUTES)
        return true;
    if ((a & FILE_ATTRIBUTE_DIRECTORY) && !(a & FILE_ATTRIBUTE_REPARSE_POINT) &&
        !remove_entries(path, error))
        return false;
    return remove_one(path, a, error);
}

long dl_process_id(void)
{
    return (long)GetCurrentProcessId();
}

/* One pass over the process list: this process's entry names its parent's id, the
 * parent's entry its file name (the id may have been reused if the parent ended: then the
 * name is another program's, which at worst picks the other shell's spelling). */
char *dl_parent_process_name(void)
{
    HANDLE snap = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
    PROCESSENTRY32W e;
    DWORD self = GetCurrentProcessId(), parent = 0;
    char *name = NULL;
    int pass;
    if (snap == INVALID_HANDLE_VALUE)
        return NULL;
    for (pass = 0; pass < 2 && !name; pass++) {
        e.dwSize = sizeof e;
        if (!Process32FirstW(snap, &e))
            break;
        do {
            if (pass == 0 && e.th32ProcessID == self)
                parent = e.th32ParentProcessID;
            else if (pass == 1 && parent && e.th32ProcessID == parent)
                name = dl_narrow(e.szExeFile);
        } while (!name && Process32NextW(snap, &e));
    }
    CloseHandle(snap);
    return name;
}

bool dl_process_alive(long pid)
{
    HANDLE h = OpenProcess(SYNCHRONIZE, FALSE, (DWORD)pid);
    DWORD r;
    if (!h)
        return GetLastError() == ERROR_ACCESS_DENIED;
    r = WaitForSingleObject(h, 0);
    CloseHandle(h);
    return r == WAIT_TIMEOUT;
}

bool dl_dir_list(const char *dir, char ***names, size_t *count, char **error)
{
    char *pattern = dl_path_join(dir, "*");
    wchar_t *w = dl_wide(pattern);
    WIN32_FIND_DATAW fd;
    HANDLE h = FindFirstFileW(w, &fd);
    size_t cap = 0;
    free(pattern);
    free(w);
    *names = NULL;
    *count = 0;
    if (h == INVALID_HANDLE_VALUE) {
        if (GetLastError() == ERROR_FILE_NOT_FOUND)
            return true;
        *error = dl_fmt("cannot open the folder %s: Windows error %lu", dir,
                        (unsigned long)GetLastError());
        return false;
    }
    do {
        char *name = dl_narrow(fd.cFileName);
        if (strcmp(name, ".") && strcmp(name, ".."))
            dl_names_push(names, count, &cap, name);
        else
            free(name);
    } while (FindNextFileW(h, &fd));
    FindClose(h);
    dl_names_sort(*names, *count);
    return true;
}
