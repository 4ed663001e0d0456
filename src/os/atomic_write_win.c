/* Writing a file whole or not at all (Windows): a temporary file beside the target,
 * written and flushed, then put in its place. An existing file is replaced with
 * ReplaceFileW, which keeps the old file's ACL, attributes and creation time (as POSIX keeps
 * the mode and owner); a new one is moved in with MoveFileExW(MOVEFILE_REPLACE_EXISTING).
 * Either replaces the old file in one step on the same volume. On any failure the
 * temporary file is deleted, so nothing half-written is left behind.
 *
 * A target that is not a file on a disk (NUL, CON, a named pipe) is written to as it is:
 * there is nothing to replace. A symbolic link is followed to its target, which is
 * replaced beside itself, so the link stays a link. */
#include "os/os.h"

#include "base/str.h"
#include "os/wide_win.h"

#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <stdlib.h>
#include <string.h>

static bool write_all(HANDLE h, const char *data, size_t len)
{
    while (len > 0) {
        DWORD chunk = len > 0x40000000u ? 0x40000000u : (DWORD)len, done = 0;
        if (!WriteFile(h, data, chunk, &done, NULL) || done == 0)
            return false;
        data += done;
        len -= done;
    }
    return true;
}

/* A name no other writer uses at the same time: the process id and a counter. */
static wchar_t *temp_name(const char *path)
{
    static unsigned counter;
    char *tmp = dl_fmt("%s.tmp-%lu-%u", path, (unsigned long)GetCurrentProcessId(), counter++);
    wchar_t *w = dl_wide(tmp);
    free(tmp);
    return w;
}

static bool fail(char **error, const char *what, const char *path)
{
    char *why = dl_win_error_text(GetLastError());
    *error = dl_fmt("cannot %s %s: %s", what, path, why);
    free(why);
    return false;
}

/* The file a path names once links are followed (\\?\C:\...), or NULL. */
static char *final_path(HANDLE h)
{
    wchar_t buf[32768];
    DWORD n = GetFinalPathNameByHandleW(h, buf, (DWORD)(sizeof buf / sizeof buf[0]),
                                        FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
    return n > 0 && n < sizeof buf / sizeof buf[0] ? dl_narrow(buf) : NULL;
}

typedef enum target_kind { TARGET_NEW, TARGET_FILE, TARGET_DEVICE } target_kind;

/* What the path names: nothing (or what cannot be opened: the move will say why), a file
 * on a disk (*target: where it really is), or a device or pipe (*device: open for
 * writing). */
static target_kind examine(const wchar_t *wpath, char **target, HANDLE *device)
{
    HANDLE h = CreateFileW(wpath, GENERIC_WRITE,
                           FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                           OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
    DWORD type;
    if (h == INVALID_HANDLE_VALUE)
        return TARGET_NEW;
    type = GetFileType(h);
    if (type == FILE_TYPE_CHAR || type == FILE_TYPE_PIPE) {
        *device = h;
        return TARGET_DEVICE;
    }
    *target = final_path(h);
    CloseHandle(h);
    return TARGET_FILE;
}

static bool write_device(HANDLE h, const char *path, const char *data, size_t len,
                         char **error)
{
    bool ok = write_all(h, data, len) || fail(error, "write", path);
    CloseHandle(h);
    return ok;
}

/* The temporary file beside target, then in its place; errors name path. */
static bool replace(const char *path, const char *target, bool exists, const char *data,
                    size_t len, char **error)
{
    wchar_t *wtarget = dl_wide(target), *wtmp = temp_name(target);
    HANDLE h = CreateFileW(wtmp, GENERIC_WRITE, 0, NULL, CREATE_NEW, FILE_ATTRIBUTE_NORMAL,
                           NULL);
    bool ok = false;
    if (h == INVALID_HANDLE_VALUE) {
        fail(error, "write", path);
        goto done;
    }
    if (!write_all(h, data, len) || !FlushFileBuffers(h)) {
        fail(error, "write", path);
        CloseHandle(h);
        DeleteFileW(wtmp);
        goto done;
    }
    CloseHandle(h);
    /* ReplaceFileW refuses some targets MoveFileExW takes (another volume's link target,
     * a file in use with delete sharing): the move is the fallback. */
    if (!(exists && ReplaceFileW(wtarget, wtmp, NULL,
                                 REPLACEFILE_IGNORE_MERGE_ERRORS | REPLACEFILE_IGNORE_ACL_ERRORS,
                                 NULL, NULL)) &&
        !MoveFileExW(wtmp, wtarget, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) {
        fail(error, "replace", path);
        DeleteFileW(wtmp);
        goto done;
    }
    ok = true;
done:
    free(wtarget);
    free(wtmp);
    return ok;
}

bool dl_file_write_atomic(const char *path, const char *data, size_t len, char **error)
{
    wchar_t *wpath = dl_wide(path);
    char *target = NULL;
    HANDLE device = INVALID_HANDLE_VALUE;
    target_kind kind = examine(wpath, &target, &device);
    bool ok;
    free(wpath);
    if (kind == TARGET_DEVICE)
        return write_device(device, path, data, len, error);
    ok = replace(path, target ? target : path, kind == TARGET_FILE, data, len, error);
    free(target);
    return ok;
}
