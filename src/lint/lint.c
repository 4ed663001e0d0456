/* The driver: each file read, checked (UTF-8, size), parsed, its names collected, the
 * rules run in one walk, `# noqa` honoured, and the safe fixes applied or shown. A file
 * that cannot be read or parsed is a finding; the other files are still linted. */
#include "lint/callgraph.h"
#include "lint/engine.h"
#include "lint/visit.h"
#include "lint/walk.h"

#include "os/os.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILE (64u * 1024u * 1024u)

const TSLanguage *tree_sitter_python(void);

const char *dl_lint_parser_name(void)
{
    return "tree-sitter-python 0.23.6";
}

static void finding_free(dl_lint_finding *x)
{
    size_t i;
    free(x->file);
    free(x->message);
    for (i = 0; i < x->n_edits; i++)
        free(x->edits[i].text);
    free(x->edits);
}

static dl_lint_finding *add_finding(dl_lint_findings *out, const char *file, unsigned line,
                                    unsigned column, const char *id, dl_lint_severity sev,
                                    char *message)
{
    dl_lint_finding *x;
    if (out->n == out->cap) {
        out->cap = out->cap ? out->cap * 2 : 16;
        out->v = dl_xrealloc(out->v, out->cap * sizeof *out->v);
    }
    x = &out->v[out->n++];
    memset(x, 0, sizeof *x);
    x->file = dl_strdup(file);
    x->line = line;
    x->column = column;
    x->id = id;
    x->severity = sev;
    x->message = message;
    return x;
}

static bool selected(const dl_lint_settings *o, const char *id)
{
    if (o->select.n && !dl_strv_has(&o->select, id))
        return false;
    return !dl_strv_has(&o->ignore, id);
}

static bool is_id_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-';
}

/* `# noqa` or `# noqa: id, id` on the line holding offset at. */
static bool noqa(const dl_lint_file *f, size_t at, const char *id)
{
    size_t end = at, idlen = strlen(id);
    const char *line, *p;
    while (end < f->len && f->src[end] != '\n')
        end++;
    while (at > 0 && f->src[at - 1] != '\n')
        at--;
    line = f->src + at;
    for (p = line; p + 6 <= f->src + end; p++) {
        const char *q;
        if (p[0] != '#')
            continue;
        q = p + 1;
        while (q < f->src + end && *q == ' ')
            q++;
        if (f->src + end - q < 4 || (q[0] != 'n' && q[0] != 'N') || strncmp(q + 1, "oqa", 3))
            continue;
        q += 4;
        if (q >= f->src + end || *q != ':')
            return true; /* bare noqa: every rule */
        q++;
        /* the ids, up to anything that cannot be one (another comment) */
        while (q < f->src + end) {
            const char *w;
            while (q < f->src + end && (*q == ' ' || *q == ','))
                q++;
            for (w = q; w < f->src + end && is_id_char(*w); w++)
                ;
            if (w == q)
                return false;
            if ((size_t)(w - q) == idlen && !strncmp(q, id, idlen))
                return true;
            q = w;
        }
        return false;
    }
    return false;
}

dl_lint_finding *dl_lint_report(dl_lint_file *f, TSNode at, const char *id,
                                dl_lint_severity severity, const char *fmt, ...)
{
    TSPoint p = ts_node_start_point(at);
    va_list ap;
    char *msg;
    if (severity == DL_LINT_OFF || !selected(f->opts, id) ||
        noqa(f, ts_node_start_byte(at), id))
        return NULL;
    va_start(ap, fmt);
    msg = dl_vfmt(fmt, ap);
    va_end(ap);
    return add_finding(f->out, f->path, p.row + 1, p.column + 1, id, severity, msg);
}

void dl_lint_fix_add(dl_lint_finding *x, size_t start, size_t end, const char *text)
{
    dl_lint_edit *e;
    if (!x)
        return;
    x->edits = dl_xrealloc(x->edits, (x->n_edits + 1) * sizeof *x->edits);
    e = &x->edits[x->n_edits++];
    e->start = start;
    e->end = end;
    e->text = dl_strdup(text);
}

