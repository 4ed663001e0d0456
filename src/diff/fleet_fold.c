#include "diff/fleet_fold.h"

#include "base/str.h"

#include <stdlib.h>
#include <string.h>

static const char *const fp_names[DL_FP_COUNT] = {"driver", "max_cuda", "gpus", "torch"};

const char *dl_fleet_fp_name(int field)
{
    return field >= 0 && field < DL_FP_COUNT ? fp_names[field] : "?";
}

const char *dl_node_state_name(dl_node_state s)
{
    switch (s) {
    case DL_NODE_OK: return "ok";
    case DL_NODE_FAILING: return "failing";
    case DL_NODE_CANNOT_JUDGE: return "cannot_judge";
    case DL_NODE_GARBAGE: return "garbage";
    case DL_NODE_SILENT: return "no_answer";
    }
    return "?";
}

/* ---- splitting a launcher's output ---------------------------------------------------- */

/* The length of the "host: " prefix of line (pdsh, clush: a host name; srun --label: a
 * task number), 0 when it has none. A JSON line starts with {, }, a quote or a tab. */
static bool host_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '.' || c == '-' || c == '_';
}

/* *name_len: the length of the host name before the colon. */
static size_t prefix_len(const char *line, size_t len, size_t *name_len)
{
    size_t i = 0;
    while (i < len && host_char(line[i]))
        i++;
    *name_len = i;
    if (i == 0 || i == len || line[i] != ':')
        return 0;
    if (i + 1 == len)
        return i + 1;             /* "host:" alone: an empty line of that host */
    return line[i + 1] == ' ' ? i + 2 : 0;
}

/* What object_len stops at: bit 1 outside a string, bit 2 inside one; it skips the rest
 * in tight loops (a fleet report scans every node's whole report). */
static const unsigned char stops[256] = {['"'] = 3, ['{'] = 1, ['['] = 1, ['}'] = 1,
                                         [']'] = 1, ['\\'] = 2};

/* From s[0] == '{': the length of the object, brace to matching brace (strings and their
 * escapes skipped), or 0 when it does not close. */
static size_t object_len(const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, depth = 0;
    while (i < len) {
        unsigned char c;
        while (i < len && !(stops[u[i]] & 1))
            i++;
        if (i == len)
            break;
        c = u[i++];
        if (c == '"') {
            for (;;) {
                while (i < len && !(stops[u[i]] & 2))
                    i++;
                if (i >= len || u[i] == '"')
                    break;
                i += 2; /* an escape: the backslash and what it escapes */
            }
            i++;
        } else if (c == '{' || c == '[')
            depth++;
        else if (depth > 0 && --depth == 0)
            return i;
    }
    return 0;
}

static void add_part(dl_fleet_part **parts, size_t *n, const char *host, const char *text,
                     size_t len)
{
    dl_fleet_part *p;
    *parts = dl_xrealloc(*parts, (*n + 1) * sizeof **parts);
    p = &(*parts)[(*n)++];
    p->host = host ? dl_strdup(host) : NULL;
    p->text = dl_strndup(text, len);
    p->len = len;
}

