/* Line-by-line reading of large files (pci.ids), the same on every system: the file is
 * opened through dl_fopen, so a UTF-8 path works on Windows too. */
#include "os/os.h"

#include "base/str.h"

#include <errno.h>
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
    char *host = dl_machine_path(m, path);
    FILE *f;
    dl_lines *l;
    errno = 0;
    f = dl_fopen(host, "rb");
    free(host);
    if (!f) {
        int code = errno ? errno : ENOENT;
        if (err) {
            free(err->message);
            err->status = code == ENOENT || code == ENOTDIR ? DL_IO_NOT_FOUND
                          : code == EACCES || code == EPERM  ? DL_IO_NO_PERMISSION
                                                             : DL_IO_FAILED;
            err->message = dl_fmt("cannot read %s: %s", path, strerror(code));
        }
        return NULL;
    }
    l = dl_xcalloc(1, sizeof *l);
    l->f = f;
    return l;
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
