/* The guard rule's call graph (callgraph.h). Names are resolved late, when the whole file
 * has been read, against the module's own table (a name bound once, or always to the same
 * thing; a name bound to different things is unknown) so a function may call what is
 * defined after it; a function's local names (parameters, `fn = train`, `t = Trainer()`)
 * are resolved on the spot, in source order, latest binding first. */
#include "lint/callgraph.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FROM_MODULE ((size_t)-1) /* unguarded module code */
#define FROM_GUARD ((size_t)-2)  /* the __main__ block */
#define FROM_NONE ((size_t)-3)   /* code no call graph follows (a nested class's method) */
#define MAX_DEPTH 24             /* of alias, base class and import chains */

/* A string -> index map (open addressing): a generated file with 60 000 definitions costs
 * no quadratic search. */
typedef struct strmap {
    char **keys;
    size_t *vals;
    size_t cap, n;
} strmap;

static size_t hash_of(const char *s, size_t len)
{
    size_t h = 2166136261u, i;
    for (i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static size_t *strmap_find(const strmap *m, const char *k, size_t len)
{
    size_t i;
    if (!m->cap)
        return NULL;
    for (i = hash_of(k, len) & (m->cap - 1); m->keys[i]; i = (i + 1) & (m->cap - 1))
        if (!strncmp(m->keys[i], k, len) && m->keys[i][len] == '\0')
            return &m->vals[i];
    return NULL;
}

static void strmap_put(strmap *m, const char *k, size_t len, size_t v)
{
    size_t i;
    if ((m->n + 1) * 2 > m->cap) {
        strmap old = *m;
        m->cap = m->cap ? m->cap * 2 : 16;
        m->keys = dl_xcalloc(m->cap, sizeof *m->keys);
        m->vals = dl_xcalloc(m->cap, sizeof *m->vals);
        m->n = 0;
        for (i = 0; i < old.cap; i++)
            if (old.keys[i]) {
                strmap_put(m, old.keys[i], strlen(old.keys[i]), old.vals[i]);
                free(old.keys[i]);
            }
        free(old.keys);
        free(old.vals);
    }
    for (i = hash_of(k, len) & (m->cap - 1); m->keys[i]; i = (i + 1) & (m->cap - 1))
        ;
    m->keys[i] = dl_strndup(k, len);
    m->vals[i] = v;
    m->n++;
}

static void strmap_free(strmap *m)
{
    size_t i;
    for (i = 0; i < m->cap; i++)
        free(m->keys[i]);
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

typedef enum name_kind {
    NAME_UNKNOWN,  /* bound to something not followed, or to different things */
    NAME_FUNC,     /* def: ref is its key */
    NAME_CLASS,    /* class: ref is its key */
    NAME_ALIAS,    /* name = SYMBOL, name = functools.partial(SYMBOL, ...) */
    NAME_INSTANCE, /* name = SYMBOL(...) */
    NAME_IMPORT,   /* ref: a module's path without extension; member: the name imported */
} name_kind;

typedef struct name_entry {
    name_kind kind;
    char *ref, *member;
} name_entry;

typedef struct names {
    name_entry *v;
    size_t n, cap;
    strmap map;
} names;

enum { MEMO_NONE, MEMO_BUSY, MEMO_YES, MEMO_NO };

typedef struct def_entry {
    char *key;          /* "train", "Trainer", "Trainer.fit" */
    bool is_class;
    dl_strv bases;      /* a class's base classes, as symbols of the module */
    const char *starts; /* the first worker start in its own body (a static text) */
    unsigned line;
    unsigned char memo; /* starts workers through its calls: starts_through() */
    char *why;
    bool reached;       /* from unguarded module code (the linted file only) */
    bool runs;          /* from module code or the __main__ block */
} def_entry;

typedef struct edge {
    size_t from;   /* a definition, FROM_MODULE or FROM_GUARD */
    char *to;      /* the symbol called ("train", "Trainer.fit", "loop.train") */
    uint32_t start, end;
} edge;

struct dl_lint_graph {
    char *path;
    names top;              /* the module's names */
    def_entry *defs;
    size_t n_defs, cap_defs;
    strmap def_map;
    edge *edges;            /* in source order of the calls */
    size_t n_edges, cap_edges;
    size_t *adj, *adj_at;   /* edge indices grouped by from: defs, then module, guard */
    /* while building */
    names locals;           /* the current definition's */
    size_t cur;
    const char *cur_name;   /* the scope's def_name cur was built for */
    char *root;             /* where absolute imports start (lazily) */
    bool root_known;
    char *why_ext;          /* dl_lint_graph_external_start's answer */
};

typedef struct target {
    struct dl_lint_graph *g;
    size_t def;
} target;

typedef struct targets {
    target v[4];
    size_t n;
} targets;

/* -------- names -------- */

static void names_free(names *t)
{
    size_t i;
    for (i = 0; i < t->n; i++) {
        free(t->v[i].ref);
        free(t->v[i].member);
    }
    free(t->v);
    strmap_free(&t->map);
    memset(t, 0, sizeof *t);
}

static name_entry *names_find(const names *t, const char *s, size_t len)
{
    size_t *i = strmap_find(&t->map, s, len);
    return i ? &t->v[*i] : NULL;
}

static bool same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

/* Binds name; takes ref and member. The module's table keeps a name only while every
 * binding agrees; a function's table keeps the latest. */
static void names_bind(names *t, const char *name, size_t len, name_kind kind, char *ref,
                       char *member, bool latest)
{
    name_entry *e = names_find(t, name, len);
    if (e) {
        if (!latest && (e->kind != kind || !same_text(e->ref, ref) ||
                        !same_text(e->member, member)))
            kind = NAME_UNKNOWN;
        free(e->ref);
        free(e->member);
    } else {
        t->v = dl_xgrow(t->v, &t->cap, t->n + 1, sizeof *t->v);
        strmap_put(&t->map, name, len, t->n);
        e = &t->v[t->n++];
    }
    e->kind = kind;
    e->ref = kind == NAME_UNKNOWN ? (free(ref), NULL) : ref;
    e->member = kind == NAME_UNKNOWN ? (free(member), NULL) : member;
}

/* -------- building -------- */

static struct dl_lint_graph *graph_of(dl_lint_file *f)
{
    if (!f->graph) {
        f->graph = dl_xcalloc(1, sizeof *f->graph);
        f->graph->path = dl_strdup(f->path);
        f->graph->cur = FROM_NONE;
    }
    return f->graph;
}

static bool in_def(const dl_lint_file *f)
{
    return f->scope.funcs && f->scope.def_name && f->graph &&
           f->graph->cur_name == f->scope.def_name && f->graph->cur != FROM_NONE;
}

static size_t owner(const dl_lint_file *f)
{
    if (f->scope.funcs)
        return in_def(f) ? f->graph->cur : FROM_NONE;
    return f->scope.main_guards ? FROM_GUARD : FROM_MODULE;
}

/* The table an assignment here binds in: the module's (module code, not a class body),
 * the current definition's, or none. */
static names *binding_table(dl_lint_file *f, bool *latest)
{
    *latest = f->scope.funcs != 0;
    if (!f->scope.funcs)
        return f->scope.defs ? NULL : &graph_of(f)->top;
    return in_def(f) ? &f->graph->locals : NULL;
}

static name_entry *local(const dl_lint_file *f, const char *s, size_t len)
{
    return in_def(f) ? names_find(&f->graph->locals, s, len) : NULL;
}

/* identifier(.identifier)* as text ("pkg.loop.train"), or NULL */
static char *dotted_text(const dl_lint_file *f, TSNode e)
{
    size_t len;
    const char *t;
    if (dl_lint_is(e, "identifier")) {
        t = dl_lint_text(f, e, &len);
        return dl_strndup(t, len);
    }
    if (dl_lint_is(e, "attribute")) {
        char *obj = dotted_text(f, ts_node_child_by_field_name(e, "object", 6)), *s;
        TSNode attr = ts_node_child_by_field_name(e, "attribute", 9);
        if (!obj || ts_node_is_null(attr))
            return free(obj), NULL;
        t = dl_lint_text(f, attr, &len);
        s = dl_fmt("%s.%.*s", obj, (int)len, t);
        free(obj);
        return s;
    }
    return NULL;
}

/* What a name or dotted name stands for here, as a symbol of the module: a local alias
 * is followed, a local that is anything else is unknown (NULL). */
static char *value_symbol(const dl_lint_file *f, TSNode e)
{
    char *s = dotted_text(f, e), *r;
    size_t first;
    name_entry *l;
    if (!s)
        return NULL;
    first = strcspn(s, ".");
    l = local(f, s, first);
    if (!l)
        return s;
    r = l->kind == NAME_ALIAS ? dl_fmt("%s%s", l->ref, s + first)
        : l->kind == NAME_INSTANCE && s[first] ? dl_fmt("%s%s", l->ref, s + first)
                                               : NULL;
    free(s);
    return r;
}

static bool is_partial(const dl_lint_file *f, TSNode fn)
{
    char buf[256];
    const char *q = dl_lint_qualified(f, fn, buf, sizeof buf);
    return q && !strcmp(q, "functools.partial");
}

static const def_entry *current_class(const dl_lint_file *f)
{
    size_t *i;
    if (!f->scope.cls || !f->graph)
        return NULL;
    i = strmap_find(&f->graph->def_map, f->scope.cls, f->scope.cls_len);
    return i && f->graph->defs[*i].is_class ? &f->graph->defs[*i] : NULL;
}

/* The symbol a call's function stands for ("train", "Trainer.fit"), or NULL. */
static char *callee_symbol(const dl_lint_file *f, TSNode fn)
{
    if (dl_lint_is(fn, "attribute")) {
        TSNode obj = ts_node_child_by_field_name(fn, "object", 6);
        TSNode attr = ts_node_child_by_field_name(fn, "attribute", 9);
        size_t len;
        const char *m = ts_node_is_null(attr) ? NULL : dl_lint_text(f, attr, &len);
        char *base = NULL, *s;
        if (!m)
            return NULL;
        if (dl_lint_is(obj, "identifier") &&
            (dl_lint_text_is(f, obj, "self") || dl_lint_text_is(f, obj, "cls"))) {
            if (!in_def(f) || !f->scope.cls)
                return NULL;
            base = dl_strndup(f->scope.cls, f->scope.cls_len);
        } else if (dl_lint_is(obj, "call")) {
            TSNode inner = ts_node_child_by_field_name(obj, "function", 8);
            if (dl_lint_text_is(f, inner, "super")) {
                const def_entry *c = current_class(f);
                base = c && c->bases.n ? dl_strdup(c->bases.v[0]) : NULL;
            } else {
                base = callee_symbol(f, inner); /* Trainer(...).fit */
            }
        } else {
            base = value_symbol(f, obj);
        }
        if (!base)
            return NULL;
        s = dl_fmt("%s.%.*s", base, (int)len, m);
        free(base);
        return s;
    }
    if (dl_lint_is(fn, "identifier")) {
        size_t len;
        const char *t = dl_lint_text(f, fn, &len);
        name_entry *l = local(f, t, len);
        if (!l)
            return dl_strndup(t, len);
        return l->kind == NAME_ALIAS      ? dl_strdup(l->ref)
               : l->kind == NAME_INSTANCE ? dl_fmt("%s.__call__", l->ref)
                                          : NULL;
    }
    if (dl_lint_is(fn, "call") && is_partial(f, ts_node_child_by_field_name(fn, "function", 8)))
        return value_symbol(f, dl_lint_arg(fn, 0)); /* functools.partial(train, x)() */
    return NULL;
}

static void bind_unknown(dl_lint_file *f, TSNode lhs)
{
    bool latest;
    names *t = binding_table(f, &latest);
    uint32_t i, n;
    if (!t)
        return;
    if (dl_lint_is(lhs, "identifier")) {
        size_t len;
        const char *s = dl_lint_text(f, lhs, &len);
        names_bind(t, s, len, NAME_UNKNOWN, NULL, NULL, latest);
        return;
    }
    if (dl_lint_is(lhs, "attribute") || dl_lint_is(lhs, "subscript"))
        return;
    n = ts_node_named_child_count(lhs);
    for (i = 0; i < n; i++)
        bind_unknown(f, ts_node_named_child(lhs, i));
}

static void on_assignment(dl_lint_file *f, TSNode n)
{
    TSNode left = ts_node_child_by_field_name(n, "left", 4);
    TSNode right = ts_node_child_by_field_name(n, "right", 5);
    bool latest;
    names *t;
    name_kind kind = NAME_UNKNOWN;
    char *ref = NULL;
    size_t len;
    const char *name;
    if (ts_node_is_null(right))
        return; /* x: int */
    if (!dl_lint_is(left, "identifier")) {
        bind_unknown(f, left);
        return;
    }
    if (!(t = binding_table(f, &latest)))
        return;
    if (dl_lint_is(right, "identifier") || dl_lint_is(right, "attribute")) {
        ref = value_symbol(f, right);
        kind = NAME_ALIAS;
    } else if (dl_lint_is(right, "call")) {
        TSNode fn = ts_node_child_by_field_name(right, "function", 8);
        if (is_partial(f, fn)) {
            ref = value_symbol(f, dl_lint_arg(right, 0));
            kind = NAME_ALIAS;
        } else {
            ref = callee_symbol(f, fn);
            kind = NAME_INSTANCE;
        }
    }
    name = dl_lint_text(f, left, &len);
    names_bind(t, name, len, ref ? kind : NAME_UNKNOWN, ref, NULL, latest);
}

static void on_parameters(dl_lint_file *f, TSNode params)
{
    uint32_t i, n = ts_node_named_child_count(params);
    if (!in_def(f))
        return;
    for (i = 0; i < n; i++) {
        TSNode p = ts_node_named_child(params, i), name = p;
        if (!dl_lint_is(p, "identifier")) {
            name = ts_node_child_by_field_name(p, "name", 4);
            if (ts_node_is_null(name))
                name = ts_node_named_child(p, 0);
        }
        if (dl_lint_is(name, "identifier")) {
            size_t len;
            const char *s = dl_lint_text(f, name, &len);
            names_bind(&f->graph->locals, s, len, NAME_UNKNOWN, NULL, NULL, true);
        }
    }
}

static size_t add_def(struct dl_lint_graph *g, const char *key, bool is_class)
{
    size_t *i = strmap_find(&g->def_map, key, strlen(key));
    def_entry *d;
    if (i)
        return *i; /* defined again (if/else, @overload): one node for both */
    g->defs = dl_xgrow(g->defs, &g->cap_defs, g->n_defs + 1, sizeof *g->defs);
    d = &g->defs[g->n_defs];
    memset(d, 0, sizeof *d);
    d->key = dl_strdup(key);
    d->is_class = is_class;
    strmap_put(&g->def_map, key, strlen(key), g->n_defs);
    return g->n_defs++;
}

static void on_function(dl_lint_file *f, TSNode n)
{
    TSNode name = ts_node_child_by_field_name(n, "name", 4);
    struct dl_lint_graph *g;
    char *key;
    size_t len;
    const char *t;
    if (ts_node_is_null(name) || f->scope.funcs != 1 ||
        (t = dl_lint_text(f, name, &len)) != f->scope.def_name)
        return; /* not a top-level function or a method of a top-level class */
    g = graph_of(f);
    key = f->scope.cls ? dl_fmt("%.*s.%.*s", (int)f->scope.cls_len, f->scope.cls, (int)len, t)
                       : dl_strndup(t, len);
    g->cur = add_def(g, key, false);
    g->cur_name = f->scope.def_name;
    names_free(&g->locals);
    if (!f->scope.cls)
        names_bind(&g->top, t, len, NAME_FUNC, dl_strdup(key), NULL, false);
    free(key);
}

static void on_class(dl_lint_file *f, TSNode n)
{
    TSNode name = ts_node_child_by_field_name(n, "name", 4);
    TSNode sup = ts_node_child_by_field_name(n, "superclasses", 12);
    struct dl_lint_graph *g;
    size_t len, d;
    uint32_t i, count;
    const char *t;
    char *key;
    if (ts_node_is_null(name) || f->scope.defs != 1 ||
        (t = dl_lint_text(f, name, &len)) != f->scope.cls)
        return;
    g = graph_of(f);
    key = dl_strndup(t, len);
    d = add_def(g, key, true);
    count = ts_node_is_null(sup) ? 0 : ts_node_named_child_count(sup);
    for (i = 0; i < count; i++) {
        char *b = dotted_text(f, ts_node_named_child(sup, i));
        if (b)
            dl_strv_add(&g->defs[d].bases, b);
    }
    names_bind(&g->top, t, len, NAME_CLASS, key, NULL, false);
}

static bool is_sep(char c)
{
    return c == '/' || c == '\\';
}

static char *dir_of(const char *path)
{
    size_t n = strlen(path);
    while (n > 0 && !is_sep(path[n - 1]))
        n--;
    return dl_strndup(path, n ? n - 1 : 0);
}

static char *join(const char *dir, const char *name, size_t len)
{
    char sep = strchr(dir, '\\') && !strchr(dir, '/') ? '\\' : '/';
    return *dir ? dl_fmt("%s%c%.*s", dir, sep, (int)len, name) : dl_strndup(name, len);
}

/* dir + a dotted module name ("a.b" -> dir/a/b) */
static char *join_dotted(const char *dir, const char *dotted)
{
    char *p = dl_strdup(dir);
    while (*dotted) {
        size_t len = strcspn(dotted, ".");
        char *q = join(p, dotted, len);
        free(p);
        p = q;
        dotted += len + (dotted[len] == '.');
    }
    return p;
}

/* Where absolute imports start for this file: the folder above its package (the first
 * folder upwards with no linted __init__.py), which is the script's own folder for a
 * script outside any package. */
static const char *import_root(dl_lint_file *f)
{
    struct dl_lint_graph *g = graph_of(f);
    if (!g->root_known) {
        char *dir = dir_of(f->path);
        while (*dir && dl_lint_module_file(f->modules, dir) &&
               dl_ends_with(dl_lint_module_file(f->modules, dir), "__init__.py")) {
            char *up = dir_of(dir);
            free(dir);
            dir = up;
        }
        g->root = dir;
        g->root_known = true;
    }
    return g->root;
}

/* The text of a dotted_name without spaces or line continuations. */
static char *module_name(const dl_lint_file *f, TSNode n)
{
    size_t len, i;
    const char *t = dl_lint_text(f, n, &len);
    dl_buf b = {0};
    for (i = 0; i < len; i++)
        if (t[i] == '.' || t[i] == '_' || (t[i] >= '0' && t[i] <= '9') ||
            ((t[i] | 32) >= 'a' && (t[i] | 32) <= 'z') || (unsigned char)t[i] >= 0x80)
            dl_buf_add(&b, t + i, 1);
    dl_buf_add(&b, "", 0);
    return dl_buf_take(&b);
}

/* The module path (no extension) a from-import names: `.x` from this file's folder,
 * `..x` from its parent, `a.b` from the import root. */
static char *from_base(dl_lint_file *f, TSNode module)
{
    char *name, *dir, *base;
    size_t dots = 0;
    if (dl_lint_is(module, "relative_import")) {
        TSNode prefix = ts_node_named_child(module, 0), rest = ts_node_named_child(module, 1);
        size_t len;
        dl_lint_text(f, prefix, &len);
        dots = len;
        name = dl_lint_is(rest, "dotted_name") ? module_name(f, rest) : dl_strdup("");
        dir = dir_of(f->path);
        while (dots-- > 1) {
            char *up = dir_of(dir);
            free(dir);
            dir = up;
        }
    } else {
        name = module_name(f, module);
        dir = dl_strdup(import_root(f));
    }
    base = join_dotted(dir, name);
    free(dir);
    free(name);
    return base;
}

static void on_import(dl_lint_file *f, TSNode stmt, bool from)
{
    bool latest;
    names *t = binding_table(f, &latest);
    TSNode module = ts_node_child_by_field_name(stmt, "module_name", 11);
    uint32_t i, n = ts_node_named_child_count(stmt);
    char *base = NULL;
    if (!t)
        return;
    if (from && (ts_node_is_null(module) || !f->modules))
        module = (TSNode){0};
    else if (from)
        base = from_base(f, module);
    for (i = 0; i < n; i++) {
        TSNode c = ts_node_named_child(stmt, i), name = c, alias = {0};
        size_t len;
        const char *s;
        char *full;
        if (from && !ts_node_is_null(module) && ts_node_eq(c, module))
            continue;
        if (dl_lint_is(c, "aliased_import")) {
            name = ts_node_child_by_field_name(c, "name", 4);
            alias = ts_node_child_by_field_name(c, "alias", 5);
        } else if (!dl_lint_is(c, "dotted_name")) {
            continue;
        }
        if (ts_node_is_null(name))
            continue;
        full = module_name(f, name);
        if (!ts_node_is_null(alias)) {
            s = dl_lint_text(f, alias, &len);
        } else {
            s = full;
            len = strcspn(full, "."); /* import a.b binds a */
        }
        if (latest || !f->modules || (from && !base)) {
            names_bind(t, s, len, NAME_UNKNOWN, NULL, NULL, latest);
        } else if (from) {
            names_bind(t, s, len, NAME_IMPORT, dl_strdup(base), dl_strdup(full), false);
        } else {
            char *mod = ts_node_is_null(alias) ? dl_strndup(full, len) : dl_strdup(full);
            names_bind(t, s, len, NAME_IMPORT, join_dotted(import_root(f), mod), NULL,
                       false);
            free(mod);
        }
        free(full);
    }
    free(base);
}

void dl_lint_graph_node(dl_lint_file *f, TSNode n, const char *type)
{
    switch (type[0]) {
    case 'a':
        if (!strcmp(type, "assignment"))
            on_assignment(f, n);
        else if (!strcmp(type, "as_pattern_target"))
            bind_unknown(f, ts_node_named_child(n, 0));
        break;
    case 'c':
        if (!strcmp(type, "class_definition"))
            on_class(f, n);
        break;
    case 'f':
        if (!strcmp(type, "function_definition"))
            on_function(f, n);
        else if (!strcmp(type, "for_statement") || !strcmp(type, "for_in_clause"))
            bind_unknown(f, ts_node_child_by_field_name(n, "left", 4));
        break;
    case 'l':
        if (!strcmp(type, "lambda_parameters"))
            on_parameters(f, n);
        break;
    case 'i':
        if (!strcmp(type, "import_statement"))
            on_import(f, n, false);
        else if (!strcmp(type, "import_from_statement"))
            on_import(f, n, true);
        break;
    case 'p':
        if (!strcmp(type, "parameters"))
            on_parameters(f, n);
        break;
    default:
        break;
    }
}

void dl_lint_graph_call(dl_lint_file *f, TSNode call, const char *starts)
{
    size_t from = owner(f);
    struct dl_lint_graph *g;
    char *to;
    edge *e;
    if (from == FROM_NONE)
        return;
    g = graph_of(f);
    if (starts && from < g->n_defs && !g->defs[from].starts) {
        g->defs[from].starts = starts;
        g->defs[from].line = ts_node_start_point(call).row + 1;
    }
    to = callee_symbol(f, ts_node_child_by_field_name(call, "function", 8));
    if (!to)
        return;
    g->edges = dl_xgrow(g->edges, &g->cap_edges, g->n_edges + 1, sizeof *g->edges);
    e = &g->edges[g->n_edges++];
    e->from = from;
    e->to = to;
    e->start = ts_node_start_byte(call);
    e->end = ts_node_end_byte(call);
}

/* -------- resolving -------- */

static void resolve(struct dl_lint_graph *g, dl_lint_modules *m, const char *sym, targets *out,
                    unsigned depth);

static void add_target(targets *out, struct dl_lint_graph *g, size_t def)
{
    if (out->n < sizeof out->v / sizeof *out->v) {
        out->v[out->n].g = g;
        out->v[out->n++].def = def;
    }
}

/* cls.meth, or the first base class (in order) that has it */
static void method(struct dl_lint_graph *g, dl_lint_modules *m, const char *cls,
                   const char *meth, targets *out, unsigned depth)
{
    char *key = dl_fmt("%s.%s", cls, meth);
    size_t *i = strmap_find(&g->def_map, key, strlen(key)), j, before = out->n;
    free(key);
    if (i) {
        if (!g->defs[*i].is_class)
            add_target(out, g, *i);
        return;
    }
    i = strmap_find(&g->def_map, cls, strlen(cls));
    if (!i || depth > MAX_DEPTH)
        return;
    for (j = 0; j < g->defs[*i].bases.n && out->n == before; j++) {
        char *s = dl_fmt("%s.%s", g->defs[*i].bases.v[j], meth);
        resolve(g, m, s, out, depth + 1);
        free(s);
    }
}

/* base (a module path without extension) and a dotted rest: a submodule while one is
 * linted, then the rest within that module's file */
static void resolve_import(dl_lint_modules *m, const char *base, const char *rest,
                           targets *out, unsigned depth)
{
    char *b = dl_strdup(base);
    const char *file;
    for (;;) {
        size_t len = strcspn(rest, ".");
        char *sub = join(b, rest, len);
        bool is_module = dl_lint_module_file(m, sub) != NULL;
        if (is_module && rest[len] == '.') {
            free(b);
            b = sub;
            rest += len + 1;
            continue;
        }
        free(sub);
        if (!is_module && (file = dl_lint_module_file(m, b)) != NULL)
            resolve(dl_lint_module_graph(m, file), m, rest, out, depth + 1);
        break;
    }
    free(b);
}

static void resolve(struct dl_lint_graph *g, dl_lint_modules *m, const char *sym, targets *out,
                    unsigned depth)
{
    const char *dot = strchr(sym, '.'), *rest = dot ? dot + 1 : NULL;
    name_entry *e;
    char *s = NULL;
    size_t *i;
    if (!g || depth > MAX_DEPTH || !(e = names_find(&g->top, sym, dot ? (size_t)(dot - sym)
                                                                         : strlen(sym))))
        return;
    switch (e->kind) {
    case NAME_FUNC:
        if (!rest && (i = strmap_find(&g->def_map, e->ref, strlen(e->ref))) != NULL)
            add_target(out, g, *i);
        break;
    case NAME_CLASS:
        if (!rest) { /* an instance: __init__ runs (and a dataclass's __post_init__) */
            method(g, m, e->ref, "__init__", out, depth + 1);
            method(g, m, e->ref, "__post_init__", out, depth + 1);
        } else if (!strchr(rest, '.')) {
            method(g, m, e->ref, rest, out, depth + 1);
        }
        break;
    case NAME_ALIAS:
        s = rest ? dl_fmt("%s.%s", e->ref, rest) : dl_strdup(e->ref);
        break;
    case NAME_INSTANCE:
        s = dl_fmt("%s.%s", e->ref, rest ? rest : "__call__");
        break;
    case NAME_IMPORT:
        if (m && (e->member || rest)) {
            char *r = e->member && rest ? dl_fmt("%s.%s", e->member, rest)
                                        : dl_strdup(e->member ? e->member : rest);
            resolve_import(m, e->ref, r, out, depth + 1);
            free(r);
        }
        break;
    default:
        break;
    }
    if (s)
        resolve(g, m, s, out, depth + 1);
    free(s);
}

/* -------- closing -------- */

/* The edges grouped by their caller (a counting sort): adj[adj_at[d] .. adj_at[d + 1]). */
static void group_edges(struct dl_lint_graph *g)
{
    size_t slots = g->n_defs + 2, i, *fill;
    g->adj_at = dl_xcalloc(slots + 1, sizeof *g->adj_at);
    g->adj = dl_xmalloc((g->n_edges ? g->n_edges : 1) * sizeof *g->adj);
    for (i = 0; i < g->n_edges; i++) {
        size_t from = g->edges[i].from;
        g->adj_at[(from == FROM_MODULE ? g->n_defs : from == FROM_GUARD ? g->n_defs + 1 : from) + 1]++;
    }
    for (i = 0; i < slots; i++)
        g->adj_at[i + 1] += g->adj_at[i];
    fill = dl_xmalloc(slots * sizeof *fill);
    memcpy(fill, g->adj_at, slots * sizeof *fill);
    for (i = 0; i < g->n_edges; i++) {
        size_t from = g->edges[i].from;
        g->adj[fill[from == FROM_MODULE ? g->n_defs : from == FROM_GUARD ? g->n_defs + 1 : from]++] = i;
    }
    free(fill);
}

static size_t slot(const struct dl_lint_graph *g, size_t from)
{
    return from == FROM_MODULE ? g->n_defs : from == FROM_GUARD ? g->n_defs + 1 : from;
}

/* Does def start workers, itself or through its calls (any file)? Memoised; a cycle cut
 * short leaves "no" unmemoised, so a later question from elsewhere asks again. */
static const char *starts_through(struct dl_lint_graph *g, dl_lint_modules *m, size_t d,
                                  unsigned long *cuts, unsigned depth)
{
    def_entry *x = &g->defs[d];
    unsigned long before = *cuts;
    size_t k;
    if (x->memo == MEMO_YES || x->memo == MEMO_NO)
        return x->why;
    if (x->memo == MEMO_BUSY || depth > 64) {
        ++*cuts;
        return NULL;
    }
    if (x->starts) {
        x->memo = MEMO_YES;
        x->why = dl_fmt("%s, at %s:%u", x->starts, g->path, x->line);
        return x->why;
    }
    x->memo = MEMO_BUSY;
    for (k = g->adj_at[d]; k < g->adj_at[d + 1]; k++) {
        targets t = {0};
        size_t j;
        resolve(g, m, g->edges[g->adj[k]].to, &t, 0);
        for (j = 0; j < t.n; j++) {
            const char *w = starts_through(t.v[j].g, m, t.v[j].def, cuts, depth + 1);
            if (w) {
                x = &g->defs[d];
                x->memo = MEMO_YES;
                x->why = dl_strdup(w);
                return x->why;
            }
        }
    }
    x = &g->defs[d];
    x->memo = *cuts == before ? MEMO_NO : MEMO_NONE;
    return NULL;
}

/* Marks (reached or runs) every definition of this file the callers' edges lead to. */
static void mark_from(struct dl_lint_graph *g, dl_lint_modules *m, size_t from, bool reached)
{
    size_t *work = dl_xmalloc((g->n_defs + 1) * sizeof *work), n = 0, k;
    size_t s = slot(g, from);
    for (;;) {
        for (k = g->adj_at[s]; k < g->adj_at[s + 1]; k++) {
            targets t = {0};
            size_t j;
            resolve(g, m, g->edges[g->adj[k]].to, &t, 0);
            for (j = 0; j < t.n; j++) {
                def_entry *d;
                if (t.v[j].g != g)
                    continue;
                d = &g->defs[t.v[j].def];
                if (reached ? d->reached : d->runs)
                    continue;
                if (reached)
                    d->reached = true;
                d->runs = true;
                work[n++] = t.v[j].def;
            }
        }
        if (!n)
            break;
        s = work[--n];
    }
    free(work);
}

void dl_lint_graph_close(dl_lint_file *f)
{
    struct dl_lint_graph *g = graph_of(f);
    size_t i;
    unsigned long cuts = 0;
    g->cur = FROM_NONE;
    g->cur_name = NULL;
    names_free(&g->locals);
    group_edges(g);
    if (f->summary)
        return;
    mark_from(g, f->modules, FROM_MODULE, true);
    for (i = 0; i < g->n_defs; i++)
        if (g->defs[i].reached)
            g->defs[i].runs = true;
    mark_from(g, f->modules, FROM_GUARD, false);
    /* a file whose run starts workers in another linted file is re-imported by them */
    for (i = 0; f->modules && !f->starts_workers && i < g->n_edges; i++) {
        const edge *e = &g->edges[i];
        targets t = {0};
        size_t j;
        if (e->from < g->n_defs && !g->defs[e->from].runs)
            continue;
        resolve(g, f->modules, e->to, &t, 0);
        for (j = 0; j < t.n; j++)
            if (t.v[j].g != g && starts_through(t.v[j].g, f->modules, t.v[j].def, &cuts, 0))
                f->starts_workers = true;
    }
}

/* -------- the rules' questions -------- */

static const edge *edge_of(const struct dl_lint_graph *g, TSNode call)
{
    uint32_t start = ts_node_start_byte(call), end = ts_node_end_byte(call);
    size_t lo = 0, hi = g ? g->n_edges : 0;
    /* edges are in pre-order: by start, then the enclosing (longer) call first */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const edge *e = &g->edges[mid];
        if (e->start == start && e->end == end)
            return e;
        if (e->start < start || (e->start == start && e->end > end))
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const char *dl_lint_graph_reached_def(const dl_lint_file *f)
{
    char *key;
    size_t *i;
    if (!f->graph || !f->scope.def_name)
        return NULL;
    key = f->scope.cls ? dl_fmt("%.*s.%.*s", (int)f->scope.cls_len, f->scope.cls,
                                (int)f->scope.def_name_len, f->scope.def_name)
                       : dl_strndup(f->scope.def_name, f->scope.def_name_len);
    i = strmap_find(&f->graph->def_map, key, strlen(key));
    free(key);
    return i && f->graph->defs[*i].reached ? f->graph->defs[*i].key : NULL;
}

const char *dl_lint_graph_external_start(dl_lint_file *f, TSNode call)
{
    struct dl_lint_graph *g = f->graph;
    const edge *e = edge_of(g, call);
    targets t = {0};
    unsigned long cuts = 0;
    size_t j;
    if (!e || !f->modules || e->from == FROM_GUARD ||
        (e->from < g->n_defs && !g->defs[e->from].reached))
        return NULL;
    resolve(g, f->modules, e->to, &t, 0);
    for (j = 0; j < t.n; j++) {
        const char *w;
        if (t.v[j].g != g && (w = starts_through(t.v[j].g, f->modules, t.v[j].def, &cuts, 0))) {
            free(g->why_ext);
            g->why_ext = dl_strdup(w);
            return g->why_ext;
        }
    }
    return NULL;
}

/* sym names a class of this file, directly or through aliases */
static bool names_class(const struct dl_lint_graph *g, const char *sym, unsigned depth)
{
    const name_entry *e = strchr(sym, '.') ? NULL : names_find(&g->top, sym, strlen(sym));
    return e && depth < MAX_DEPTH &&
           (e->kind == NAME_CLASS || (e->kind == NAME_ALIAS && names_class(g, e->ref, depth + 1)));
}

bool dl_lint_graph_calls_local(const dl_lint_file *f, TSNode call)
{
    const edge *e = edge_of(f->graph, call);
    targets t = {0};
    size_t j;
    if (!e)
        return false;
    if (names_class(f->graph, e->to, 0))
        return true; /* its __init__ may be a base class's elsewhere: still built here */
    resolve(f->graph, f->modules, e->to, &t, 0);
    for (j = 0; j < t.n; j++)
        if (t.v[j].g == f->graph)
            return true;
    return false;
}

void dl_lint_graph_free(struct dl_lint_graph *g)
{
    size_t i;
    if (!g)
        return;
    for (i = 0; i < g->n_defs; i++) {
        free(g->defs[i].key);
        free(g->defs[i].why);
        dl_strv_free(&g->defs[i].bases);
    }
    free(g->defs);
    strmap_free(&g->def_map);
    for (i = 0; i < g->n_edges; i++)
        free(g->edges[i].to);
    free(g->edges);
    free(g->adj);
    free(g->adj_at);
    names_free(&g->top);
    names_free(&g->locals);
    free(g->root);
    free(g->why_ext);
    free(g->path);
    free(g);
}

struct dl_lint_graph *dl_lint_graph_take(dl_lint_file *f)
{
    struct dl_lint_graph *g = f->graph;
    f->graph = NULL;
    return g;
}