static bool blank(const char *s, size_t len)
{
    size_t i;
    for (i = 0; i < len; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
            return false;
    return true;
}

/* A plain stream: each object is a part; what lies between objects, when not blank, is a
 * part of its own (garbage), cut at the next line that opens an object. */
static void split_plain(const char *s, size_t len, dl_fleet_part **parts, size_t *n)
{
    size_t i = 0;
    while (i < len) {
        size_t start = i, obj = 0, end;
        while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
            i++;
        if (i == len)
            break;
        if (s[i] == '{')
            obj = object_len(s + i, len - i);
        if (obj) {
            add_part(parts, n, NULL, s + i, obj);
            i += obj;
            continue;
        }
        for (end = i + 1; end < len && !(s[end] == '{' && s[end - 1] == '\n'); end++)
            ;
        if (!blank(s + start, end - start))
            add_part(parts, n, NULL, s + i, end - i);
        i = end;
    }
}

bool dl_fleet_find_object(const char *text, size_t len, size_t *start, size_t *obj_len)
{
    size_t i;
    for (i = 0; i < len; i++)
        if (text[i] == '{' && (i == 0 || text[i - 1] == '\n')) {
            *start = i;
            *obj_len = object_len(text + i, len - i);
            return *obj_len > 0;
        }
    return false;
}

/* Where a labelled host's report stands at the end of the lines added so far. srun --label
 * cuts a line longer than its buffer into pieces and labels each (a report's list of bundled
 * libraries makes a line of 2 KB), so the newline between two pieces is the launcher's, not
 * the node's. JSON has no raw newline inside a string and no whitespace inside a number or
 * a literal: a newline there is a cut, and the pieces are joined. Only a line that opens
 * with { starts an object, so a shell's chatter before it is never read as JSON. */
typedef struct json_cursor {
    size_t depth;
    bool in_string, escaped;
    bool in_token; /* the last character was part of a number or a literal */
} json_cursor;

static bool token_char(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           c == '.' || c == '+' || c == '-';
}

static void cursor_line(json_cursor *j, const char *s, size_t len)
{
    size_t i;
    if (j->depth == 0 && (len == 0 || s[0] != '{'))
        return;
    for (i = 0; i < len; i++) {
        char c = s[i];
        if (j->in_string) {
            if (j->escaped)
                j->escaped = false;
            else if (c == '\\')
                j->escaped = true;
            else if (c == '"')
                j->in_string = false;
            continue;
        }
        j->in_token = token_char(c);
        if (c == '"')
            j->in_string = true;
        else if (c == '{' || c == '[')
            j->depth++;
        else if ((c == '}' || c == ']') && --j->depth == 0)
            break; /* the object is whole: what follows on the line is not tracked */
    }
    if (j->depth == 0)
        memset(j, 0, sizeof *j);
}

/* Whether line continues the previous one, cut by the launcher. */
static bool cut_before(const json_cursor *j, const char *line, size_t len)
{
    if (j->depth == 0)
        return false;
    return j->in_string || (j->in_token && len > 0 && token_char(line[0]));
}

typedef struct host_text {
    char *host;
    dl_buf text;
    json_cursor json;
} host_text;

void dl_fleet_split(const char *out, size_t len, dl_fleet_part **parts, size_t *n)
{
    host_text *hosts = NULL;
    size_t n_hosts = 0, i, pos = 0;
    dl_buf plain = {0};
    *parts = NULL;
    *n = 0;
    while (pos < len) {
        const char *line = out + pos, *nl = memchr(line, '\n', len - pos);
        size_t line_len = nl ? (size_t)(nl - line) : len - pos, name_len = 0,
               p = prefix_len(line, line_len, &name_len);
        pos += line_len + (nl != NULL);
        if (!p) {
            dl_buf_add(&plain, line, line_len);
            dl_buf_add(&plain, "\n", 1);
            continue;
        }
        /* most launchers print one host's lines together: look at the last host first */
        for (i = n_hosts; i > 0; i--)
            if (strlen(hosts[i - 1].host) == name_len &&
                !strncmp(hosts[i - 1].host, line, name_len))
                break;
        if (i == 0) {
            hosts = dl_xrealloc(hosts, (n_hosts + 1) * sizeof *hosts);
            memset(&hosts[n_hosts], 0, sizeof *hosts);
            hosts[n_hosts].host = dl_strndup(line, name_len);
            i = ++n_hosts;
        }
        line += p;
        line_len -= p;
        if (hosts[i - 1].text.len && cut_before(&hosts[i - 1].json, line, line_len))
            hosts[i - 1].text.len--; /* the launcher's newline */
        dl_buf_add(&hosts[i - 1].text, line, line_len);
        dl_buf_add(&hosts[i - 1].text, "\n", 1);
        cursor_line(&hosts[i - 1].json, line, line_len);
    }
    for (i = 0; i < n_hosts; i++) {
        size_t tlen = hosts[i].text.len;
        char *t = dl_buf_take(&hosts[i].text);
        add_part(parts, n, hosts[i].host, t, tlen);
        free(t);
        free(hosts[i].host);
    }
    free(hosts);
    if (plain.len)
        split_plain(plain.data, plain.len, parts, n);
    dl_buf_free(&plain);
}

void dl_fleet_parts_free(dl_fleet_part *parts, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        free(parts[i].host);
        free(parts[i].text);
    }
    free(parts);
}

