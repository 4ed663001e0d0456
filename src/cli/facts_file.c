#include "cli/facts_file.h"

#include "cli/exit_codes.h"
#include "cli/input.h"
#include "facts/facts_json.h"

#include <stdio.h>
#include <stdlib.h>

/* A report is some hundred kilobytes; anything far larger is not one. */
#define MAX_REPORT_BYTES (64u * 1024u * 1024u)

int dl_cli_read_facts(const char *path, dl_facts *f)
{
    size_t len = 0;
    char *text = dl_cli_read_input(path, MAX_REPORT_BYTES, &len), *error = NULL;
    dl_facts_init(f);
    if (!text)
        return DL_EXIT_BAD_INPUT;
    dl_facts_free(f);
    if (!dl_facts_from_json_text(text, len, f, &error)) {
        fprintf(stderr, "dlenv: %s: %s\n", path, error);
        free(error);
        free(text);
        dl_facts_init(f);
        return DL_EXIT_BAD_INPUT;
    }
    free(text);
    return DL_EXIT_OK;
}
