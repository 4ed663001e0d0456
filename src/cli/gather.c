#include "cli/gather.h"

#include "cli/facts_file.h"

#include "base/str.h"
#include "cli/exit_codes.h"
#include "cli/output.h"
#include "os/os.h"
#include "probe/probe.h"
#include "render/redact.h"

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

char *dl_cli_redact(const dl_cli *cli, char *text, bool json)
{
    dl_redaction r = {NULL, NULL, NULL};
    dl_uname u;
    char *error = NULL, *out;
    if (!cli->redact)
        return text;
    /* Windows sets USERPROFILE and USERNAME; HOME there is usually an MSYS or Git Bash
     * one, and then the same folder. */
    r.home = dl_env_get("HOME") ? dl_env_get("HOME") : dl_env_get("USERPROFILE");
    r.user = dl_env_get("USER")      ? dl_env_get("USER")
             : dl_env_get("LOGNAME") ? dl_env_get("LOGNAME")
                                     : dl_env_get("USERNAME");
    if (dl_os_uname(&u, &error))
        r.host = u.nodename;
    out = json ? dl_redact_json(text, &r) : dl_redact(text, &r);
    free(text);
    if (!error)
        dl_uname_free(&u);
    free(error);
    return out;
}
