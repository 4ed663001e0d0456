/* The guard rule's call graph: which function or method each call in a file may run,
 * by qualified name within the file ("train", "Trainer.fit", "Trainer.__init__") and
 * across the files of the same run (`from .loop import train`), so that the rule knows
 * which worker starts unguarded module code reaches. Built during the facts pass from
 * what the source says plainly: calls by name, module-level aliases (`main = train`,
 * `functools.partial(train, ...)`), instantiation (runs `__init__`), methods called on
 * `self`, on a direct instantiation (`Trainer().fit()`) or on a variable bound to one.
 * Anything it cannot resolve has no edge: an unresolved call never reaches anything. */
#ifndef DLENV_LINT_CALLGRAPH_H
#define DLENV_LINT_CALLGRAPH_H

#include "lint/engine.h"

/* The run's files, so that an import can name one of them (modules.c). Each file's graph
 * is built when it is first needed: linted, or imported by a call that reaches it. */
typedef struct dl_lint_graph *(*dl_lint_summarize_fn)(const char *path, void *ctx);
dl_lint_modules *dl_lint_modules_new(const dl_strv *paths, dl_lint_summarize_fn summarize,
                                     void *ctx);
void dl_lint_modules_free(dl_lint_modules *m);
/* The linted file for a module's path without its extension ("pkg/loop": "pkg/loop.py" or
 * "pkg/loop/__init__.py"), or NULL when no such file is linted in this run. */
const char *dl_lint_module_file(const dl_lint_modules *m, const char *base);
/* The graph of a linted file (built on first use; NULL when it cannot be read or parsed,
 * or while it is being built: an import cycle). */
struct dl_lint_graph *dl_lint_module_graph(dl_lint_modules *m, const char *file);
/* Hands a linted file's graph to the run (kept for the files that import it). */
void dl_lint_modules_adopt(dl_lint_modules *m, const char *file, struct dl_lint_graph *g);

/* Building, from the facts pass (names.c): definitions, assignments, parameters, imports
 * and calls, in source order. */
void dl_lint_graph_node(dl_lint_file *f, TSNode n, const char *type);
void dl_lint_graph_call(dl_lint_file *f, TSNode call, const char *starts);
/* After the pass: which definitions unguarded module code reaches; whether anything the
 * script runs (module code, the __main__ block) starts workers in another file. */
void dl_lint_graph_close(dl_lint_file *f);
void dl_lint_graph_free(struct dl_lint_graph *g);
/* Detaches the file's graph (for dl_lint_modules_adopt). */
struct dl_lint_graph *dl_lint_graph_take(dl_lint_file *f);

/* For the rules: the current definition's key ("train", "Trainer.fit") when unguarded
 * module code reaches it, else NULL. */
const char *dl_lint_graph_reached_def(const dl_lint_file *f);
/* A call (in unguarded module code or a definition it reaches) of a function in another
 * linted file that starts workers: what it starts and where ("a DataLoader with worker
 * processes, at pkg/loop.py:12"; owned by the graph), else NULL. */
const char *dl_lint_graph_external_start(dl_lint_file *f, TSNode call);
/* The call resolves to a function, class or method defined in this file. */
bool dl_lint_graph_calls_local(const dl_lint_file *f, TSNode call);

#endif
