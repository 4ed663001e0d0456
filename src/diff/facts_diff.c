/* The walk: both fact sets side by side through the schema. Scalars compare as text (the
 * JSON form: "unknown: why" for an unknown), text lists as multisets, dictionaries by
 * name, lists of structs by identity (diff_rules.c). An item only one side has is one
 * change, not one per field. */
#include "diff/facts_diff.h"

#include "base/str.h"
#include "diff/diff_rules.h"
#include "facts/schema.h"

#include <stdlib.h>
#include <string.h>

static bool text_is(const dl_text *t, const char *value)
{
    return t->value && strcmp(t->value, value) == 0;
}

typedef struct walker {
    dl_diff *out;
    bool keep_volatile;
    size_t seq;
} walker;

/* Where a value sits: its path with identities, its shape, its human label. */
typedef struct place {
    const char *path;
    const char *shape;
    const char *label;
    bool volatile_value;
    bool bytes;
    bool detail;          /* a field without a label: not shown in the text view */
    const char *item_id;  /* the identity of the list item it is in, if any */
} place;

static char *join(const char *a, const char *sep, const char *b)
{
    if (!a || !*a)
        return dl_strdup(b);
    if (!b || !*b)
        return dl_strdup(a);
    return dl_fmt("%s%s%s", a, sep, b);
}

static void add(walker *w, const place *at, dl_diff_kind kind, const char *old_value,
                const char *new_value)
{
    dl_fact_change *c;
    if (at->volatile_value) {
        w->out->n_volatile++;
        if (!w->keep_volatile)
            return;
    }
    w->out->facts = dl_xrealloc(w->out->facts, (w->out->n_facts + 1) * sizeof *c);
    c = &w->out->facts[w->out->n_facts++];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->volatile_value = at->volatile_value;
    c->bytes = at->bytes;
    c->group = dl_diff_group_of(at->shape);
    c->importance = dl_diff_importance_of(c->group, at->shape, at->detail, kind, old_value,
                                          new_value, &c->note, &c->rank);
    c->path = dl_strdup(at->path);
    c->label = dl_strdup(at->label);
    c->old_value = dl_strdup(old_value);
    c->new_value = dl_strdup(new_value);
    c->seq = w->seq++;
}

/* "3.11" against "3.11.2": the same version, told more precisely (the import gives the
 * patch level that the files did not). */
static bool refined(const char *shape, const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    if (!dl_ends_with(shape, ".version") || na == nb)
        return false;
    return na < nb ? !strncmp(a, b, na) && b[na] == '.' : !strncmp(a, b, nb) && a[nb] == '.';
}

/* Two values that may be absent (NULL): added, removed or changed; nothing when equal.
 * Unknown on both sides with other reasons says nothing about the machine (a reason may
 * hold a timing or an errno text): volatile, as is a version told more precisely, and an
 * unknown against an absent key (a snapshot from a dlenv that did not record it yet). */
static void compare(walker *w, const place *at, const char *a, const char *b)
{
    place minor;
    if (a && b && strcmp(a, b) == 0)
        return;
    if (!a && !b)
        return;
    if ((a && b && ((dl_starts_with(a, "unknown: ") && dl_starts_with(b, "unknown: ")) ||
                    refined(at->shape, a, b))) ||
        (!a && dl_starts_with(b, "unknown: ")) || (!b && dl_starts_with(a, "unknown: "))) {
        minor = *at;
        minor.volatile_value = true;
        at = &minor;
    }
    add(w, at, !a ? DL_DIFF_ADDED : !b ? DL_DIFF_REMOVED : DL_DIFF_CHANGED, a, b);
}

/* ---- scalars ---------------------------------------------------------------------------- */

static char *unknown_text(const char *why)
{
    return why ? dl_fmt("unknown: %s", why) : NULL;
}

