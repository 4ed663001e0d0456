/* Names: what each import binds, the qualified name an expression stands for, and the
 * facts about the whole file the rules weigh (is there a CUDA fallback, an atomic
 * replace, a seed; where CUDA is first touched; the call graph, callgraph.c). */
#include "lint/callgraph.h"
#include "lint/engine.h"
#include "lint/visit.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void bind(dl_lint_file *f, const char *local, size_t local_len, const char *qualified)
{
    dl_lint_binding *b;
    f->bindings = dl_xrealloc(f->bindings, (f->n_bindings + 1) * sizeof *f->bindings);
    b = &f->bindings[f->n_bindings++];
    b->local = dl_strndup(local, local_len);
    b->qualified = dl_strdup(qualified);
}

/* The text of a dotted_name without the spaces a continuation line may leave in it. */
static char *dotted(const dl_lint_file *f, TSNode n)
{
    size_t len, i;
    const char *t = dl_lint_text(f, n, &len);
    dl_buf b = {0};
    for (i = 0; i < len; i++)
        if (t[i] != ' ' && t[i] != '\t' && t[i] != '\\' && t[i] != '\n' && t[i] != '\r')
            dl_buf_add(&b, t + i, 1);
    dl_buf_add(&b, "", 0);
    return dl_buf_take(&b);
}

/* import a.b, import a.b as c */
static void bind_import(dl_lint_file *f, TSNode stmt)
{
    uint32_t i, n = ts_node_named_child_count(stmt);
    for (i = 0; i < n; i++) {
        TSNode c = ts_node_named_child(stmt, i);
        if (dl_lint_is(c, "dotted_name")) {
            char *full = dotted(f, c);
            size_t first = strcspn(full, ".");
            char *top = dl_strndup(full, first);
            bind(f, full, first, top);
            free(top);
            free(full);
        } else if (dl_lint_is(c, "aliased_import")) {
            TSNode name = ts_node_child_by_field_name(c, "name", 4);
            TSNode alias = ts_node_child_by_field_name(c, "alias", 5);
            size_t len;
            const char *a;
            char *full;
            if (ts_node_is_null(name) || ts_node_is_null(alias))
                continue;
            full = dotted(f, name);
            a = dl_lint_text(f, alias, &len);
            bind(f, a, len, full);
            free(full);
        }
    }
}

/* from a.b import c, from a.b import c as d */
static void bind_from(dl_lint_file *f, TSNode stmt)
{
    TSNode module = ts_node_child_by_field_name(stmt, "module_name", 11);
    uint32_t i, n = ts_node_named_child_count(stmt);
    char *from;
    if (ts_node_is_null(module) || !dl_lint_is(module, "dotted_name"))
        return; /* relative imports name this project's modules, not torch's */
    from = dotted(f, module);
    for (i = 0; i < n; i++) {
        TSNode c = ts_node_named_child(stmt, i), name = c, alias = c;
        char *last, *full;
        size_t len;
        const char *local;
        if (ts_node_eq(c, module))
            continue;
        if (dl_lint_is(c, "aliased_import")) {
            name = ts_node_child_by_field_name(c, "name", 4);
            alias = ts_node_child_by_field_name(c, "alias", 5);
            if (ts_node_is_null(name) || ts_node_is_null(alias))
                continue;
        } else if (!dl_lint_is(c, "dotted_name")) {
            continue;
        }
        last = dotted(f, name);
        full = dl_fmt("%s.%s", from, last);
        local = dl_lint_text(f, alias, &len);
        bind(f, local, len, full);
        free(full);
        free(last);
    }
    free(from);
}

static void bindings_pass(dl_lint_file *f, TSNode n, const char *type, void *ctx)
{
    (void)ctx;
    if (!strcmp(type, "import_statement"))
        bind_import(f, n);
    else if (!strcmp(type, "import_from_statement"))
        bind_from(f, n);
}

static bool append(char *buf, size_t size, size_t *at, const char *s, size_t len)
{
    if (*at + len + 1 > size)
        return false;
    memcpy(buf + *at, s, len);
    *at += len;
    buf[*at] = '\0';
    return true;
}

