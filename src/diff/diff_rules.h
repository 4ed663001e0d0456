/* The small tables that give the generic walk of facts_diff.c its judgement: which facts
 * are volatile, which group a fact belongs to, how list items are identified, and which
 * changes are the headline. Facts are named by their shape: the JSON path with list
 * items as "[]" ("pythons[].runtime.cuda"). A pattern matches its own path and everything
 * under it ("nvml" matches "nvml.gpus[].uuid", not "nvml_x"). */
#ifndef DLENV_DIFF_DIFF_RULES_H
#define DLENV_DIFF_DIFF_RULES_H

#include "diff/facts_diff.h"

bool dl_diff_shape_is_volatile(const char *shape);
dl_diff_group dl_diff_group_of(const char *shape);
/* How the items of the list at shape are told apart: field keys, alternatives separated
 * by '|' (the first one known wins), parts of one key joined by '+'. NULL: the item's
 * first field, which every schema puts first for this reason (a path, a name, an id). */
const char *dl_diff_identity_of(const char *shape);
/* How much a change matters; *note says why for a high one (NULL otherwise) and *rank
 * how strongly it claims the headline among high ones (0 first). A detail (a field
 * the text view does not show, such as the raw /proc line a version was read from) is
 * low. */
dl_diff_importance dl_diff_importance_of(dl_diff_group group, const char *shape, bool detail,
                                         dl_diff_kind kind, const char *old_value,
                                         const char *new_value, const char **note, int *rank);

#endif