static char *scalar_text(const dl_field *fd, const void *p)
{
    switch (fd->kind) {
    case DL_F_TEXT: {
        const dl_text *t = p;
        return t->value ? dl_strdup(t->value) : unknown_text(t->why);
    }
    case DL_F_INT: {
        const dl_int *v = p;
        if (!v->known)
            return unknown_text(v->why);
        if (fd->flags & DL_FMT_HEX4)
            return dl_fmt("0x%04llx", v->value);
        if (fd->flags & DL_FMT_HEX6)
            return dl_fmt("0x%06llx", v->value);
        return dl_fmt("%lld", v->value);
    }
    case DL_F_FLAG: {
        const dl_flag *v = p;
        return v->known ? dl_strdup(v->value ? "true" : "false") : unknown_text(v->why);
    }
    case DL_F_NUM: {
        const dl_num *v = p;
        return v->known ? dl_fmt("%.15g", v->value) : unknown_text(v->why);
    }
    default:
        return NULL;
    }
}

static void diff_scalar(walker *w, const place *at, const dl_field *fd, const void *a,
                        const void *b)
{
    char *ta = scalar_text(fd, a), *tb = scalar_text(fd, b);
    compare(w, at, ta, tb);
    free(ta);
    free(tb);
}

/* ---- lists: the state of a list as a whole ------------------------------------------- */

/* A list one side knows and the other does not: "unknown: why", "N items" or absent. An
 * absent list against an empty one says nothing (an older snapshot without the key). */
static bool diff_list_state(walker *w, const place *at, const dl_list *a, const dl_list *b)
{
    char *ta, *tb;
    if (a->known && b->known)
        return false;
    if ((!a->known && !a->why && b->known && !b->count) ||
        (!b->known && !b->why && a->known && !a->count))
        return true;
    ta = a->known ? dl_fmt("%zu item%s", a->count, a->count == 1 ? "" : "s")
                  : unknown_text(a->why);
    tb = b->known ? dl_fmt("%zu item%s", b->count, b->count == 1 ? "" : "s")
                  : unknown_text(b->why);
    compare(w, at, ta, tb);
    free(ta);
    free(tb);
    return true;
}

/* ---- text lists: as multisets, then order ------------------------------------------- */

static const char *text_at(const dl_list *l, size_t i)
{
    return DL_LIST_AT(*l, char *, i);
}

/* Marks in used[] (of other) the first unused item equal to s; false when none. */
static bool take(const dl_list *other, bool *used, const char *s)
{
    size_t j;
    for (j = 0; j < other->count; j++)
        if (!used[j] && strcmp(text_at(other, j), s) == 0) {
            used[j] = true;
            return true;
        }
    return false;
}

static char *joined(const dl_list *l)
{
    dl_buf b = {0};
    size_t i;
    for (i = 0; i < l->count; i++)
        dl_buf_printf(&b, "%s%s", i ? ", " : "", text_at(l, i));
    return b.data ? dl_buf_take(&b) : dl_strdup("");
}

static void diff_textlist(walker *w, const place *at, const dl_list *a, const dl_list *b)
{
    bool *used = dl_xcalloc(b->count + 1, sizeof *used), moved = false;
    size_t i;
    if (diff_list_state(w, at, a, b)) {
        free(used);
        return;
    }
    for (i = 0; i < a->count; i++)
        if (!take(b, used, text_at(a, i)))
            add(w, at, DL_DIFF_REMOVED, text_at(a, i), NULL);
    for (i = 0; i < b->count; i++)
        if (!used[i])
            add(w, at, DL_DIFF_ADDED, NULL, text_at(b, i));
    /* The same items in another order: a search path reordered is a change. */
    if (a->count == b->count)
        for (i = 0; i < a->count && !moved; i++)
            moved = strcmp(text_at(a, i), text_at(b, i)) != 0;
    for (i = 0; moved && i < b->count; i++)
        moved = used[i];
    if (moved) {
        char *ta = joined(a), *tb = joined(b);
        add(w, at, DL_DIFF_CHANGED, ta, tb);
        free(ta);
        free(tb);
    }
    free(used);
}

/* ---- dictionaries (the environment) ------------------------------------------------ */

