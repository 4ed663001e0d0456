#include "cli/facts_file.h"

#include "base/str.h"
#include "cli/exit_codes.h"
#include "facts/facts_json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A report is some hundred kilobytes; anything far larger is not one. */
#define MAX_REPORT_BYTES (64u * 1024u * 1024u)

static char *slurp(FILE *in, size_t *len, bool *too_big)
{
    dl_buf b = {0};
    char chunk[65536];
    size_t n;
    *too_big = false;
    while ((n = fread(chunk, 1, sizeof chunk, in)) > 0) {
        if (b.len + n > MAX_REPORT_BYTES) {
            *too_big = true;
            break;
        }
        dl_buf_add(&b, chunk, n);
    }
    *len = b.len;
    return dl_buf_take(&b);
}

int dl_cli_read_facts(const char *path, dl_facts *f)
{
    FILE *in = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    char *text, *error = NULL;
    size_t len;
    bool too_big, read_error;
    dl_facts_init(f);
    if (!in) {
        fprintf(stderr, "dlenv: %s: cannot open: %s\n", path, strerror(errno));
        return DL_EXIT_BAD_INPUT;
    }
    text = slurp(in, &len, &too_big);
    read_error = ferror(in) != 0;
    if (in != stdin)
        fclose(in);
    if (read_error || too_big) {
        fprintf(stderr, "dlenv: %s: %s\n", path,
                too_big ? "larger than 64 MiB: not a dlenv report" : "cannot read");
        free(text);
        return DL_EXIT_BAD_INPUT;
    }
    dl_facts_free(f);
    if (!dl_facts_from_json_text(text ? text : "", len, f, &error)) {
        fprintf(stderr, "dlenv: %s: %s\n", path, error);
        free(error);
        free(text);
        dl_facts_init(f);
        return DL_EXIT_BAD_INPUT;
    }
    free(text);
    return DL_EXIT_OK;
}
