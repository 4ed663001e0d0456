#include "cli/redaction.h"

#include "base/str.h"
#include "os/os.h"
#include "render/redact.h"

#include <stdlib.h>
#include <string.h>

/* Every name this account and this machine go by: the environment may be empty (env -i)
 * or another account's (sudo), so the system is asked too (dl_os_identity). */
static void load(dl_redaction *r)
{
    dl_strv users = {0}, homes = {0};
    dl_uname u;
    char *error = NULL;
    size_t i;
    memset(r, 0, sizeof *r);
    dl_os_identity(&users, &homes);
    for (i = 0; i < users.n; i++)
        dl_redaction_add_user(r, users.v[i]);
    for (i = 0; i < homes.n; i++)
        dl_redaction_add_home(r, homes.v[i]);
    if (dl_os_uname(&u, &error)) {
        dl_redaction_add_host(r, u.nodename);
        dl_uname_free(&u);
    }
    free(error);
    dl_redaction_add_host(r, dl_env_get("COMPUTERNAME"));
    dl_redaction_add_host(r, dl_env_get("HOSTNAME"));
    dl_strv_free(&users);
    dl_strv_free(&homes);
}

static char *redact_one(const char *text, void *r)
{
    return dl_redact_text(text, r);
}

void dl_cli_redact(const dl_cli *cli, dl_facts *f, dl_findings *fs)
{
    dl_redaction r;
    if (!cli->redact)
        return;
    load(&r);
    dl_schema_map_text(&dl_facts_schema, f, redact_one, &r);
    if (fs)
        dl_schema_map_text(&dl_findings_schema, fs, redact_one, &r);
    dl_redaction_free(&r);
}

char *dl_cli_redact_text(const dl_cli *cli, char *text)
{
    dl_redaction r;
    char *out;
    if (!cli->redact || !text)
        return text;
    load(&r);
    out = dl_redact_text(text, &r);
    dl_redaction_free(&r);
    free(text);
    return out;
}
