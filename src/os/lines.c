/* Line-by-line reading of large files (pci.ids), the same on every system: the file is
 * opened by the file layer (dl_fs_open_read), so it is resolved inside the root and only
 * a regular file is read. A line is bounded (DL_LINES_MAX): a file of one endless line
 * costs that much memory, not its size. */
#include "os/os.h"

#include "base/str.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dl_lines {
    FILE *f;
    char *line;
    size_t cap;
};

dl_lines *dl_lines_open(const dl_machine *m, const char *path, dl_io_error *err)
{
    FILE *f = dl_fs_open_read(m, path, err);
    dl_lines *l;
    if (!f)
        return NULL;
    l = dl_xcalloc(1, sizeof *l);
    l->f = f;
    return l;
}

/* Drops the rest of a line that was cut at DL_LINES_MAX, up to and with its newline. */
static void skip_rest_of_line(FILE *f)
{
    char chunk[4096];
    while (fgets(chunk, (int)sizeof chunk, f)) {
        size_t n = strlen(chunk);
        if (n && chunk[n - 1] == '\n')
            return;
    }
}

/* fgets, not getc: pci.ids is 1.3 MB and a character at a time costs 4x more. */
const char *dl_lines_next(dl_lines *l, size_t *len)
{
    size_t n = 0;
    if (!l || !l->f)
        return NULL;
    if (!l->line) {
        l->cap = 256;
        l->line = dl_xmalloc(l->cap);
    }
    for (;;) {
        if (!fgets(l->line + n, (int)(l->cap - n), l->f)) {
            if (n == 0)
                return NULL;
            break;
        }
        n += strlen(l->line + n);
        if (n && l->line[n - 1] == '\n') {
            n--;
            break;
        }
        if (n < l->cap - 1)
            break; /* fgets stopped short of a full buffer: end of file */
        if (l->cap > DL_LINES_MAX) {
            skip_rest_of_line(l->f); /* cut: what follows on this line is dropped */
            break;
        }
        l->cap *= 2; /* the line is longer than the buffer: grow and go on */
        l->line = dl_xrealloc(l->line, l->cap);
    }
    if (n && l->line[n - 1] == '\r')
        n--;
    l->line[n] = '\0';
    if (len)
        *len = n;
    return l->line;
}

void dl_lines_close(dl_lines *l)
{
    if (!l)
        return;
    if (l->f)
        fclose(l->f);
    free(l->line);
    free(l);
}
