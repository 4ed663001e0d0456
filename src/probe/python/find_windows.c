/* Discovery of the Python interpreters a Windows user might run, from files and the
 * registry alone (no interpreter is started here): `python` on PATH (the Microsoft Store
 * alias included), the active venv or conda env, the `py` launcher's default, every
 * PEP 514 registration (HKCU, HKLM and the 32-bit view), and conda's environments.txt. For
 * each: the kind of install, its version from pyvenv.cfg, conda-meta or pythonXY.dll, its
 * bits from python.exe's PE header, and its site-packages in sys.path order. */
#include "probe/python/find.h"

#include "base/str.h"
#include "probe/windows/pe_image.h"
#include "os/registry.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct finder {
    const dl_machine *m;
    dl_list *pythons;
    dl_windows_facts *win;
    unsigned path_rank;
} finder;

/* Windows names compare case-insensitively (ASCII: what these names hold). */
static bool same_prefix(const char *a, const char *b, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i]) || !a[i])
            return a[i] == b[i];
    return true;
}

static bool same(const char *a, const char *b)
{
    size_t n = strlen(a);
    return n == strlen(b) && same_prefix(a, b, n);
}

static char *parent_of(const char *path)
{
    const char *a = strrchr(path, '\\'), *b = strrchr(path, '/');
    const char *sep = a > b ? a : b;
    return sep ? dl_strndup(path, (size_t)(sep - path)) : dl_strdup(".");
}

static const char *base_name(const char *path)
{
    const char *a = strrchr(path, '\\'), *b = strrchr(path, '/');
    const char *sep = a > b ? a : b;
    return sep ? sep + 1 : path;
}

static bool exists(const finder *f, const char *path, dl_fs_kind kind)
{
    return dl_fs_kind_of(f->m, path, NULL) == kind;
}

static char *read_small(const finder *f, const char *path)
{
    char *data = NULL;
    size_t len = 0;
    if (!dl_fs_read(f->m, path, 1u << 16, &data, &len, NULL, NULL))
        return NULL;
    return data;
}

/* "key = value" of pyvenv.cfg. */
static char *cfg_value(const char *cfg, const char *key)
{
    const char *line = cfg;
    while (line && *line) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        size_t k = strlen(key);
        if (n > k && same_prefix(line, key, k)) {
            const char *v = line + k;
            while (*v == ' ' || *v == '\t')
                v++;
            if (*v == '=') {
                const char *stop = line + n;
                v++;
                while (*v == ' ' || *v == '\t')
                    v++;
                while (stop > v && isspace((unsigned char)stop[-1]))
                    stop--;
                return dl_strndup(v, (size_t)(stop - v));
            }
        }
        line = end ? end + 1 : NULL;
    }
    return NULL;
}

/* The Store alias is a zero-byte reparse point in %LOCALAPPDATA%\Microsoft\WindowsApps;
 * with no Store Python behind it, running it opens the Store instead of Python. */
static bool is_store_alias(const char *path)
{
    return dl_contains_ci(path, "\\Microsoft\\WindowsApps\\");
}

static char *store_python_version(const finder *f, const char *alias)
{
    char *dir = parent_of(alias), *found = NULL;
    char **names = NULL;
    size_t count = 0, i;
    if (dl_fs_list(f->m, dir, &names, &count, NULL))
        for (i = 0; i < count && !found; i++)
            if (dl_starts_with(names[i], "PythonSoftwareFoundation.Python.")) {
                const char *v = names[i] + strlen("PythonSoftwareFoundation.Python.");
                found = dl_strndup(v, strcspn(v, "_"));
            }
    dl_fs_list_free(names, count);
    free(dir);
    return found;
}

/* python311.dll (or python3.dll beside it) next to python.exe names major and minor. */
static char *version_from_dll(const finder *f, const char *dir)
{
    char **names = NULL, *found = NULL;
    size_t count = 0, i;
    if (dl_fs_list(f->m, dir, &names, &count, NULL))
        for (i = 0; i < count && !found; i++) {
            const char *n = names[i];
            size_t len = strlen(n);
            if (same_prefix(n, "python3", 7) && len > 11 && same(n + len - 4, ".dll") &&
                isdigit((unsigned char)n[7]))
                found = dl_fmt("3.%.*s", (int)(len - 11), n + 7);
        }
    dl_fs_list_free(names, count);
    return found;
}

