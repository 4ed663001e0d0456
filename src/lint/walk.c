/* Walking folders for Python files. Hidden folders (.git, .venv), __pycache__,
 * node_modules and virtual environments (a pyvenv.cfg inside) are not entered; the
 * patterns of each .gitignore met apply below its folder (negation, anchoring, dir/
 * and ** included). For a folder given, the .gitignore files above it up to its
 * repository's root (the nearest folder holding .git) and the repository's
 * .git/info/exclude apply too, as git applies them. A symbolic link that leads back to a
 * folder being walked is reported, not followed. */
#include "lint/walk.h"

#include "base/str.h"
#include "os/os.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct pattern {
    char *base;      /* the folder of its .gitignore, as walked; for a file above a folder
                        given: that folder, as given */
    char *prefix;    /* NULL, or for a file above: the path from its folder down to base */
    char *glob;
    bool anchored, dir_only, negate;
} pattern;

typedef struct walker {
    dl_machine m;
    pattern *pats;
    size_t n_pats;
    dl_strv ancestors;   /* real paths of the folders being walked */
    dl_strv seen;        /* real paths of every folder walked */
    dl_lint_file_fn on_file;
    dl_lint_problem_fn on_problem;
    void *ctx;
} walker;

static int class_match(const char **pp, char c)
{
    const char *p = *pp + 1;
    bool neg = *p == '!' || *p == '^', hit = false;
    p += neg;
    while (*p && (*p != ']' || p == *pp + 1 + neg)) {
        if (p[1] == '-' && p[2] && p[2] != ']') {
            hit |= c >= p[0] && c <= p[2];
            p += 3;
        } else {
            hit |= c == *p++;
        }
    }
    if (*p != ']')
        return -1; /* no closing bracket: not a class */
    *pp = p + 1;
    return hit != neg;
}

int dl_lint_glob(const char *p, const char *s)
{
    for (; *p; s++) {
        if (p[0] == '*' && p[1] == '*') {
            p += 2;
            if (*p == '/')
                p++;
            for (;; s++) {
                if (dl_lint_glob(p, s))
                    return 1;
                if (!*s)
                    return 0;
            }
        }
        if (*p == '*') {
            p++;
            for (;; s++) {
                if (dl_lint_glob(p, s))
                    return 1;
                if (!*s || *s == '/')
                    return 0;
            }
        }
        if (!*s)
            return 0;
        if (*p == '?') {
            if (*s == '/')
                return 0;
            p++;
        } else if (*p == '[') {
            int r = class_match(&p, *s);
            if (r < 0) {
                if (*s != '[')
                    return 0;
                p++;
            } else if (!r) {
                return 0;
            }
        } else {
            if (*p == '\\' && p[1])
                p++;
            if (*p++ != *s)
                return 0;
        }
    }
    return !*s;
}

static void add_patterns_file(walker *w, const char *path, const char *base,
                              const char *prefix)
{
    char *data = NULL, *line, *cursor;
    size_t len;
    bool truncated;
    dl_io_error err = {DL_IO_OK, NULL};
    if (!dl_fs_read(&w->m, path, 1u << 20, &data, &len, &truncated, &err)) {
        dl_io_error_clear(&err);
        return;
    }
    cursor = data;
    while ((line = dl_str_token(&cursor, "\r\n")) != NULL) {
        pattern *p;
        size_t n = strlen(line);
        while (n && (line[n - 1] == ' ' || line[n - 1] == '\t'))
            line[--n] = '\0';
        if (!n || line[0] == '#')
            continue;
        w->pats = dl_xrealloc(w->pats, (w->n_pats + 1) * sizeof *w->pats);
        p = &w->pats[w->n_pats++];
        memset(p, 0, sizeof *p);
        p->negate = line[0] == '!';
        line += p->negate;
        n = strlen(line);
        if (n && line[n - 1] == '/') {
            p->dir_only = true;
            line[--n] = '\0';
        }
        p->anchored = strchr(line, '/') != NULL;
        if (line[0] == '/')
            line++;
        p->glob = dl_strdup(line);
        p->base = dl_strdup(base);
        p->prefix = prefix ? dl_strdup(prefix) : NULL;
    }
    free(data);
}

