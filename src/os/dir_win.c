/* Directories (Windows): absolute paths (GetFullPathNameW, which also turns / into \), and
 * making one (the .vscode folder a launch.json goes in). */
#include "os/os.h"

#include "base/str.h"
#include "os/wide_win.h"

#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <stdlib.h>

char *dl_path_absolute(const char *path)
{
    wchar_t *w = dl_wide(path), *full;
    DWORD n = GetFullPathNameW(w, 0, NULL, NULL);
    char *out;
    if (!n) {
        free(w);
        return dl_strdup(path);
    }
    full = dl_xcalloc(n + 1, sizeof *full);
    if (!GetFullPathNameW(w, n + 1, full, NULL)) {
        free(w);
        free(full);
        return dl_strdup(path);
    }
    out = dl_narrow(full);
    free(w);
    free(full);
    return out;
}

bool dl_dir_make(const char *dir, char **error)
{
    wchar_t *w = dl_wide(dir);
    bool ok = CreateDirectoryW(w, NULL) != 0;
    DWORD code = ok ? 0 : GetLastError();
    if (code == ERROR_ALREADY_EXISTS) {
        DWORD a = GetFileAttributesW(w);
        ok = a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_DIRECTORY);
    }
    if (!ok) {
        char *why = dl_win_error_text(code);
        *error = dl_fmt("cannot create the folder %s: %s", dir, why);
        free(why);
    }
    free(w);
    return ok;
}
