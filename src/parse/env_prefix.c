#include "parse/env_prefix.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* A character that can stand in a path the writer pasted (not its quotes or brackets). */
static bool path_char(char c)
{
    return c && !isspace((unsigned char)c) && !strchr("\"'`()[]<>,;=", c);
}

/* Where the path holding `at` starts: after the double quote it stands inside, else at its
 * drive (a Windows user folder may hold a space: C:\Users\Ana Lee\anaconda3),
 * else at the first character that can be a path's. */
static size_t path_start(const char *low, const char *at)
{
    size_t start = (size_t)(at - low), i, quotes = 0;
    for (i = 0; i < start; i++)
        quotes += low[i] == '"';
    for (i = start; i >= 2; i--) {
        if (low[i - 1] == '"' && quotes % 2)
            return i; /* inside a quoted path: it runs from the quote, spaces and all */
        if (low[i - 1] == '\\' && low[i - 2] == ':' && i >= 3 &&
            isalpha((unsigned char)low[i - 3]) &&
            (i == 3 || !isalnum((unsigned char)low[i - 4])))
            return i - 3;
    }
    while (start > 0 && path_char(low[start - 1]))
        start--;
    return start;
}

/* The folder that holds "envs" names a conda install. */
static bool conda_install(const char *low, size_t len)
{
    static const char *const installs[] = {"conda", "mamba", "miniforge"};
    size_t k;
    for (k = 0; k < sizeof installs / sizeof installs[0]; k++) {
        const char *at = strstr(low, installs[k]);
        if (at && (size_t)(at - low) < len)
            return true;
    }
    return false;
}

/* The prefix of the environment whose "envs" folder starts at `envs` (the separator before
 * it) in a line: from the path's start to the end of the environment's name. */
static bool prefix_at(const char *text, const char *low, const char *envs, char *buf, size_t n)
{
    size_t start = path_start(low, envs), end = (size_t)(envs - low) + 6, len;
    const char *rest;
    while (path_char(low[end]) && low[end] != '/' && low[end] != '\\')
        end++;
    rest = low + end;
    /* the environment's own interpreter or packages, not any file under envs/ */
    if (end == (size_t)(envs - low) + 6 || !conda_install(low + start, (size_t)(envs - low) - start) ||
        !(strncmp(rest, "/lib/python", 11) == 0 || strncmp(rest, "\\lib\\site-packages", 18) == 0 ||
          strncmp(rest, "/bin/python", 11) == 0 || strncmp(rest, "\\python.exe", 11) == 0))
        return false;
    /* a compiler's or linker's flag glued to the path ("-L/root/miniconda3/envs/x/lib") */
    if (low[start] == '-' && (low[start + 1] == 'l' || low[start + 1] == 'i') &&
        (low[start + 2] == '/' || low[start + 2] == '\\'))
        start += 2;
    len = end - start;
    if (len + 1 > n)
        return false;
    memcpy(buf, text + start, len);
    buf[len] = '\0';
    return true;
}

bool dl_text_conda_prefix(const dl_paste *p, char *buf, size_t n, size_t *line)
{
    static const char *const seps[] = {"/envs/", "\\envs\\"};
    size_t i, k;
    for (i = 0; i < p->count; i++) {
        const char *low = p->lines[i].lower, *text = p->lines[i].text;
        if (strlen(low) != strlen(text))
            continue; /* the copies must align to take the writer's case */
        for (k = 0; k < sizeof seps / sizeof seps[0]; k++) {
            const char *at;
            for (at = strstr(low, seps[k]); at; at = strstr(at + 1, seps[k]))
                if (prefix_at(text, low, at, buf, n)) {
                    *line = i;
                    return true;
                }
        }
    }
    return false;
}

/* The folder names of environments with an interpreter of their own, and where that
 * interpreter lies below the folder on Windows and elsewhere. */
static const struct {
    const char *folder;
    const char *windows_python;
    const char *posix_python;
} env_folders[] = {
    {"python_embeded", "\\python.exe", NULL}, /* ComfyUI portable's spelling */
    {"python_embedded", "\\python.exe", NULL},
    {"runtime", "\\python.exe", NULL},      /* RVC's and so-vits' bundles */
    {".venv", "\\Scripts\\python.exe", "/bin/python"},
    {"venv", "\\Scripts\\python.exe", "/bin/python"},
};

/* The environment folder `k` whose site-packages the line's path at `at` shows (`at`: the
 * separator before the folder's name); the interpreter's path into buf. */
static bool env_python_at(const char *text, const char *low, const char *at, size_t k,
                          char *buf, size_t n)
{
    size_t flen = strlen(env_folders[k].folder), start, len;
    const char *rest = at + 1 + flen, *python;
    bool windows = *at == '\\';
    if (windows ? strncmp(rest, "\\lib\\site-packages\\", 19) != 0
                : strncmp(rest, "/lib/python", 11) != 0 || !strstr(rest, "/site-packages/"))
        return false;
    python = windows ? env_folders[k].windows_python : env_folders[k].posix_python;
    start = path_start(low, at);
    len = (size_t)(rest - low) - start;
    /* a venv inside a conda install is conda's to name; a bundled Python (python_embeded,
     * runtime) is its app's wherever it lies ("D:\\conda_envs\\ComfyUI_windows_portable") */
    if (!python || start == (size_t)(at - low) || len + strlen(python) + 1 > n ||
        (env_folders[k].posix_python && conda_install(low + start, len)))
        return false;
    memcpy(buf, text + start, len);
    strcpy(buf + len, python);
    return true;
}

/* Where line i names one of `names` (the first of them it holds); NULL when none, or when
 * the line's lower-case copy does not align with its text. */