static void run_rules(dl_lint_file *f, TSNode n, const char *type, void *ctx)
{
    size_t i;
    (void)ctx;
    if (!strcmp(type, "call")) {
        char buf[256];
        const char *q = dl_lint_qualified(f, ts_node_child_by_field_name(n, "function", 8),
                                          buf, sizeof buf);
        for (i = 0; i < dl_lint_n_rules; i++)
            if (dl_lint_rules[i].on_call)
                dl_lint_rules[i].on_call(f, n, q);
        return;
    }
    for (i = 0; i < dl_lint_n_rules; i++)
        if (dl_lint_rules[i].on_node)
            dl_lint_rules[i].on_node(f, n, type);
}

/* The first ERROR or MISSING node, for the syntax finding's position. */
static TSNode first_error(TSNode n)
{
    uint32_t i, count;
    TSNode none = {{0}, 0, 0};
    if (!strcmp(ts_node_type(n), "ERROR") || ts_node_is_missing(n))
        return n;
    count = ts_node_child_count(n);
    for (i = 0; i < count; i++) {
        TSNode c = ts_node_child(n, i);
        if (ts_node_has_error(c)) {
            TSNode e = first_error(c);
            if (!ts_node_is_null(e))
                return e;
        }
    }
    return none;
}

static size_t count_lines(const char *s, size_t len)
{
    size_t n = 0, i;
    for (i = 0; i < len; i++)
        n += s[i] == '\n';
    return n + (len && s[len - 1] != '\n');
}

/* The first invalid UTF-8 byte's line (1-based), or 0 when the text is valid. */
static unsigned invalid_utf8_line(const char *s, size_t len)
{
    size_t good = 0, i;
    unsigned line = 1;
    /* dl_utf8_valid tells whether; find where by growing a valid prefix line by line */
    while (good < len) {
        size_t end = good;
        while (end < len && s[end] != '\n')
            end++;
        if (!dl_utf8_valid(s + good, end - good))
            return line;
        good = end + 1;
        line++;
    }
    (void)i;
    return 0;
}

typedef struct lint_state {
    TSParser *parser;
    const dl_lint_settings *opts;
    dl_lint_run *run;
    dl_buf diff;
    dl_lint_modules *modules;
    dl_strv files, problems; /* the walk's answers, in order; problems[i] NULL: a file */
} lint_state;

static void lint_text(lint_state *st, const char *path, const char *data, size_t len);

/* After --fix wrote a file, what remains is found again in the fixed text, so each
 * remaining finding has its position in the file as it now is (and a fix that waited
 * behind an overlapping one shows as remaining): the fixed findings stay (positions as
 * they were), the others give way to the second pass's (a fix they offer is for the
 * text as it now is). */
static void relint_fixed(lint_state *st, const char *path, const char *after, size_t len,
                         size_t first)
{
    dl_lint_findings *out = &st->run->findings;
    dl_lint_settings again = *st->opts;
    const dl_lint_settings *saved = st->opts;
    size_t i, kept = first;
    for (i = first; i < out->n; i++) {
        if (out->v[i].fixed)
            out->v[kept++] = out->v[i];
        else
            finding_free(&out->v[i]);
    }
    out->n = kept;
    again.fix = again.diff = false;
    st->opts = &again;
    lint_text(st, path, after, len);
    st->opts = saved;
}

static void apply_fixes(lint_state *st, const char *path, const char *data, size_t len,
                        size_t first)
{
    dl_lint_findings *out = &st->run->findings;
    dl_lint_edit *edits = NULL;
    size_t n = 0, i, j, new_len;
    char *after, *whole;
    for (i = first; i < out->n; i++)
        for (j = 0; j < out->v[i].n_edits; j++) {
            edits = dl_xrealloc(edits, (n + 1) * sizeof *edits);
            edits[n++] = out->v[i].edits[j];
        }
    after = n ? dl_lint_apply_edits(data, len, edits, n, &new_len) : NULL;
    free(edits);
    if (!after)
        return;
    if (st->opts->diff)
        dl_lint_diff(&st->diff, path, data, len, after, new_len);
    whole = NULL;
    if (st->opts->fix) {
        if (!dl_file_write_atomic(path, after, new_len, &whole)) {
            dl_strv_add(&st->run->errors, whole ? whole : dl_fmt("%s: cannot write", path));
        } else {
            st->run->files_fixed++;
            for (i = first; i < out->n; i++)
                out->v[i].fixed = out->v[i].n_edits > 0;
            relint_fixed(st, path, after, new_len, first);
        }
    }
    free(after);
}

