/* The walk over a file's tree that both passes use: every named node once, in source
 * order, with f->scope saying where it is (inside a function, lambda or class definition,
 * which one, in the block the `__main__` guard guards). Iterative, so a deeply nested generated file cannot exhaust the
 * stack. */
#include "lint/visit.h"

#include <stdlib.h>
#include <string.h>

typedef struct frame {
    TSNode node;
    dl_lint_scope saved;
} frame;

static void name_of(const dl_lint_file *f, TSNode n, const char **name, size_t *len)
{
    TSNode id = ts_node_child_by_field_name(n, "name", 4);
    if (!ts_node_is_null(id))
        *name = dl_lint_text(f, id, len);
}

/* Updates f->scope for entering n; *pushed when n opens a scope to undo on leaving. The
 * def_name is a top-level function's, or a method's of a top-level class (the call
 * graph's keys: "train", "Trainer.fit"); the code of a guard is its guarded block only
 * (the else of `if __name__ == "__main__"` runs in every worker too). */
static void enter(dl_lint_file *f, TSNode n, const char *type, frame *top, bool *pushed)
{
    bool func = !strcmp(type, "function_definition") || !strcmp(type, "lambda");
    bool cls = !func && !strcmp(type, "class_definition");
    bool guard_if = !func && !cls && !strcmp(type, "if_statement");
    bool guarded = f->scope.guard_body && n.id == f->scope.guard_body;
    TSNode body = guard_if ? dl_lint_main_guard_body(f, n) : (TSNode){0};
    *pushed = false;
    if (!func && !cls && ts_node_is_null(body) && !guarded)
        return;
    top->node = n;
    top->saved = f->scope;
    *pushed = true;
    if (guarded) {
        f->scope.main_guards++;
        f->scope.guard_body = NULL;
        return;
    }
    if (!ts_node_is_null(body)) {
        f->scope.guard_body = body.id;
        return;
    }
    if (cls && f->scope.defs == 0)
        name_of(f, n, &f->scope.cls, &f->scope.cls_len);
    if (type[0] == 'f' && (f->scope.defs == 0 || (f->scope.defs == 1 && f->scope.cls &&
                                                  f->scope.funcs == 0)))
        name_of(f, n, &f->scope.def_name, &f->scope.def_name_len);
    f->scope.defs++;
    f->scope.funcs += func;
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
