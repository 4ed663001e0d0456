/* Every Python interpreter a user might run, and what each one is, read from the files
 * next to it. Nothing is executed: `python -c` on a broken install can hang, crash or
 * print anything, and under --root the interpreter belongs to another machine.
 *
 * An interpreter is identified by its real binary *and* its prefix: a venv's bin/python is
 * a link to the base interpreter, so the two share a real path yet import different
 * site-packages. Two findings with the same identity are one entry with two found_by. */
#include "probe/python/find.h"

#include "base/str.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define CFG_MAX (64 * 1024)     /* pyvenv.cfg, environments.txt, .condarc */
#define SCRIPT_HEAD_MAX 1024    /* enough for a #! line */
#define HEADER_MAX 64           /* the start of an executable: ELF ident */

/* ---- small path and string helpers --------------------------------------------------- */

static char *join(const char *dir, const char *name)
{
    return dl_fmt("%s%s%s", dir, dl_ends_with(dir, "/") ? "" : "/", name);
}

static char *parent_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash || slash == path)
        return dl_strdup("/");
    return dl_strndup(path, (size_t)(slash - path));
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The installation a binary belongs to: the directory above its bin/ (or Scripts/, where
 * Windows puts pip and venv launchers), else the directory it lies in (python.exe sits at
 * the top of a Windows installation). */
static char *prefix_of(const char *exe)
{
    char *dir = parent_of(exe), *top;
    const char *name = base_name(dir);
    if (strcmp(name, "bin") != 0 && strcmp(name, "Scripts") != 0)
        return dir;
    top = parent_of(dir);
    free(dir);
    return top;
}

/* The run of digits and dots a version is made of, starting at p; NULL unless it has at
 * least major.minor. */
static char *version_at(const char *p)
{
    size_t n = strspn(p, "0123456789.");
    char *v;
    while (n && p[n - 1] == '.')
        n--;
    if (!n || !isdigit((unsigned char)p[0]))
        return NULL;
    v = dl_strndup(p, n);
    if (!strchr(v, '.')) {
        free(v);
        return NULL;
    }
    return v;
}

/* "3.11" of "3.11.2": what lib/pythonX.Y and the user site are named after. */
static char *major_minor(const char *version)
{
    const char *dot = strchr(version, '.');
    size_t n = dot ? (size_t)(dot - version) + 1 + strspn(dot + 1, "0123456789") : 0;
    return n ? dl_strndup(version, n) : NULL;
}


/* ---- the search ---------------------------------------------------------------------- */

typedef struct finder {
    const dl_machine *m;
    dl_list *pythons;
    dl_probe_outcome *out;
    dl_strv homes;          /* $HOME live; /root and every /home/NAME under --root */
    dl_strv pyenv_versions; /* real paths of pyenv versions/ directories */
    dl_strv uv_dirs;        /* real paths of uv's managed-Python directories */
    dl_strv pips;           /* live: the first pip, then the first pip3, on PATH */
} finder;

/* What an interpreter is: its binary and the installation whose packages it imports. */
typedef struct interp {
    char *path;          /* as found (a pyenv shim already replaced by its target) */
    char *real;
    char *prefix;
    char *cfg;           /* pyvenv.cfg's text for a venv, else NULL */
    const char *kind;
    char *install_name;  /* pyenv/uv: the directory under versions/ (3.11.7, cpython-...) */
} interp;

static void interp_free(interp *it)
{
    free(it->path);
    free(it->real);
    free(it->prefix);
    free(it->cfg);
    free(it->install_name);
    memset(it, 0, sizeof *it);
}

/* Only a permission error is worth the outcome: a missing file is the ordinary answer. */
static void note_io(finder *f, dl_io_error *err)
{
    if (err->status == DL_IO_NO_PERMISSION)
        dl_probe_note(f->out, DL_PROBE_NO_PERMISSION, err->message);
    dl_io_error_clear(err);
}

static dl_fs_kind kind_of(finder *f, const char *path)
{
    dl_io_error err = {DL_IO_OK, NULL};
    dl_fs_kind k = dl_fs_kind_of(f->m, path, &err);
    note_io(f, &err);
    return k;
}

static bool is_dir(finder *f, const char *path)
{
    return kind_of(f, path) == DL_FS_DIR;
}

/* A whole small file, or NULL when it is not there or cannot be read. */
static char *read_small(finder *f, const char *path, size_t max)
{
    char *data = NULL;
    dl_io_error err = {DL_IO_OK, NULL};
    if (!dl_fs_read(f->m, path, max, &data, NULL, NULL, &err))
        data = NULL;
    note_io(f, &err);
    return data;
}

static const char *live_env(const finder *f, const char *name)
{
    const char *v = f->m->live ? dl_env_get(name) : NULL;
    return v && v[0] ? v : NULL;
}

