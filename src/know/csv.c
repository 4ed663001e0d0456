#include "know/csv.h"

#include "base/str.h"

#include <stdlib.h>
#include <string.h>

/* Where the reader stands, and what it has read so far. */
typedef struct parser {
    const char *name;
    const char *s;
    size_t len, i;
    size_t line, col;   /* of s[i] */
    /* Every field read, the header's first, each ended by a NUL, in one buffer: a table
     * is then three allocations, not one per cell (loading the tables is most of an
     * `explain` of one report). */
    dl_buf fields;
    size_t *starts;     /* where each field starts in fields */
    size_t n_cells, cells_cap;
    size_t *lines;      /* start line of each record, header included */
    size_t records, lines_cap;
    char *error;
} parser;

static void fail_at(parser *p, size_t line, size_t col, const char *what)
{
    if (!p->error)
        p->error = dl_fmt("%s:%zu:%zu: %s", p->name, line, col, what);
}

static void fail_line(parser *p, size_t line, const char *what)
{
    if (!p->error)
        p->error = dl_fmt("%s:%zu: %s", p->name, line, what);
}

/* Moves past one byte. Columns count characters, so only a UTF-8 lead byte (or an ASCII
 * one) starts a new column. */
static void step(parser *p)
{
    unsigned char b = (unsigned char)p->s[p->i++];
    if (b == '\n') {
        p->line++;
        p->col = 1;
    } else if ((b & 0xC0) != 0x80) {
        p->col++;
    }
}

static int peek(const parser *p, size_t ahead)
{
    return p->i + ahead < p->len ? (unsigned char)p->s[p->i + ahead] : -1;
}

/* The length of the valid UTF-8 sequence at s, 0 when there is none. A valid sequence is
 * never a prefix of another, so the shortest valid prefix is the sequence. */
static size_t utf8_len(const char *s, size_t avail)
{
    size_t n;
    for (n = 1; n <= 4 && n <= avail; n++)
        if (dl_utf8_valid(s, n))
            return n;
    return 0;
}

/* A first pass so that the parser proper can assume clean text, and so that a bad byte is
 * reported where it is even when it sits inside a quoted field. */