/* conda-meta\python-3.11.9-h4de0772_0_cpython.json */
static char *version_from_conda(const finder *f, const char *prefix)
{
    char *meta = dl_path_join(prefix, "conda-meta"), *found = NULL;
    char **names = NULL;
    size_t count = 0, i;
    if (dl_fs_list(f->m, meta, &names, &count, NULL))
        for (i = 0; i < count && !found; i++)
            if (dl_starts_with(names[i], "python-") && isdigit((unsigned char)names[i][7]))
                found = dl_strndup(names[i] + 7, strcspn(names[i] + 7, "-"));
    dl_fs_list_free(names, count);
    free(meta);
    return found;
}

typedef struct interp {
    char *exe;
    char *prefix;
    char *kind;
    char *version;
    char *base_prefix;   /* a venv's home */
    bool system_site;    /* include-system-site-packages */
} interp;

static void interp_free(interp *it)
{
    free(it->exe);
    free(it->prefix);
    free(it->kind);
    free(it->version);
    free(it->base_prefix);
}

static void identify(const finder *f, const char *exe, interp *it)
{
    char *dir = parent_of(exe), *cfg_path, *cfg;
    memset(it, 0, sizeof *it);
    it->exe = dl_strdup(exe);
    /* a venv's python.exe is in Scripts\, with pyvenv.cfg one level up */
    it->prefix = same(base_name(dir), "Scripts") ? parent_of(dir) : dl_strdup(dir);
    cfg_path = dl_path_join(it->prefix, "pyvenv.cfg");
    cfg = read_small(f, cfg_path);
    if (cfg) {
        char *uv = cfg_value(cfg, "uv"), *sys_site = cfg_value(cfg, "include-system-site-packages");
        it->kind = dl_strdup(uv ? "uv" : "venv");
        it->version = cfg_value(cfg, "version");
        if (!it->version)
            it->version = cfg_value(cfg, "version_info");
        it->base_prefix = cfg_value(cfg, "home");
        it->system_site = sys_site && same(sys_site, "true");
        free(uv);
        free(sys_site);
    } else if (is_store_alias(exe)) {
        it->version = store_python_version(f, exe);
        it->kind = dl_strdup(it->version ? "store" : "store_stub");
    } else {
        char *meta = dl_path_join(it->prefix, "conda-meta");
        bool conda = exists(f, meta, DL_FS_DIR);
        it->kind = dl_strdup(conda ? "conda" : "system");
        it->version = conda ? version_from_conda(f, it->prefix) : NULL;
        if (!it->version)
            it->version = version_from_dll(f, it->prefix);
        free(meta);
    }
    free(cfg);
    free(cfg_path);
    free(dir);
}

static void read_bits(const finder *f, const interp *it, dl_python *py)
{
    dl_pe_info pe;
    char *error = NULL;
    if (!strcmp(it->kind, "store_stub") || !strcmp(it->kind, "store")) {
        dl_int_unknown(&py->bits, "an app execution alias: the real python.exe is in the "
                                  "Store's package folder");
        return;
    }
    if (dl_pe_read(f->m, it->exe, &pe, &error)) {
        dl_int_set(&py->bits, pe.bits);
        dl_pe_info_free(&pe);
    } else {
        dl_int_unknown(&py->bits, "%s", error);
    }
    free(error);
}

static void add_site(dl_python *py, const char *path, const char *scope)
{
    dl_site_packages *s = dl_list_push(&py->site_packages, sizeof *s);
    dl_text_set(&s->path, path);
    dl_text_set(&s->scope, scope);
}

/* sys.path order: PYTHONPATH, the user site (not in a venv), then the prefix's. */
static void read_sites(const finder *f, const interp *it, dl_python *py)
{
    const char *pythonpath = f->m->live ? dl_env_get("PYTHONPATH") : NULL;
    const char *appdata = f->m->live ? dl_env_get("APPDATA") : NULL;
    bool venv = !strcmp(it->kind, "venv") || !strcmp(it->kind, "uv");
    char *site = dl_path_join(it->prefix, "Lib\\site-packages");
    dl_list_known(&py->site_packages);
    while (pythonpath && *pythonpath) {
        size_t n = strcspn(pythonpath, ";");
        if (n) {
            char *entry = dl_strndup(pythonpath, n);
            add_site(py, entry, "path");
            free(entry);
        }
        pythonpath += n;
        if (*pythonpath)
            pythonpath++;
    }
    if (!venv && appdata && it->version && strchr(it->version, '.')) {
        int major = 0, minor = 0;
        if (sscanf(it->version, "%d.%d", &major, &minor) == 2) {
            char *user = dl_fmt("%s\\Python\\Python%d%d\\site-packages", appdata, major, minor);
            add_site(py, user, "user");
            free(user);
        }
    }
    add_site(py, site, "prefix");
    if (venv && it->system_site && it->base_prefix) {
        char *base = dl_path_join(it->base_prefix, "Lib\\site-packages");
        add_site(py, base, "system");
        free(base);
    }
    free(site);
}

