/* dlenv report: every fact about the machine, as text or JSON. */
#include "cli/exit_codes.h"
#include "cli/options.h"
#include "cli/output.h"

#include "base/str.h"
#include "facts/facts_json.h"
#include "probe/probe.h"
#include "render/text_report.h"

#include <stdlib.h>

int dl_cmd_report(const dl_cli *cli)
{
    dl_machine m;
    dl_facts f;
    char *error = NULL, *text;
    int rc;
    if (!dl_machine_open(&m, cli->root, &error)) {
        fprintf(stderr, "dlenv: %s\n", error);
        free(error);
        return DL_EXIT_BAD_INPUT;
    }
    {
        char *self = dl_self_path(cli->argv0);
        dl_probe_configure_children(self, (int)(cli->probe_timeout_s * 1000));
        free(self);
    }
    dl_facts_init(&f);
    dl_text_set(&f.tool.name, "dlenv");
    dl_text_set(&f.tool.version, DLENV_VERSION);
    dl_text_set(&f.tool.root, m.root);
    dl_probe_all(&m, &f);
    if (cli->json) {
        text = dl_facts_to_json_text(&f, true);
    } else {
        dl_style style = dl_cli_style(cli);
        text = dl_render_report_text(&f, &style);
    }
    rc = dl_cli_write(text, cli->json);
    free(text);
    dl_facts_free(&f);
    dl_machine_close(&m);
    return rc;
}
