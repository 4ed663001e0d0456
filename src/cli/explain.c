/* dlenv explain [FILE|-]: diagnose pasted text. Reads at most 64 MiB; exit 0 when no
 * failure is recognised, 1 when one is, 4 when the input cannot be read. */
#include "cli/exit_codes.h"
#include "cli/options.h"
#include "cli/output.h"

#include "base/str.h"
#include "explain/explain.h"
#include "render/explain_view.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INPUT (64u * 1024u * 1024u)

static char *read_all(FILE *in, size_t *len, bool *too_big)
{
    dl_buf b = {0};
    char chunk[65536];
    size_t n;
    *too_big = false;
    while ((n = fread(chunk, 1, sizeof chunk, in)) > 0) {
        if (b.len + n > MAX_INPUT) {
            *too_big = true;
            break;
        }
        dl_buf_add(&b, chunk, n);
    }
    *len = b.len;
    return dl_buf_take(&b);
}

int dl_cmd_explain(const dl_cli *cli)
{
    const char *name = cli->input ? cli->input : "-";
    FILE *in = strcmp(name, "-") == 0 ? stdin : fopen(name, "rb");
    dl_knowledge know;
    dl_explanation e;
    char *text, *error = NULL, *out;
    size_t len;
    bool too_big, failed;
    int rc;
    if (!in) {
        fprintf(stderr, "dlenv: %s: cannot open: %s\n", name, strerror(errno));
        return DL_EXIT_BAD_INPUT;
    }
    text = read_all(in, &len, &too_big);
    failed = ferror(in) != 0;
    if (in != stdin)
        fclose(in);
    if (failed || too_big) {
        fprintf(stderr, "dlenv: %s: %s\n", name, too_big ? "larger than 64 MiB" : "cannot read");
        free(text);
        return DL_EXIT_BAD_INPUT;
    }
    if (!dl_knowledge_load(&know, cli->data_dir, &error)) {
        fprintf(stderr, "dlenv: %s\n", error);
        free(error);
        free(text);
        return DL_EXIT_BAD_INPUT;
    }
    dl_explain(&know, text, len, &e);
    free(text);
    if (cli->json) {
        out = dl_render_explain_json(&e, name);
    } else {
        dl_style style = dl_cli_style(cli);
        out = dl_render_explain_text(&e, name, &style);
    }
    rc = dl_cli_write(out, cli->json);
    if (rc == DL_EXIT_OK && e.findings.root_cause.value)
        rc = DL_EXIT_FINDINGS;
    free(out);
    dl_explanation_free(&e);
    dl_knowledge_free(&know);
    return rc;
}
