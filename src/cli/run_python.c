#include "cli/run_python.h"

#include "base/str.h"
#include "cli/exit_codes.h"
#include "cli/output.h"
#include "os/os.h"
#include "probe/platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_kind(const dl_machine *m, const char *path, dl_fs_kind kind)
{
    return dl_fs_kind_of(m, path, NULL) == kind;
}

/* The directory part of path ("" when it has none). */
static char *dir_of(const char *path)
{
    const char *p, *cut = NULL;
    for (p = path; *p; p++)
        if (*p == '/' || *p == '\\')
            cut = p;
    if (!cut)
        return dl_strdup("");
    return dl_strndup(path, cut == path ? 1 : (size_t)(cut - path));
}

static const char *base_name(const char *path)
{
    const char *p, *name = path;
    for (p = path; *p; p++)
        if ((*p == '/' || *p == '\\') && p[1])
            name = p + 1;
    return name;
}

static dl_env_kind kind_at(const dl_machine *m, const char *prefix)
{
    char *cfg = dl_path_join(prefix, "pyvenv.cfg"), *meta = dl_path_join(prefix, "conda-meta");
    dl_env_kind kind = is_kind(m, cfg, DL_FS_FILE)  ? DL_PY_VENV
                     : is_kind(m, meta, DL_FS_DIR) ? DL_PY_CONDA
                                                   : DL_PY_PLAIN;
    free(cfg);
    free(meta);
    return kind;
}

/* The interpreter's env: its directory (a Windows conda env keeps python.exe in the
 * prefix) or the one above (bin/, Scripts\), whichever is a venv or conda prefix. */
static void fill(const dl_machine *m, const char *interpreter, dl_run_python *py)
{
    char *dir = dir_of(interpreter), *parent = dir_of(dir);
    py->interpreter = dl_strdup(interpreter);
    py->bin_dir = dir;
    if (kind_at(m, dir) != DL_PY_PLAIN) {
        py->prefix = dl_strdup(dir);
        free(parent);
    } else {
        py->prefix = parent;
    }
    py->kind = kind_at(m, py->prefix);
}

/* bin/python3 (POSIX), python.exe (a Windows conda env), Scripts\python.exe (a venv). */
static char *interpreter_in(const dl_machine *m, const char *prefix)
{
    static const char *const names[] = {"bin/python3", "bin/python", "python.exe",
                                        "Scripts/python.exe"};
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        char *p = dl_path_join(prefix, names[i]);
        if (is_kind(m, p, DL_FS_FILE))
            return p;
        free(p);
    }
    return NULL;
}

static void discover(const dl_machine *m, dl_facts *f)
{
    dl_probe_outcome out = {DL_PROBE_OK, NULL};
    dl_probe_find_pythons(m, NULL, f, &out);
    free(out.detail);
}

static bool is_env(const dl_python *py)
{
    const char *kind = py->kind.value;
    return kind && py->prefix.value &&
           (!strcmp(kind, "venv") || !strcmp(kind, "conda") || !strcmp(kind, "uv"));
}

/* The name --env knows an env by: conda calls its root env "base"; every other env is
 * named by its folder. */
static char *env_name_of(const dl_python *py)
{
    char *parent = dir_of(py->prefix.value);
    bool base = !strcmp(py->kind.value, "conda") && strcmp(base_name(parent), "envs") != 0;
    free(parent);
    return dl_strdup(base ? "base" : base_name(py->prefix.value));
}

static bool env_named(const dl_python *py, const char *name)
{
    char *own;
    bool same;
    if (!is_env(py))
        return false;
    own = env_name_of(py);
    same = !strcmp(own, name);
    free(own);
    return same;
}

/* virtualenvwrapper's folder: $WORKON_HOME, else ~/.virtualenvs. */
static void named_venvs(const char *name, dl_strv *prefixes)
{
    const char *home = dl_env_get("HOME") ? dl_env_get("HOME") : dl_env_get("USERPROFILE");
    const char *workon = dl_env_get("WORKON_HOME");
    char *dir = workon && *workon ? dl_strdup(workon) : home ? dl_path_join(home, ".virtualenvs")
                                                            : NULL;
    char *prefix = dir ? dl_path_join(dir, name) : NULL;
    if (prefix)
        dl_strv_add_once(prefixes, prefix);
    free(dir);
    free(prefix);
}

