/* The run's files as modules: an import names one of them when the module's path
 * (`pkg/loop` for `from .loop import ...` in pkg/) is a file this run lints, as
 * `pkg/loop.py` or `pkg/loop/__init__.py`. Nothing here touches the file system: only
 * the paths the walk found count. A file's call graph is built once, when first needed. */
#include "lint/callgraph.h"

#include <stdlib.h>
#include <string.h>

enum { GRAPH_NONE, GRAPH_BUILDING, GRAPH_DONE };

struct dl_lint_modules {
    char **paths; /* sorted */
    size_t n;
    struct dl_lint_graph **graphs;
    unsigned char *state;
    dl_lint_summarize_fn summarize;
    void *ctx;
};

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

dl_lint_modules *dl_lint_modules_new(const dl_strv *paths, dl_lint_summarize_fn summarize,
                                     void *ctx)
{
    dl_lint_modules *m = dl_xcalloc(1, sizeof *m);
    size_t i;
    m->paths = dl_xmalloc((paths->n ? paths->n : 1) * sizeof *m->paths);
    for (i = 0; i < paths->n; i++)
        m->paths[i] = dl_strdup(paths->v[i]);
    m->n = paths->n;
    qsort(m->paths, m->n, sizeof *m->paths, by_name);
    m->graphs = dl_xcalloc(m->n ? m->n : 1, sizeof *m->graphs);
    m->state = dl_xcalloc(m->n ? m->n : 1, 1);
    m->summarize = summarize;
    m->ctx = ctx;
    return m;
}

void dl_lint_modules_free(dl_lint_modules *m)
{
    size_t i;
    if (!m)
        return;
    for (i = 0; i < m->n; i++) {
        free(m->paths[i]);
        dl_lint_graph_free(m->graphs[i]);
    }
    free(m->paths);
    free(m->graphs);
    free(m->state);
    free(m);
}

static size_t index_of(const dl_lint_modules *m, const char *path)
{
    char *const *hit = m ? bsearch(&path, m->paths, m->n, sizeof *m->paths, by_name) : NULL;
    return hit ? (size_t)(hit - m->paths) : (size_t)-1;
}

const char *dl_lint_module_file(const dl_lint_modules *m, const char *base)
{
    char sep = strchr(base, '\\') && !strchr(base, '/') ? '\\' : '/';
    char *p;
    size_t i;
    if (!m || !*base)
        return NULL;
    p = dl_fmt("%s.py", base);
    i = index_of(m, p);
    free(p);
    if (i == (size_t)-1) {
        p = dl_fmt("%s%c__init__.py", base, sep);
        i = index_of(m, p);
        free(p);
    }
    return i == (size_t)-1 ? NULL : m->paths[i];
}

struct dl_lint_graph *dl_lint_module_graph(dl_lint_modules *m, const char *file)
{
    size_t i = index_of(m, file);
    if (i == (size_t)-1 || m->state[i] == GRAPH_BUILDING)
        return NULL;
    if (m->state[i] == GRAPH_NONE) {
        m->state[i] = GRAPH_BUILDING;
        m->graphs[i] = m->summarize(m->paths[i], m->ctx);
        m->state[i] = GRAPH_DONE;
    }
    return m->graphs[i];
}

void dl_lint_modules_adopt(dl_lint_modules *m, const char *file, struct dl_lint_graph *g)
{
    size_t i = index_of(m, file);
    if (i == (size_t)-1 || m->state[i] != GRAPH_NONE) {
        dl_lint_graph_free(g);
        return;
    }
    m->graphs[i] = g;
    m->state[i] = GRAPH_DONE;
}
