#include "cli/input.h"
#include "cli/output.h"

#include "os/os.h"

#include "base/str.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *dl_cli_read_input(const char *path, size_t max, size_t *len)
{
    FILE *in = strcmp(path, "-") == 0 ? stdin : dl_fopen(path, "rb");
    dl_buf b = {0};
    char chunk[65536];
    size_t n;
    bool too_big = false, failed;
    if (!in) {
        dl_cli_error("%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    while ((n = fread(chunk, 1, sizeof chunk, in)) > 0) {
        if (b.len + n > max) {
            too_big = true;
            break;
        }
        dl_buf_add(&b, chunk, n);
    }
    failed = ferror(in) != 0;
    if (in != stdin)
        fclose(in);
    if (failed || too_big) {
        dl_cli_error("%s: %s", path,
                too_big ? "larger than the limit (64 MiB)" : "cannot read");
        dl_buf_free(&b);
        return NULL;
    }
    *len = b.len;
    return dl_buf_take(&b);
}
