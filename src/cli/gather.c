#include "cli/gather.h"

#include "cli/facts_file.h"

#include "base/str.h"
#include "cli/exit_codes.h"
#include "cli/output.h"
#include "os/os.h"
#include "probe/probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The options that reach into the probes: child timeouts, the chosen interpreter.
 * settings->self_path is owned by the caller. */
void dl_cli_probe_settings(const dl_cli *cli, dl_probe_settings *settings)
{
    memset(settings, 0, sizeof *settings);
    settings->self_path = dl_self_path(cli->argv0);
    settings->child_timeout_ms = (int)(cli->probe_timeout_s * 1000);
    settings->python = cli->python;
    settings->no_runtime = cli->no_runtime;
    settings->import_timeout_ms = (int)(cli->import_timeout_s * 1000);
    settings->no_ext_import = cli->no_ext_import;
    settings->skip_ext_import = cli->skip_ext_import;
}

/* An interpreter asked for by name must exist: a typo is an error, not a silent unknown. */
static bool python_exists(const dl_cli *cli, const dl_machine *m)
{
    if (!cli->python || dl_fs_kind_of(m, cli->python, NULL) == DL_FS_FILE)
        return true;
    dl_cli_error("--python %s: no such interpreter%s", cli->python,
            m->live ? "" : " under --root");
    return false;
}

int dl_cli_gather_measured(const dl_cli *cli, const char *measure, dl_facts *f)
{
    dl_machine m;
    dl_probe_ctx ctx;
    char *error = NULL;
    if (cli->from)
        return dl_cli_read_facts(cli->from, f);
    dl_facts_init(f);
    if (!dl_machine_open(&m, cli->root, &error)) {
        dl_cli_error("%s", error);
        free(error);
        return DL_EXIT_BAD_INPUT;
    }
    if (!python_exists(cli, &m)) {
        dl_machine_close(&m);
        return DL_EXIT_BAD_INPUT;
    }
    ctx.machine = &m;
    dl_cli_probe_settings(cli, &ctx.settings);
    ctx.settings.measure = measure;
    dl_text_set(&f->tool.name, "dlenv");
    dl_text_set(&f->tool.version, DLENV_VERSION);
    dl_text_set(&f->tool.root, m.root);
    dl_probe_all(&ctx, f);
    free((char *)ctx.settings.self_path);
    dl_machine_close(&m);
    return DL_EXIT_OK;
}

int dl_cli_gather(const dl_cli *cli, dl_facts *f)
{
    return dl_cli_gather_measured(cli, NULL, f);
}
