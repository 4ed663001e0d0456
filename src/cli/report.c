/* dlenv report: every fact about the machine, as text or JSON. */
#include "cli/exit_codes.h"
#include "cli/options.h"
#include "cli/output.h"

#include "base/str.h"
#include "facts/facts_json.h"
#include "probe/probe.h"
#include "render/text_report.h"

#include <stdlib.h>

/* The options that reach into the probes: child timeouts, the chosen interpreter. */
static void configure_probes(const dl_cli *cli)
{
    char *self = dl_self_path(cli->argv0);
    dl_probe_configure_children(self, (int)(cli->probe_timeout_s * 1000));
    dl_probe_configure_python(cli->python, !cli->no_runtime, (int)(cli->import_timeout_s * 1000));
    free(self);
}

/* An interpreter asked for by name must exist: a typo is an error, not a silent unknown. */
static bool python_exists(const dl_cli *cli, const dl_machine *m)
{
    if (!cli->python || dl_fs_kind_of(m, cli->python, NULL) == DL_FS_FILE)
        return true;
    fprintf(stderr, "dlenv: --python %s: no such interpreter%s\n", cli->python,
            m->live ? "" : " under --root");
    return false;
}

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
    if (!python_exists(cli, &m)) {
        dl_machine_close(&m);
        return DL_EXIT_BAD_INPUT;
    }
    configure_probes(cli);
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
