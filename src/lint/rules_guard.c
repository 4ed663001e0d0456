/* guard: worker processes started where a spawned child re-runs them. With the spawn
 * start method (Windows, macOS) each worker imports the main module again: a DataLoader
 * with workers, mp.spawn, a Pool or a Process started by module code outside
 * `if __name__ == "__main__":` starts again in every child (RuntimeError: "An attempt
 * has been made to start a new process before the current process has finished its
 * bootstrapping phase"). Reachable means: module code itself (class bodies and top-level
 * if / try / for / with blocks included), or a function or method the call graph
 * (callgraph.c) leads to from there, in this file or, through imports, in another file
 * of the run (then reported at the call that leaves this file).
 * And in a file that starts workers at all (guarded or not), the heavy module code every
 * spawned worker runs again when it re-imports the file (guard_node below). */
#include "lint/callgraph.h"
#include "lint/rules.h"

#include <stdlib.h>
#include <string.h>

static const char *const starters[] = {
    "torch.multiprocessing.spawn", "torch.multiprocessing.start_processes",
    "multiprocessing.Pool", "multiprocessing.Process", "torch.multiprocessing.Pool",
    "torch.multiprocessing.Process", "concurrent.futures.ProcessPoolExecutor",
    "multiprocessing.pool.Pool",
};

const char *dl_lint_starts_workers(const dl_lint_file *f, TSNode call, const char *q)
{
    size_t i;
    if (dl_lint_name_ends(q, "DataLoader")) {
        TSNode w = dl_lint_kwarg(f, call, "num_workers");
        long long n;
        if (ts_node_is_null(w) || (dl_lint_int_value(f, w, &n) && n == 0))
            return NULL;
        return "a DataLoader with worker processes";
    }
    for (i = 0; q && i < sizeof starters / sizeof *starters; i++)
        if (!strcmp(q, starters[i]))
            return starters[i];
    return NULL;
}

static dl_lint_severity guard_severity(const dl_lint_file *f)
{
    /* fork (Linux's default before Python 3.14) does not re-import: there it only breaks
     * once the script moves */
    return f->opts->target.os == DL_LINT_OS_LINUX     ? DL_LINT_INFO
           : f->opts->target.os == DL_LINT_OS_UNKNOWN ? DL_LINT_WARNING
                                                      : DL_LINT_ERROR;
}

/* A call of a function in another linted file that starts workers, from unguarded module
 * code or a definition it reaches: reported here, where the guard belongs. */
static void guard_external(dl_lint_file *f, TSNode call)
{
    const char *why = dl_lint_graph_external_start(f, call);
    const char *key;
    size_t len;
    const char *callee;
    if (!why)
        return;
    callee = dl_lint_text(f, ts_node_child_by_field_name(call, "function", 8), &len);
    if (len > 80)
        len = 80; /* Trainer(a long argument list).fit */
    key = f->scope.funcs ? dl_lint_graph_reached_def(f) : NULL;
    if (key)
        dl_lint_report(f, call, "guard", guard_severity(f),
                       "%.*s() starts worker processes (%s), called in %s(), which module "
                       "code reaches with no `if __name__ == \"__main__\":` guard: with the "
                       "spawn start method (Windows, macOS) every worker re-runs it; make "
                       "the module code's call that leads to %s() under the guard",
                       (int)len, callee, why, key, key);
    else if (!f->scope.funcs)
        dl_lint_fix_wrap_main(
            f,
            dl_lint_report(f, call, "guard", guard_severity(f),
                           "%.*s() starts worker processes (%s), called by module code with "
                           "no `if __name__ == \"__main__\":` guard: with the spawn start "
                           "method (Windows, macOS) every worker re-runs it; call it under "
                           "the guard",
                           (int)len, callee, why),
            call);
}

void dl_lint_rule_guard(dl_lint_file *f, TSNode call, const char *q)
{
    const char *what, *key = NULL;
    if (f->scope.main_guards)
        return;
    if (!(what = dl_lint_starts_workers(f, call, q))) {
        guard_external(f, call);
        return;
    }
    if (f->scope.funcs && !(key = dl_lint_graph_reached_def(f)))
        return;
    if (key && strchr(key, '.')) /* a method: the module code's call is what moves */
        dl_lint_report(f, call, "guard", guard_severity(f),
                       "%s, in %s(), which module code reaches with no `if __name__ == "
                       "\"__main__\":` guard: with the spawn start method (Windows, macOS) "
                       "every worker re-runs it; make the module code's call that leads "
                       "here under the guard",
                       what, key);
    else if (key)
        dl_lint_report(f, call, "guard", guard_severity(f),
                       "%s, in %s(), which module code reaches with no `if __name__ == "
                       "\"__main__\":` guard: with the spawn start method (Windows, macOS) "
                       "every worker re-runs it; call %s() under the guard",
                       what, key, key);
    else
        dl_lint_fix_wrap_main(
            f,
            dl_lint_report(f, call, "guard", guard_severity(f),
                           "%s started by module code with no `if __name__ == \"__main__\":` "
                           "guard: with the spawn start method (Windows, macOS) every worker "
                           "re-runs it; move it into main() and call that under the guard",
                           what),
            call);
}

