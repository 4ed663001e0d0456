/* guard: worker processes started where a spawned child re-runs them. With the spawn
 * start method (Windows, macOS) each worker imports the main module again: a DataLoader
 * with workers, mp.spawn, a Pool or a Process started by module code outside
 * `if __name__ == "__main__":` starts again in every child (RuntimeError: "An attempt
 * has been made to start a new process before the current process has finished its
 * bootstrapping phase"). Reachable means: module code itself, or a top-level function
 * that module code calls by name. */
#include "lint/rules.h"

#include <stdlib.h>
#include <string.h>

static const char *const starters[] = {
    "torch.multiprocessing.spawn", "torch.multiprocessing.start_processes",
    "multiprocessing.Pool", "multiprocessing.Process", "torch.multiprocessing.Pool",
    "torch.multiprocessing.Process", "concurrent.futures.ProcessPoolExecutor",
    "multiprocessing.pool.Pool",
};

/* What the call starts, or NULL when it starts no worker process. */
static const char *starts_workers(const dl_lint_file *f, TSNode call, const char *q)
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

void dl_lint_rule_guard(dl_lint_file *f, TSNode call, const char *q)
{
    const char *what;
    dl_lint_severity sev;
    char *name = NULL;
    if (f->scope.main_guards || !(what = starts_workers(f, call, q)))
        return;
    if (f->scope.defs) {
        if (!f->scope.def_name)
            return;
        name = dl_strndup(f->scope.def_name, f->scope.def_name_len);
        if (!dl_strv_has(&f->called_from_top, name)) {
            free(name);
            return;
        }
    }
    /* fork (Linux's default before Python 3.14) does not re-import: there it only breaks
     * once the script moves */
    sev = f->opts->target.os == DL_LINT_OS_LINUX     ? DL_LINT_INFO
          : f->opts->target.os == DL_LINT_OS_UNKNOWN ? DL_LINT_WARNING
                                                     : DL_LINT_ERROR;
    if (name)
        dl_lint_report(f, call, "guard", sev,
                       "%s, in %s(), which module code calls with no `if __name__ == "
                       "\"__main__\":` guard: with the spawn start method (Windows, macOS) "
                       "every worker re-runs it; call %s() under the guard",
                       what, name, name);
    else
        dl_lint_report(f, call, "guard", sev,
                       "%s started by module code with no `if __name__ == \"__main__\":` "
                       "guard: with the spawn start method (Windows, macOS) every worker "
                       "re-runs it; move it into main() and call that under the guard",
                       what);
    free(name);
}
