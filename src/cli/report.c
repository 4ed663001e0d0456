/* dlenv report: every fact about the machine, as text or JSON. */
#include "cli/exit_codes.h"
#include "cli/gather.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "cli/redaction.h"

#include "base/str.h"
#include "facts/facts_json.h"
#include "probe/probe.h"
#include "render/text_report.h"

#include <stdlib.h>

const dl_option dl_report_options[] = {
    DL_OPT_ROOT,
    DL_OPT_JSON,
    DL_OPT_FROM,
    DL_OPT_PROBE_TIMEOUT,
    DL_OPT_PYTHON,
    DL_OPT_NO_RUNTIME,
    DL_OPT_IMPORT_TIMEOUT,
    DL_OPTS_EXT_IMPORT,
    DL_OPT_REDACT,
    DL_OPT_END,
};

int dl_cmd_report(const dl_cli *cli, const dl_context *ctx)
{
    dl_facts f;
    char *text;
    int rc = dl_cli_gather(cli, &f);
    (void)ctx;
    if (rc != DL_EXIT_OK) {
        dl_facts_free(&f);
        return rc;
    }
    dl_cli_redact(cli, &f, NULL);
    if (cli->json) {
        text = dl_facts_to_json_text(&f, true);
    } else {
        dl_style style = dl_cli_style(cli);
        text = dl_render_report_text(&f, &style);
    }
    rc = dl_cli_write(text, cli->json);
    free(text);
    dl_facts_free(&f);
    return rc;
}