/* Calls fn for each absolute entry of a PATH-like variable. Relative entries depend on
 * the working directory of whoever runs python, not on the installation: skipped. */
typedef void (*entry_fn)(finder *f, const char *entry, void *ctx);

static void each_entry(finder *f, const char *list, entry_fn fn, void *ctx)
{
    char seps[2] = {'\0', '\0'};
    seps[0] = dl_path_list_separator();
    while (list && *list) {
        size_t n = strcspn(list, seps);
        char *entry = dl_strndup(list, n);
        if (entry[0] == '/')
            fn(f, entry, ctx);
        free(entry);
        list += n;
        if (*list)
            list++;
    }
}

/* The directory under one of dirs that path lies in ("3.11.7" of
 * /root/.pyenv/versions/3.11.7/bin/python3.11), or NULL. */
static char *install_under(const dl_strv *dirs, const char *path)
{
    size_t i;
    for (i = 0; i < dirs->n; i++) {
        size_t len = strlen(dirs->v[i]);
        if (strncmp(path, dirs->v[i], len) == 0 && path[len] == '/') {
            const char *name = path + len + 1;
            return dl_strndup(name, strcspn(name, "/"));
        }
    }
    return NULL;
}

/* ---- pyenv shims --------------------------------------------------------------------- */

/* The version pyenv would pick: PYENV_VERSION (live), else the global version file.
 * A .python-version in the working directory also counts for pyenv, but that depends on
 * where the user stands, not on the machine, so it is not followed. */
static char *pyenv_version(finder *f, const char *root)
{
    const char *env = live_env(f, "PYENV_VERSION");
    char *file, *text, *version = NULL;
    if (env)
        return dl_strndup(env, strcspn(env, ":"));
    file = join(root, "version");
    text = read_small(f, file, 4096);
    if (text) {
        char *line = dl_trim(text);
        line[strcspn(line, " \t\r\n:")] = '\0';
        if (line[0])
            version = dl_strdup(line);
    }
    free(text);
    free(file);
    return version;
}

/* A pyenv shim is a shell script that execs the selected version's program of the same
 * name; the interpreter a user gets is that program. Returns the path to use instead of
 * path (a copy of path when it is no shim), or NULL for a shim that names no installed
 * version ("system" falls through to the next python on PATH, found on its own). */
static char *resolve_shim(finder *f, const char *path)
{
    char *dir = parent_of(path), *root = NULL, *versions = NULL, *version = NULL;
    char *target = NULL;
    if (strcmp(base_name(dir), "shims") == 0) {
        root = parent_of(dir);
        versions = join(root, "versions");
    }
    if (!versions || !is_dir(f, versions)) {
        target = dl_strdup(path);
    } else if ((version = pyenv_version(f, root)) && strcmp(version, "system") != 0) {
        target = dl_fmt("%s/%s/bin/%s", versions, version, base_name(path));
        if (kind_of(f, target) != DL_FS_FILE) {
            free(target);
            target = NULL;
        }
    }
    free(version);
    free(versions);
    free(root);
    free(dir);
    return target;
}

/* ---- identity ------------------------------------------------------------------------ */

static char *venv_cfg(finder *f, const char *prefix)
{
    char *path = join(prefix, "pyvenv.cfg"), *text = read_small(f, path, CFG_MAX);
    free(path);
    return text;
}

static const char *kind_of_install(finder *f, interp *it)
{
    char *meta;
    bool conda;
    if (it->cfg)
        return "venv";
    meta = join(it->prefix, "conda-meta");
    conda = is_dir(f, meta);
    free(meta);
    if (conda)
        return "conda";
    if ((it->install_name = install_under(&f->pyenv_versions, it->real)) != NULL)
        return "pyenv";
    if ((it->install_name = install_under(&f->uv_dirs, it->real)) != NULL)
        return "uv";
    return "system";
}

/* Fills it for the file at path; false when it is not an existing file. A venv is
 * recognised from the path as found (its bin/python links out of the venv), and also from
 * the real path (a venv made with --copies, named by its real file). */
static bool identify(finder *f, const char *path, interp *it, dl_io_error *err)
{
    char *found_prefix;
    memset(it, 0, sizeof *it);
    if (dl_fs_kind_of(f->m, path, err) != DL_FS_FILE)
        return false;
    it->real = dl_fs_realpath(f->m, path, err);
    if (!it->real)
        return false;
    it->path = dl_strdup(path);
    found_prefix = prefix_of(path);
    it->cfg = venv_cfg(f, found_prefix);
    if (it->cfg) {
        it->prefix = found_prefix;
    } else {
        free(found_prefix);
        it->prefix = prefix_of(it->real);
        it->cfg = venv_cfg(f, it->prefix);
    }
    it->kind = kind_of_install(f, it);
    return true;
}

static bool same_identity(const dl_python *py, const interp *it)
{
    return py->real_path.value && py->prefix.value &&
           strcmp(py->real_path.value, it->real) == 0 && strcmp(py->prefix.value, it->prefix) == 0;
}

