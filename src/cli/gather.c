#include "cli/gather.h"

#include "cli/facts_file.h"

#include "base/str.h"
#include "cli/exit_codes.h"
#include "cli/output.h"
#include "os/os.h"
#include "probe/probe.h"

#include <stdio.h>
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
    dl_cli_error("--python %s: no such interpreter%s", cli->python,
            m->live ? "" : " under --root");
    return false;
}

int dl_cli_gather(const dl_cli *cli, dl_facts *f)
{
    dl_machine m;
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
    configure_probes(cli);
    dl_text_set(&f->tool.name, "dlenv");
    dl_text_set(&f->tool.version, DLENV_VERSION);
    dl_text_set(&f->tool.root, m.root);
    dl_probe_all(&m, f);
    dl_machine_close(&m);
    return DL_EXIT_OK;
}
