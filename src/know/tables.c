#include "know/tables.h"

#include "know/csv.h"
#include "os/os.h"

#include <stdlib.h>
#include <string.h>

/* The bytes of data/<name>.csv, written by cmake/embed.cmake (NUL-terminated). */
#define DL_TABLE(name, rows) extern const char dl_data_##name##_csv[];
#define DL_COLUMN(table, column, need)
#include "know/tables.def"
#undef DL_TABLE
#undef DL_COLUMN

/* A table's file is untrusted input when it comes from --data: bound what we read. */
#define MAX_TABLE_BYTES (16u * 1024u * 1024u)

#define DL_ROWS_REQUIRED false
#define DL_ROWS_OPTIONAL true /* a table of exceptions; the others are what dlenv knows */
#define DL_REQUIRED true
#define DL_OPTIONAL false

typedef struct table_spec {
    const char *name;
    const char *builtin;
    bool may_be_empty;
} table_spec;

static const table_spec specs[DL_TABLE_COUNT] = {
#define DL_TABLE(name, rows) {#name, dl_data_##name##_csv, rows},
#define DL_COLUMN(table, column, need)
#include "know/tables.def"
#undef DL_TABLE
#undef DL_COLUMN
};

typedef struct column_spec {
    const char *name;
    dl_table_id table;
    bool required;
} column_spec;

static const column_spec columns[DL_COLUMN_COUNT] = {
#define DL_TABLE(name, rows)
#define DL_COLUMN(table, column, need) {#column, DL_TABLE_##table, need},
#include "know/tables.def"
#undef DL_TABLE
#undef DL_COLUMN
};

const char *dl_table_name(size_t i)
{
    return i < DL_TABLE_COUNT ? specs[i].name : NULL;
}

const char *dl_column_name(dl_column_id column)
{
    return (size_t)column < DL_COLUMN_COUNT ? columns[column].name : NULL;
}

dl_table_id dl_column_table(dl_column_id column)
{
    return (size_t)column < DL_COLUMN_COUNT ? columns[column].table : DL_TABLE_COUNT;
}

bool dl_column_required(dl_column_id column)
{
    return (size_t)column < DL_COLUMN_COUNT && columns[column].required;
}

static bool blank(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return !*s;
}

/* What the CSV reader cannot know: where this table's tables.def columns are (each
 * required one must be there), and a source in every row, since a fact nobody can check
 * must not reach a user as advice. */
static bool index_columns(dl_table_id id, const char *file, const dl_csv *c, long *at,
                          char **error)
{
    size_t i;
    long source = dl_csv_column(c, "source");
    for (i = 0; i < DL_COLUMN_COUNT; i++) {
        at[i] = columns[i].table == id ? dl_csv_column(c, columns[i].name) : -1;
        if (columns[i].table == id && columns[i].required && at[i] < 0) {
            *error = dl_fmt("%s:1: missing required column '%s'", file, columns[i].name);
            return false;
        }
    }
    if (source < 0) {
        *error = dl_fmt("%s:1: missing required column 'source'", file);
        return false;
    }
    /* an empty torch_releases is no plan at all: unusable input (exit 4), not a usage
     * error later on */
    if (!c->rows && !specs[id].may_be_empty) {
        *error = dl_fmt("%s:2: no rows: the %s table cannot be empty", file, specs[id].name);
        return false;
    }
    for (i = 0; i < c->rows; i++)
        if (blank(c->cells[i * c->cols + (size_t)source])) {
            *error = dl_fmt("%s:%zu: row has no source", file, c->lines[i]);
            return false;
        }
    return true;
}

bool dl_table_parse(dl_table_id id, const char *file, const char *text, size_t len,
                    dl_table *t, char **error)
{
    dl_csv c;
    memset(t, 0, sizeof *t);
    *error = NULL;
    if ((size_t)id >= DL_TABLE_COUNT) {
        *error = dl_fmt("%s: not a knowledge table", file);
        return false;
    }
    if (!dl_csv_parse(file, text, len, &c, error))
        return false;
    if (!index_columns(id, file, &c, t->at, error)) {
        dl_csv_free(&c);
        memset(t, 0, sizeof *t);
        return false;
    }
    t->name = specs[id].name;
    t->id = id;
    t->rows = c.rows;
    t->cols = c.cols;
    t->header = c.header;
    t->cells = c.cells;
    t->text = c.text;
    free(c.lines);
    return true;
}

static bool load_builtin(dl_table_id id, dl_table *t, char **error)
{
    char *file = dl_fmt("data/%s.csv", specs[id].name);
    bool ok = dl_table_parse(id, file, specs[id].builtin, strlen(specs[id].builtin), t, error);
    free(file);
    if (ok)
        t->origin = dl_strdup("built-in");
    return ok;
}