/* ---- version ------------------------------------------------------------------------- */

/* The value of "key = value" in pyvenv.cfg (keys compare without case, as venv writes and
 * site.py reads them). */
static char *cfg_value(const char *cfg, const char *key)
{
    const char *line = cfg;
    size_t len = strlen(key);
    while (line && *line) {
        const char *p = line, *end = line + strcspn(line, "\n");
        while (*p == ' ' || *p == '\t')
            p++;
        if ((size_t)(end - p) > len && strncmp(p, key, len) == 0) {
            p += len;
            while (*p == ' ' || *p == '\t')
                p++;
            if (*p == '=') {
                char *value = dl_strndup(p + 1, (size_t)(end - p - 1));
                char *trimmed = dl_strdup(dl_trim(value));
                size_t n = strlen(trimmed);
                while (n && isspace((unsigned char)trimmed[n - 1]))
                    trimmed[--n] = '\0';
                free(value);
                return trimmed;
            }
        }
        line = *end ? end + 1 : NULL;
    }
    return NULL;
}

static char *version_from_cfg(const char *cfg)
{
    /* venv writes "version", uv "version_info"; virtualenv's "3.12.4.final.0" is cut at
     * the first non-numeric part */
    static const char *const keys[] = {"version", "version_info", NULL};
    size_t i;
    for (i = 0; keys[i]; i++) {
        char *raw = cfg_value(cfg, keys[i]), *v = raw ? version_at(raw) : NULL;
        free(raw);
        if (v)
            return v;
    }
    return NULL;
}

/* conda records each installed package as conda-meta/NAME-VERSION-BUILD.json, so the
 * python package's file name carries the exact version. */
static char *version_from_conda(finder *f, const char *prefix)
{
    char *dir = join(prefix, "conda-meta"), **names = NULL, *v = NULL;
    size_t count = 0, i;
    dl_io_error err = {DL_IO_OK, NULL};
    if (!dl_fs_list(f->m, dir, &names, &count, &err))
        note_io(f, &err);
    for (i = 0; i < count && !v; i++)
        if (dl_starts_with(names[i], "python-") && dl_ends_with(names[i], ".json"))
            v = version_at(names[i] + strlen("python-"));
    dl_fs_list_free(names, count);
    dl_io_error_clear(&err);
    free(dir);
    return v;
}

/* pyenv names its directories by version (3.11.7, pypy3.10-7.3.12), uv by
 * implementation-version-platform (cpython-3.12.4-linux-x86_64-gnu). */
static char *version_from_install(const char *name)
{
    const char *dash = strchr(name, '-');
    if (isdigit((unsigned char)name[0]))
        return version_at(name);
    if (dash && (dl_starts_with(name, "cpython-") || dl_starts_with(name, "pypy-")))
        return version_at(dash + 1);
    return NULL;
}

/* python3.11, pypy3.10: the binary's own name. */
static char *version_from_name(const char *path)
{
    const char *name = base_name(path);
    if (dl_starts_with(name, "python"))
        return version_at(name + strlen("python"));
    if (dl_starts_with(name, "pypy"))
        return version_at(name + strlen("pypy"));
    return NULL;
}

/* The standard library's directory: lib/python3.11 (or lib/pypy3.10). */
static char *version_from_lib(finder *f, const char *prefix)
{
    char *dir = join(prefix, "lib"), **names = NULL, *v = NULL;
    size_t count = 0, i;
    dl_io_error err = {DL_IO_OK, NULL};
    if (!dl_fs_list(f->m, dir, &names, &count, &err))
        note_io(f, &err);
    for (i = 0; i < count && !v; i++)
        v = version_from_name(names[i]);
    dl_fs_list_free(names, count);
    dl_io_error_clear(&err);
    free(dir);
    return v;
}

static void read_version(finder *f, const interp *it, dl_python *py)
{
    char *v = it->cfg ? version_from_cfg(it->cfg) : NULL;
    char *real_prefix = prefix_of(it->real);
    if (!v && strcmp(it->kind, "conda") == 0)
        v = version_from_conda(f, it->prefix);
    if (!v && it->install_name)
        v = version_from_install(it->install_name);
    if (!v)
        v = version_from_name(it->real);
    if (!v)
        v = version_from_name(it->path);
    if (!v)
        v = version_from_lib(f, real_prefix);
    if (v)
        dl_text_set(&py->version, v);
    else
        dl_text_unknown(&py->version, "neither the name of %s nor %s/lib/python3.* says "
                        "which version it is%s", it->real, real_prefix,
                        it->cfg ? " (and pyvenv.cfg has no version)" : "");
    free(v);
    free(real_prefix);
}

static bool is_pypy(const interp *it)
{
    return dl_starts_with(base_name(it->real), "pypy") ||
           dl_starts_with(base_name(it->path), "pypy") ||
           (it->install_name && dl_starts_with(it->install_name, "pypy"));
}

