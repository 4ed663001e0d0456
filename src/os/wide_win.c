/* UTF-8 <-> UTF-16 for the Windows API, and Windows' own words for an error code. */
#include "os/wide_win.h"

#include "base/str.h"

#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <stdlib.h>
#include <string.h>

wchar_t *dl_wide(const char *utf8)
{
    int n;
    wchar_t *w;
    if (!utf8)
        return NULL;
    n = MultiByteToWideChar(CP_UTF8, 0, utf8, -1, NULL, 0);
    if (n <= 0) {
        w = dl_xcalloc(1, sizeof *w);
        return w;
    }
    w = dl_xcalloc((size_t)n, sizeof *w);
    MultiByteToWideChar(CP_UTF8, 0, utf8, -1, w, n);
    return w;
}

char *dl_narrow_n(const wchar_t *wide, int len)
{
    int n;
    char *s;
    if (!wide)
        return NULL;
    if (len == 0)
        return dl_strdup("");
    n = WideCharToMultiByte(CP_UTF8, 0, wide, len, NULL, 0, NULL, NULL);
    if (n <= 0)
        return dl_strdup("");
    s = dl_xcalloc((size_t)n + 1, 1);
    WideCharToMultiByte(CP_UTF8, 0, wide, len, s, n, NULL, NULL);
    s[n] = '\0';
    return s;
}

char *dl_narrow(const wchar_t *wide)
{
    return wide ? dl_narrow_n(wide, (int)wcslen(wide)) : NULL;
}

char *dl_win_error_text(unsigned long code)
{
    wchar_t *msg = NULL;
    DWORD n = FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM |
                                 FORMAT_MESSAGE_IGNORE_INSERTS,
                             NULL, (DWORD)code, 0, (LPWSTR)&msg, 0, NULL);
    char *text, *out;
    if (!n || !msg)
        return dl_fmt("Windows error %lu", code);
    while (n && (msg[n - 1] == L'\n' || msg[n - 1] == L'\r' || msg[n - 1] == L' ' ||
                 msg[n - 1] == L'.'))
        msg[--n] = 0;
    text = dl_narrow(msg);
    LocalFree(msg);
    out = dl_fmt("%s (error %lu)", text, code);
    free(text);
    return out;
}

void dl_wide_backslashes(wchar_t *path)
{
    for (; path && *path; path++)
        if (*path == L'/')
            *path = L'\\';
}