static void describe(const finder *f, const interp *it, dl_python *py)
{
    char *pip = dl_path_join(it->prefix, "Scripts\\pip.exe");
    dl_text_set(&py->path, it->exe);
    dl_text_set(&py->real_path, it->exe);
    dl_text_set(&py->kind, it->kind);
    dl_text_set(&py->prefix, it->prefix);
    if (it->version)
        dl_text_set(&py->version, it->version);
    else if (!strcmp(it->kind, "store_stub"))
        dl_text_unknown(&py->version, "the Microsoft Store alias: no Python is installed "
                                      "behind it, running it opens the Store");
    else
        dl_text_unknown(&py->version, "no pyvenv.cfg, conda-meta or pythonXY.dll beside it");
    dl_text_set(&py->implementation,
                dl_contains_ci(base_name(it->exe), "pypy") ? "pypy" : "cpython");
    read_bits(f, it, py);
    if (exists(f, pip, DL_FS_FILE))
        dl_text_set(&py->pip, pip);
    else
        dl_text_unknown(&py->pip, "no Scripts\\pip.exe in %s", it->prefix);
    read_sites(f, it, py);
    free(pip);
}

static void add_found_by(dl_python *py, const char *found_by)
{
    dl_list_known(&py->found_by);
    if (!dl_textlist_has(&py->found_by, found_by))
        dl_textlist_add(&py->found_by, found_by);
}

static void consider(finder *f, const char *exe, const char *found_by)
{
    dl_python *py = NULL;
    interp it;
    size_t i;
    if (!exists(f, exe, DL_FS_FILE))
        return;
    for (i = 0; i < f->pythons->count && !py; i++) {
        dl_python *p = &DL_LIST_AT(*f->pythons, dl_python, i);
        if (p->path.value && same(p->path.value, exe))
            py = p;
    }
    if (!py) {
        identify(f, exe, &it);
        py = dl_list_push(f->pythons, sizeof *py);
        describe(f, &it, py);
        interp_free(&it);
    }
    add_found_by(py, found_by);
}

static void consider_chosen(finder *f, const char *chosen)
{
    dl_python *py;
    if (exists(f, chosen, DL_FS_FILE)) {
        consider(f, chosen, "--python");
        return;
    }
    py = dl_list_push(f->pythons, sizeof *py);
    dl_text_set(&py->path, chosen);
    dl_text_unknown(&py->real_path, "--python %s: no such file", chosen);
    add_found_by(py, "--python");
}

static void consider_path(finder *f)
{
    const char *path = dl_env_get("PATH");
    while (path && *path) {
        size_t n = strcspn(path, ";");
        if (n) {
            char *dir = dl_strndup(path, n), *exe = dl_path_join(dir, "python.exe");
            if (exists(f, exe, DL_FS_FILE)) {
                char *why;
                f->path_rank++;
                why = f->path_rank == 1 ? dl_strdup("python on PATH (1st)")
                                        : dl_fmt("python on PATH (#%u)", f->path_rank);
                consider(f, exe, why);
                free(why);
            }
            free(exe);
            free(dir);
        }
        path += n;
        if (*path)
            path++;
    }
}

/* PEP 514: Software\Python\<Company>\<Tag>\InstallPath, with ExecutablePath or the
 * default value + python.exe. */
static void consider_registry_root(finder *f, const char *root, const char *view)
{
    dl_strv companies = {NULL, 0};
    size_t c, t;
    if (!dl_reg_subkeys(f->m, root, &companies))
        return;
    for (c = 0; c < companies.n; c++) {
        char *ckey = dl_fmt("%s\\%s", root, companies.v[c]);
        dl_strv tags = {NULL, 0};
        if (same(companies.v[c], "PyLauncher") || !dl_reg_subkeys(f->m, ckey, &tags)) {
            free(ckey);
            continue;
        }
        for (t = 0; t < tags.n; t++) {
            char *ikey = dl_fmt("%s\\%s\\InstallPath", ckey, tags.v[t]);
            char *exe = NULL, *dir = NULL;
            if (!dl_reg_text(f->m, ikey, "ExecutablePath", &exe) || !*exe) {
                free(exe);
                exe = dl_reg_text(f->m, ikey, NULL, &dir) && *dir ? dl_path_join(dir, "python.exe") : NULL;
            }
            if (exe) {
                char *entry = dl_fmt("%s %s\\%s = %s", view, companies.v[c], tags.v[t], exe);
                char *why = dl_fmt("registry (PEP 514): %s\\%s", companies.v[c], tags.v[t]);
                dl_list_known(&f->win->python_registry);
                dl_textlist_add(&f->win->python_registry, entry);
                consider(f, exe, why);
                free(why);
                free(entry);
            }
            free(exe);
            free(dir);
            free(ikey);
        }
        dl_strv_free(&tags);
        free(ckey);
    }
    dl_strv_free(&companies);
}