/* ---- the nodes -------------------------------------------------------------------------- */

dl_fleet_node *dl_fleet_add(dl_fleet *fl, const char *host, dl_node_state state)
{
    dl_fleet_node *x;
    if (fl->n == fl->cap) {
        fl->cap = fl->cap ? fl->cap * 2 : 64;
        fl->nodes = dl_xrealloc(fl->nodes, fl->cap * sizeof *fl->nodes);
    }
    x = &fl->nodes[fl->n++];
    memset(x, 0, sizeof *x);
    x->host = dl_strdup(host);
    x->state = state;
    return x;
}

void dl_fleet_take(dl_fleet *fl, const char *host, dl_fleet_node *x)
{
    dl_fleet_node *slot = dl_fleet_add(fl, host, x->state);
    char *name = slot->host;
    *slot = *x;
    slot->host = name;
    free(x->host);
    memset(x, 0, sizeof *x);
}

static char *copy_or_null(const char *s)
{
    return s ? dl_strdup(s) : NULL;
}

void dl_fleet_node_set(dl_fleet_node *x, const char *const *fp, const char *root_id,
                       const char *root_title, const char *why)
{
    int k;
    for (k = 0; fp && k < DL_FP_COUNT; k++)
        x->fp[k] = copy_or_null(fp[k]);
    x->root_id = copy_or_null(root_id);
    x->root_title = copy_or_null(root_title);
    x->why = copy_or_null(why);
}

bool dl_fleet_has(const dl_fleet *fl, const char *host)
{
    size_t i;
    for (i = 0; i < fl->n; i++)
        if (!strcmp(fl->nodes[i].host, host))
            return true;
    return false;
}

static bool is_report(const dl_fleet_node *x)
{
    return x->state != DL_NODE_GARBAGE && x->state != DL_NODE_SILENT;
}

/* NULL (unknown) sorts first and equals only NULL. */
static int fp_compare(char *const *a, char *const *b)
{
    int k, c;
    for (k = 0; k < DL_FP_COUNT; k++) {
        if (!a[k] || !b[k]) {
            if (a[k] != b[k])
                return a[k] ? 1 : -1;
            continue;
        }
        if ((c = strcmp(a[k], b[k])) != 0)
            return c;
    }
    return 0;
}

static const dl_fleet *sorting; /* qsort has no context argument in C11 */

static int by_fingerprint(const void *pa, const void *pb)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    int c = fp_compare(sorting->nodes[a].fp, sorting->nodes[b].fp);
    return c ? c : (a < b ? -1 : a > b);
}

void dl_fleet_fold(dl_fleet *fl)
{
    size_t *order = dl_xcalloc(fl->n ? fl->n : 1, sizeof *order), n = 0, i, g;
    size_t *first;
    for (i = 0; i < fl->n; i++) {
        fl->n_state[fl->nodes[i].state]++;
        if (is_report(&fl->nodes[i]))
            order[n++] = i;
    }
    sorting = fl;
    qsort(order, n, sizeof *order, by_fingerprint);
    sorting = NULL;
    fl->groups = dl_xcalloc(n ? n : 1, sizeof *fl->groups);
    first = dl_xcalloc(n ? n : 1, sizeof *first);
    for (i = 0; i < n; i++) {
        dl_fleet_node *x = &fl->nodes[order[i]];
        if (!i || fp_compare(fl->nodes[order[i - 1]].fp, x->fp)) {
            first[fl->n_groups] = order[i];
            fl->n_groups++;
        }
        fl->groups[fl->n_groups - 1].n++;
    }
    for (g = 0; g < fl->n_groups; g++)
        memcpy(fl->groups[g].fp, fl->nodes[first[g]].fp, sizeof fl->groups[g].fp);
    {
        /* largest first; among equals the one whose first node came first, so the
           reference does not depend on how fingerprints sort. Groups are few: insertion. */
        size_t a, b;
        for (a = 1; a < fl->n_groups; a++)
            for (b = a; b > 0 && (fl->groups[b].n > fl->groups[b - 1].n ||
                                  (fl->groups[b].n == fl->groups[b - 1].n &&
                                   first[b] < first[b - 1]));
                 b--) {
                dl_fleet_group t = fl->groups[b];
                size_t f = first[b];
                fl->groups[b] = fl->groups[b - 1];
                first[b] = first[b - 1];
                fl->groups[b - 1] = t;
                first[b - 1] = f;
            }
    }
    for (i = 0; i < fl->n; i++)
        if (is_report(&fl->nodes[i]))
            for (g = 0; g < fl->n_groups; g++)
                if (!fp_compare(fl->groups[g].fp, fl->nodes[i].fp)) {
                    fl->nodes[i].group = g;
                    break;
                }
    free(first);
    free(order);
}