/* ---- bits ---------------------------------------------------------------------------- */

/* The word size the binary was built for, from its header: an ELF file's EI_CLASS byte.
 * (A Windows PE file keeps it in the optional header's magic; that reader drops in here.) */
static void read_bits(finder *f, const char *real, dl_int *bits)
{
    char *data = NULL;
    size_t len = 0;
    dl_io_error err = {DL_IO_OK, NULL};
    if (!dl_fs_read(f->m, real, HEADER_MAX, &data, &len, NULL, &err)) {
        dl_int_unknown(bits, "%s", err.message ? err.message : "cannot read the binary");
        note_io(f, &err);
        return;
    }
    if (len >= 5 && memcmp(data, "\177ELF", 4) == 0 && (data[4] == 1 || data[4] == 2))
        dl_int_set(bits, data[4] == 1 ? 32 : 64);
    else if (len >= 2 && data[0] == '#' && data[1] == '!')
        dl_int_unknown(bits, "%s is a script, not a binary", real);
    else
        dl_int_unknown(bits, "%s is not an ELF binary with a known class", real);
    free(data);
}

/* ---- site-packages ------------------------------------------------------------------- */

static void add_site(finder *f, dl_python *py, char *owned_path, const char *scope)
{
    size_t i;
    bool listed = false;
    for (i = 0; i < py->site_packages.count && !listed; i++)
        listed = strcmp(DL_LIST_AT(py->site_packages, dl_site_packages, i).path.value,
                        owned_path) == 0;
    if (!listed && is_dir(f, owned_path)) {
        dl_site_packages *s = dl_list_push(&py->site_packages, sizeof *s);
        dl_text_set(&s->path, owned_path);
        dl_text_set(&s->scope, scope);
    }
    free(owned_path);
}

static void add_pythonpath_entry(finder *f, const char *entry, void *ctx)
{
    add_site(f, ctx, dl_strdup(entry), "path");
}

/* An installation's own directories. Debian patches site.py: its python imports from
 * /usr/local/lib/pythonX.Y/dist-packages, /usr/lib/python3/dist-packages and
 * /usr/lib/pythonX.Y/dist-packages, and never from site-packages. */
static void install_sites(finder *f, dl_python *py, const char *prefix, const char *lib,
                          bool may_be_debian)
{
    char *debian = join(prefix, "lib/python3/dist-packages");
    if (may_be_debian && is_dir(f, debian)) {
        add_site(f, py, dl_fmt("%s/local/lib/%s/dist-packages",
                               strcmp(prefix, "/") == 0 ? "" : prefix, lib), "system");
        add_site(f, py, dl_strdup(debian), "system");
        add_site(f, py, dl_fmt("%s/lib/%s/dist-packages", prefix, lib), "system");
    } else {
        add_site(f, py, dl_fmt("%s/lib/%s/site-packages", prefix, lib), "prefix");
    }
    free(debian);
}

static bool cfg_true(const char *cfg, const char *key)
{
    char *v = cfg ? cfg_value(cfg, key) : NULL;
    bool yes = v && (strcmp(v, "true") == 0 || strcmp(v, "True") == 0);
    free(v);
    return yes;
}

/* The installation a venv was made from: pyvenv.cfg's home is its bin directory. */
static char *venv_base(const interp *it)
{
    char *home = cfg_value(it->cfg, "home"), *base;
    if (!home || home[0] != '/') {
        free(home);
        return prefix_of(it->real);
    }
    base = join(home, "python");
    free(home);
    home = prefix_of(base);
    free(base);
    return home;
}

static void base_sites(finder *f, dl_python *py, const interp *it, const char *lib)
{
    char *base = venv_base(it);
    install_sites(f, py, base, lib, true);
    free(base);
}

/* In import order, as site.py builds sys.path: PYTHONPATH, then the user site (which
 * shadows the installation's), then the installation's directories. A venv turns the
 * user site off unless it includes the system site-packages. */
static void read_sites(finder *f, const interp *it, dl_python *py)
{
    bool venv = it->cfg != NULL, system_site = cfg_true(it->cfg, "include-system-site-packages");
    char *xy = py->version.value ? major_minor(py->version.value) : NULL;
    char *lib;
    const char *home = live_env(f, "HOME");
    dl_list_known(&py->site_packages);
    each_entry(f, live_env(f, "PYTHONPATH"), add_pythonpath_entry, py);
    if (!xy)
        return; /* lib/pythonX.Y cannot be named without the version */
    lib = dl_fmt("%s%s", is_pypy(it) ? "pypy" : "python", xy);
    if (home && home[0] == '/' && (!venv || system_site))
        add_site(f, py, dl_fmt("%s/.local/lib/%s/site-packages", home, lib), "user");
    if (venv)
        add_site(f, py, dl_fmt("%s/lib/%s/site-packages", it->prefix, lib), "prefix");
    else
        install_sites(f, py, it->prefix, lib, strcmp(it->kind, "system") == 0);
    if (venv && system_site)
        base_sites(f, py, it, lib);
    free(lib);
    free(xy);
}

