/* Will torch's DLLs load? For each torch install on Windows, every DLL in torch\lib is
 * read (its PE import table) and each import is resolved the way the loader resolves it
 * for torch: torch\lib itself (torch adds it with os.add_dll_directory and loads each DLL
 * by full path), a conda env's Library\bin, the interpreter's folder, System32, and then,
 * in torch's LoadLibraryW fallback, the Windows folder and PATH. An import found nowhere is
 * the DLL Python will name in "WinError 126". Every libiomp5md.dll in the folders torch
 * and conda's MKL load from is listed too: two of them is OpenMP's error #15. */
#include "probe/probe.h"

#include "base/str.h"
#include "os/wide_win.h"
#include "probe/windows/pe_image.h"

#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <stdlib.h>
#include <string.h>

static char *parent_of(const char *path)
{
    const char *a = strrchr(path, '\\'), *b = strrchr(path, '/');
    const char *sep = a > b ? a : b;
    return sep ? dl_strndup(path, (size_t)(sep - path)) : dl_strdup(".");
}

static bool is_dir(const dl_machine *m, const char *path)
{
    return dl_fs_kind_of(m, path, NULL) == DL_FS_DIR;
}

static void add_dir(const dl_machine *m, dl_list *dirs, char *owned)
{
    size_t i;
    for (i = 0; i < dirs->count; i++)
        if (_stricmp(DL_LIST_AT(*dirs, char *, i), owned) == 0) {
            free(owned);
            return;
        }
    if (is_dir(m, owned))
        dl_textlist_add(dirs, owned);
    free(owned);
}

static void system_dirs(const dl_machine *m, dl_list *dirs)
{
    wchar_t w[MAX_PATH];
    UINT n = GetSystemDirectoryW(w, MAX_PATH);
    if (n && n < MAX_PATH)
        add_dir(m, dirs, dl_narrow(w));
    n = GetWindowsDirectoryW(w, MAX_PATH);
    if (n && n < MAX_PATH)
        add_dir(m, dirs, dl_narrow(w));
}

static void path_dirs(const dl_machine *m, dl_list *dirs)
{
    const char *path = dl_env_get("PATH");
    while (path && *path) {
        size_t n = strcspn(path, ";");
        if (n)
            add_dir(m, dirs, dl_strndup(path, n));
        path += n;
        if (*path)
            path++;
    }
}

/* The folders, in the loader's order for torch's DLLs. */
static void search_order(const dl_machine *m, const dl_python *py, const char *lib,
                         dl_list *dirs)
{
    dl_list_known(dirs);
    add_dir(m, dirs, dl_strdup(lib));
    if (py->prefix.value)
        add_dir(m, dirs, dl_path_join(py->prefix.value, "Library\\bin"));
    if (py->path.value)
        add_dir(m, dirs, parent_of(py->path.value));
    system_dirs(m, dirs);
    path_dirs(m, dirs);
}

/* API sets are names, not files: the loader maps them inside Windows. */
static bool is_api_set(const char *name)
{
    return _strnicmp(name, "api-ms-", 7) == 0 || _strnicmp(name, "ext-ms-", 7) == 0;
}

static bool found_in(const dl_machine *m, const dl_list *dirs, const char *name)
{
    size_t i;
    for (i = 0; i < dirs->count; i++) {
        char *path = dl_path_join(DL_LIST_AT(*dirs, char *, i), name);
        bool yes = dl_fs_kind_of(m, path, NULL) == DL_FS_FILE;
        free(path);
        if (yes)
            return true;
    }
    return false;
}

static void check_dll(const dl_machine *m, const dl_list *dirs, const char *path,
                      dl_torch_install *t)
{
    dl_pe_info pe;
    char *error = NULL;
    size_t i;
    if (!dl_pe_read(m, path, &pe, &error)) {
        free(error); /* not a readable DLL: the loader will say so itself */
        return;
    }
    for (i = 0; i < pe.import_count; i++) {
        const char *name = pe.imports[i];
        if (is_api_set(name) || found_in(m, dirs, name))
            continue;
        {
            dl_missing_dll *x = dl_list_push(&t->missing_dlls, sizeof *x);
            dl_text_set(&x->name, name);
            dl_text_set(&x->needed_by, path);
        }
    }
    dl_pe_info_free(&pe);
}

/* libiomp5md.dll where torch (torch\lib), conda's MKL (Library\bin) and the interpreter
 * load from: the folders before System32 in the search order. */
static void find_openmp(const dl_machine *m, const dl_python *py, const char *lib,
                        dl_torch_install *t)
{
    char *dirs[3];
    size_t i;
    dirs[0] = dl_strdup(lib);
    dirs[1] = py->prefix.value ? dl_path_join(py->prefix.value, "Library\\bin") : NULL;
    dirs[2] = py->path.value ? parent_of(py->path.value) : NULL;
    dl_list_known(&t->openmp_runtimes);
    for (i = 0; i < 3; i++) {
        char *path = dirs[i] ? dl_path_join(dirs[i], "libiomp5md.dll") : NULL;
        if (path && dl_fs_kind_of(m, path, NULL) == DL_FS_FILE &&
            !dl_textlist_has(&t->openmp_runtimes, path))
            dl_textlist_add(&t->openmp_runtimes, path);
        free(path);
        free(dirs[i]);
    }
}

static void check_install(const dl_machine *m, const dl_python *py, dl_torch_install *t)
{
    char *lib = dl_path_join(t->location.value, "lib");
    char **names = NULL;
    size_t count = 0, i;
    search_order(m, py, lib, &t->dll_search);
    dl_list_known(&t->missing_dlls);
    if (dl_fs_list(m, lib, &names, &count, NULL))
        for (i = 0; i < count; i++) {
            size_t n = strlen(names[i]);
            if (n > 4 && _stricmp(names[i] + n - 4, ".dll") == 0) {
                char *path = dl_path_join(lib, names[i]);
                check_dll(m, &t->dll_search, path, t);
                free(path);
            }
        }
    dl_fs_list_free(names, count);
    find_openmp(m, py, lib, t);
    free(lib);
}

void dl_torch_dlls_windows(const dl_machine *m, dl_python *py)
{
    size_t i, j;
    for (i = 0; i < py->site_packages.count; i++) {
        dl_site_packages *s = &DL_LIST_AT(py->site_packages, dl_site_packages, i);
        for (j = 0; s->torches.known && j < s->torches.count; j++) {
            dl_torch_install *t = &DL_LIST_AT(s->torches, dl_torch_install, j);
            if (t->location.value)
                check_install(m, py, t);
        }
    }
}