static bool check_text(parser *p)
{
    size_t line = 1, col = 1, i = p->i;
    while (i < p->len) {
        /* ASCII, nearly all of every table, without a call */
        size_t n = (unsigned char)p->s[i] < 0x80 ? 1 : utf8_len(p->s + i, p->len - i);
        if (!n || p->s[i] == '\0') {
            char *what = dl_fmt(n ? "NUL byte" : "invalid UTF-8 (byte 0x%02x)",
                                (unsigned char)p->s[i]);
            fail_at(p, line, col, what);
            free(what);
            return false;
        }
        if (p->s[i] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
        i += n;
    }
    return true;
}

static bool at_field_end(const parser *p)
{
    int c = peek(p, 0);
    return c == -1 || c == ',' || c == '\n' || c == '\r';
}

/* The bytes from start to where the parser stands, into the field: runs are copied whole,
 * since copying byte by byte was most of the time of loading the tables. */
static void take_run(parser *p, size_t start)
{
    if (p->i > start)
        dl_buf_add(&p->fields, p->s + start, p->i - start);
}

static bool read_quoted(parser *p)
{
    size_t line = p->line, col = p->col, run;
    step(p); /* the opening quote */
    run = p->i;
    for (;;) {
        int c = peek(p, 0);
        if (c == -1) {
            fail_at(p, line, col, "unterminated quoted field");
            return false;
        }
        if (c == '"' && peek(p, 1) == '"') {
            take_run(p, run);
            dl_buf_add(&p->fields, "\"", 1);
            step(p);
            step(p);
            run = p->i;
        } else if (c == '"') {
            take_run(p, run);
            step(p);
            break;
        } else if (c == '\r' && peek(p, 1) == '\n') {
            take_run(p, run);
            step(p); /* CRLF inside a field reads as LF */
            run = p->i;
        } else {
            step(p);
        }
    }
    if (!at_field_end(p)) {
        fail_at(p, p->line, p->col, "text after the closing quote of a field");
        return false;
    }
    return true;
}

static bool read_unquoted(parser *p)
{
    size_t run = p->i;
    while (!at_field_end(p)) {
        if (peek(p, 0) == '"') {
            fail_at(p, p->line, p->col,
                    "quote inside an unquoted field (quote the whole field, double the quote)");
            return false;
        }
        step(p);
    }
    take_run(p, run);
    return true;
}

static bool read_field(parser *p)
{
    size_t start = p->fields.len;
    bool ok = peek(p, 0) == '"' ? read_quoted(p) : read_unquoted(p);
    if (ok) {
        dl_buf_add(&p->fields, "", 1);
        p->starts = dl_xgrow(p->starts, &p->cells_cap, p->n_cells + 1, sizeof *p->starts);
        p->starts[p->n_cells++] = start;
    }
    return ok;
}

static const char *cell(const parser *p, size_t i)
{
    return p->fields.data + p->starts[i];
}

/* Moves past the line end after a record: LF, CRLF or the end of the text. */
static bool end_record(parser *p)
{
    int c = peek(p, 0);
    if (c == '\r' && peek(p, 1) != '\n') {
        fail_at(p, p->line, p->col, "carriage return without a line feed");
        return false;
    }
    if (c == '\r')
        step(p);
    if (c != -1)
        step(p);
    return true;
}

static bool read_record(parser *p)
{
    p->lines = dl_xgrow(p->lines, &p->lines_cap, p->records + 1, sizeof *p->lines);
    p->lines[p->records++] = p->line;
    for (;;) {
        if (!read_field(p))
            return false;
        if (peek(p, 0) != ',')
            return end_record(p);
        step(p);
    }
}

static bool check_header(parser *p, size_t cols)
{
    size_t a, b;
    for (a = 0; a < cols; a++) {
        char *what = NULL;
        if (!cell(p, a)[0])
            what = dl_fmt("header column %zu has no name", a + 1);
        for (b = 0; !what && b < a; b++)
            if (strcmp(cell(p, a), cell(p, b)) == 0)
                what = dl_fmt("the header names column '%s' twice", cell(p, a));
        if (what) {
            fail_line(p, 1, what);
            free(what);
            return false;
        }
    }
    return true;
}

/* Reads every record; the first fixes the number of fields every other must have. */
static bool read_all(parser *p, size_t *cols)
{
    size_t before;
    if (p->i >= p->len) {
        fail_line(p, 1, "empty file: no header row");
        return false;
    }
    if (!read_record(p))
        return false;
    *cols = p->n_cells;
    if (!check_header(p, *cols))
        return false;
    while (p->i < p->len) {
        before = p->n_cells;
        if (!read_record(p))
            return false;
        if (p->n_cells - before != *cols) {
            char *what = dl_fmt("row has %zu field%s, the header has %zu", p->n_cells - before,
                                p->n_cells - before == 1 ? "" : "s", *cols);
            fail_line(p, p->lines[p->records - 1], what);
            free(what);
            return false;
        }
    }
    return true;
}

/* Moves the cells read into out: the header's names, then the rows. */
static void take_result(parser *p, size_t cols, dl_csv *out)
{
    size_t i;
    out->cols = cols;
    out->rows = p->records - 1;
    out->text = dl_buf_take(&p->fields);
    out->header = dl_xcalloc(cols, sizeof *out->header);
    out->cells = dl_xcalloc(out->rows * cols + 1, sizeof *out->cells);
    for (i = 0; i < p->n_cells; i++) {
        if (i < cols)
            out->header[i] = out->text + p->starts[i];
        else
            out->cells[i - cols] = out->text + p->starts[i];
    }
    out->lines = dl_xcalloc(out->rows + 1, sizeof *out->lines);
    memcpy(out->lines, p->lines + 1, out->rows * sizeof *out->lines);
}

bool dl_csv_parse(const char *name, const char *text, size_t len, dl_csv *out, char **error)
{
    parser p;
    size_t cols = 0;
    memset(&p, 0, sizeof p);
    memset(out, 0, sizeof *out);
    *error = NULL;
    p.name = name;
    p.s = text;
    p.len = len;
    p.line = p.col = 1;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) /* spreadsheets write a BOM */
        p.i = 3;
    /* the fields, each ended by a NUL in place of its comma or line end, fit in the text's
     * size and one more: one allocation instead of a doubling's dozen copies */
    p.fields.cap = len + 2;
    p.fields.data = dl_xmalloc(p.fields.cap);
    p.fields.data[0] = '\0';
    if (check_text(&p) && read_all(&p, &cols))
        take_result(&p, cols, out);
    dl_buf_free(&p.fields);
    free(p.starts);
    free(p.lines);
    *error = p.error;
    return !p.error;
}

void dl_csv_free(dl_csv *c)
{
    free(c->text);
    free(c->header);
    free(c->cells);
    free(c->lines);
    memset(c, 0, sizeof *c);
}

long dl_csv_column(const dl_csv *c, const char *name)
{
    size_t i;
    for (i = 0; i < c->cols; i++)
        if (strcmp(c->header[i], name) == 0)
            return (long)i;
    return -1;
}