/* ---- pip ----------------------------------------------------------------------------- */

static char *which_live(finder *f, const char *name);

/* The interpreter a script's #! line names: an absolute path, or "/usr/bin/env NAME"
 * looked up on PATH. NULL when there is no such line. */
static char *shebang_target(finder *f, const char *script)
{
    char *text = read_small(f, script, SCRIPT_HEAD_MAX), *target = NULL;
    if (text && dl_starts_with(text, "#!")) {
        char *line = text + 2, *p, *prog;
        line[strcspn(line, "\r\n")] = '\0';
        line = dl_trim(line);
        p = line + strcspn(line, " \t");
        prog = dl_strndup(line, (size_t)(p - line));
        if (prog[0] && strcmp(base_name(prog), "env") != 0) {
            target = prog;
            prog = NULL;
        } else if (*p) {
            p = dl_trim(p);
            while (*p == '-') /* env's own options, such as -S */
                p = dl_trim(p + strcspn(p, " \t"));
            p[strcspn(p, " \t")] = '\0';
            target = p[0] == '/' ? dl_strdup(p) : p[0] ? which_live(f, p) : NULL;
        }
        free(prog);
    }
    free(text);
    return target;
}

typedef struct which_ctx {
    const char *name;
    char *found;
} which_ctx;

static void which_entry(finder *f, const char *entry, void *ctx)
{
    which_ctx *w = ctx;
    char *path;
    if (w->found)
        return;
    path = join(entry, w->name);
    if (kind_of(f, path) == DL_FS_FILE)
        w->found = path;
    else
        free(path);
}

/* The first NAME on PATH (live only: PATH describes this machine). */
static char *which_live(finder *f, const char *name)
{
    which_ctx w;
    w.name = name;
    w.found = NULL;
    each_entry(f, live_env(f, "PATH"), which_entry, &w);
    return w.found;
}

static void find_pips(finder *f)
{
    char *pip = which_live(f, "pip"), *pip3 = which_live(f, "pip3");
    if (pip)
        dl_strv_add(&f->pips, pip);
    if (pip3)
        dl_strv_add(&f->pips, pip3);
}

static bool same_dir(finder *f, const char *file, const char *dir)
{
    char *parent = parent_of(file), *a = dl_fs_realpath(f->m, parent, NULL);
    char *b = dl_fs_realpath(f->m, dir, NULL);
    bool same = a && b && strcmp(a, b) == 0;
    free(b);
    free(a);
    free(parent);
    return same;
}

/* Whose pip this is, as an identity; false with *why when its interpreter is unclear. */
static bool pip_owner(finder *f, const char *pip, interp *owner, char **why)
{
    char *script = resolve_shim(f, pip), *target = script ? shebang_target(f, script) : NULL;
    dl_io_error err = {DL_IO_OK, NULL};
    bool ok = target && identify(f, target, owner, &err);
    if (!ok) {
        *why = !script ? dl_fmt("%s is a pyenv shim for no installed version", pip)
               : !target ? dl_fmt("%s has no #! line naming its interpreter", pip)
                         : dl_fmt("%s runs %s, which does not exist", pip, target);
        interp_free(owner);
    }
    dl_io_error_clear(&err);
    free(target);
    free(script);
    return ok;
}

static bool pip_belongs(finder *f, const char *pip, const interp *it, char **why)
{
    interp owner;
    char *bin = parent_of(it->path), *script = resolve_shim(f, pip);
    bool yes = script && same_dir(f, script, bin);
    free(script);
    if (!yes && pip_owner(f, pip, &owner, why)) {
        yes = strcmp(owner.real, it->real) == 0 && strcmp(owner.prefix, it->prefix) == 0;
        if (!yes)
            *why = owner.cfg ? dl_fmt("pip on PATH, %s, runs %s (venv %s)", pip, owner.real,
                                      owner.prefix)
                             : dl_fmt("pip on PATH, %s, runs %s", pip, owner.real);
        interp_free(&owner);
    }
    free(bin);
    return yes;
}

/* The pip a user gets by typing pip (or pip3) installs into this interpreter only when
 * its #! line runs it; another interpreter's pip first on PATH is the classic cause of
 * "installed, but import fails". */
