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

/* Names compare as Windows sorts an environment block: without case, up to the '=' (the
 * "=C:" entries have theirs after a leading '='). */
static int by_name(const void *a, const void *b)
{
    const wchar_t *x = *(wchar_t *const *)a, *y = *(wchar_t *const *)b;
    size_t nx = wcscspn(x + 1, L"=") + 1, ny = wcscspn(y + 1, L"=") + 1;
    int c = _wcsnicmp(x, y, nx < ny ? nx : ny);
    return c ? c : (nx > ny) - (nx < ny);
}

/* "NAME=value\0...\0\0" in UTF-16 for CREATE_UNICODE_ENVIRONMENT, sorted by name as
 * CreateProcessW's documentation asks. */
wchar_t *dl_win_environment_block(const char *const *env)
{
    size_t i, n, total = 0, at = 0;
    wchar_t **parts, *block;
    for (n = 0; env[n]; n++)
        ;
    parts = dl_xcalloc(n + 1, sizeof *parts);
    for (i = 0; i < n; i++) {
        parts[i] = dl_wide(env[i]);
        total += wcslen(parts[i]) + 1;
    }
    qsort(parts, n, sizeof *parts, by_name);
    block = dl_xcalloc(total + 2, sizeof *block);
    for (i = 0; i < n; i++) {
        size_t len = wcslen(parts[i]) + 1;
        memcpy(block + at, parts[i], len * sizeof *block);
        at += len;
        free(parts[i]);
    }
    free(parts);
    return block;
}
