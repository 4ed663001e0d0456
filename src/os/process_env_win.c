/* This process: environment, clock, terminal (Windows). */
#include "os/os.h"

#include "base/str.h"
#include "os/wide_win.h"

#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <io.h>
#include <shellapi.h>
#include <stdlib.h>
#include <string.h>

/* The environment as UTF-8, read once: getenv would give the ANSI code page's version of
 * a non-ASCII value. dlenv never changes its own environment, so one copy stays true. */
typedef struct env_entry {
    char *name;
    char *value;
} env_entry;

static env_entry *env_entries;
static size_t env_count;
static bool env_loaded;

static void load_environment(void)
{
    wchar_t *block = GetEnvironmentStringsW(), *p;
    size_t cap = 0;
    env_loaded = true;
    if (!block)
        return;
    for (p = block; *p; p += wcslen(p) + 1) {
        /* "=C:=C:\dir" entries (per-drive directories) start with '=' */
        wchar_t *eq = wcschr(p + 1, L'=');
        if (!eq)
            continue;
        if (env_count == cap) {
            cap = cap ? cap * 2 : 64;
            env_entries = dl_xrealloc(env_entries, cap * sizeof *env_entries);
        }
        env_entries[env_count].name = dl_narrow_n(p, (int)(eq - p));
        env_entries[env_count].value = dl_narrow(eq + 1);
        env_count++;
    }
    FreeEnvironmentStringsW(block);
}

/* Names are case-insensitive on Windows: Path and PATH are one variable. */
const char *dl_env_get(const char *name)
{
    size_t i;
    if (!env_loaded)
        load_environment();
    for (i = 0; i < env_count; i++)
        if (_stricmp(env_entries[i].name, name) == 0)
            return env_entries[i].value;
    return NULL;
}

double dl_clock_ms(void)
{
    static LARGE_INTEGER freq;
    LARGE_INTEGER now;
    if (!freq.QuadPart)
        QueryPerformanceFrequency(&freq);
    QueryPerformanceCounter(&now);
    return (double)now.QuadPart * 1000.0 / (double)freq.QuadPart;
}

bool dl_term_is_tty(int fd)
{
    return _isatty(fd) != 0;
}

/* The console shows UTF-8 when its output code page is 65001; main sets it when it can. */
bool dl_term_utf8(void)
{
    return GetConsoleOutputCP() == CP_UTF8;
}

char dl_path_list_separator(void)
{
    return ';';
}

void dl_process_harden(void)
{
    /* dlenv.exe imports KnownDLLs only (CMakeLists.txt), so this comes before any DLL is
     * looked for; what loads later (version.dll, dxgi.dll, nvml.dll) is System32's. */
    SetDefaultDllDirectories(LOAD_LIBRARY_SEARCH_SYSTEM32);
}

char **dl_process_args(int argc, char **argv)
{
    int n = 0, i;
    wchar_t **wide = CommandLineToArgvW(GetCommandLineW(), &n);
    char **out;
    if (GetConsoleOutputCP() != CP_UTF8)
        SetConsoleOutputCP(CP_UTF8);
    if (!wide || n != argc)
        return argv;
    out = dl_xcalloc((size_t)n + 1, sizeof *out);
    for (i = 0; i < n; i++)
        out[i] = dl_narrow(wide[i]);
    LocalFree(wide);
    return out;
}

FILE *dl_fopen(const char *path, const char *mode)
{
    wchar_t *wp = dl_wide(path), *wm = dl_wide(mode);
    FILE *f = _wfopen(wp, wm);
    free(wp);
    free(wm);
    return f;
}
