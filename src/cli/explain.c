/* dlenv explain [FILE|-]: diagnose pasted text. Reads at most 64 MiB; exit 0 when no
 * failure is recognised, 1 when one is, 4 when the input cannot be read. */
#include "cli/exit_codes.h"
#include "cli/input.h"
#include "cli/commands.h"
#include "cli/output.h"

#include "base/str.h"
#include "explain/explain.h"
#include "render/explain_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INPUT (64u * 1024u * 1024u)

const dl_option dl_explain_options[] = {
    DL_OPT_JSON,
    DL_OPT_END,
};

int dl_cmd_explain(const dl_cli *cli, const dl_context *ctx)
{
    const char *name = cli->n_args ? cli->args[0] : "-";
    dl_explanation e;
    char *text, *out;
    size_t len = 0;
    int rc;
    text = dl_cli_read_input(name, MAX_INPUT, &len);
    if (!text)
        return DL_EXIT_BAD_INPUT;
    dl_explain(ctx->know, text, len, &e);
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
    return rc;
}
