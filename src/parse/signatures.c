#include "parse/signatures.h"

#include "base/str.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The gap between the end of an A and the B after it: short, and naming no other command
 * ("nvidia-smi works, nvcc: command not found" is about nvcc). */
static bool short_plain_gap(const char *from, const char *to)
{
    const char *c;
    if (to - from > 48)
        return false;
    for (c = from; c < to; c++)
        if (*c == ':' && c > from && isalnum((unsigned char)c[-1]))
            return false;
    return true;
}

/* "A ... B": the first line where B follows A within a short gap that names no other
 * command ("nvidia-smi returns command not found", "`nvidia-smi` 命令返回 command not
 * found", but not "nvidia-smi works, nvcc: command not found"): people put their own words
 * between the stable parts of a message. Every A on the line is tried, not only the first
 * ("the GPU in Task Manager is fine, but my GPU is not recognized"); the first B after an A
 * is the only one that can pass (a later one has a longer gap holding the same text), and it
 * is looked up again only once an A has passed it, so a line costs one pass over each. */
static bool in_order_on(const char *low, const char *a, const char *b)
{
    size_t na = strlen(a);
    const char *at = strstr(low, a), *to = NULL;
    for (; at; at = strstr(at + 1, a)) {
        const char *from = at + na;
        if (!to || to < from)
            to = strstr(from, b);
        if (!to)
            return false;
        if (short_plain_gap(from, to))
            return true;
    }
    return false;
}

static long find_in_order(const dl_paste *p, const char *a, const char *b)
{
    long i = dl_paste_find(p, 0, a);
    while (i >= 0) {
        /* Both on one line: leap to the next line holding b, and from there to the next
         * holding a, so that a common A costs no more than a rare one. */
        long j = dl_paste_find(p, (size_t)i, b);
        if (j < 0)
            return -1;
        if (j > i)
            i = dl_paste_find(p, (size_t)j, a);
        else if (in_order_on(p->lines[i].lower, a, b))
            return i;
        else
            i = dl_paste_find(p, (size_t)i + 1, a);
    }
    return -1;
}

static long find_token(const dl_paste *p, const char *token)
{
    const char *gap = strstr(token, " ... ");
    char *a;
    long at;
    if (!gap)
        return dl_paste_find(p, 0, token);
    a = dl_strndup(token, (size_t)(gap - token));
    at = find_in_order(p, a, gap + 5);
    free(a);
    return at;
}

/* The first line holding any of the "||"-separated alternatives; -1 when none. */
static long find_any(const dl_paste *p, const char *group)
{
    long best = -1;
    const char *s = group;
    while (*s) {
        const char *end = strstr(s, "||");
        size_t n = end ? (size_t)(end - s) : strlen(s);
        const char *a = s, *b = s + n;
        while (a < b && *a == ' ')
            a++;
        while (b > a && b[-1] == ' ')
            b--;
        if (b > a) {
            char *token = dl_ascii_lower(a, (size_t)(b - a));
            long at = find_token(p, token);
            free(token);
            if (at >= 0 && (best < 0 || at < best))
                best = at;
        }
        s = end ? end + 2 : s + n;
    }
    return best;
}

/* Every "&&" group must be found; the line of each is kept as evidence. */
static bool match_all(const dl_paste *p, const char *all_of, dl_signature_hit *hit)
{
    const char *s = all_of;
    hit->n_lines = 0;
    while (s && *s) {
        const char *end = strstr(s, "&&");
        char *group = end ? dl_strndup(s, (size_t)(end - s)) : dl_strdup(s);
        long at = find_any(p, group);
        free(group);
        if (at < 0)
            return false;
        if (hit->n_lines < DL_SIG_MAX_GROUPS)
            hit->lines[hit->n_lines++] = (size_t)at;
        s = end ? end + 2 : NULL;
    }
    return hit->n_lines > 0;
}

void dl_signatures_match(const dl_table *catalog, const dl_paste *p, dl_signature_hits *out)
{
    size_t r;
    memset(out, 0, sizeof *out);
    for (r = 0; catalog && r < catalog->rows; r++) {
        dl_signature_hit hit;
        const char *none_of = dl_table_cell(catalog, r, DL_COL_error_signatures_none_of);
        memset(&hit, 0, sizeof hit);
        hit.row = r;
        if (!match_all(p, dl_table_cell(catalog, r, DL_COL_error_signatures_all_of), &hit))
            continue;
        if (none_of && *none_of && find_any(p, none_of) >= 0)
            continue;
        out->v = dl_xrealloc(out->v, (out->n + 1) * sizeof *out->v);
        out->v[out->n++] = hit;
    }
}

void dl_signature_hits_free(dl_signature_hits *h)
{
    free(h->v);
    memset(h, 0, sizeof *h);
}

static bool lists(const dl_table *cat, size_t row, const char *id)
{
    dl_strv alt = {0};
    size_t k;
    bool found = false;
    dl_strv_split(&alt, dl_table_cell(cat, row, DL_COL_error_signatures_alternatives), ';');
    for (k = 0; k < alt.n && !found; k++)
        found = !strcmp(alt.v[k], id);
    dl_strv_free(&alt);
    return found;
}

/* A general signature ("no kernel image") yields to a specific one that also matched and
 * that it names as an alternative ("too old"): the text has told them apart. Two that
 * name each other are equals: both stay, and the catalog's order decides. */
bool dl_signature_yields(const dl_table *cat, const dl_signature_hits *hits, size_t i)
{
    const char *mine = dl_table_cell(cat, hits->v[i].row, DL_COL_error_signatures_finding);
    size_t j;
    for (j = 0; j < hits->n; j++) {
        const char *other = dl_table_cell(cat, hits->v[j].row, DL_COL_error_signatures_finding);
        if (j != i && strcmp(other, mine) != 0 && lists(cat, hits->v[i].row, other) &&
            !lists(cat, hits->v[j].row, mine))
            return true;
    }
    return false;
}
