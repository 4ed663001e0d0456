/* Each rule's entry points (rules_*.c); the table is rules.c. */
#ifndef DLENV_LINT_RULES_H
#define DLENV_LINT_RULES_H

#include "lint/engine.h"

void dl_lint_rule_load(dl_lint_file *f, TSNode call, const char *q);
void dl_lint_rule_amp_call(dl_lint_file *f, TSNode call, const char *q);
void dl_lint_rule_amp_node(dl_lint_file *f, TSNode n, const char *type);
void dl_lint_rule_guard(dl_lint_file *f, TSNode call, const char *q);
void dl_lint_rule_guard_node(dl_lint_file *f, TSNode n, const char *type);
void dl_lint_rule_paths(dl_lint_file *f, TSNode n, const char *type);
void dl_lint_rule_paths_call(dl_lint_file *f, TSNode call, const char *q);
void dl_lint_rule_encoding(dl_lint_file *f, TSNode call, const char *q);
void dl_lint_rule_save(dl_lint_file *f, TSNode call, const char *q);
void dl_lint_rule_device(dl_lint_file *f, TSNode call, const char *q);
void dl_lint_rule_pin(dl_lint_file *f, TSNode call, const char *q);
void dl_lint_rule_dist(dl_lint_file *f, TSNode call, const char *q);
void dl_lint_rule_visible(dl_lint_file *f, TSNode n, const char *type);
void dl_lint_rule_tqdm(dl_lint_file *f, TSNode call, const char *q);
void dl_lint_rule_seed(dl_lint_file *f, TSNode n, const char *type);

/* cuda_check.c: a CUDA use at `at` asked torch.cuda.is_available() first on its path. */
bool dl_lint_cuda_checked(dl_lint_file *f, TSNode at);

#endif