static void read_pip(finder *f, const interp *it, dl_python *py)
{
    char *first_why = NULL;
    size_t i;
    if (!f->m->live) {
        dl_text_unknown(&py->pip, "PATH describes the machine dlenv runs on, not the --root "
                        "tree");
        return;
    }
    for (i = 0; i < f->pips.n; i++) {
        char *why = NULL;
        if (pip_belongs(f, f->pips.v[i], it, &why)) {
            dl_text_set(&py->pip, f->pips.v[i]);
            free(why);
            free(first_why);
            return;
        }
        if (!first_why)
            first_why = why;
        else
            free(why);
    }
    if (first_why)
        dl_text_unknown(&py->pip, "no pip on PATH belongs to this interpreter (%s)", first_why);
    else
        dl_text_unknown(&py->pip, "no pip or pip3 on PATH");
    free(first_why);
}

/* ---- recording ----------------------------------------------------------------------- */

/* as_found: the path the user would type; for a pyenv shim that is the shim, while it
 * describes the program the shim runs. */
static void describe(finder *f, const char *as_found, const interp *it, dl_python *py)
{
    dl_text_set(&py->path, as_found);
    dl_text_set(&py->real_path, it->real);
    dl_text_set(&py->kind, it->kind);
    dl_text_set(&py->prefix, it->prefix);
    read_version(f, it, py);
    dl_text_set(&py->implementation, is_pypy(it) ? "pypy" : "cpython");
    read_bits(f, it->real, &py->bits);
    read_sites(f, it, py);
    read_pip(f, it, py);
}

static dl_python *find_entry(finder *f, const interp *it)
{
    size_t i;
    for (i = 0; i < f->pythons->count; i++) {
        dl_python *py = &DL_LIST_AT(*f->pythons, dl_python, i);
        if (same_identity(py, it))
            return py;
    }
    return NULL;
}

static void add_found_by(dl_python *py, const char *found_by)
{
    dl_list_known(&py->found_by);
    if (!dl_textlist_has(&py->found_by, found_by))
        dl_textlist_add(&py->found_by, found_by);
}

/* An interpreter named with --python that is not there still gets an entry: the user
 * asked about it, and the reason is the answer. */
static void record_missing(finder *f, const char *path, const char *found_by,
                           const dl_io_error *err)
{
    dl_python *py = dl_list_push(f->pythons, sizeof *py);
    dl_text_set(&py->path, path);
    dl_text_unknown(&py->real_path, "%s", err->message ? err->message : "not a file");
    add_found_by(py, found_by);
}

static void consider(finder *f, const char *path, const char *found_by)
{
    char *exe = resolve_shim(f, path);
    interp it;
    dl_io_error err = {DL_IO_OK, NULL};
    dl_python *py;
    if (!exe || !identify(f, exe, &it, &err)) {
        if (strcmp(found_by, "--python") == 0)
            record_missing(f, path, found_by, &err);
        note_io(f, &err);
        free(exe);
        return;
    }
    py = find_entry(f, &it);
    if (!py) {
        py = dl_list_push(f->pythons, sizeof *py);
        describe(f, path, &it, py);
    }
    add_found_by(py, found_by);
    interp_free(&it);
    free(exe);
}

static void consider_in(finder *f, const char *dir, const char *name, const char *found_by)
{
    char *path = join(dir, name);
    consider(f, path, found_by);
    free(path);
}

/* ---- sources ------------------------------------------------------------------------- */

static const char *ordinal_suffix(unsigned n)
{
    if (n % 100 >= 11 && n % 100 <= 13)
        return "th";
    return n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
}

typedef struct path_ranks {
    unsigned python3, python;
} path_ranks;

static void consider_path_name(finder *f, const char *entry, const char *name, unsigned *rank)
{
    char *path = join(entry, name), *found_by;
    if (kind_of(f, path) == DL_FS_FILE) {
        ++*rank;
        found_by = dl_fmt("%s on PATH (%u%s)", name, *rank, ordinal_suffix(*rank));
        consider(f, path, found_by);
        free(found_by);
    }
    free(path);
}

static void consider_path_entry(finder *f, const char *entry, void *ctx)
{
    path_ranks *r = ctx;
    consider_path_name(f, entry, "python3", &r->python3);
    consider_path_name(f, entry, "python", &r->python);
}

/* What the root would have on PATH: /usr/bin/python3 and python3.X, /usr/local/bin's. */
static void consider_usual_bin(finder *f, const char *dir)
{
    char **names = NULL, *found_by = dl_fmt("%s/python3*", dir);
    size_t count = 0, i;
    if (dl_fs_list(f->m, dir, &names, &count, NULL)) {
        for (i = 0; i < count; i++) {
            const char *rest = names[i] + strlen("python3");
            if (dl_starts_with(names[i], "python3") &&
                (!*rest || (*rest == '.' && rest[1] && !rest[1 + strspn(rest + 1, "0123456789")])))
                consider_in(f, dir, names[i], found_by);
        }
        dl_fs_list_free(names, count);
    }
    free(found_by);
}

static void consider_env_prefix(finder *f, const char *var)
{
    const char *prefix = live_env(f, var);
    if (prefix && prefix[0] == '/')
        consider_in(f, prefix, "bin/python", var);
}

