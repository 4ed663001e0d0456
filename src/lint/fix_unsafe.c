/* The unsafe fixes (--unsafe-fixes): correct rewrites that change what the program does,
 * so they are offered only when asked for and should be reviewed (docs/lint.md):
 * `weights_only=True` and `map_location="cpu"` added to torch.load, and module code
 * wrapped in `if __name__ == "__main__":`. */
#include "lint/engine.h"

#include <stdlib.h>
#include <string.h>

void dl_lint_fix_add_kwarg(dl_lint_file *f, dl_lint_finding *x, TSNode call,
                           const char *text)
{
    TSNode args = ts_node_child_by_field_name(call, "arguments", 9), last = {{0}, 0, 0};
    uint32_t i, n;
    char *edit;
    if (!x || !f->opts->unsafe_fixes || !dl_lint_is(args, "argument_list"))
        return;
    n = ts_node_named_child_count(args);
    for (i = 0; i < n; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (!dl_lint_is(a, "comment"))
            last = a;
    }
    if (ts_node_is_null(last))
        return;
    /* right after the last argument: before a trailing comma or a comment */
    x->unsafe_fix = true;
    edit = dl_fmt(", %s", text);
    dl_lint_fix_add(x, ts_node_end_byte(last), ts_node_end_byte(last), edit);
    free(edit);
}

static bool starts_module_code(const dl_lint_file *f, TSNode s)
{
    (void)f;
    return !dl_lint_is(s, "import_statement") && !dl_lint_is(s, "import_from_statement") &&
           !dl_lint_is(s, "future_import_statement") &&
           !dl_lint_is(s, "function_definition") && !dl_lint_is(s, "class_definition") &&
           !dl_lint_is(s, "decorated_definition");
}

/* A string over more than one line: indenting its lines would change its value. */
static bool has_multiline_string(TSNode n)
{
    TSTreeCursor c = ts_tree_cursor_new(n);
    bool found = false;
    for (;;) {
        TSNode cur = ts_tree_cursor_current_node(&c);
        if (dl_lint_is(cur, "string") &&
            ts_node_start_point(cur).row != ts_node_end_point(cur).row) {
            found = true;
            break;
        }
        if (ts_tree_cursor_goto_first_child(&c))
            continue;
        while (!ts_tree_cursor_goto_next_sibling(&c))
            if (!ts_tree_cursor_goto_parent(&c))
                goto done;
    }
done:
    ts_tree_cursor_delete(&c);
    return found;
}

static bool has_type(TSNode n, const char *type)
{
    uint32_t i, count = ts_node_named_child_count(n);
    if (dl_lint_is(n, type))
        return true;
    for (i = 0; i < count; i++)
        if (has_type(ts_node_named_child(n, i), type))
            return true;
    return false;
}

/* `NAME = value` with no call in it: a constant, not work. */
static bool plain_assignment(TSNode s)
{
    TSNode e = ts_node_named_child(s, 0);
    return dl_lint_is(s, "expression_statement") && dl_lint_is(e, "assignment") &&
           !has_type(e, "call");
}

/* Where the wrap starts: the first of the module's last statements that follow every
 * import and definition (workers unpickle functions by name from the re-imported module,
 * so definitions must stay outside); SIZE_MAX when it is not safely possible: the file
 * has a guard already or a syntax error, or a statement there holds a string over several
 * lines, or a line there starts with a tab. */
static size_t wrap_start(const dl_lint_file *f)
{
    uint32_t i, n = ts_node_named_child_count(f->root), from = n;
    size_t start, k;
    if (ts_node_has_error(f->root))
        return SIZE_MAX;
    for (i = n; i > 0; i--) {
        TSNode s = ts_node_named_child(f->root, i - 1);
        if (dl_lint_is(s, "if_statement") && dl_lint_is_main_guard(f, s))
            return SIZE_MAX;
        if (!starts_module_code(f, s))
            break;
        from = i - 1;
    }
    for (i = 0; i < from; i++)
        if (dl_lint_is(ts_node_named_child(f->root, i), "if_statement") &&
            dl_lint_is_main_guard(f, ts_node_named_child(f->root, i)))
            return SIZE_MAX;
    /* leading comments and call-free assignments (constants a worker's functions may
     * read) stay where they are */
    while (from < n && (dl_lint_is(ts_node_named_child(f->root, from), "comment") ||
                        plain_assignment(ts_node_named_child(f->root, from))))
        from++;
    if (from == n)
        return SIZE_MAX;
    for (i = from; i < n; i++)
        if (has_multiline_string(ts_node_named_child(f->root, i)))
            return SIZE_MAX;
    start = ts_node_start_byte(ts_node_named_child(f->root, from));
    if (ts_node_start_point(ts_node_named_child(f->root, from)).column != 0)
        return SIZE_MAX;
    for (k = start; k < f->len; k++)
        if ((k == start || f->src[k - 1] == '\n') && f->src[k] == '\t')
            return SIZE_MAX;
    return start;
}

void dl_lint_fix_wrap_main(dl_lint_file *f, dl_lint_finding *x, TSNode at)
{
    size_t start, k;
    const char *nl;
    char *head;
    if (!x || !f->opts->unsafe_fixes || f->wrap_offered)
        return;
    start = wrap_start(f);
    if (start == SIZE_MAX || ts_node_start_byte(at) < start)
        return;
    f->wrap_offered = true;
    x->unsafe_fix = true;
    nl = start >= 2 && f->src[start - 2] == '\r' ? "\r\n" : "\n";
    head = dl_fmt("if __name__ == \"__main__\":%s    ", nl);
    dl_lint_fix_add(x, start, start, head);
    free(head);
    for (k = start + 1; k < f->len; k++) {
        size_t e = k;
        if (f->src[k - 1] != '\n')
            continue;
        while (e < f->len && (f->src[e] == ' ' || f->src[e] == '\r'))
            e++;
        if (e < f->len && f->src[e] != '\n') /* blank lines stay empty */
            dl_lint_fix_add(x, k, k, "    ");
    }
}