static void add_patterns(walker *w, const char *dir)
{
    char *path = dl_path_join(dir, ".gitignore");
    add_patterns_file(w, path, dir, NULL);
    free(path);
}

static bool is_sep(char c)
{
    return c == '/' || c == '\\';
}

/* The folder above p ("/a/b" -> "/a", "/a" -> "/", "C:\\a" -> "C:\\"), or NULL at the
 * root. */
static char *parent_of(const char *p)
{
    size_t n = strlen(p), k;
    while (n > 1 && is_sep(p[n - 1]))
        n--;
    while (n > 0 && !is_sep(p[n - 1]))
        n--;
    if (n == 0)
        return NULL;
    k = n - 1;
    if (k == 0 || (k == 2 && p[1] == ':'))
        k++; /* keep the root's separator */
    return k >= strlen(p) ? NULL : dl_strndup(p, k);
}

static bool holds_git(walker *w, const char *dir, bool *is_dir)
{
    char *git = dl_path_join(dir, ".git");
    dl_io_error err = {DL_IO_OK, NULL};
    dl_fs_kind kind = dl_fs_kind_of(&w->m, git, &err);
    dl_io_error_clear(&err);
    free(git);
    *is_dir = kind == DL_FS_DIR;
    return kind == DL_FS_DIR || kind == DL_FS_FILE; /* a file: a worktree, a submodule */
}

/* The patterns from above the folder given (as given: dir; resolved: real): the
 * repository's .git/info/exclude, then each .gitignore from its root down to real's
 * parent. Nothing outside a repository. */
static void add_patterns_above(walker *w, const char *dir, const char *real)
{
    dl_strv chain = {0};
    char *cur = dl_strdup(real);
    bool git_dir = false, found = false;
    size_t i;
    while (cur) {
        dl_strv_add(&chain, cur);
        if (holds_git(w, cur, &git_dir)) {
            found = true;
            break;
        }
        cur = parent_of(cur);
    }
    for (i = chain.n; found && i-- > 0;) {
        const char *above = chain.v[i], *rel = real + strlen(above);
        char *file;
        while (is_sep(*rel))
            rel++;
        if (i == chain.n - 1 && git_dir) {
            char *info = dl_path_join(above, ".git/info");
            file = dl_path_join(info, "exclude");
            free(info);
            add_patterns_file(w, file, dir, rel);
            free(file);
        }
        if (i == 0)
            break; /* the folder's own .gitignore: walk_dir reads it */
        file = dl_path_join(above, ".gitignore");
        add_patterns_file(w, file, dir, rel);
        free(file);
    }
    dl_strv_free(&chain);
}

static bool ignored(const walker *w, const char *path, const char *name, bool is_dir)
{
    bool out = false;
    size_t i;
    for (i = 0; i < w->n_pats; i++) {
        const pattern *p = &w->pats[i];
        size_t blen = strlen(p->base);
        const char *rel;
        if (p->dir_only && !is_dir)
            continue;
        if (strncmp(path, p->base, blen) || (path[blen] != '/' && path[blen] != '\\'))
            continue;
        rel = path + blen + 1;
        if (!p->anchored) {
            if (dl_lint_glob(p->glob, name))
                out = !p->negate;
        } else if (p->prefix && *p->prefix) {
            char *full = dl_fmt("%s/%s", p->prefix, rel);
            if (dl_lint_glob(p->glob, full))
                out = !p->negate;
            free(full);
        } else if (dl_lint_glob(p->glob, rel)) {
            out = !p->negate;
        }
    }
    return out;
}

static bool skipped_dir(walker *w, const char *path, const char *name)
{
    char *cfg;
    bool venv;
    dl_io_error err = {DL_IO_OK, NULL};
    if (name[0] == '.' || !strcmp(name, "__pycache__") || !strcmp(name, "node_modules"))
        return true;
    cfg = dl_path_join(path, "pyvenv.cfg");
    venv = dl_fs_kind_of(&w->m, cfg, &err) == DL_FS_FILE;
    dl_io_error_clear(&err);
    free(cfg);
    return venv;
}

static void walk_dir(walker *w, const char *dir);

