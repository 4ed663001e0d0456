/* A strict CSV reader (RFC 4180) for the knowledge tables. Strict because these tables
 * decide what dlenv tells people to install: a stray quote or a missing field must be an
 * error naming the file, line and column, never a silently shifted row. */
#ifndef DLENV_KNOW_CSV_H
#define DLENV_KNOW_CSV_H

#include <stdbool.h>
#include <stddef.h>

typedef struct dl_csv {
    size_t rows, cols;   /* rows excludes the header */
    char **header;       /* cols names (in text) */
    char **cells;        /* rows * cols values, row-major (in text) */
    char *text;          /* every name and value, each ended by a NUL */
    size_t *lines;       /* the line each row starts on (1-based), for later errors */
} dl_csv;

/* Parses text (len bytes; UTF-8, LF or CRLF line ends, a header row first). name is how
 * errors call the file ("data/cuda_driver.csv"). On failure returns false, leaves out
 * empty and sets *error to one line "NAME:LINE:COL: what" (columns count characters from
 * 1; row-level errors have no column). Inside quoted fields CRLF becomes LF, so a table
 * saved on Windows reads the same. A leading UTF-8 byte-order mark is skipped. */
bool dl_csv_parse(const char *name, const char *text, size_t len, dl_csv *out,
                  char **error);
void dl_csv_free(dl_csv *c);
/* The index of the header column called name, or -1. */
long dl_csv_column(const dl_csv *c, const char *name);

#endif