static const char *name_in_line(const dl_paste *p, size_t i, const char *const *names,
                                size_t count, size_t *name_len)
{
    const char *low = p->lines[i].lower;
    size_t k;
    if (strlen(low) != strlen(p->lines[i].text))
        return NULL;
    for (k = 0; k < count; k++) {
        const char *at = strstr(low, names[k]);
        if (at) {
            *name_len = strlen(names[k]);
            return at;
        }
    }
    return NULL;
}

/* The path from `start` to `end` of line i's text into buf; false when it does not fit. */
static bool copy_path(const char *text, size_t start, size_t end, char *buf, size_t n)
{
    if (end <= start || end - start + 1 > n)
        return false;
    memcpy(buf, text + start, end - start);
    buf[end - start] = '\0';
    return true;
}

/* The writer ran a bundled interpreter by name ("python_embeded\\python.exe -m pip install
 * ...", "E:\\ComfyUI\\python_embeded\\python.exe -s main.py"): that path, as written. */
static bool named_bundled_python(const dl_paste *p, char *buf, size_t n, size_t *line)
{
    static const char *const names[] = {"python_embeded\\python.exe",
                                        "python_embedded\\python.exe"};
    size_t i, name_len;
    for (i = 0; i < p->count; i++) {
        const char *low = p->lines[i].lower, *text = p->lines[i].text, *gt;
        const char *at = name_in_line(p, i, names, sizeof names / sizeof names[0], &name_len);
        size_t start, end;
        if (!at)
            continue;
        start = path_start(low, at);
        end = (size_t)(at - low) + name_len;
        /* a prompt before a relative path ("D:\\ComfyUI_windows_portable>.\\python_embeded
         * \\python.exe"): the prompt's folder, then the path after ".\\" */
        gt = memchr(low + start, '>', (size_t)(at - low) - start);
        if (gt) {
            size_t folder = (size_t)(gt - low) - start, rel = (size_t)(gt - low) + 1;
            if (!strncmp(low + rel, ".\\", 2))
                rel += 2;
            if (folder + 1 + (end - rel) + 1 > n)
                continue;
            memcpy(buf, text + start, folder);
            buf[folder] = '\\';
            memcpy(buf + folder + 1, text + rel, end - rel);
            buf[folder + 1 + (end - rel)] = '\0';
            *line = i;
            return true;
        }
        if (copy_path(text, start, end, buf, n)) {
            *line = i;
            return true;
        }
    }
    return false;
}

/* The writer ran pip with a Python named by its full path ("\"D:\\Portable Programs\\app\\python\\
 * python.exe\" -m pip install ...", "/opt/app/venv/bin/python3 -m pip ..."): that path. */
static bool typed_python_for_pip(const dl_paste *p, char *buf, size_t n, size_t *line)
{
    static const char *const names[] = {"python.exe\" -m pip", "python.exe -m pip",
                                        "/bin/python -m pip", "/bin/python3 -m pip"};
    size_t i, name_len;
    for (i = 0; i < p->count; i++) {
        const char *low = p->lines[i].lower;
        const char *at = name_in_line(p, i, names, sizeof names / sizeof names[0], &name_len);
        const char *end = at ? strstr(at, " -m pip") : NULL;
        size_t start;
        if (!end)
            continue;
        if (end > at && end[-1] == '"')
            end--;
        start = path_start(low, at);
        /* an absolute path only: "D:\\..." or "/..." */
        if (((low[start] && low[start + 1] == ':' && low[start + 2] == '\\') ||
             low[start] == '/') &&
            copy_path(p->lines[i].text, start, (size_t)(end - low), buf, n)) {
            *line = i;
            return true;
        }
    }
    return false;
}

/* A file of ComfyUI's portable build ("D:\\ComfyUI_windows_portable\\ComfyUI\\nodes.py"):
 * that build always runs its own python_embeded\\python.exe beside the ComfyUI folder. */
static bool portable_comfyui_python(const dl_paste *p, char *buf, size_t n, size_t *line)
{
    static const char portable[] = "\\comfyui_windows_portable";
    static const char folder[] = "\\comfyui_windows_portable\\comfyui\\";
    static const char python[] = "\\python_embeded\\python.exe";
    size_t i;
    for (i = 0; i < p->count; i++) {
        const char *low = p->lines[i].lower, *text = p->lines[i].text;
        const char *at = strstr(low, folder);
        size_t start, len;
        if (!at || strlen(low) != strlen(text))
            continue;
        start = path_start(low, at);
        len = (size_t)(at - low) + sizeof portable - 1 - start;
        if (start == (size_t)(at - low) || len + sizeof python > n)
            continue;
        memcpy(buf, text + start, len);
        strcpy(buf + len, python);
        *line = i;
        return true;
    }
    return false;
}

bool dl_text_env_python(const dl_paste *p, char *buf, size_t n, size_t *line)
{
    size_t i, k;
    for (i = 0; i < p->count; i++) {
        const char *low = p->lines[i].lower, *text = p->lines[i].text;
        if (strlen(low) != strlen(text) || !strstr(low, "site-packages"))
            continue;
        for (k = 0; k < sizeof env_folders / sizeof env_folders[0]; k++) {
            char sep[2][32];
            size_t s;
            snprintf(sep[0], sizeof sep[0], "\\%s\\", env_folders[k].folder);
            snprintf(sep[1], sizeof sep[1], "/%s/", env_folders[k].folder);
            for (s = 0; s < 2; s++) {
                const char *at;
                for (at = strstr(low, sep[s]); at; at = strstr(at + 1, sep[s]))
                    if (env_python_at(text, low, at, k, buf, n)) {
                        *line = i;
                        return true;
                    }
            }
        }
    }
    return named_bundled_python(p, buf, n, line) || typed_python_for_pip(p, buf, n, line) ||
           portable_comfyui_python(p, buf, n, line);
}
