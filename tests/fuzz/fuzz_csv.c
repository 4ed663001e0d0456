/* libFuzzer target for the knowledge tables' CSV reader (know/csv.c): any bytes as a
 * table, then every cell and column looked up as the table readers do. Seeds are
 * the tables in data/; regressions tests/fuzz/regress/csv. */
#include "know/csv.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    dl_csv c;
    char *error = NULL;
    size_t i, total = 0;
    if (!dl_csv_parse("fuzz.csv", (const char *)data, size, &c, &error)) {
        if (!error || strncmp(error, "fuzz.csv:", 9) != 0)
            abort(); /* every error names the file */
        free(error);
        return 0;
    }
    for (i = 0; i < c.cols; i++)
        if (dl_csv_column(&c, c.header[i]) < 0)
            abort(); /* a header the reader gave is one it finds */
    for (i = 0; i < c.rows * c.cols; i++)
        total += strlen(c.cells[i]);
    for (i = 0; i < c.rows; i++)
        if (c.lines[i] == 0)
            abort(); /* lines count from 1 */
    (void)total;
    dl_csv_free(&c);
    return 0;
}
