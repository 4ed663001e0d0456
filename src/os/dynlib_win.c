/* Dynamic libraries loaded at run time (Windows). A bare name is loaded from System32
 * only: a planted nvml.dll in the current directory or on PATH must never run inside
 * dlenv. A full path may pull its own dependencies from its folder and System32. */
#include "os/os.h"

#include "base/str.h"
#include "os/wide_win.h"

#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <stdlib.h>
#include <string.h>

#ifndef LOAD_LIBRARY_SEARCH_SYSTEM32
#define LOAD_LIBRARY_SEARCH_SYSTEM32 0x00000800
#endif
#ifndef LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR
#define LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR 0x00000100
#endif

struct dl_lib {
    HMODULE module;
};

static bool is_path(const char *name)
{
    return strchr(name, '\\') || strchr(name, '/') || strchr(name, ':');
}

static HMODULE load(const char *name, DWORD *code)
{
    wchar_t *w = dl_wide(name);
    DWORD flags = is_path(name) ? LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_SYSTEM32
                                : LOAD_LIBRARY_SEARCH_SYSTEM32;
    HMODULE h;
    UINT old_mode = SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX);
    if (is_path(name))
        dl_wide_backslashes(w);
    h = LoadLibraryExW(w, NULL, flags);
    *code = h ? 0 : GetLastError();
    SetErrorMode(old_mode);
    free(w);
    return h;
}

/* Drivers before R418 or so put nvml.dll in NVSMI, not System32. */
static char *legacy_location(const char *name)
{
    const char *pf = dl_env_get("ProgramW6432");
    if (_stricmp(name, "nvml.dll") != 0)
        return NULL;
    if (!pf)
        pf = dl_env_get("ProgramFiles");
    return dl_fmt("%s\\NVIDIA Corporation\\NVSMI\\nvml.dll", pf ? pf : "C:\\Program Files");
}

dl_lib *dl_lib_open(const char *name, char **error)
{
    DWORD code;
    HMODULE h = load(name, &code);
    dl_lib *lib;
    if (!h && !is_path(name)) {
        char *legacy = legacy_location(name);
        DWORD legacy_code;
        if (legacy)
            h = load(legacy, &legacy_code);
        free(legacy);
    }
    if (!h) {
        char *why = dl_win_error_text(code);
        *error = dl_fmt("cannot load %s%s: %s", name, is_path(name) ? "" : " from System32", why);
        free(why);
        return NULL;
    }
    lib = dl_xcalloc(1, sizeof *lib);
    lib->module = h;
    return lib;
}

void *dl_lib_sym(dl_lib *lib, const char *symbol)
{
    /* a function pointer returned as void *, which every Windows compiler allows */
    return lib ? (void *)(uintptr_t)GetProcAddress(lib->module, symbol) : NULL;
}

char *dl_lib_path(dl_lib *lib)
{
    wchar_t buf[MAX_PATH * 4];
    DWORD n;
    if (!lib)
        return NULL;
    n = GetModuleFileNameW(lib->module, buf, (DWORD)(sizeof buf / sizeof buf[0]));
    return n && n < sizeof buf / sizeof buf[0] ? dl_narrow(buf) : NULL;
}

void dl_lib_close(dl_lib *lib)
{
    if (!lib)
        return;
    FreeLibrary(lib->module);
    free(lib);
}

const char *dl_lib_name_nvml(void)
{
    return "nvml.dll";
}

const char *dl_lib_name_cuda(void)
{
    return "nvcuda.dll";
}
