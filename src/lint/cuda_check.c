/* Whether a CUDA use is on a path that asked torch.cuda.is_available() (or
 * device_count()) first. Scope-aware, so one check somewhere in the file no longer
 * silences every use:
 *   - the use sits in an if / elif / while / conditional expression / `and` whose
 *     condition asks (either branch: the other one is the CPU path);
 *   - its own function (or the module, for module code) asks before it, nested
 *     definitions left out (`use_cuda = torch.cuda.is_available()`, an early return);
 *   - an enclosing function or the module stops before it when there is no device:
 *     `assert torch.cuda.is_available()` or `if not torch.cuda.is_available(): raise
 *     / sys.exit(...)` among its statements.
 * A device variable chosen with a fallback (`device = "cuda" if ... else "cpu"`) and then
 * used (`.to(device)`) is never a fixed "cuda" string, so its uses do not fire at all. */
#include "lint/rules.h"

#include <string.h>

static bool is_scope(TSNode n)
{
    return dl_lint_is(n, "function_definition") || dl_lint_is(n, "lambda") ||
           dl_lint_is(n, "module");
}

static bool is_check_name(const dl_lint_file *f, TSNode n)
{
    char buf[256];
    const char *q;
    if (!dl_lint_is(n, "attribute") && !dl_lint_is(n, "identifier"))
        return false;
    q = dl_lint_qualified(f, n, buf, sizeof buf);
    return q && (!strcmp(q, "torch.cuda.is_available") || !strcmp(q, "torch.cuda.device_count"));
}

/* The offset of the first check inside n, nested definitions left out; SIZE_MAX: none. */
static size_t first_check(const dl_lint_file *f, TSNode n)
{
    TSTreeCursor c = ts_tree_cursor_new(n);
    size_t found = SIZE_MAX;
    for (;;) {
        TSNode cur = ts_tree_cursor_current_node(&c);
        bool descend = true;
        if (is_check_name(f, cur)) {
            found = ts_node_start_byte(cur);
            break;
        }
        if (!ts_node_eq(cur, n) && is_scope(cur))
            descend = false;
        if (descend && ts_tree_cursor_goto_first_child(&c))
            continue;
        while (!ts_tree_cursor_goto_next_sibling(&c))
            if (!ts_tree_cursor_goto_parent(&c) || ts_node_eq(ts_tree_cursor_current_node(&c), n))
                goto done;
    }
done:
    ts_tree_cursor_delete(&c);
    return found;
}

static bool asks(const dl_lint_file *f, TSNode n)
{
    return !ts_node_is_null(n) && first_check(f, n) != SIZE_MAX;
}

/* Stops the run: raise, sys.exit / exit / quit, or a return from a function. */
static bool stops(const dl_lint_file *f, TSNode block)
{
    uint32_t i, n = ts_node_named_child_count(block);
    for (i = 0; i < n; i++) {
        TSNode s = ts_node_named_child(block, i), e;
        char buf[256];
        const char *q;
        if (dl_lint_is(s, "raise_statement") || dl_lint_is(s, "return_statement"))
            return true;
        if (!dl_lint_is(s, "expression_statement"))
            continue;
        e = ts_node_named_child(s, 0);
        if (!dl_lint_is(e, "call"))
            continue;
        q = dl_lint_qualified(f, ts_node_child_by_field_name(e, "function", 8), buf, sizeof buf);
        if (q && (!strcmp(q, "sys.exit") || !strcmp(q, "exit") || !strcmp(q, "quit") ||
                  !strcmp(q, "os._exit")))
            return true;
    }
    return false;
}

/* The offset of the first statement of scope's own body that stops when there is no
 * device; SIZE_MAX: none. */
static size_t first_stop(const dl_lint_file *f, TSNode scope)
{
    TSNode body = dl_lint_is(scope, "module") ? scope
                                               : ts_node_child_by_field_name(scope, "body", 4);
    uint32_t i, n = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
    for (i = 0; i < n; i++) {
        TSNode s = ts_node_named_child(body, i);
        if ((dl_lint_is(s, "assert_statement") && asks(f, s)) ||
            (dl_lint_is(s, "if_statement") &&
             asks(f, ts_node_child_by_field_name(s, "condition", 9)) &&
             stops(f, ts_node_child_by_field_name(s, "consequence", 11))))
            return ts_node_start_byte(s);
    }
    return SIZE_MAX;
}

static bool condition_asks(const dl_lint_file *f, TSNode n)
{
    if (dl_lint_is(n, "if_statement") || dl_lint_is(n, "elif_clause") ||
        dl_lint_is(n, "while_statement"))
        return asks(f, ts_node_child_by_field_name(n, "condition", 9));
    if (dl_lint_is(n, "conditional_expression"))
        return asks(f, ts_node_named_child(n, 1)); /* a if COND else b */
    if (dl_lint_is(n, "boolean_operator"))
        return asks(f, ts_node_child_by_field_name(n, "left", 4));
    if (dl_lint_is(n, "if_clause")) /* [x.cuda() for x in xs if ...] */
        return asks(f, n);
    return false;
}

/* Per scope, once: where its first check is, and where its first statement that stops
 * without a device is (SIZE_MAX: none), so many uses in one big scope cost one scan. */
static const dl_lint_scope_facts *scope_facts(dl_lint_file *f, TSNode scope)
{
    dl_lint_scope_facts *c;
    size_t i;
    for (i = 0; i < DL_LINT_SCOPE_CACHE; i++)
        if (f->scope_cache[i].id && f->scope_cache[i].id == scope.id)
            return &f->scope_cache[i];
    c = &f->scope_cache[f->scope_cache_next++ % DL_LINT_SCOPE_CACHE];
    c->id = scope.id;
    c->first_check = first_check(f, scope);
    c->first_stop = first_stop(f, scope);
    return c;
}

bool dl_lint_cuda_checked(dl_lint_file *f, TSNode at)
{
    size_t limit = ts_node_start_byte(at);
    bool innermost = true;
    TSNode n;
    for (n = ts_node_parent(at); !ts_node_is_null(n); n = ts_node_parent(n)) {
        const dl_lint_scope_facts *facts;
        if (condition_asks(f, n))
            return true;
        if (dl_lint_is(n, "if_statement")) {
            /* an elif / else branch: the if's own condition was asked first */
            TSNode cons = ts_node_child_by_field_name(n, "consequence", 11);
            if (ts_node_end_byte(cons) <= limit &&
                asks(f, ts_node_child_by_field_name(n, "condition", 9)))
                return true;
        }
        if (!is_scope(n))
            continue;
        facts = scope_facts(f, n);
        if (innermost && facts->first_check < limit)
            return true;
        if (facts->first_stop < limit)
            return true;
        innermost = false;
    }
    return false;
}
