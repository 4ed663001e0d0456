/* Who runs dlenv, for --redact (Windows): the account name (USERNAME, else GetUserNameW),
 * the profile folder (USERPROFILE, and an MSYS or Git Bash HOME) and the profile folder's
 * own name, which can differ from the account's (C:\Users\ana.smith for "Ana"). */
#include "os/os.h"

#include "base/str.h"
#include "os/wide_win.h"

#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <stdlib.h>
#include <string.h>

/* The last component of a path, without trailing separators. */
static char *last_component(const char *path)
{
    size_t end = strlen(path), start;
    while (end > 0 && (path[end - 1] == '\\' || path[end - 1] == '/'))
        end--;
    start = end;
    while (start > 0 && path[start - 1] != '\\' && path[start - 1] != '/')
        start--;
    return end > start ? dl_strndup(path + start, end - start) : NULL;
}

void dl_os_identity(dl_strv *users, dl_strv *homes)
{
    const char *profile = dl_env_get("USERPROFILE");
    wchar_t name[257];
    DWORD n = sizeof name / sizeof name[0];
    char *folder;
    dl_strv_add_once(users, dl_env_get("USERNAME"));
    if (GetUserNameW(name, &n)) {
        char *narrow = dl_narrow(name);
        dl_strv_add_once(users, narrow);
        free(narrow);
    }
    dl_strv_add_once(homes, profile);
    dl_strv_add_once(homes, dl_env_get("HOME"));
    folder = profile ? last_component(profile) : NULL;
    dl_strv_add_once(users, folder);
    free(folder);
}