static void diff_dict(walker *w, const place *at, const dl_list *a, const dl_list *b)
{
    size_t i;
    if (diff_list_state(w, at, a, b))
        return;
    for (i = 0; i < a->count; i++) {
        const dl_pair *p = &DL_LIST_AT(*a, dl_pair, i);
        char *path = dl_fmt("%s.%s", at->path, p->name);
        char *label = dl_fmt("%s %s", at->label, p->name);
        place item = *at;
        item.path = path;
        item.label = label;
        compare(w, &item, p->value, dl_dict_get(b, p->name));
        free(path);
        free(label);
    }
    for (i = 0; i < b->count; i++) {
        const dl_pair *p = &DL_LIST_AT(*b, dl_pair, i);
        if (!dl_dict_get(a, p->name)) {
            char *path = dl_fmt("%s.%s", at->path, p->name);
            char *label = dl_fmt("%s %s", at->label, p->name);
            place item = *at;
            item.path = path;
            item.label = label;
            add(w, &item, DL_DIFF_ADDED, NULL, p->value);
            free(path);
            free(label);
        }
    }
}

/* ---- lists of structs, matched by identity --------------------------------------------- */

static void walk(walker *w, const dl_schema *s, const void *a, const void *b, const place *at);

static const dl_field *field_named(const dl_schema *s, const char *key, size_t n)
{
    size_t i;
    for (i = 0; i < s->count; i++)
        if (strlen(s->fields[i].key) == n && strncmp(s->fields[i].key, key, n) == 0)
            return &s->fields[i];
    return NULL;
}

/* One alternative of an identity ("gpu_a+gpu_b"): every part known, or NULL. */
static char *identity_alternative(const dl_schema *s, const void *item, const char *spec,
                                  size_t len)
{
    dl_buf b = {0};
    const char *p = spec, *end = spec + len;
    while (p < end) {
        size_t n = strcspn(p, "+|");
        const dl_field *fd = field_named(s, p, n < (size_t)(end - p) ? n : (size_t)(end - p));
        char *v = fd && fd->kind <= DL_F_NUM ? scalar_text(fd, (const char *)item + fd->offset)
                                             : NULL;
        if (!v || dl_starts_with(v, "unknown: ")) {
            free(v);
            dl_buf_free(&b);
            return NULL;
        }
        dl_buf_printf(&b, "%s%s", b.len ? " " : "", v);
        free(v);
        p += n;
        if (*p == '+')
            p++;
    }
    return dl_buf_take(&b);
}

/* The identity of a list item: the first alternative whose parts are all known, else its
 * position ("#2"). */
static char *identity(const dl_schema *s, const void *item, const char *item_shape, size_t pos)
{
    const char *spec = dl_diff_identity_of(item_shape);
    const char *p = spec ? spec : s->fields[0].key;
    while (*p) {
        size_t n = strcspn(p, "|");
        char *id = identity_alternative(s, item, p, n);
        if (id)
            return id;
        p += n;
        if (*p == '|')
            p++;
    }
    return dl_fmt("#%zu", pos + 1);
}

/* What an item only one side has is shown as: its identity and, when it has one, its
 * version ("torch 2.3.1+cu121"). */
static char *summary(const dl_schema *s, const void *item, const char *id)
{
    const dl_field *fd = field_named(s, "version", 7);
    char *v = fd && fd->kind == DL_F_TEXT ? scalar_text(fd, (const char *)item + fd->offset)
                                          : NULL;
    char *out = v && strcmp(v, id) != 0 ? dl_fmt("%s %s", id, v) : dl_strdup(id);
    free(v);
    return out;
}

typedef struct side {
    const dl_list *list;
    char **ids;
    bool *matched;
} side;

static void side_open(side *sd, const dl_field *fd, const dl_list *l, const char *item_shape)
{
    size_t i;
    sd->list = l;
    sd->ids = dl_xcalloc(l->count + 1, sizeof *sd->ids);
    sd->matched = dl_xcalloc(l->count + 1, sizeof *sd->matched);
    for (i = 0; i < l->count; i++)
        sd->ids[i] = identity(fd->sub, (const char *)l->items + i * fd->sub->size, item_shape, i);
}

static void side_close(side *sd)
{
    size_t i;
    for (i = 0; i < sd->list->count; i++)
        free(sd->ids[i]);
    free(sd->ids);
    free(sd->matched);
}

static const void *item_at(const dl_field *fd, const dl_list *l, size_t i)
{
    return (const char *)l->items + i * fd->sub->size;
}

/* An item's identity in a label, shortened where it extends the enclosing item's
 * ("/x/site-packages/torch" inside "/x/site-packages" reads ".../torch"). */