static void lint_text(lint_state *st, const char *path, const char *data, size_t len)
{
    dl_lint_file f;
    TSTree *tree;
    size_t bom = len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3) ? 3 : 0;
    size_t first = st->run->findings.n, i, j;
    TSNode err;
    memset(&f, 0, sizeof f);
    f.path = path;
    f.src = data + bom;
    f.len = len - bom;
    f.opts = st->opts;
    f.out = &st->run->findings;
    tree = ts_parser_parse_string(st->parser, NULL, f.src, (uint32_t)f.len);
    if (!tree) {
        add_finding(f.out, path, 0, 0, "syntax", DL_LINT_ERROR,
                    dl_strdup("the parser gave up on this file (over 30 s): not checked"));
        ts_parser_reset(st->parser);
        return;
    }
    f.root = ts_tree_root_node(tree);
    err = ts_node_has_error(f.root) ? first_error(f.root) : f.root;
    if (ts_node_has_error(f.root) && selected(st->opts, "syntax")) {
        TSPoint p = ts_node_is_null(err) ? ts_node_start_point(f.root)
                                         : ts_node_start_point(err);
        add_finding(f.out, path, p.row + 1, p.column + 1, "syntax", DL_LINT_ERROR,
                    dl_strdup("this is not valid Python here (the rest of the file is "
                              "still checked)"));
    }
    f.modules = st->modules;
    dl_lint_collect(&f);
    dl_lint_visit(&f, run_rules, NULL);
    /* the fixes' offsets count from the file's first byte, a byte-order mark included */
    for (i = first; bom && i < f.out->n; i++)
        for (j = 0; j < f.out->v[i].n_edits; j++) {
            f.out->v[i].edits[j].start += bom;
            f.out->v[i].edits[j].end += bom;
        }
    if (st->opts->fix || st->opts->diff)
        apply_fixes(st, path, data, len, first);
    dl_lint_modules_adopt(st->modules, path, dl_lint_graph_take(&f));
    dl_lint_file_free(&f);
    ts_tree_delete(tree);
}

/* An imported file's call graph (callgraph.h), for the files that call into it: read
 * and parsed again, no finding reported (it has its own turn). NULL when it cannot be
 * read or is not text. */
static struct dl_lint_graph *summarize(const char *path, void *ctx)
{
    lint_state *st = ctx;
    dl_machine m = {"/", true, NULL};
    dl_io_error err = {DL_IO_OK, NULL};
    char *data = NULL;
    size_t len = 0, bom;
    bool truncated = false;
    struct dl_lint_graph *g = NULL;
    dl_lint_file f;
    TSTree *tree;
    if (!dl_fs_read(&m, path, MAX_FILE, &data, &len, &truncated, &err)) {
        dl_io_error_clear(&err);
        return NULL;
    }
    bom = len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3) ? 3 : 0;
    if (!truncated && !memchr(data, '\0', len) && dl_utf8_valid(data, len) &&
        (tree = ts_parser_parse_string(st->parser, NULL, data + bom, (uint32_t)(len - bom)))) {
        memset(&f, 0, sizeof f);
        f.path = path;
        f.src = data + bom;
        f.len = len - bom;
        f.opts = st->opts;
        f.modules = st->modules;
        f.summary = true;
        f.root = ts_tree_root_node(tree);
        dl_lint_collect(&f);
        g = dl_lint_graph_take(&f);
        dl_lint_file_free(&f);
        ts_tree_delete(tree);
    } else {
        ts_parser_reset(st->parser);
    }
    free(data);
    return g;
}