/* Each line of ~/.conda/environments.txt is an environment conda has created. */
static void consider_environments_txt(finder *f, const char *home)
{
    char *path = join(home, ".conda/environments.txt"), *text = read_small(f, path, CFG_MAX);
    char *line = text;
    while (line && *line) {
        char *next = line + strcspn(line, "\r\n");
        char *entry;
        if (*next)
            *next++ = '\0';
        entry = dl_trim(line);
        if (entry[0] == '/')
            consider_in(f, entry, "bin/python", "conda env (from ~/.conda/environments.txt)");
        line = next;
    }
    free(text);
    free(path);
}

static void consider_env_dir(finder *f, const char *dir, const char *found_by)
{
    char **names = NULL;
    size_t count = 0, i;
    if (!dl_fs_list(f->m, dir, &names, &count, NULL))
        return;
    for (i = 0; i < count; i++) {
        char *env = join(dir, names[i]);
        consider_in(f, env, "bin/python", found_by);
        free(env);
    }
    dl_fs_list_free(names, count);
}

/* The dirs of .condarc's "envs_dirs:" block list (a plain YAML list; flow style and other
 * YAML forms are not read). */
static void consider_condarc(finder *f, const char *home)
{
    char *path = join(home, ".condarc"), *text = read_small(f, path, CFG_MAX), *line = text;
    bool in_list = false;
    while (line && *line) {
        char *next = line + strcspn(line, "\r\n"), *item;
        if (*next)
            *next++ = '\0';
        item = dl_trim(line);
        if (line[0] != ' ' && line[0] != '\t' && line[0] != '-' && item[0])
            in_list = dl_starts_with(item, "envs_dirs:");
        else if (in_list && item[0] == '-') {
            item = dl_trim(item + 1);
            if (item[0] == '~' && item[1] == '/') {
                char *expanded = join(home, item + 2);
                consider_env_dir(f, expanded, "conda env (envs_dirs of ~/.condarc)");
                free(expanded);
            } else if (item[0] == '/') {
                consider_env_dir(f, item, "conda env (envs_dirs of ~/.condarc)");
            }
        }
        line = next;
    }
    free(text);
    free(path);
}

/* A conda base installation: its own python, then every environment under envs/. */
static void consider_conda_base(finder *f, const char *base)
{
    char *envs = join(base, "envs");
    consider_in(f, base, "bin/python", "conda base");
    consider_env_dir(f, envs, "conda env (<base>/envs)");
    free(envs);
}

/* conda's base: CONDA_PREFIX's (an env lives in <base>/envs/NAME), CONDA_EXE's
 * (<base>/bin/conda), then the usual install places. */
static void consider_conda_bases(finder *f)
{
    static const char *const in_home[] = {"miniconda3", "anaconda3", "miniforge3", NULL};
    const char *prefix = live_env(f, "CONDA_PREFIX"), *exe = live_env(f, "CONDA_EXE");
    size_t i, j;
    if (prefix && prefix[0] == '/') {
        char *parent = parent_of(prefix);
        char *base = strcmp(base_name(parent), "envs") == 0 ? parent_of(parent) : dl_strdup(prefix);
        consider_conda_base(f, base);
        free(base);
        free(parent);
    }
    if (exe && exe[0] == '/') {
        char *base = prefix_of(exe);
        consider_conda_base(f, base);
        free(base);
    }
    for (i = 0; i < f->homes.n; i++)
        for (j = 0; in_home[j]; j++) {
            char *base = join(f->homes.v[i], in_home[j]);
            consider_conda_base(f, base);
            free(base);
        }
    consider_conda_base(f, "/opt/conda");
}

static void consider_installs(finder *f, const dl_strv *dirs, const char *exe, const char *found_by)
{
    size_t i;
    for (i = 0; i < dirs->n; i++) {
        char **names = NULL;
        size_t count = 0, j;
        if (!dl_fs_list(f->m, dirs->v[i], &names, &count, NULL))
            continue;
        for (j = 0; j < count; j++) {
            char *dir = join(dirs->v[i], names[j]);
            consider_in(f, dir, exe, found_by);
            free(dir);
        }
        dl_fs_list_free(names, count);
    }
}

/* ---- setup --------------------------------------------------------------------------- */

static void add_real_dir(finder *f, dl_strv *s, const char *dir)
{
    char *real = dl_fs_realpath(f->m, dir, NULL);
    size_t i;
    for (i = 0; real && i < s->n; i++)
        if (strcmp(s->v[i], real) == 0) {
            free(real);
            return;
        }
    if (real && is_dir(f, real))
        dl_strv_add(s, real);
    else
        free(real);
}

/* Live: $HOME. Under --root the environment is this machine's, so every home the root
 * has is looked in instead. */
