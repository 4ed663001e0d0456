/* Safe fixes: edits applied to a file's text, and the unified diff --diff shows. */
#include "lint/engine.h"

#include <stdlib.h>
#include <string.h>

static int by_start(const void *a, const void *b)
{
    const dl_lint_edit *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    if (x->end != y->end)
        return x->end < y->end ? -1 : 1;
    return strcmp(x->text, y->text); /* two insertions at one place: a fixed order */
}

char *dl_lint_apply_edits(const char *src, size_t len, dl_lint_edit *edits, size_t n,
                          size_t *out_len)
{
    dl_buf b = {0};
    size_t at = 0, i, applied = 0;
    qsort(edits, n, sizeof *edits, by_start);
    for (i = 0; i < n; i++) {
        /* an edit that overlaps the one before waits for the next --fix run */
        if (edits[i].start < at || edits[i].end > len || edits[i].end < edits[i].start)
            continue;
        if (i && edits[i].start == edits[i].end && edits[i - 1].start == edits[i].start &&
            edits[i - 1].end == edits[i].end && !strcmp(edits[i - 1].text, edits[i].text))
            continue; /* the same insertion twice (two findings, one fix) */
        dl_buf_add(&b, src + at, edits[i].start - at);
        dl_buf_puts(&b, edits[i].text);
        at = edits[i].end;
        applied++;
    }
    if (!applied) {
        dl_buf_free(&b);
        return NULL;
    }
    dl_buf_add(&b, src + at, len - at);
    *out_len = b.len;
    dl_buf_add(&b, "", 0);
    return dl_buf_take(&b);
}

typedef struct lines {
    const char **start;
    size_t *len, n;
} lines;

static void split(const char *s, size_t len, lines *l)
{
    size_t i, from = 0;
    l->n = 0;
    l->start = NULL;
    l->len = NULL;
    for (i = 0; i <= len; i++)
        if (i == len ? i > from : s[i] == '\n') {
            l->start = dl_xrealloc(l->start, (l->n + 1) * sizeof *l->start);
            l->len = dl_xrealloc(l->len, (l->n + 1) * sizeof *l->len);
            l->start[l->n] = s + from;
            l->len[l->n] = (i < len ? i + 1 : i) - from;
            l->n++;
            from = i + 1;
        }
}

static bool same(const lines *a, size_t i, const lines *b, size_t j)
{
    return a->len[i] == b->len[j] && !memcmp(a->start[i], b->start[j], a->len[i]);
}

static void put_line(dl_buf *out, char sign, const char *s, size_t len)
{
    dl_buf_add(out, &sign, 1);
    dl_buf_add(out, s, len);
    if (!len || s[len - 1] != '\n')
        dl_buf_puts(out, "\n\\ No newline at end of file\n");
}

/* Fixes change lines in place and never add or remove one, so lines pair up one to one;
 * runs of changed lines become hunks. */
void dl_lint_diff(dl_buf *out, const char *path, const char *before, size_t before_len,
                  const char *after, size_t after_len)
{
    lines a, b;
    size_t i = 0, k;
    split(before, before_len, &a);
    split(after, after_len, &b);
    dl_buf_printf(out, "--- %s\n+++ %s\n", path, path);
    if (a.n != b.n) {
        /* a fix that adds lines (the __main__ wrap): one hunk between the common
         * first and last lines */
        size_t pre = 0, post = 0;
        while (pre < a.n && pre < b.n && same(&a, pre, &b, pre))
            pre++;
        while (post < a.n - pre && post < b.n - pre &&
               same(&a, a.n - 1 - post, &b, b.n - 1 - post))
            post++;
        dl_buf_printf(out, "@@ -%zu,%zu +%zu,%zu @@\n", a.n - pre - post ? pre + 1 : pre,
                      a.n - pre - post, b.n - pre - post ? pre + 1 : pre, b.n - pre - post);
        for (k = pre; k < a.n - post; k++)
            put_line(out, '-', a.start[k], a.len[k]);
        for (k = pre; k < b.n - post; k++)
            put_line(out, '+', b.start[k], b.len[k]);
        i = a.n; /* done */
    }
    while (i < a.n && i < b.n) {
        size_t j = i;
        if (same(&a, i, &b, i)) {
            i++;
            continue;
        }
        while (j < a.n && j < b.n && !same(&a, j, &b, j))
            j++;
        dl_buf_printf(out, "@@ -%zu,%zu +%zu,%zu @@\n", i + 1, j - i, i + 1, j - i);
        for (k = i; k < j; k++)
            put_line(out, '-', a.start[k], a.len[k]);
        for (k = i; k < j; k++)
            put_line(out, '+', b.start[k], b.len[k]);
        i = j;
    }
    free(a.start);
    free(a.len);
    free(b.start);
    free(b.len);
}