static void lint_file(const char *path, void *ctx)
{
    lint_state *st = ctx;
    dl_machine m = {NULL, true, NULL}; /* this machine (no root), as walk.c reads it */
    dl_io_error err = {DL_IO_OK, NULL};
    char *data = NULL;
    size_t len = 0;
    bool truncated = false;
    unsigned bad;
    st->run->files++;
    if (!dl_fs_read(&m, path, MAX_FILE, &data, &len, &truncated, &err)) {
        add_finding(&st->run->findings, path, 0, 0, "source", DL_LINT_WARNING,
                    dl_fmt("cannot read: %s", err.message ? err.message : "unknown error"));
        dl_io_error_clear(&err);
        return;
    }
    st->run->bytes += len;
    st->run->lines += count_lines(data, len);
    if (truncated) {
        add_finding(&st->run->findings, path, 0, 0, "source", DL_LINT_WARNING,
                    dl_fmt("larger than %u MiB: not checked", MAX_FILE >> 20));
    } else if (memchr(data, '\0', len)) {
        add_finding(&st->run->findings, path, 0, 0, "source", DL_LINT_WARNING,
                    dl_strdup("holds NUL bytes: not Python source, not checked"));
    } else if ((bad = invalid_utf8_line(data, len)) != 0) {
        add_finding(&st->run->findings, path, bad, 1, "source", DL_LINT_WARNING,
                    dl_strdup("not UTF-8 (Python 3's default source encoding): not "
                              "checked; save it as UTF-8"));
    } else {
        lint_text(st, path, data, len);
    }
    free(data);
}

/* The walk's answers are kept first, so that an import can name any file of the run. */
static void walk_file(const char *path, void *ctx)
{
    lint_state *st = ctx;
    dl_strv_add(&st->files, dl_strdup(path));
    dl_strv_add(&st->problems, NULL);
}

static void walk_problem(const char *path, const char *message, void *ctx)
{
    lint_state *st = ctx;
    dl_strv_add(&st->files, dl_strdup(path));
    dl_strv_add(&st->problems, dl_strdup(message));
}

void dl_lint_paths(const char *const *paths, size_t n, const dl_lint_settings *opts,
                   dl_lint_run *run)
{
    lint_state st;
    memset(run, 0, sizeof *run);
    memset(&st, 0, sizeof st);
    st.opts = opts;
    st.run = run;
    st.parser = ts_parser_new();
    ts_parser_set_language(st.parser, tree_sitter_python());
    /* a pathological file cannot hold the run up: it is reported, the others go on */
    ts_parser_set_timeout_micros(st.parser, 30u * 1000u * 1000u);
    dl_lint_walk(paths, n, walk_file, walk_problem, &st);
    {
        dl_strv linted = {0};
        size_t i;
        for (i = 0; i < st.files.n; i++)
            if (!st.problems.v[i])
                dl_strv_add(&linted, dl_strdup(st.files.v[i]));
        st.modules = dl_lint_modules_new(&linted, summarize, &st);
        dl_strv_free(&linted);
        for (i = 0; i < st.files.n; i++)
            if (st.problems.v[i])
                add_finding(&run->findings, st.files.v[i], 0, 0, "walk", DL_LINT_WARNING,
                            dl_strdup(st.problems.v[i]));
            else
                lint_file(st.files.v[i], &st);
    }
    dl_lint_modules_free(st.modules);
    dl_strv_free(&st.files);
    dl_strv_free(&st.problems);
    ts_parser_delete(st.parser);
    if (opts->diff && st.diff.len)
        run->diff = dl_buf_take(&st.diff);
    dl_buf_free(&st.diff);
}

void dl_lint_run_free(dl_lint_run *run)
{
    size_t i;
    for (i = 0; i < run->findings.n; i++)
        finding_free(&run->findings.v[i]);
    free(run->findings.v);
    free(run->diff);
    dl_strv_free(&run->errors);
    memset(run, 0, sizeof *run);
}