static char *names_found(const dl_facts *f)
{
    dl_strv names = {0};
    dl_buf b = {0};
    size_t i;
    for (i = 0; i < f->pythons.count; i++) {
        const dl_python *py = &DL_LIST_AT(f->pythons, dl_python, i);
        if (is_env(py)) {
            char *name = env_name_of(py);
            dl_strv_add_once(&names, name);
            free(name);
        }
    }
    for (i = 0; i < names.n; i++)
        dl_buf_printf(&b, "%s%s", i ? ", " : "", names.v[i]);
    if (!names.n)
        dl_buf_puts(&b, "none");
    dl_strv_free(&names);
    return dl_buf_take(&b);
}

/* Every prefix the name may mean that holds an interpreter. */
static void candidates(const dl_machine *m, const char *name, dl_facts *f, dl_strv *found)
{
    dl_strv prefixes = {0};
    char *here;
    size_t i;
    discover(m, f);
    for (i = 0; i < f->pythons.count; i++) {
        const dl_python *py = &DL_LIST_AT(f->pythons, dl_python, i);
        if (env_named(py, name))
            dl_strv_add_once(&prefixes, py->prefix.value);
    }
    named_venvs(name, &prefixes);
    here = dl_path_absolute(name); /* ./NAME, ./.venv: an env in the current folder */
    dl_strv_add_once(&prefixes, here);
    free(here);
    for (i = 0; i < prefixes.n; i++) {
        char *interpreter = interpreter_in(m, prefixes.v[i]);
        if (interpreter)
            dl_strv_add_once(found, interpreter);
        free(interpreter);
    }
    dl_strv_free(&prefixes);
}

static int find_env(const dl_machine *m, const char *name, dl_run_python *py)
{
    dl_strv found = {0};
    dl_facts f;
    int code = DL_EXIT_BAD_INPUT;
    dl_facts_init(&f);
    candidates(m, name, &f, &found);
    if (found.n == 1) {
        fill(m, found.v[0], py);
        code = DL_EXIT_OK;
    } else if (found.n == 0) {
        char *names = names_found(&f);
        dl_cli_error("--env %s: no conda env or venv of that name (found: %s); give "
                        "its folder or --python PATH", name, names);
        free(names);
    } else {
        dl_buf b = {0};
        size_t i;
        for (i = 0; i < found.n; i++)
            dl_buf_printf(&b, "%s%s", i ? ", " : "", found.v[i]);
        dl_cli_error("--env %s: several envs have that name (%s); give its folder "
                        "or --python PATH", name, b.data);
        dl_buf_free(&b);
    }
    dl_strv_free(&found);
    dl_facts_free(&f);
    return code;
}

/* --env with a folder: that prefix's own interpreter. */
static int find_prefix(const dl_machine *m, const char *dir, dl_run_python *py)
{
    char *prefix = dl_path_absolute(dir), *interpreter = interpreter_in(m, prefix);
    if (!interpreter)
        dl_cli_error("--env %s: no Python interpreter in that folder", dir);
    else
        fill(m, interpreter, py);
    free(prefix);
    free(interpreter);
    return interpreter ? DL_EXIT_OK : DL_EXIT_BAD_INPUT;
}

static int find_interpreter(const dl_machine *m, const char *path, dl_run_python *py)
{
    char *abs = dl_path_absolute(path);
    int code = DL_EXIT_OK;
    if (!is_kind(m, abs, DL_FS_FILE)) {
        dl_cli_error("--python %s: no such interpreter", path);
        code = DL_EXIT_BAD_INPUT;
    } else {
        fill(m, abs, py);
    }
    free(abs);
    return code;
}

int dl_run_find_python(const dl_cli *cli, dl_run_python *py)
{
    dl_machine m;
    char *error = NULL;
    int code;
    memset(py, 0, sizeof *py);
    if (!cli->python && !cli->env_name)
        return DL_EXIT_OK;
    if (!dl_machine_open(&m, NULL, &error)) {
        dl_cli_error("%s", error);
        free(error);
        return DL_EXIT_TOOL;
    }
    if (cli->python)
        code = find_interpreter(&m, cli->python, py);
    else if (strpbrk(cli->env_name, "/\\"))
        code = find_prefix(&m, cli->env_name, py);
    else
        code = find_env(&m, cli->env_name, py);
    dl_machine_close(&m);
    return code;
}

void dl_run_python_free(dl_run_python *py)
{
    free(py->interpreter);
    free(py->prefix);
    free(py->bin_dir);
    memset(py, 0, sizeof *py);
}