static bool qualify(const dl_lint_file *f, TSNode e, char *buf, size_t size, size_t *at)
{
    size_t len, i;
    const char *t;
    if (dl_lint_is(e, "identifier")) {
        t = dl_lint_text(f, e, &len);
        /* the last binding wins: a later import rebinds the name */
        for (i = f->n_bindings; i-- > 0;)
            if (strlen(f->bindings[i].local) == len && !memcmp(f->bindings[i].local, t, len))
                return append(buf, size, at, f->bindings[i].qualified,
                              strlen(f->bindings[i].qualified));
        return append(buf, size, at, t, len);
    }
    if (dl_lint_is(e, "attribute")) {
        TSNode obj = ts_node_child_by_field_name(e, "object", 6);
        TSNode attr = ts_node_child_by_field_name(e, "attribute", 9);
        if (ts_node_is_null(obj) || ts_node_is_null(attr) || !qualify(f, obj, buf, size, at))
            return false;
        t = dl_lint_text(f, attr, &len);
        return append(buf, size, at, ".", 1) && append(buf, size, at, t, len);
    }
    return false;
}

const char *dl_lint_qualified(const dl_lint_file *f, TSNode expr, char *buf, size_t size)
{
    size_t at = 0;
    if (size == 0)
        return NULL;
    buf[0] = '\0';
    return qualify(f, expr, buf, size, &at) ? buf : NULL;
}

static TSNode unparenthesized(TSNode n)
{
    while (dl_lint_is(n, "parenthesized_expression"))
        n = ts_node_named_child(n, 0);
    return n;
}

/* `__name__ == "__main__"` (either side; op "==") or `!=`: 1 and -1; 0: neither. */
static int main_comparison(const dl_lint_file *f, TSNode cond)
{
    TSNode a, b, op;
    size_t len;
    const char *t;
    cond = unparenthesized(cond);
    if (!dl_lint_is(cond, "comparison_operator") || ts_node_named_child_count(cond) != 2 ||
        ts_node_child_count(cond) != 3)
        return 0;
    a = unparenthesized(ts_node_named_child(cond, 0));
    b = unparenthesized(ts_node_named_child(cond, 1));
    op = ts_node_child(cond, 1);
    if (dl_lint_is(b, "identifier")) {
        TSNode x = a;
        a = b;
        b = x;
    }
    if (!dl_lint_text_is(f, a, "__name__") || !dl_lint_string_is(f, b, "__main__"))
        return 0;
    t = dl_lint_text(f, op, &len);
    return len == 2 && !memcmp(t, "==", 2) ? 1 : len == 2 && !memcmp(t, "!=", 2) ? -1 : 0;
}

/* `__name__ == "__main__"`, alone or as an operand of `and` (its body still runs only in
 * the main process) */
static bool main_condition(const dl_lint_file *f, TSNode cond)
{
    TSNode op;
    size_t len;
    const char *t;
    cond = unparenthesized(cond);
    if (main_comparison(f, cond) == 1)
        return true;
    if (!dl_lint_is(cond, "boolean_operator"))
        return false;
    op = ts_node_child_by_field_name(cond, "operator", 8);
    t = ts_node_is_null(op) ? "" : dl_lint_text(f, op, &len);
    return !strncmp(t, "and", 3) &&
           (main_condition(f, ts_node_child_by_field_name(cond, "left", 4)) ||
            main_condition(f, ts_node_child_by_field_name(cond, "right", 5)));
}

TSNode dl_lint_main_guard_body(const dl_lint_file *f, TSNode if_statement)
{
    TSNode cond = ts_node_child_by_field_name(if_statement, "condition", 9);
    if (main_condition(f, cond))
        return ts_node_child_by_field_name(if_statement, "consequence", 11);
    if (main_comparison(f, cond) == -1) { /* if __name__ != "__main__": ... else: guarded */
        TSNode alt = ts_node_child_by_field_name(if_statement, "alternative", 11);
        return dl_lint_is(alt, "else_clause") ? alt : (TSNode){0};
    }
    return (TSNode){0};
}

