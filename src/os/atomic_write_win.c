/* Writing a file whole or not at all (Windows): a temporary file beside the target,
 * written and flushed, then moved over it with MoveFileExW(MOVEFILE_REPLACE_EXISTING), which
 * replaces the old file in one step on the same volume. On any failure the temporary file
 * is deleted, so nothing half-written is left behind. */
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

bool dl_file_write_atomic(const char *path, const char *data, size_t len, char **error)
{
    wchar_t *wpath = dl_wide(path), *wtmp = temp_name(path);
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
    if (!MoveFileExW(wtmp, wpath, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) {
        fail(error, "replace", path);
        DeleteFileW(wtmp);
        goto done;
    }
    ok = true;
done:
    free(wpath);
    free(wtmp);
    return ok;
}