/* `py` with no version runs the newest PythonCore registration (64-bit before 32-bit for
 * one version), unless PY_PYTHON says otherwise: mark that interpreter. */
static void mark_py_default(finder *f)
{
    const char *windir = dl_env_get("SystemRoot"), *local = dl_env_get("LOCALAPPDATA");
    char *py = dl_fmt("%s\\py.exe", windir ? windir : "C:\\Windows");
    char *user_py = dl_fmt("%s\\Programs\\Python\\Launcher\\py.exe", local ? local : "");
    dl_python *best = NULL;
    int best_minor = -1;
    bool best_32 = true;
    size_t i;
    if (exists(f, py, DL_FS_FILE) || (local && exists(f, user_py, DL_FS_FILE)))
        for (i = 0; i < f->pythons->count; i++) {
            dl_python *p = &DL_LIST_AT(*f->pythons, dl_python, i);
            size_t j;
            for (j = 0; p->found_by.known && j < p->found_by.count; j++) {
                const char *by = DL_LIST_AT(p->found_by, char *, j);
                const char *tag = "registry (PEP 514): PythonCore\\3.";
                int minor;
                bool is32;
                if (!dl_starts_with(by, tag) || sscanf(by + strlen(tag), "%d", &minor) != 1)
                    continue;
                is32 = strstr(by, "-32") != NULL;
                if (minor > best_minor || (minor == best_minor && best_32 && !is32)) {
                    best = p;
                    best_minor = minor;
                    best_32 = is32;
                }
            }
        }
    if (best && !dl_env_get("PY_PYTHON"))
        add_found_by(best, "py (the launcher's default)");
    free(py);
    free(user_py);
}

/* conda's own list of environments, and the usual install folders. */
static void consider_conda(finder *f)
{
    const char *home = dl_env_get("USERPROFILE");
    static const char *const installs[] = {"miniconda3", "anaconda3", "miniforge3"};
    char *list, *text;
    size_t i;
    if (!home)
        return;
    list = dl_fmt("%s\\.conda\\environments.txt", home);
    text = read_small(f, list);
    for (char *line = text; line && *line;) {
        char *end = strpbrk(line, "\r\n");
        if (end)
            *end = '\0';
        if (*line) {
            char *exe = dl_path_join(line, "python.exe");
            consider(f, exe, "conda environments.txt");
            free(exe);
        }
        if (!end)
            break;
        line = end + 1;
        while (*line == '\r' || *line == '\n')
            line++;
    }
    for (i = 0; i < sizeof installs / sizeof installs[0]; i++) {
        char *exe = dl_fmt("%s\\%s\\python.exe", home, installs[i]);
        consider(f, exe, "conda base in the user's folder");
        free(exe);
    }
    free(text);
    free(list);
}

void dl_python_discover_windows(const dl_machine *m, const char *chosen, dl_list *pythons,
                                dl_windows_facts *win, dl_probe_outcome *out)
{
    finder f;
    const char *venv = dl_env_get("VIRTUAL_ENV"), *conda = dl_env_get("CONDA_PREFIX");
    memset(&f, 0, sizeof f);
    f.m = m;
    f.pythons = pythons;
    f.win = win;
    dl_list_known(pythons);
    dl_list_known(&win->python_registry);
    if (chosen)
        consider_chosen(&f, chosen);
    if (venv) {
        char *exe = dl_fmt("%s\\Scripts\\python.exe", venv);
        consider(&f, exe, "VIRTUAL_ENV");
        free(exe);
    }
    if (conda) {
        char *exe = dl_path_join(conda, "python.exe");
        consider(&f, exe, "CONDA_PREFIX");
        free(exe);
    }
    consider_path(&f);
    consider_registry_root(&f, "HKCU\\Software\\Python", "HKCU");
    consider_registry_root(&f, "HKLM\\Software\\Python", "HKLM");
    consider_registry_root(&f, "HKLM\\Software\\WOW6432Node\\Python", "HKLM (32-bit)");
    mark_py_default(&f);
    consider_conda(&f);
    if (pythons->count == 0)
        dl_probe_note(out, DL_PROBE_NOT_PRESENT,
                      "no Python found on PATH, in the registry (PEP 514) or in conda's places");
}