static char *label_id(const place *at, const char *id)
{
    size_t n = at->item_id ? strlen(at->item_id) : 0;
    if (n && strncmp(id, at->item_id, n) == 0 && (id[n] == '/' || id[n] == '\\') && id[n + 1])
        return dl_fmt("...%s", id + n);
    return dl_strdup(id);
}

static void diff_pair(walker *w, const dl_field *fd, const place *at, const char *item_shape,
                      const side *sa, size_t i, const side *sb, size_t j)
{
    char *path = dl_fmt("%s[%s]", at->path, sa->ids[i]), *shown = label_id(at, sa->ids[i]);
    char *label = dl_fmt("%s %s", at->label, shown);
    place item = *at;
    item.path = path;
    item.shape = item_shape;
    item.label = label;
    item.item_id = sa->ids[i];
    walk(w, fd->sub, item_at(fd, sa->list, i), item_at(fd, sb->list, j), &item);
    free(path);
    free(shown);
    free(label);
}

static void one_side_only(walker *w, const dl_field *fd, const place *at,
                          const char *item_shape, const side *sd, size_t i, bool added)
{
    char *path = dl_fmt("%s[%s]", at->path, sd->ids[i]);
    char *text = summary(fd->sub, item_at(fd, sd->list, i), sd->ids[i]);
    place item = *at;
    item.path = path;
    item.shape = item_shape;
    item.volatile_value = at->volatile_value || dl_diff_shape_is_volatile(item_shape);
    add(w, &item, added ? DL_DIFF_ADDED : DL_DIFF_REMOVED, added ? NULL : text,
        added ? text : NULL);
    free(path);
    free(text);
}

static void diff_list(walker *w, const dl_field *fd, const place *at, const dl_list *a,
                      const dl_list *b)
{
    char *item_shape;
    side sa, sb;
    size_t i, j;
    if (diff_list_state(w, at, a, b))
        return;
    item_shape = dl_fmt("%s[]", at->shape);
    side_open(&sa, fd, a, item_shape);
    side_open(&sb, fd, b, item_shape);
    for (i = 0; i < a->count; i++) {
        for (j = 0; j < b->count; j++)
            if (!sb.matched[j] && strcmp(sa.ids[i], sb.ids[j]) == 0)
                break;
        if (j < b->count) {
            sa.matched[i] = sb.matched[j] = true;
            diff_pair(w, fd, at, item_shape, &sa, i, &sb, j);
        } else {
            one_side_only(w, fd, at, item_shape, &sa, i, false);
        }
    }
    for (j = 0; j < b->count; j++)
        if (!sb.matched[j])
            one_side_only(w, fd, at, item_shape, &sb, j, true);
    side_close(&sa);
    side_close(&sb);
    free(item_shape);
}

/* ---- the walk ------------------------------------------------------------------------ */

/* `import torch` run on one side only (--no-runtime, or no torch to import): its results
 * would differ field by field without the machine having changed. */
static bool runtime_on_one_side(const dl_field *fd, const void *a, const void *b)
{
    const dl_torch_runtime *ra = a, *rb = b;
    if (fd->sub != &dl_torch_runtime_schema)
        return false;
    bool ran_a = !text_is(&ra->status, "skipped") && !text_is(&ra->status, "not_run");
    bool ran_b = !text_is(&rb->status, "skipped") && !text_is(&rb->status, "not_run");
    return ran_a != ran_b;
}

static void walk_field(walker *w, const dl_field *fd, const void *a, const void *b,
                       const place *at)
{
    switch (fd->kind) {
    case DL_F_OBJECT:
        if (runtime_on_one_side(fd, a, b))
            w->out->n_runtime_skipped++;
        else
            walk(w, fd->sub, a, b, at);
        break;
    case DL_F_LIST: diff_list(w, fd, at, a, b); break;
    case DL_F_TEXTLIST: diff_textlist(w, at, a, b); break;
    case DL_F_DICT: diff_dict(w, at, a, b); break;
    default: diff_scalar(w, at, fd, a, b); break;
    }
}

