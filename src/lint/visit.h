/* The scope-aware walk over one file's tree (visit.c). */
#ifndef DLENV_LINT_VISIT_H
#define DLENV_LINT_VISIT_H

#include "lint/engine.h"

typedef void (*dl_lint_visitor)(dl_lint_file *f, TSNode node, const char *type, void *ctx);

/* Calls visit for every named node in source order, f->scope kept current. */
void dl_lint_visit(dl_lint_file *f, dl_lint_visitor visit, void *ctx);

#endif
