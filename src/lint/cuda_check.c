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

/* A check inside n that starts before limit, not inside a nested definition. */
static bool asks_in(const dl_lint_file *f, TSNode n, size_t limit)
{
    TSTreeCursor c = ts_tree_cursor_new(n);
    bool found = false;
    for (;;) {
        TSNode cur = ts_tree_cursor_current_node(&c);
        bool descend = ts_node_start_byte(cur) < limit;
        if (descend && is_check_name(f, cur)) {
            found = true;
            break;
        }
        if (descend && !ts_node_eq(cur, n) && is_scope(cur))
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
    return !ts_node_is_null(n) && asks_in(f, n, SIZE_MAX);
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

/* A statement of scope's own body, before limit, that stops when there is no device. */
static bool stops_without_device(const dl_lint_file *f, TSNode scope, size_t limit)
{
    TSNode body = dl_lint_is(scope, "module") ? scope
                                               : ts_node_child_by_field_name(scope, "body", 4);
    uint32_t i, n = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
    for (i = 0; i < n; i++) {
        TSNode s = ts_node_named_child(body, i);
        if (ts_node_start_byte(s) >= limit)
            break;
        if (dl_lint_is(s, "assert_statement") && asks(f, s))
            return true;
        if (dl_lint_is(s, "if_statement") &&
            asks(f, ts_node_child_by_field_name(s, "condition", 9)) &&
            stops(f, ts_node_child_by_field_name(s, "consequence", 11)))
            return true;
    }
    return false;
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

bool dl_lint_cuda_checked(const dl_lint_file *f, TSNode at)
{
    size_t limit = ts_node_start_byte(at);
    bool innermost = true;
    TSNode n;
    for (n = ts_node_parent(at); !ts_node_is_null(n); n = ts_node_parent(n)) {
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
        if (innermost && asks_in(f, n, limit))
            return true;
        if (stops_without_device(f, n, limit))
            return true;
        innermost = false;
    }
    return false;
}
