/* The walk over a file's tree that both passes use: every named node once, in source
 * order, with f->scope saying where it is (inside a function or class definition, under
 * the `__main__` guard). Iterative, so a deeply nested generated file cannot exhaust the
 * stack. */
#include "lint/visit.h"

#include <stdlib.h>
#include <string.h>

typedef struct frame {
    TSNode node;
    dl_lint_scope saved;
} frame;

static void enter(dl_lint_file *f, TSNode n, const char *type, frame *top, bool *pushed)
{
    bool def = !strcmp(type, "function_definition") || !strcmp(type, "class_definition");
    bool guard = !def && !strcmp(type, "if_statement") && dl_lint_is_main_guard(f, n);
    *pushed = false;
    if (!def && !guard)
        return;
    top->node = n;
    top->saved = f->scope;
    *pushed = true;
    if (guard) {
        f->scope.main_guards++;
        return;
    }
    if (f->scope.defs++ == 0 && type[0] == 'f') {
        TSNode name = ts_node_child_by_field_name(n, "name", 4);
        if (!ts_node_is_null(name))
            f->scope.def_name = dl_lint_text(f, name, &f->scope.def_name_len);
    }
}

void dl_lint_visit(dl_lint_file *f, dl_lint_visitor visit, void *ctx)
{
    TSTreeCursor c = ts_tree_cursor_new(f->root);
    frame *stack = NULL;
    size_t depth = 0, cap = 0;
    memset(&f->scope, 0, sizeof f->scope);
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&c);
        if (ts_node_is_named(n)) {
            const char *type = ts_node_type(n);
            bool pushed;
            if (depth == cap) {
                cap = cap ? cap * 2 : 16;
                stack = dl_xrealloc(stack, cap * sizeof *stack);
            }
            enter(f, n, type, &stack[depth], &pushed);
            depth += pushed;
            visit(f, n, type, ctx);
        }
        if (ts_tree_cursor_goto_first_child(&c))
            continue;
        for (;;) {
            /* leaving the current node: undo its scope */
            TSNode cur = ts_tree_cursor_current_node(&c);
            if (depth && ts_node_eq(stack[depth - 1].node, cur))
                f->scope = stack[--depth].saved;
            if (ts_tree_cursor_goto_next_sibling(&c))
                break;
            if (!ts_tree_cursor_goto_parent(&c))
                goto done;
        }
    }
done:
    ts_tree_cursor_delete(&c);
    free(stack);
    memset(&f->scope, 0, sizeof f->scope);
}
