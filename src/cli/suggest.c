#include "cli/suggest.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Names are short (a command, an option): longer ones are not compared. */
#define MAX_NAME 64

static int lower(char c)
{
    return tolower((unsigned char)c);
}

/* Damerau-Levenshtein, restricted (optimal string alignment): "doctr" and "drvier" are one
 * step each from what was meant. Three rows of the table are enough. */
size_t dl_edit_distance(const char *a, const char *b)
{
    size_t rows[3][MAX_NAME + 1], la = strlen(a), lb = strlen(b), i, j;
    size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2], *t;
    if (la > MAX_NAME || lb > MAX_NAME)
        return (size_t)-1;
    for (j = 0; j <= lb; j++)
        prev[j] = j;
    for (i = 1; i <= la; i++) {
        cur[0] = i;
        for (j = 1; j <= lb; j++) {
            size_t cost = lower(a[i - 1]) != lower(b[j - 1]);
            size_t best = prev[j - 1] + cost;
            if (prev[j] + 1 < best)
                best = prev[j] + 1;
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1;
            if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
                lower(a[i - 2]) == lower(b[j - 1]) && prev2[j - 2] + 1 < best)
                best = prev2[j - 2] + 1;
            cur[j] = best;
        }
        t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    return prev[lb];
}

void dl_suggest_consider(const char *typed, const char *candidate, const char **best,
                         size_t *best_d)
{
    size_t d = dl_edit_distance(typed, candidate), n = strlen(candidate);
    size_t limit = n / 3 < 2 ? (n / 3 ? n / 3 : 1) : 2;
    if (d <= limit && (!*best || d < *best_d)) {
        *best = candidate;
        *best_d = d;
    }
}