/* The call a statement makes: `f(...)`, `x = f(...)`, `x: T = f(...)`; a null node if
 * none. */
static TSNode statement_call(TSNode s)
{
    TSNode e = ts_node_named_child(s, 0);
    if (dl_lint_is(e, "assignment") || dl_lint_is(e, "augmented_assignment"))
        e = ts_node_child_by_field_name(e, "right", 5);
    if (dl_lint_is(e, "await"))
        e = ts_node_named_child(e, 0);
    return dl_lint_is(e, "call") ? e : (TSNode){0};
}

/* Why a call at module level is heavy work, or NULL. */
static const char *heavy_call(const dl_lint_file *f, TSNode call)
{
    static const char *const writes[] = {"write", "writelines", "write_text", "write_bytes",
                                         "mkdir", "makedirs", "from_pretrained"};
    TSNode fn = ts_node_child_by_field_name(call, "function", 8);
    char buf[256];
    const char *q = dl_lint_qualified(f, fn, buf, sizeof buf), *last;
    size_t i;
    if (dl_lint_graph_calls_local(f, call))
        return "a call of a function or class defined here";
    if (!q)
        return NULL;
    if (!strcmp(q, "print"))
        return "print";
    if (!strcmp(q, "open") || !strcmp(q, "torch.save") || !strcmp(q, "torch.load"))
        return "file input/output";
    if (dl_starts_with(q, "torch.nn.") || dl_starts_with(q, "torchvision.models.") ||
        dl_starts_with(q, "timm.create_model"))
        return "model construction";
    last = strrchr(q, '.');
    last = last ? last + 1 : q;
    for (i = 0; i < sizeof writes / sizeof *writes; i++)
        if (!strcmp(last, writes[i]))
            return i == sizeof writes / sizeof *writes - 1 ? "model construction"
                                                            : "a file write";
    return NULL;
}

/* A statement of the module itself, or in a top-level if / try (their else, except and
 * finally too), which runs on import; not one inside a loop or a `with` (those report
 * themselves). */
static bool runs_on_import(TSNode n)
{
    static const char *const through[] = {"block", "if_statement", "elif_clause",
                                          "else_clause", "try_statement", "except_clause",
                                          "except_group_clause", "finally_clause"};
    TSNode p;
    for (p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
        const char *t = ts_node_type(p);
        size_t i;
        if (!strcmp(t, "module"))
            return true;
        for (i = 0; i < sizeof through / sizeof *through && strcmp(t, through[i]); i++)
            ;
        if (i == sizeof through / sizeof *through)
            return false;
    }
    return false;
}

/* A statement of the module (outside the guard, outside definitions) that spawned workers
 * run again: loops, `with` blocks, and heavy calls (heavy_call). */
void dl_lint_rule_guard_node(dl_lint_file *f, TSNode n, const char *type)
{
    const char *why = NULL;
    dl_lint_severity sev;
    dl_lint_finding *x;
    if (!f->starts_workers || f->scope.defs || f->scope.main_guards)
        return;
    if (!strcmp(type, "for_statement") || !strcmp(type, "while_statement"))
        why = "a loop";
    else if (!strcmp(type, "with_statement"))
        why = "a with block";
    else if (!strcmp(type, "expression_statement")) {
        TSNode call = statement_call(n);
        why = ts_node_is_null(call) ? NULL : heavy_call(f, call);
    }
    if (!why || !runs_on_import(n))
        return;
    /* fork (Linux) does not re-import the main module */
    sev = f->opts->target.os == DL_LINT_OS_LINUX ? DL_LINT_OFF : DL_LINT_WARNING;
    x = dl_lint_report(f, n, "guard", sev,
                   "module code (%s) outside `if __name__ == \"__main__\":` in a file that "
                   "starts worker processes: with the spawn start method (Windows, macOS) "
                   "each worker re-imports this file and runs it again; move it under the "
                   "guard", why);
    dl_lint_fix_wrap_main(f, x, n);
}
