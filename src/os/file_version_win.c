/* A System32 DLL's file version, from its version resource (VerQueryValueW). */
#include "os/os.h"

#include "base/str.h"
#include "os/wide_win.h"

#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <stdio.h>
#include <stdlib.h>

typedef DWORD(WINAPI *version_size_fn)(LPCWSTR, LPDWORD);
typedef BOOL(WINAPI *version_info_fn)(LPCWSTR, DWORD, DWORD, LPVOID);
typedef BOOL(WINAPI *version_query_fn)(LPCVOID, LPCWSTR, LPVOID *, PUINT);

/* A DLL's file version from its version resource: "14.40.33810.0". version.dll is not a
 * KnownDLL, so it is loaded here from System32 (dl_lib_open), never imported: an import
 * would be looked for beside dlenv.exe first. NULL with *why when it cannot be read. */
static char *file_version(const wchar_t *path, const char *name, char **why)
{
    dl_lib *lib = dl_lib_open("version.dll", why);
    version_size_fn size_of;
    version_info_fn info_of;
    version_query_fn query;
    DWORD ignored = 0, size;
    void *data;
    VS_FIXEDFILEINFO *info = NULL;
    UINT len = 0;
    char *out = NULL;
    if (!lib)
        return NULL;
    size_of = (version_size_fn)dl_lib_sym(lib, "GetFileVersionInfoSizeW");
    info_of = (version_info_fn)dl_lib_sym(lib, "GetFileVersionInfoW");
    query = (version_query_fn)dl_lib_sym(lib, "VerQueryValueW");
    if (!size_of || !info_of || !query) {
        dl_lib_close(lib);
        *why = dl_strdup("System32's version.dll lacks GetFileVersionInfoW or VerQueryValueW");
        return NULL;
    }
    size = size_of(path, &ignored);
    if (size) {
        data = dl_xmalloc(size);
        if (info_of(path, 0, size, data) &&
            query(data, L"\\", (void **)&info, &len) && info && len >= sizeof *info)
            out = dl_fmt("%lu.%lu.%lu.%lu", (unsigned long)HIWORD(info->dwFileVersionMS),
                         (unsigned long)LOWORD(info->dwFileVersionMS),
                         (unsigned long)HIWORD(info->dwFileVersionLS),
                         (unsigned long)LOWORD(info->dwFileVersionLS));
        free(data);
    }
    dl_lib_close(lib);
    if (!out)
        *why = dl_fmt("System32's %s has no version resource", name);
    return out;
}

char *dl_system_dll_version(const char *name, char **why)
{
    wchar_t dir[MAX_PATH], path[MAX_PATH + 64];
    wchar_t *wname;
    UINT n = GetSystemDirectoryW(dir, MAX_PATH);
    char *version;
    if (!n || n >= MAX_PATH) {
        *why = dl_strdup("GetSystemDirectory failed");
        return NULL;
    }
    wname = dl_wide(name);
    _snwprintf(path, sizeof path / sizeof path[0], L"%ls\\%ls", dir, wname);
    path[sizeof path / sizeof path[0] - 1] = 0;
    free(wname);
    if (GetFileAttributesW(path) == INVALID_FILE_ATTRIBUTES) {
        *why = dl_fmt("System32 has no %s", name);
        return NULL;
    }
    version = file_version(path, name, why);
    return version;
}
