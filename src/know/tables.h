/* The knowledge tables: what dlenv knows about PyTorch releases, CUDA drivers, wheel
 * architectures, GPUs (and what each architecture computes per clock) and cuDNN. Each
 * ships inside the binary (data/<name>.csv, embedded by CMake) so dlenv works offline,
 * and each can be replaced at run time with --data DIR so a new release can be described
 * without waiting for a new dlenv. */
#ifndef DLENV_KNOW_TABLES_H
#define DLENV_KNOW_TABLES_H

#include "base/str.h"

#include <stdbool.h>
#include <stddef.h>

#define DL_TABLE_COUNT 11

typedef struct dl_table {
    const char *name;   /* "cuda_driver" */
    char *origin;       /* "built-in" or the file it was read from */
    size_t rows, cols;
    char **header;      /* cols names */
    char **cells;       /* rows * cols values, row-major; never NULL */
} dl_table;

typedef struct dl_knowledge {
    dl_table tables[DL_TABLE_COUNT];
} dl_knowledge;

/* Loads every table: DIR/<name>.csv where data_dir has one, the built-in copy otherwise
 * (data_dir NULL: all built-in). Each table must be well-formed CSV with its required
 * columns and a non-empty source in every row. On failure k is left empty and *error is
 * one line naming the file ("DIR/cuda_driver.csv:12:5: unterminated quoted field"). */
bool dl_knowledge_load(dl_knowledge *k, const char *data_dir, char **error);
void dl_knowledge_free(dl_knowledge *k);
const dl_table *dl_knowledge_table(const dl_knowledge *k, const char *name);

/* The value in row (0-based, below the header) under column; NULL when the table has no
 * such column or no such row. */
const char *dl_table_get(const dl_table *t, size_t row, const char *column);

/* The table names in load order (i < DL_TABLE_COUNT), and the columns a table must have
 * (NULL-terminated; NULL for an unknown name). */
const char *dl_table_name(size_t i);
const char *const *dl_table_required(const char *name);

/* The distinct sources the table cites, in first-seen order: each row's source split on
 * " ; ", trimmed. Adds owned strings to out. */
void dl_table_sources(const dl_table *t, dl_strv *out);

#endif
