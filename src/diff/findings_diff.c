/* Findings that appeared, went away or changed severity between two snapshots. A finding
 * is the same one when its id and its subject (the first fact of its evidence) are: one
 * rule may fire once per interpreter. */
#include "diff/facts_diff.h"

#include "base/str.h"

#include <stdlib.h>
#include <string.h>

static const dl_finding *finding_at(const dl_findings *f, size_t i)
{
    return &DL_LIST_AT(f->items, dl_finding, i);
}

static const char *subject_of(const dl_finding *x)
{
    return x->evidence.known && x->evidence.count ? DL_LIST_AT(x->evidence, dl_pair, 0).name
                                                  : "";
}

static const char *text_or(const dl_text *t, const char *otherwise)
{
    return t->value ? t->value : otherwise;
}

static bool same_finding(const dl_finding *a, const dl_finding *b)
{
    return a->id.value && b->id.value && strcmp(a->id.value, b->id.value) == 0 &&
           strcmp(subject_of(a), subject_of(b)) == 0;
}

/* The index in f of the first finding not yet used that is the same as x; -1 when none. */
static long find_same(const dl_findings *f, const bool *used, const dl_finding *x)
{
    size_t i;
    for (i = 0; f->items.known && i < f->items.count; i++)
        if (!used[i] && same_finding(finding_at(f, i), x))
            return (long)i;
    return -1;
}

static void add(dl_diff *d, dl_finding_change_kind kind, const dl_finding *x,
                const char *old_severity)
{
    dl_finding_change *c;
    d->findings = dl_xrealloc(d->findings, (d->n_findings + 1) * sizeof *c);
    c = &d->findings[d->n_findings++];
    c->kind = kind;
    c->id = dl_strdup(text_or(&x->id, "?"));
    c->subject = dl_strdup(subject_of(x));
    c->title = dl_strdup(text_or(&x->title, ""));
    c->severity = dl_strdup(text_or(&x->severity, "unknown"));
    c->old_severity = dl_strdup(old_severity);
}

static int rank(const dl_finding_change *c)
{
    int sev = dl_severity_of_name(c->severity);
    /* appeared before changed before gone; within each the worse first */
    return (c->kind == DL_FINDING_APPEARED ? 0 : c->kind == DL_FINDING_SEVERITY ? 10 : 20) +
           (DL_SEV_FAILURE - (sev < 0 ? DL_SEV_INFO : sev));
}

static int by_rank(const void *x, const void *y)
{
    int a = rank(x), b = rank(y);
    return a < b ? -1 : a > b;
}

/* Insertion sort: stable, so equal ranks keep the rules' order; lists are short. */
static void sort_changes(dl_finding_change *v, size_t from, size_t n)
{
    size_t i, j;
    for (i = from + 1; i < n; i++) {
        dl_finding_change x = v[i];
        for (j = i; j > from && by_rank(&v[j - 1], &x) > 0; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

void dl_diff_findings(const dl_findings *a, const dl_findings *b, dl_diff *out)
{
    size_t na = a->items.known ? a->items.count : 0, nb = b->items.known ? b->items.count : 0;
    bool *used = dl_xcalloc(nb + 1, sizeof *used);
    size_t i, first = out->n_findings;
    for (i = 0; i < na; i++) {
        const dl_finding *x = finding_at(a, i);
        long j = find_same(b, used, x);
        if (j < 0) {
            add(out, DL_FINDING_GONE, x, NULL);
            continue;
        }
        used[j] = true;
        if (x->severity.value && finding_at(b, (size_t)j)->severity.value &&
            strcmp(x->severity.value, finding_at(b, (size_t)j)->severity.value) != 0)
            add(out, DL_FINDING_SEVERITY, finding_at(b, (size_t)j), x->severity.value);
    }
    for (i = 0; i < nb; i++)
        if (!used[i])
            add(out, DL_FINDING_APPEARED, finding_at(b, i), NULL);
    free(used);
    sort_changes(out->findings, first, out->n_findings);
}