static void find_homes(finder *f)
{
    const char *home = live_env(f, "HOME");
    char **names = NULL;
    size_t count = 0, i;
    if (f->m->live) {
        if (home && home[0] == '/')
            dl_strv_add(&f->homes, dl_strdup(home));
        return;
    }
    dl_strv_add(&f->homes, dl_strdup("/root"));
    if (dl_fs_list(f->m, "/home", &names, &count, NULL)) {
        for (i = 0; i < count; i++)
            dl_strv_add(&f->homes, join("/home", names[i]));
        dl_fs_list_free(names, count);
    }
}

static void find_install_dirs(finder *f)
{
    const char *pyenv_root = live_env(f, "PYENV_ROOT");
    size_t i;
    if (pyenv_root && pyenv_root[0] == '/') {
        char *versions = join(pyenv_root, "versions");
        add_real_dir(f, &f->pyenv_versions, versions);
        free(versions);
    }
    for (i = 0; i < f->homes.n; i++) {
        char *versions = join(f->homes.v[i], ".pyenv/versions");
        char *uv = join(f->homes.v[i], ".local/share/uv/python");
        add_real_dir(f, &f->pyenv_versions, versions);
        add_real_dir(f, &f->uv_dirs, uv);
        free(uv);
        free(versions);
    }
}

static void finder_free(finder *f)
{
    dl_strv_free(&f->homes);
    dl_strv_free(&f->pyenv_versions);
    dl_strv_free(&f->uv_dirs);
    dl_strv_free(&f->pips);
}

static void consider_all(finder *f, const char *chosen)
{
    size_t i;
    if (chosen)
        consider(f, chosen, "--python");
    if (f->m->live) {
        path_ranks ranks = {0, 0};
        each_entry(f, live_env(f, "PATH"), consider_path_entry, &ranks);
    } else {
        consider_usual_bin(f, "/usr/bin");
        consider_usual_bin(f, "/usr/local/bin");
    }
    consider_env_prefix(f, "VIRTUAL_ENV");
    consider_env_prefix(f, "CONDA_PREFIX");
    for (i = 0; i < f->homes.n; i++) {
        consider_environments_txt(f, f->homes.v[i]);
        consider_condarc(f, f->homes.v[i]);
    }
    consider_conda_bases(f);
    consider_installs(f, &f->pyenv_versions, "bin/python", "pyenv");
    consider_installs(f, &f->uv_dirs, "bin/python3", "uv");
}

/* A tree under --root with none of these is no system (an empty folder, a data disk):
 * "no interpreter" would be a guess. */
static bool has_usual_places(finder *f)
{
    static const char *const places[] = {"/usr/bin", "/usr/local/bin", "/bin", "/opt", "/home",
                                         "/root"};
    size_t i;
    for (i = 0; i < sizeof places / sizeof places[0]; i++)
        if (is_dir(f, places[i]))
            return true;
    return false;
}

void dl_python_discover(const dl_machine *m, const char *chosen, dl_list *pythons,
                        dl_probe_outcome *out)
{
    finder f;
    memset(&f, 0, sizeof f);
    f.m = m;
    f.pythons = pythons;
    f.out = out;
    if (!m->live && !has_usual_places(&f)) {
        dl_list_unknown(pythons, "the tree has no /usr/bin, /usr/local/bin, /bin, /opt or home "
                                 "folder to look in");
        dl_probe_note(out, DL_PROBE_NOT_PRESENT, "no place to look for interpreters");
        return;
    }
    dl_list_known(pythons);
    find_homes(&f);
    find_install_dirs(&f);
    find_pips(&f);
    consider_all(&f, chosen);
    if (pythons->count == 0)
        dl_probe_note(out, DL_PROBE_NOT_PRESENT,
                      "no Python interpreter found on PATH or in the usual places");
    finder_free(&f);
}

/* What typing `pip` runs: the first pip on PATH (else pip3) and the interpreter its #!
 * line starts. Live only: PATH describes this machine, not a --root tree. */
void dl_pip_on_path(const dl_machine *m, dl_pip_command *pip)
{
    finder f;
    interp owner;
    dl_probe_outcome ignored = {DL_PROBE_OK, NULL};
    char *why = NULL;
    memset(&f, 0, sizeof f);
    f.m = m;
    f.out = &ignored;
    if (!m->live) {
        dl_text_unknown(&pip->path, "PATH describes the machine dlenv runs on, not the --root "
                                    "tree");
        return;
    }
    find_pips(&f);
    if (!f.pips.n) {
        dl_text_unknown(&pip->path, "no pip or pip3 on PATH");
    } else {
        dl_text_set(&pip->path, f.pips.v[0]);
        if (pip_owner(&f, f.pips.v[0], &owner, &why)) {
            dl_text_set(&pip->python, owner.real);
            dl_text_set(&pip->prefix, owner.prefix);
            interp_free(&owner);
        } else {
            dl_text_unknown(&pip->python, "%s", why);
            free(why);
        }
    }
    free(ignored.detail);
    finder_free(&f);
}
