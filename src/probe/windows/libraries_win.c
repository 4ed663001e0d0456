/* Which copy of each CUDA, cuDNN, OpenMP and C++ runtime DLL a program would load on
 * Windows, and every other copy it passes over, in the standard search order for
 * LoadLibrary with safe DLL search mode: System32, the Windows directory, then each PATH
 * entry (the program's own folder and the current directory are the program's, not the
 * machine's). Stray copies of cuDNN in System32 or a toolkit's bin/ show up here. */
#include "probe/probe.h"

#include "base/str.h"
#include "os/wide_win.h"

#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <stdlib.h>
#include <string.h>

/* An exact name, or a family (cudnn64_*.dll) whose name carries the major version. */
typedef struct dll_target {
    const char *name;
    bool family;
    const char *shown;
} dll_target;

static const dll_target TARGETS[] = {
    {"nvcuda.dll", false, "nvcuda.dll"},
    {"nvml.dll", false, "nvml.dll"},
    {"cudart64_", true, "cudart64_*.dll"},
    {"cublas64_", true, "cublas64_*.dll"},
    {"cudnn64_", true, "cudnn64_*.dll"},
    {"libiomp5md.dll", false, "libiomp5md.dll"},
    {"msvcp140.dll", false, "msvcp140.dll"},
    {"vcruntime140.dll", false, "vcruntime140.dll"},
    {"vcruntime140_1.dll", false, "vcruntime140_1.dll"},
    {"zlibwapi.dll", false, "zlibwapi.dll"},
};
#define N_TARGETS (sizeof TARGETS / sizeof TARGETS[0])

typedef struct search_dir {
    char *path;
    const char *kind;
} search_dir;

static bool matches(const dll_target *t, const char *file)
{
    size_t n = strlen(file);
    if (!t->family)
        return _stricmp(t->name, file) == 0;
    return _strnicmp(file, t->name, strlen(t->name)) == 0 && n > 4 &&
           _stricmp(file + n - 4, ".dll") == 0;
}

/* cudnn64_9.dll -> 9; exact names have no version in the name. */
static void set_version(dl_library_copy *c, const dll_target *t, const char *file)
{
    if (t->family) {
        size_t start = strlen(t->name), len = strlen(file) - start - 4;
        char *v = dl_strndup(file + start, len);
        dl_text_set(&c->version, v);
        free(v);
    } else {
        dl_text_unknown(&c->version, "the file name carries no version");
    }
}

static void add_copy(dl_library_lookup *l, const dll_target *t, const search_dir *d,
                     const char *file)
{
    char *path = dl_fmt("%s\\%s", d->path, file);
    dl_library_copy *c;
    size_t i;
    for (i = 0; i < l->copies.count; i++)
        if (_stricmp(DL_LIST_AT(l->copies, dl_library_copy, i).path.value, path) == 0) {
            free(path); /* PATH names System32 again: one copy */
            return;
        }
    c = dl_list_push(&l->copies, sizeof *c);
    dl_text_set(&c->path, path);
    dl_text_set(&c->real_path, path);
    set_version(c, t, file);
    dl_text_set(&c->directory_kind, d->kind);
    dl_flag_set(&c->chosen, l->copies.count == 1);
    dl_flag_set(&c->stub, false);
    if (l->copies.count == 1)
        dl_text_set(&l->chosen, path);
    free(path);
}

static void scan_dir(const dl_machine *m, const search_dir *d, dl_library_lookup *lookups)
{
    char **names = NULL;
    size_t count = 0, i, t;
    if (!dl_fs_list(m, d->path, &names, &count, NULL))
        return;
    for (i = 0; i < count; i++)
        for (t = 0; t < N_TARGETS; t++)
            if (matches(&TARGETS[t], names[i]))
                add_copy(&lookups[t], &TARGETS[t], d, names[i]);
    dl_fs_list_free(names, count);
}

static size_t search_dirs(search_dir *dirs, size_t max)
{
    wchar_t w[MAX_PATH];
    const char *path = dl_env_get("PATH");
    size_t n = 0;
    UINT len = GetSystemDirectoryW(w, MAX_PATH);
    if (len && len < MAX_PATH) {
        dirs[n].path = dl_narrow(w);
        dirs[n++].kind = "System32";
    }
    len = GetWindowsDirectoryW(w, MAX_PATH);
    if (len && len < MAX_PATH) {
        dirs[n].path = dl_narrow(w);
        dirs[n++].kind = "Windows directory";
    }
    while (path && *path && n < max) {
        size_t k = strcspn(path, ";");
        if (k) {
            dirs[n].path = dl_strndup(path, k);
            while (strlen(dirs[n].path) > 3 && (dl_ends_with(dirs[n].path, "\\") ||
                                               dl_ends_with(dirs[n].path, "/")))
                dirs[n].path[strlen(dirs[n].path) - 1] = '\0';
            dirs[n++].kind = "PATH";
        }
        path += k;
        if (*path)
            path++;
    }
    return n;
}

void dl_probe_libraries_windows(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out)
{
    const dl_machine *m = ctx->machine;
    search_dir dirs[256];
    dl_library_lookup lookups[N_TARGETS];
    size_t n = search_dirs(dirs, sizeof dirs / sizeof dirs[0]), i;
    (void)out;
    memset(lookups, 0, sizeof lookups);
    for (i = 0; i < N_TARGETS; i++)
        dl_list_known(&lookups[i].copies);
    for (i = 0; i < n; i++)
        scan_dir(m, &dirs[i], lookups);
    dl_list_known(&f->libraries);
    for (i = 0; i < N_TARGETS; i++) {
        dl_library_lookup *l = dl_list_push(&f->libraries, sizeof *l);
        *l = lookups[i];
        dl_text_set(&l->name, TARGETS[i].shown);
        if (!l->chosen.value)
            dl_text_unknown(&l->chosen, "not found in System32, the Windows directory or PATH");
    }
    for (i = 0; i < n; i++)
        free(dirs[i].path);
}
