#include "setup/layout.h"

#include "base/shell.h"
#include "base/str.h"

#include <stdlib.h>
#include <string.h>

static bool is_sep(char c, bool windows)
{
    return c == '/' || (windows && c == '\\');
}

char *dl_setup_env_python(const char *dir, bool windows)
{
    return windows ? dl_fmt("%s\\Scripts\\python.exe", dir) : dl_fmt("%s/bin/python", dir);
}

char *dl_setup_conda_python(const char *dir, bool windows)
{
    return windows ? dl_fmt("%s\\python.exe", dir) : dl_fmt("%s/bin/python", dir);
}

void dl_setup_layout_for_conda(dl_setup_layout *l)
{
    free(l->python);
    free(l->staging_python);
    l->python = dl_setup_conda_python(l->target, l->windows);
    l->staging_python = dl_setup_conda_python(l->staging, l->windows);
}

bool dl_setup_layout_make(const char *target, bool windows, long pid, dl_setup_layout *out,
                          char **error)
{
    size_t n = strlen(target), cut;
    const char sep = windows ? '\\' : '/';
    memset(out, 0, sizeof *out);
    while (n > 1 && is_sep(target[n - 1], windows))
        n--; /* "env/" is env */
    for (cut = n; cut > 0 && !is_sep(target[cut - 1], windows); cut--)
        ;
    if (cut == n || cut == 0 || !strncmp(target + cut, "..", n - cut) ||
        (n - cut == 1 && target[cut] == '.')) {
        *error = dl_fmt("%s: not a folder an environment can be made in (give its path, "
                        "e.g. ./torch-env)", target);
        return false;
    }
    out->windows = windows;
    out->target = dl_strndup(target, n);
    out->name = dl_strndup(target + cut, n - cut);
    /* the parent keeps its separator when it is a root: "/" or "C:\" */
    out->parent = dl_strndup(target, cut > 1 && !(windows && cut == 3 && target[1] == ':')
                                         ? cut - 1 : cut);
    out->staging = dl_fmt("%.*s.%s" DL_SETUP_STAGING_MARK "%ld", (int)cut, target, out->name,
                          pid);
    out->previous = dl_fmt("%.*s.%s" DL_SETUP_PREVIOUS_MARK, (int)cut, target, out->name);
    out->python = dl_setup_env_python(out->target, windows);
    out->staging_python = dl_setup_env_python(out->staging, windows);
    out->lock = dl_fmt("%s%c" DL_SETUP_LOCK_NAME, out->target, sep);
    out->snapshot = dl_fmt("%s%c" DL_SETUP_SNAPSHOT_NAME, out->target, sep);
    return true;
}

void dl_setup_layout_free(dl_setup_layout *l)
{
    free(l->target);
    free(l->parent);
    free(l->name);
    free(l->staging);
    free(l->previous);
    free(l->python);
    free(l->staging_python);
    free(l->lock);
    free(l->snapshot);
    memset(l, 0, sizeof *l);
}

long dl_setup_staging_pid(const char *entry, const char *name)
{
    size_t n = strlen(name), m = strlen(DL_SETUP_STAGING_MARK);
    unsigned long long pid;
    if (entry[0] != '.' || strncmp(entry + 1, name, n) ||
        strncmp(entry + 1 + n, DL_SETUP_STAGING_MARK, m))
        return 0;
    if (!dl_parse_u64(entry + 1 + n + m, 10, &pid) || pid == 0 || pid > 0x7fffffffULL)
        return 0;
    return (long)pid;
}

static bool absolute_or_dotted(const char *p)
{
    return p[0] == '\\' || p[0] == '/' || (p[0] && p[1] == ':') ||
           (p[0] == '.' && (p[1] == '\\' || p[1] == '/')) ||
           (p[0] == '.' && p[1] == '.' && (p[2] == '\\' || p[2] == '/'));
}

/* shown\Scripts\FILE with Windows' separators; PowerShell runs a script by a path only when
 * it has a folder part, so a relative one (.venv, env) is given .\ first. */
static char *windows_script(const char *shown, const char *file, bool dotted)
{
    char *path = dl_fmt("%s%s\\Scripts\\%s", dotted && !absolute_or_dotted(shown) ? ".\\" : "",
                        shown, file);
    char *c;
    for (c = path; *c; c++)
        if (*c == '/')
            *c = '\\';
    return path;
}

static char *script_line(dl_shell sh, const char *shown, const char *file)
{
    char *path = windows_script(shown, file, sh == DL_SHELL_POWERSHELL);
    char *line = dl_shell_program(sh, path);
    free(path);
    return line;
}

void dl_setup_activation_make(const char *shown, bool windows, dl_setup_activation *out)
{
    memset(out, 0, sizeof *out);
    if (windows) {
        out->powershell = script_line(DL_SHELL_POWERSHELL, shown, "Activate.ps1");
        out->cmd = script_line(DL_SHELL_CMD, shown, "activate.bat");
    } else {
        char *path = dl_fmt("%s/bin/activate", shown);
        char *q = dl_shell_quote(DL_SHELL_POSIX, path);
        out->sh = dl_fmt(". %s", q);
        free(q);
        free(path);
    }
}

static char *conda_line(dl_shell sh, const char *shown)
{
    char *q = dl_shell_quote(sh, shown), *line = dl_fmt("conda activate %s", q);
    free(q);
    return line;
}

void dl_setup_conda_activation_make(const char *shown, bool windows, dl_setup_activation *out)
{
    memset(out, 0, sizeof *out);
    if (windows) {
        out->powershell = conda_line(DL_SHELL_POWERSHELL, shown);
        out->cmd = conda_line(DL_SHELL_CMD, shown);
    } else {
        out->sh = conda_line(DL_SHELL_POSIX, shown);
    }
}

void dl_setup_activation_free(dl_setup_activation *a)
{
    free(a->sh);
    free(a->powershell);
    free(a->cmd);
    memset(a, 0, sizeof *a);
}

static bool same_name(const char *a, const char *b)
{
    return strlen(a) == strlen(b) && dl_contains_ci(a, b);
}

bool dl_setup_windows_shell(const char *parent, dl_shell *out)
{
    const char *name = parent, *p;
    if (!parent)
        return false;
    for (p = parent; *p; p++)
        if (*p == '\\' || *p == '/')
            name = p + 1;
    if (same_name(name, "powershell.exe") || same_name(name, "pwsh.exe")) {
        *out = DL_SHELL_POWERSHELL;
        return true;
    }
    if (same_name(name, "cmd.exe")) {
        *out = DL_SHELL_CMD;
        return true;
    }
    return false;
}
