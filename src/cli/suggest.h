/* "Did you mean": the name closest to a mistyped one, by edit distance. */
#ifndef DLENV_CLI_SUGGEST_H
#define DLENV_CLI_SUGGEST_H

#include <stddef.h>

/* Levenshtein distance between a and b (insertions, deletions, substitutions; a swap of
 * two neighbours counts one), without regard to ASCII case. */
size_t dl_edit_distance(const char *a, const char *b);

/* Keeps candidate in *best when it is closer to typed than *best (distance *best_d) and
 * close enough to be what was meant: at most a third of its length, and at most 2. */
void dl_suggest_consider(const char *typed, const char *candidate, const char **best,
                         size_t *best_d);

#endif