bool dl_lint_is_main_guard(const dl_lint_file *f, TSNode if_statement)
{
    return !ts_node_is_null(dl_lint_main_guard_body(f, if_statement));
}

/* A call that touches CUDA (creates its context or fixes the visible devices). */
static bool touches_cuda(const dl_lint_file *f, TSNode call, const char *q)
{
    TSNode fn = ts_node_child_by_field_name(call, "function", 8);
    if (q && dl_starts_with(q, "torch.cuda.") && strcmp(q, "torch.cuda.is_available") != 0 &&
        !dl_starts_with(q, "torch.cuda.amp."))
        return true;
    if (dl_lint_is(fn, "attribute")) {
        TSNode attr = ts_node_child_by_field_name(fn, "attribute", 9);
        if (dl_lint_text_is(f, attr, "cuda"))
            return true;
        if (dl_lint_text_is(f, attr, "to")) {
            TSNode a = dl_lint_arg(call, 0);
            size_t len;
            const char *t = ts_node_is_null(a) ? "" : dl_lint_text(f, a, &len);
            return !ts_node_is_null(a) && dl_lint_is(a, "string") && len >= 6 &&
                   !memcmp(t + 1, "cuda", 4);
        }
    }
    return false;
}

static void facts_call(dl_lint_file *f, TSNode call)
{
    char buf[256];
    const char *starts;
    TSNode fn = ts_node_child_by_field_name(call, "function", 8);
    const char *q = dl_lint_qualified(f, fn, buf, sizeof buf);
    if (q && (!strcmp(q, "os.replace") || !strcmp(q, "shutil.move")))
        f->replaces_atomically = true;
    if (dl_lint_is(fn, "attribute") && !q) {
        TSNode attr = ts_node_child_by_field_name(fn, "attribute", 9);
        /* Path(tmp).replace(final): one argument, unlike str.replace(old, new) */
        if (dl_lint_text_is(f, attr, "replace") && !ts_node_is_null(dl_lint_arg(call, 0)) &&
            ts_node_is_null(dl_lint_arg(call, 1)))
            f->replaces_atomically = true;
    }
    if (q && (!strcmp(q, "torch.manual_seed") || !strcmp(q, "torch.cuda.manual_seed_all") ||
              !strcmp(q, "torch.cuda.manual_seed") ||
              !strcmp(q, "torch.use_deterministic_algorithms")))
        f->seeds = true;
    if (f->first_cuda_use == SIZE_MAX && touches_cuda(f, call, q))
        f->first_cuda_use = ts_node_start_byte(call);
    starts = dl_lint_starts_workers(f, call, q);
    if (starts)
        f->starts_workers = true;
    dl_lint_graph_call(f, call, starts);
}

static void facts_pass(dl_lint_file *f, TSNode n, const char *type, void *ctx)
{
    (void)ctx;
    if (!strcmp(type, "call")) {
        facts_call(f, n);
    } else if (!strcmp(type, "string_content")) {
        size_t len, i;
        const char *t = dl_lint_text(f, n, &len);
        for (i = 0; !f->sets_use_libuv && i + 9 <= len; i++)
            f->sets_use_libuv = !memcmp(t + i, "USE_LIBUV", 9);
    } else {
        dl_lint_graph_node(f, n, type);
    }
}

void dl_lint_collect(dl_lint_file *f)
{
    f->first_cuda_use = SIZE_MAX;
    dl_lint_visit(f, bindings_pass, NULL);
    dl_lint_visit(f, facts_pass, NULL);
    dl_lint_graph_close(f);
}

void dl_lint_file_free(dl_lint_file *f)
{
    size_t i;
    for (i = 0; i < f->n_bindings; i++) {
        free(f->bindings[i].local);
        free(f->bindings[i].qualified);
    }
    free(f->bindings);
    f->bindings = NULL;
    f->n_bindings = 0;
    dl_lint_graph_free(f->graph);
    f->graph = NULL;
}
