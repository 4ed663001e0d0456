/* The knowledge tables: what dlenv knows about PyTorch releases, CUDA drivers, wheel
 * architectures, GPUs (and what each architecture computes per clock) and cuDNN. Each
 * ships inside the binary (data/<name>.csv, embedded by CMake) so dlenv works offline,
 * and each can be replaced at run time with --data DIR so a new release can be described
 * without waiting for a new dlenv. The tables and the columns code reads are listed once,
 * in know/tables.def. */
#ifndef DLENV_KNOW_TABLES_H
#define DLENV_KNOW_TABLES_H

#include "base/str.h"

#include <stdbool.h>
#include <stddef.h>

/* DL_TABLE_<name>: each table of tables.def, in its order. */
typedef enum dl_table_id {
#define DL_TABLE(name, rows) DL_TABLE_##name,
#define DL_COLUMN(table, column, need)
#include "know/tables.def"
#undef DL_TABLE
#undef DL_COLUMN
    DL_TABLE_COUNT
} dl_table_id;

/* DL_COL_<table>_<column>: each column of tables.def. The name says the table, so a
 * column cannot be read from the wrong one by accident (dl_table_cell returns NULL). */
typedef enum dl_column_id {
#define DL_TABLE(name, rows)
#define DL_COLUMN(table, column, need) DL_COL_##table##_##column,
#include "know/tables.def"
#undef DL_TABLE
#undef DL_COLUMN
    DL_COLUMN_COUNT
} dl_column_id;

typedef struct dl_table {
    const char *name;   /* "cuda_driver"; NULL for a table not loaded */
    dl_table_id id;
    char *origin;       /* "built-in" or the file it was read from */
    size_t rows, cols;
    char **header;      /* cols names (in text) */
    char **cells;       /* rows * cols values, row-major (in text); never NULL */
    char *text;         /* every name and value, each ended by a NUL */
    /* Where each of this table's tables.def columns is in header, found once at load;
     * -1 for an optional column the file lacks and for other tables' columns. */
    long at[DL_COLUMN_COUNT];
} dl_table;

typedef struct dl_knowledge {
    dl_table tables[DL_TABLE_COUNT];   /* indexed by dl_table_id */
} dl_knowledge;

/* Loads every table: DIR/<name>.csv where data_dir has one, the built-in copy otherwise
 * (data_dir NULL: all built-in). Each table must be well-formed CSV with its required
 * columns and a non-empty source in every row. On failure k is left empty and *error is
 * one line naming the file ("DIR/cuda_driver.csv:12:5: unterminated quoted field",
 * "DIR/cuda_driver.csv:1: missing required column 'min_driver_linux'"). */
bool dl_knowledge_load(dl_knowledge *k, const char *data_dir, char **error);
void dl_knowledge_free(dl_knowledge *k);
/* The loaded table; NULL when k is empty (a failed load) or id is out of range. */
const dl_table *dl_knowledge_at(const dl_knowledge *k, dl_table_id id);
/* The same by name ("cuda_driver"), for code that has only a name; NULL if none. */
const dl_table *dl_knowledge_table(const dl_knowledge *k, const char *name);

/* Reads one table from text, as dl_knowledge_load does for each (file names it in
 * errors). Fills *t, which dl_knowledge_free frees as part of a dl_knowledge, or
 * dl_table_free alone. */
bool dl_table_parse(dl_table_id id, const char *file, const char *text, size_t len,
                    dl_table *t, char **error);
void dl_table_free(dl_table *t);

/* The value in row (0-based, below the header) under column, a column of this table;
 * NULL when there is no such row, when column is another table's, or when it is an
 * optional column the file lacks. No name is compared: the index was found at load. */
const char *dl_table_cell(const dl_table *t, size_t row, dl_column_id column);

/* The same by header name, for a column chosen at run time (`dlenv data`, tests); NULL
 * when the table has no such column or no such row. Code reading a column it knows
 * uses dl_table_cell. */
const char *dl_table_get(const dl_table *t, size_t row, const char *column);

/* The table names in load order (i < DL_TABLE_COUNT; NULL beyond). */
const char *dl_table_name(size_t i);
/* A tables.def column: its header name, its table, and whether loading requires it. */
const char *dl_column_name(dl_column_id column);
dl_table_id dl_column_table(dl_column_id column);
bool dl_column_required(dl_column_id column);

/* The distinct sources the table cites, in first-seen order: each row's source split on
 * " ; ", trimmed. Adds owned strings to out. */
void dl_table_sources(const dl_table *t, dl_strv *out);

#endif