char *dl_fleet_difference(const dl_fleet *fl, const dl_fleet_node *x)
{
    const dl_fleet_group *ref;
    dl_buf b = {0};
    int k;
    if (!is_report(x) || !fl->n_groups || x->group == 0)
        return NULL;
    ref = &fl->groups[0];
    for (k = 0; k < DL_FP_COUNT; k++) {
        const char *mine = x->fp[k] ? x->fp[k] : "unknown",
                   *theirs = ref->fp[k] ? ref->fp[k] : "unknown";
        if (strcmp(mine, theirs))
            dl_buf_printf(&b, "%s%s %s vs %s", b.len ? "; " : "", fp_names[k], mine, theirs);
    }
    if (!b.len)
        return NULL;
    dl_buf_printf(&b, " on %zu node%s", ref->n, ref->n == 1 ? "" : "s");
    return dl_buf_take(&b);
}

void dl_fleet_free(dl_fleet *fl)
{
    size_t i;
    int k;
    for (i = 0; i < fl->n; i++) {
        dl_fleet_node *x = &fl->nodes[i];
        free(x->host);
        for (k = 0; k < DL_FP_COUNT; k++)
            free(x->fp[k]);
        free(x->root_id);
        free(x->root_title);
        free(x->why);
    }
    free(fl->nodes);
    free(fl->groups);
    memset(fl, 0, sizeof *fl);
}

/* ---- expected hosts ----------------------------------------------------------------------- */

/* "gpu[01-03,7]" -> gpu01 gpu02 gpu03 gpu7, as pdsh and Slurm write host lists: numbers
 * keep the width of the range's first number. One bracket per name. */
static void expand_one(const char *item, size_t len, struct dl_strv *out)
{
    const char *open = memchr(item, '[', len), *close;
    size_t pre, i;
    dl_strv ranges = {0};
    char *inside;
    close = open ? memchr(open, ']', len - (size_t)(open - item)) : NULL;
    if (!open || !close) {
        if (len)
            dl_strv_add(out, dl_strndup(item, len));
        return;
    }
    pre = (size_t)(open - item);
    inside = dl_strndup(open + 1, (size_t)(close - open - 1));
    dl_strv_split(&ranges, inside, ',');
    for (i = 0; i < ranges.n; i++) {
        const char *r = ranges.v[i], *dash = strchr(r, '-');
        unsigned long lo = strtoul(r, NULL, 10), hi = dash ? strtoul(dash + 1, NULL, 10) : lo, k;
        int width = (int)(dash ? (size_t)(dash - r) : strlen(r));
        for (k = lo; k <= hi && k - lo < 100000; k++)
            dl_strv_add(out, dl_fmt("%.*s%0*lu%.*s", (int)pre, item, width, k,
                                    (int)(len - (size_t)(close + 1 - item)), close + 1));
    }
    dl_strv_free(&ranges);
    free(inside);
}

void dl_fleet_hosts_expand(const char *list, struct dl_strv *out)
{
    const char *s = list, *start = list;
    int depth = 0;
    for (;; s++) {
        if (*s == '[')
            depth++;
        else if (*s == ']' && depth > 0)
            depth--;
        else if ((*s == ',' && depth == 0) || !*s) {
            expand_one(start, (size_t)(s - start), out);
            start = s + 1;
        }
        if (!*s)
            break;
    }
}