static void drop_patterns(walker *w, size_t keep)
{
    size_t i;
    for (i = keep; i < w->n_pats; i++) {
        free(w->pats[i].base);
        free(w->pats[i].glob);
        free(w->pats[i].prefix);
    }
    w->n_pats = keep;
}

static void walk_entry(walker *w, const char *path, const char *name)
{
    dl_io_error err = {DL_IO_OK, NULL};
    dl_fs_kind kind = dl_fs_kind_of(&w->m, path, &err);
    if (kind == DL_FS_NONE) {
        char *why = dl_fmt("cannot walk: %s", err.message ? err.message : "not found");
        w->on_problem(path, why, w->ctx);
        free(why);
    } else if (kind == DL_FS_DIR) {
        if (!skipped_dir(w, path, name) && !ignored(w, path, name, true))
            walk_dir(w, path);
    } else if (kind == DL_FS_FILE && (dl_ends_with(name, ".py") || dl_ends_with(name, ".pyw")) &&
               !ignored(w, path, name, false)) {
        w->on_file(path, w->ctx);
    }
    dl_io_error_clear(&err);
}

static void walk_dir(walker *w, const char *dir)
{
    dl_io_error err = {DL_IO_OK, NULL};
    char *abs = dl_path_absolute(dir), *real = dl_fs_realpath(&w->m, abs, &err), **names = NULL;
    size_t count = 0, i, n_pats = w->n_pats;
    free(abs);
    if (!real) {
        char *why = dl_fmt("cannot walk: %s", err.message ? err.message : "unknown error");
        w->on_problem(dir, why, w->ctx);
        free(why);
        dl_io_error_clear(&err);
        return;
    }
    if (dl_strv_has(&w->ancestors, real)) {
        char *why = dl_fmt("symbolic link loop: leads back to %s (not followed)", real);
        w->on_problem(dir, why, w->ctx);
        free(why);
        free(real);
        return;
    }
    if (dl_strv_has(&w->seen, real)) { /* reached again through a link: once is enough */
        free(real);
        return;
    }
    dl_strv_add_once(&w->seen, real);
    dl_strv_add(&w->ancestors, real);
    add_patterns(w, dir);
    if (!dl_fs_list(&w->m, dir, &names, &count, &err)) {
        char *why = dl_fmt("cannot list: %s", err.message ? err.message : "unknown error");
        w->on_problem(dir, why, w->ctx);
        free(why);
        dl_io_error_clear(&err);
    }
    for (i = 0; i < count; i++) {
        char *path = dl_path_join(dir, names[i]);
        walk_entry(w, path, names[i]);
        free(path);
    }
    dl_fs_list_free(names, count);
    /* this folder's patterns end with it */
    drop_patterns(w, n_pats);
    free(w->ancestors.v[--w->ancestors.n]);
}

void dl_lint_walk(const char *const *paths, size_t n, dl_lint_file_fn on_file,
                  dl_lint_problem_fn on_problem, void *ctx)
{
    walker w;
    size_t i;
    memset(&w, 0, sizeof w);
    /* root NULL: this machine's own paths, on every OS (on Windows a root of "/" would be
     * a folder that every path is read under, and "C:\\x" would not be found) */
    w.m.root = NULL;
    w.m.live = true;
    w.on_file = on_file;
    w.on_problem = on_problem;
    w.ctx = ctx;
    for (i = 0; i < n; i++) {
        dl_io_error err = {DL_IO_OK, NULL};
        dl_fs_kind kind = dl_fs_kind_of(&w.m, paths[i], &err);
        if (kind == DL_FS_DIR) {
            char *abs = dl_path_absolute(paths[i]), *real = dl_fs_realpath(&w.m, abs, &err);
            dl_io_error_clear(&err);
            if (real)
                add_patterns_above(&w, paths[i], real);
            walk_dir(&w, paths[i]);
            drop_patterns(&w, 0);
            free(real);
            free(abs);
        } else if (kind == DL_FS_FILE) {
            on_file(paths[i], ctx);
        } else {
            char *why = dl_fmt("cannot lint: %s",
                               err.message ? err.message : "not a file or folder");
            on_problem(paths[i], why, ctx);
            free(why);
        }
        dl_io_error_clear(&err);
    }
    free(w.pats);
    dl_strv_free(&w.ancestors);
    dl_strv_free(&w.seen);
}
