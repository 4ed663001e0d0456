#include "explain/stdlib_shadow.h"

#include "base/str.h"
#include "explain/text_cause.h"

#include <stdio.h>
#include <string.h>

/* Standard modules that `import torch` (or the stdlib modules it pulls in: inspect, tempfile,
 * typing, multiprocessing) imports, which a script's own file is commonly named after. */
static const char *const stdlib_names[] = {
    "dis",      "inspect",  "random",  "select",    "typing",   "numbers",   "types",
    "copy",     "enum",     "abc",     "string",    "tokenize", "token",     "queue",
    "signal",   "logging",  "json",    "functools", "operator", "tempfile",  "warnings",
    "weakref",  "traceback", "textwrap", "pickle",  "copyreg",  "contextlib", "dataclasses",
    "ast",      "platform", "subprocess", "threading", "glob",  "fnmatch",   "shutil",
    "uuid",     "hashlib",  "datetime", "decimal",  "fractions", "statistics", "heapq",
    "bisect",   "keyword",  "linecache", "locale", "gettext",  "argparse",  "code",
    "struct",   "ctypes",   "socket",  "ssl",       "secrets",  "zipfile",   "csv"};

/* A traceback frame's file at line `low`: the path between `file "` and `"`, its base name
 * without ".py" copied to `name`. */
static bool frame_file(const char *low, const char **path, size_t *path_len, char *name,
                       size_t n)
{
    const char *at = strstr(low, "file \""), *end, *base;
    if (!at)
        return false;
    at += 6;
    end = strchr(at, '"');
    if (!end || end - at < 4 || strncmp(end - 3, ".py", 3) != 0)
        return false;
    for (base = end - 3; base > at && base[-1] != '/' && base[-1] != '\\'; base--)
        ;
    if ((size_t)(end - 3 - base) >= n)
        return false;
    memcpy(name, base, (size_t)(end - 3 - base));
    name[end - 3 - base] = '\0';
    *path = at;
    *path_len = (size_t)(end - at);
    return true;
}

/* The path is Python's own library or an installed package's, not the user's folder. */
static bool installed_path(const char *path, size_t n)
{
    static const char *const marks[] = {"site-packages", "dist-packages", "/lib/python",
                                        "\\lib\\", "/lib64/python", "<frozen", "/usr/lib/",
                                        "\\python3", "/python3."};
    char buf[512];
    size_t k;
    if (n >= sizeof buf)
        n = sizeof buf - 1;
    memcpy(buf, path, n);
    buf[n] = '\0';
    for (k = 0; k < sizeof marks / sizeof marks[0]; k++)
        if (strstr(buf, marks[k]))
            return true;
    /* a path the writer trimmed to the Python's own folder ("lib\subprocess.py") */
    return !strncmp(buf, "lib\\", 4) || !strncmp(buf, "lib/", 4);
}

static bool stdlib_name(const char *name)
{
    size_t k;
    for (k = 0; k < sizeof stdlib_names / sizeof stdlib_names[0]; k++)
        if (!strcmp(name, stdlib_names[k]))
            return true;
    return false;
}

/* The first frame of a user's file named like a standard module, after a frame of torch's
 * own files (the import chain ran through torch to reach it); -1 when none. */
static long own_stdlib_named_frame(const dl_paste *p, char *name, size_t n)
{
    bool torch_seen = false;
    long i;
    for (i = dl_paste_find(p, 0, "file \""); i >= 0; i = dl_paste_find(p, (size_t)i + 1, "file \"")) {
        const char *low = p->lines[i].lower, *path;
        size_t len;
        if (!frame_file(low, &path, &len, name, n))
            continue;
        if (installed_path(path, len)) {
            torch_seen = torch_seen || strstr(low, "/torch/") || strstr(low, "\\torch\\");
            continue;
        }
        if (torch_seen && stdlib_name(name))
            return i;
    }
    return -1;
}

/* The script itself is named like the module a standard one could not find its names in:
 * "module 'dis' has no attribute 'COMPILER_FLAG_NAMES'" with a frame in the user's own
 * dis.py (the script run, imported again as dis by inspect). */
static long own_file_missing_names_frame(const dl_paste *p, char *name, size_t n)
{
    long i;
    for (i = dl_paste_find(p, 0, "file \""); i >= 0; i = dl_paste_find(p, (size_t)i + 1, "file \"")) {
        const char *low = p->lines[i].lower, *path;
        char said[64];
        size_t len;
        if (!frame_file(low, &path, &len, name, n) || installed_path(path, len) ||
            !stdlib_name(name))
            continue;
        snprintf(said, sizeof said, "module '%s' has no attribute", name);
        if (dl_paste_find(p, 0, said) >= 0)
            return i;
    }
    return -1;
}

void dl_explain_own_file_hides_stdlib(dl_explanation *e)
{
    static const char *const broken[] = {"torch_not_pytorch", "torch_import_failed"};
    char title[256], fix[256];
    dl_text_cause cause = {"torch_shadowed", NULL, NULL, {NULL}, NULL};
    char name[32];
    long line = own_stdlib_named_frame(&e->paste, name, sizeof name);
    if (line < 0 && (line = own_file_missing_names_frame(&e->paste, name, sizeof name)) < 0)
        return;
    snprintf(title, sizeof title,
             "A file of the user's named %s.py hides the standard module %s, which torch "
             "imports while it starts", name, name);
    snprintf(fix, sizeof fix,
             "# rename %s.py (the file in the traceback's own folder) and delete its .pyc and "
             "__pycache__ beside it, then run again", name);
    cause.title = title;
    cause.fix = fix;
    dl_text_causes_step_back(e, broken, sizeof broken / sizeof broken[0]);
    dl_text_cause_add(e, &cause, line, -1);
}
