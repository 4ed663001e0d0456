/* The files `dlenv lint` checks: each path given, a folder walked for *.py / *.pyw in
 * name order, honouring the .gitignore files found on the way (walk.c). */
#ifndef DLENV_LINT_WALK_H
#define DLENV_LINT_WALK_H

#include <stddef.h>

typedef void (*dl_lint_file_fn)(const char *path, void *ctx);
typedef void (*dl_lint_problem_fn)(const char *path, const char *message, void *ctx);

/* Calls on_file for each file to lint and on_problem for each path that cannot be
 * walked (missing, unreadable, a symbolic link loop). */
void dl_lint_walk(const char *const *paths, size_t n, dl_lint_file_fn on_file,
                  dl_lint_problem_fn on_problem, void *ctx);

/* A gitignore pattern (no leading '/', no trailing '/') against a path relative to the
 * .gitignore's folder: '*' and '?' within one component, '**' across them, [a-z]. */
int dl_lint_glob(const char *pattern, const char *path);

#endif
