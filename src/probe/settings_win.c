/* Windows settings that decide whether torch loads and runs well: GPU scheduling, long
 * paths, developer mode, the Visual C++ runtime torch's DLLs link against, and the paging
 * file that backs the memory those DLLs commit. */
#include "probe/probe.h"

#include "base/str.h"
#include "os/wide_win.h"
#include "probe/registry_win.h"

#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <stdlib.h>
#include <string.h>

#define GRAPHICS_DRIVERS "HKLM\\SYSTEM\\CurrentControlSet\\Control\\GraphicsDrivers"
#define FILE_SYSTEM "HKLM\\SYSTEM\\CurrentControlSet\\Control\\FileSystem"
#define APP_MODEL_UNLOCK "HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\AppModelUnlock"
#define VC_RUNTIME "HKLM\\SOFTWARE\\Microsoft\\VisualStudio\\14.0\\VC\\Runtimes\\x64"
#define VC_RUNTIME_WOW "HKLM\\SOFTWARE\\WOW6432Node\\Microsoft\\VisualStudio\\14.0\\VC\\Runtimes\\x64"
#define MEMORY_MANAGEMENT \
    "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Memory Management"

/* A DWORD switch: on when it equals `on`; absent means the system default, off. */
static void read_switch(dl_flag *flag, const char *key, const char *value, uint32_t on)
{
    uint32_t v = 0;
    if (dl_reg_dword(key, value, &v))
        dl_flag_set(flag, v == on);
    else
        dl_flag_set(flag, false);
}

/* The redistributable's installer records Installed = 1 and Version = "v14.40.33810.00". */
static void read_vc_runtime(dl_windows_facts *w)
{
    static const char *const keys[] = {VC_RUNTIME, VC_RUNTIME_WOW};
    size_t i;
    for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        uint32_t installed = 0;
        char *version = NULL;
        if (dl_reg_dword(keys[i], "Installed", &installed) && installed == 1 &&
            dl_reg_text(keys[i], "Version", &version) && *version) {
            dl_text_set(&w->vc_runtime_version, version[0] == 'v' ? version + 1 : version);
            free(version);
            return;
        }
        free(version);
    }
    dl_text_unknown(&w->vc_runtime_version,
                    "not installed: the registry has no %s with Installed = 1", VC_RUNTIME);
}

typedef DWORD(WINAPI *version_size_fn)(LPCWSTR, LPDWORD);
typedef BOOL(WINAPI *version_info_fn)(LPCWSTR, DWORD, DWORD, LPVOID);
typedef BOOL(WINAPI *version_query_fn)(LPCVOID, LPCWSTR, LPVOID *, PUINT);

/* A DLL's file version from its version resource: "14.40.33810.0". version.dll is not a
 * KnownDLL, so it is loaded here from System32 (dl_lib_open), never imported: an import
 * would be looked for beside dlenv.exe first. NULL with *why when it cannot be read. */
static char *file_version(const wchar_t *path, char **why)
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
        *why = dl_strdup("System32's msvcp140.dll has no version resource");
    return out;
}

static void read_msvcp140(dl_windows_facts *w)
{
    wchar_t dir[MAX_PATH], path[MAX_PATH + 32];
    UINT n = GetSystemDirectoryW(dir, MAX_PATH);
    char *version, *why = NULL;
    if (!n || n >= MAX_PATH) {
        dl_text_unknown(&w->msvcp140, "GetSystemDirectory failed");
        return;
    }
    _snwprintf(path, sizeof path / sizeof path[0], L"%ls\\msvcp140.dll", dir);
    path[sizeof path / sizeof path[0] - 1] = 0;
    if (GetFileAttributesW(path) == INVALID_FILE_ATTRIBUTES) {
        dl_text_unknown(&w->msvcp140, "System32 has no msvcp140.dll");
        return;
    }
    version = file_version(path, &why);
    if (version)
        dl_text_set(&w->msvcp140, version);
    else
        dl_text_unknown(&w->msvcp140, "%s", why);
    free(version);
    free(why);
}

/* PagingFiles entries: "C:\pagefile.sys 1024 4096" (initial and maximum MB), "... 0 0"
 * (that file system-managed), "?:\pagefile.sys" (all automatic); none: no paging file. */
static void read_pagefile(dl_windows_facts *w)
{
    dl_strv files = {NULL, 0};
    dl_buf text = {0};
    long long max_mb = 0;
    bool managed = false;
    size_t i;
    if (!dl_reg_multi(MEMORY_MANAGEMENT, "PagingFiles", &files)) {
        dl_text_unknown(&w->pagefile, "the registry has no PagingFiles value");
        dl_flag_unknown(&w->pagefile_system_managed, "the registry has no PagingFiles value");
        dl_int_unknown(&w->pagefile_max_bytes, "the registry has no PagingFiles value");
        return;
    }
    for (i = 0; i < files.n; i++) {
        const char *e = files.v[i];
        const char *space = strchr(e, ' ');
        long long initial = 0, maximum = 0;
        if (!*e)
            continue;
        dl_buf_printf(&text, "%s%s", text.len ? "; " : "", e);
        if (e[0] == '?' || !space) {
            managed = true;
            continue;
        }
        if (sscanf(space, "%lld %lld", &initial, &maximum) == 2 && maximum > 0)
            max_mb += maximum;
        else
            managed = true;
    }
    dl_text_set(&w->pagefile, text.len ? text.data : "none (no paging file)");
    dl_flag_set(&w->pagefile_system_managed, managed);
    if (managed)
        dl_int_unknown(&w->pagefile_max_bytes, "system-managed: Windows grows it as needed");
    else
        dl_int_set(&w->pagefile_max_bytes, max_mb * 1024 * 1024);
    dl_buf_free(&text);
    dl_strv_free(&files);
}

void dl_probe_windows_settings(const dl_machine *m, dl_facts *f, dl_probe_outcome *out)
{
    dl_windows_facts *w = &f->os.windows;
    (void)m;
    (void)out;
    read_switch(&w->hags, GRAPHICS_DRIVERS, "HwSchMode", 2);
    read_switch(&w->long_paths, FILE_SYSTEM, "LongPathsEnabled", 1);
    read_switch(&w->developer_mode, APP_MODEL_UNLOCK, "AllowDevelopmentWithoutDevLicense", 1);
    read_vc_runtime(w);
    read_msvcp140(w);
    read_pagefile(w);
}
