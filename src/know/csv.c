#include "know/csv.h"

#include "base/str.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Where the reader stands, and what it has read so far. */
typedef struct parser {
    const char *name;
    const char *s;
    size_t len, i;
    size_t begin;         /* the first byte of the table (after a byte-order mark) */
    size_t line, line_at; /* s[line_at] is on this line: counted on as records start */
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

/* The line of s[at], at or after the last asked: newlines are counted once in all. */
static size_t line_of(parser *p, size_t at)
{
    const char *nl;
    while (p->line_at < at &&
           (nl = memchr(p->s + p->line_at, '\n', at - p->line_at)) != NULL) {
        p->line++;
        p->line_at = (size_t)(nl - p->s) + 1;
    }
    p->line_at = at;
    return p->line;
}

/* An error at s[at], with its line and column. Columns count characters, so only a UTF-8
 * lead byte (or an ASCII one) starts a new column. Found by reading from the start: the
 * parser itself keeps no column, which was most of the time of loading the tables. */
static void fail_at(parser *p, size_t at, const char *what)
{
    size_t line = 1, col = 1, i;
    if (p->error)
        return;
    for (i = p->begin; i < at; i++) {
        unsigned char b = (unsigned char)p->s[i];
        if (b == '\n') {
            line++;
            col = 1;
        } else if ((b & 0xC0) != 0x80) {
            col++;
        }
    }
    p->error = dl_fmt("%s:%zu:%zu: %s", p->name, line, col, what);
}

static void fail_line(parser *p, size_t line, const char *what)
{
    if (!p->error)
        p->error = dl_fmt("%s:%zu: %s", p->name, line, what);
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

/* Eight bytes at a time (the tables are mostly long runs of plain bytes). */
#define ONES ((uint64_t)0x0101010101010101u)
#define HIGHS ((uint64_t)0x8080808080808080u)

/* Some byte of w is c: the classic test for a zero byte, on w with c's bytes zeroed. */
static uint64_t has_byte(uint64_t w, unsigned char c)
{
    uint64_t x = w ^ (ONES * c);
    return (x - ONES) & ~x & HIGHS;
}

/* Moves p->i on by whole words of eight that hold neither a nor b nor c nor d. */
static void skip_words_without(parser *p, char a, char b, char c, char d)
{
    uint64_t w;
    while (p->i + 8 <= p->len) {
        memcpy(&w, p->s + p->i, 8);
        if (has_byte(w, (unsigned char)a) | has_byte(w, (unsigned char)b) |
            has_byte(w, (unsigned char)c) | has_byte(w, (unsigned char)d))
            return;
        p->i += 8;
    }
}

/* A first pass so that the parser proper can assume clean text, and so that a bad byte is
 * reported where it is even when it sits inside a quoted field. */
static bool check_text(parser *p)
{
    size_t i = p->i;
    while (i < p->len) {
        unsigned char b = (unsigned char)p->s[i];
        size_t n;
        uint64_t w;
        /* ASCII, nearly all of every table, eight bytes at a time: no byte is 0 (which the
         * subtraction would carry into the high bit) and none has the high bit set */
        if (i + 8 <= p->len && (memcpy(&w, p->s + i, 8), !(((w - ONES) | w) & HIGHS))) {
            i += 8;
            continue;
        }
        if (b && b < 0x80) {
            i++;
            continue;
        }
        n = b ? utf8_len(p->s + i, p->len - i) : 1;
        if (!n || !b) {
            char *what = dl_fmt(n ? "NUL byte" : "invalid UTF-8 (byte 0x%02x)", b);
            fail_at(p, i, what);
            free(what);
            return false;
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

/* Moves past the bytes of a quoted field that need no care: up to a quote or a CR. */
static void skip_quoted_run(parser *p)
{
    skip_words_without(p, '"', '\r', '"', '\r');
    while (p->i < p->len && p->s[p->i] != '"' && p->s[p->i] != '\r')
        p->i++;
}

static bool read_quoted(parser *p)
{
    size_t open = p->i, run;
    p->i++; /* the opening quote */
    run = p->i;
    for (;;) {
        int c;
        skip_quoted_run(p);
        c = peek(p, 0);
        if (c == -1) {
            fail_at(p, open, "unterminated quoted field");
            return false;
        }
        if (c == '"' && peek(p, 1) == '"') {
            take_run(p, run);
            dl_buf_add(&p->fields, "\"", 1);
            p->i += 2;
            run = p->i;
        } else if (c == '"') {
            take_run(p, run);
            p->i++;
            break;
        } else if (c == '\r' && peek(p, 1) == '\n') {
            take_run(p, run);
            p->i++; /* CRLF inside a field reads as LF */
            run = p->i;
        } else {
            p->i++;
        }
    }
    if (!at_field_end(p)) {
        fail_at(p, p->i, "text after the closing quote of a field");
        return false;
    }
    return true;
}

static bool read_unquoted(parser *p)
{
    size_t run = p->i;
    skip_words_without(p, ',', '\n', '\r', '"');
    while (p->i < p->len) {
        char c = p->s[p->i];
        if (c == ',' || c == '\n' || c == '\r')
            break;
        if (c == '"') {
            fail_at(p, p->i,
                    "quote inside an unquoted field (quote the whole field, double the quote)");
            return false;
        }
        p->i++;
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
        fail_at(p, p->i, "carriage return without a line feed");
        return false;
    }
    if (c == '\r')
        p->i++;
    if (c != -1)
        p->i++;
    return true;
}

static bool read_record(parser *p)
{
    p->lines = dl_xgrow(p->lines, &p->lines_cap, p->records + 1, sizeof *p->lines);
    p->lines[p->records++] = line_of(p, p->i);
    for (;;) {
        if (!read_field(p))
            return false;
        if (peek(p, 0) != ',')
            return end_record(p);
        p->i++;
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
    p.line = 1;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) /* spreadsheets write a BOM */
        p.i = 3;
    p.begin = p.line_at = p.i;
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