static void walk(walker *w, const dl_schema *s, const void *a, const void *b, const place *at)
{
    size_t i;
    for (i = 0; i < s->count; i++) {
        const dl_field *fd = &s->fields[i];
        char *path = join(at->path, ".", fd->key), *shape = join(at->shape, ".", fd->key);
        /* An object without a label (os.wsl) adds nothing to the label of what is in it. */
        char *label = join(at->label, " > ",
                           fd->label ? fd->label : fd->kind == DL_F_OBJECT ? "" : fd->key);
        place sub;
        sub.path = path;
        sub.shape = shape;
        sub.label = label;
        sub.volatile_value = at->volatile_value || (fd->flags & DL_VOLATILE) ||
                             dl_diff_shape_is_volatile(shape);
        sub.bytes = (fd->flags & DL_FMT_BYTES) != 0;
        sub.detail = !fd->label;
        sub.item_id = at->item_id;
        walk_field(w, fd, (const char *)a + fd->offset, (const char *)b + fd->offset, &sub);
        free(path);
        free(shape);
        free(label);
    }
}

static int by_group(const void *x, const void *y)
{
    const dl_fact_change *a = x, *b = y;
    if (a->group != b->group)
        return a->group < b->group ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

void dl_diff_facts(const dl_facts *a, const dl_facts *b, bool keep_volatile, dl_diff *out)
{
    walker w;
    place top = {"", "", "", false, false, false, NULL};
    w.out = out;
    w.keep_volatile = keep_volatile;
    w.seq = out->n_facts;
    walk(&w, &dl_facts_schema, a, b, &top);
    if (out->n_facts > 1)
        qsort(out->facts, out->n_facts, sizeof *out->facts, by_group);
}

bool dl_diff_equal(const dl_diff *d)
{
    size_t i;
    for (i = 0; i < d->n_facts; i++)
        if (!d->facts[i].volatile_value)
            return false;
    return d->n_findings == 0;
}

const dl_fact_change *dl_diff_headline(const dl_diff *d)
{
    const dl_fact_change *best = NULL;
    size_t i;
    for (i = 0; i < d->n_facts; i++) {
        const dl_fact_change *c = &d->facts[i];
        if (!c->volatile_value &&
            (!best || c->importance > best->importance ||
             (c->importance == DL_DIFF_HIGH && best->importance == DL_DIFF_HIGH &&
              c->rank < best->rank)))
            best = c;
    }
    return best;
}

void dl_diff_free(dl_diff *d)
{
    size_t i;
    for (i = 0; i < d->n_facts; i++) {
        free(d->facts[i].path);
        free(d->facts[i].label);
        free(d->facts[i].old_value);
        free(d->facts[i].new_value);
    }
    for (i = 0; i < d->n_findings; i++) {
        free(d->findings[i].id);
        free(d->findings[i].subject);
        free(d->findings[i].title);
        free(d->findings[i].severity);
        free(d->findings[i].old_severity);
    }
    free(d->facts);
    free(d->findings);
    memset(d, 0, sizeof *d);
}

static const char *const group_names[DL_DIFF_GROUP_COUNT] = {
    "driver", "cuda", "torch", "python", "libraries", "settings", "other"};
static const char *const group_titles[DL_DIFF_GROUP_COUNT] = {
    "Driver", "CUDA", "torch", "Python", "Libraries on the path", "Settings", "Other"};

const char *dl_diff_group_name(dl_diff_group g)
{
    return g < DL_DIFF_GROUP_COUNT ? group_names[g] : "other";
}

const char *dl_diff_group_title(dl_diff_group g)
{
    return g < DL_DIFF_GROUP_COUNT ? group_titles[g] : "Other";
}

const char *dl_diff_importance_name(dl_diff_importance i)
{
    return i == DL_DIFF_HIGH ? "high" : i == DL_DIFF_MEDIUM ? "medium" : "low";
}

const char *dl_diff_kind_name(dl_diff_kind k)
{
    return k == DL_DIFF_ADDED ? "added" : k == DL_DIFF_REMOVED ? "removed" : "changed";
}

const char *dl_finding_change_name(dl_finding_change_kind k)
{
    return k == DL_FINDING_APPEARED ? "appeared" : k == DL_FINDING_GONE ? "gone" : "severity";
}