/* DIR/<name>.csv when it exists; *found says whether it did (else: use the built-in). */
static bool load_override(const dl_machine *m, const char *dir, dl_table_id id, dl_table *t,
                          bool *found, char **error)
{
    size_t n = strlen(dir);
    bool sep = n && (dir[n - 1] == '/' || dir[n - 1] == '\\');
    char *file = dl_fmt("%s%s%s.csv", dir, sep ? "" : "/", specs[id].name), *data = NULL;
    size_t len = 0;
    bool truncated = false, ok = false;
    dl_io_error err = {0};
    *found = dl_fs_read(m, file, MAX_TABLE_BYTES, &data, &len, &truncated, &err);
    if (!*found && err.status == DL_IO_NOT_FOUND)
        ok = true;
    else if (!*found)
        *error = dl_strdup(err.message);
    else if (truncated)
        *error = dl_fmt("%s: larger than %u bytes", file, MAX_TABLE_BYTES);
    else if (dl_table_parse(id, file, data, len, t, error)) {
        t->origin = file;
        file = NULL;
        ok = true;
    }
    dl_io_error_clear(&err);
    free(data);
    free(file);
    return ok;
}

/* --data must name a directory: a typo must not silently give the built-in tables. */
static bool open_data_dir(dl_machine *m, const char *dir, char **error)
{
    dl_io_error err = {0};
    dl_fs_kind kind;
    if (!dl_machine_open(m, NULL, error)) /* this machine: the tables are ours, not its */
        return false;
    kind = dl_fs_kind_of(m, dir, &err);
    if (kind != DL_FS_DIR)
        *error = kind == DL_FS_NONE ? dl_fmt("--data: %s", err.message)
                                    : dl_fmt("--data %s: not a directory", dir);
    dl_io_error_clear(&err);
    if (kind != DL_FS_DIR)
        dl_machine_close(m);
    return kind == DL_FS_DIR;
}

bool dl_knowledge_load(dl_knowledge *k, const char *data_dir, char **error)
{
    dl_machine m;
    size_t i;
    bool ok = true;
    memset(k, 0, sizeof *k);
    *error = NULL;
    if (data_dir && !open_data_dir(&m, data_dir, error))
        return false;
    for (i = 0; ok && i < DL_TABLE_COUNT; i++) {
        bool found = false;
        if (data_dir)
            ok = load_override(&m, data_dir, (dl_table_id)i, &k->tables[i], &found, error);
        if (ok && !found)
            ok = load_builtin((dl_table_id)i, &k->tables[i], error);
    }
    if (data_dir)
        dl_machine_close(&m);
    if (!ok)
        dl_knowledge_free(k);
    return ok;
}

void dl_table_free(dl_table *t)
{
    free(t->text);
    free(t->header);
    free(t->cells);
    free(t->origin);
    memset(t, 0, sizeof *t);
}

void dl_knowledge_free(dl_knowledge *k)
{
    size_t i;
    for (i = 0; i < DL_TABLE_COUNT; i++)
        dl_table_free(&k->tables[i]);
}

const dl_table *dl_knowledge_at(const dl_knowledge *k, dl_table_id id)
{
    return k && (size_t)id < DL_TABLE_COUNT && k->tables[id].name ? &k->tables[id] : NULL;
}

const dl_table *dl_knowledge_table(const dl_knowledge *k, const char *name)
{
    size_t i;
    for (i = 0; k && name && i < DL_TABLE_COUNT; i++)
        if (k->tables[i].name && strcmp(k->tables[i].name, name) == 0)
            return &k->tables[i];
    return NULL;
}

const char *dl_table_cell(const dl_table *t, size_t row, dl_column_id column)
{
    long at;
    if (!t || row >= t->rows || (size_t)column >= DL_COLUMN_COUNT)
        return NULL;
    at = t->at[column];
    return at >= 0 ? t->cells[row * t->cols + (size_t)at] : NULL;
}

static long header_index(const dl_table *t, const char *column)
{
    size_t i;
    for (i = 0; t && column && i < t->cols; i++)
        if (strcmp(t->header[i], column) == 0)
            return (long)i;
    return -1;
}

const char *dl_table_get(const dl_table *t, size_t row, const char *column)
{
    long at = header_index(t, column);
    return at >= 0 && row < t->rows ? t->cells[row * t->cols + (size_t)at] : NULL;
}

static void add_unique(dl_strv *out, const char *s, size_t n)
{
    size_t i;
    while (n && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (!n)
        return;
    for (i = 0; i < out->n; i++)
        if (strlen(out->v[i]) == n && strncmp(out->v[i], s, n) == 0)
            return;
    dl_strv_add(out, dl_strndup(s, n));
}

void dl_table_sources(const dl_table *t, dl_strv *out)
{
    long source = header_index(t, "source");
    size_t r;
    for (r = 0; source >= 0 && r < t->rows; r++) {
        const char *s = t->cells[r * t->cols + (size_t)source], *sep;
        while (s && (sep = strstr(s, " ; ")) != NULL) {
            add_unique(out, s, (size_t)(sep - s));
            s = sep + 3;
        }
        if (s)
            add_unique(out, s, strlen(s));
    }
}
