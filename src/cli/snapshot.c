/* dlenv snapshot [-o FILE] [--lock]: this machine's facts and findings as one JSON document
 * with the time (UTC) and the host name, to keep and compare later with `dlenv diff`; or,
 * with --lock, the exact commands that reinstall the interpreter's torch stack. A file is
 * written whole or not at all (a temporary file renamed over it); without -o the snapshot
 * goes to dlenv-snapshot-HOST-YYYYMMDD-HHMMSS.json in the current directory and the lock to
 * standard output. Exit 0 when written (whatever the findings), 1 when --lock finds no
 * torch to lock, 3 when the file cannot be written. */
#include "cli/snapshot.h"

#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/gather.h"
#include "cli/output.h"
#include "cli/redaction.h"

#include "base/str.h"
#include "facts/query.h"
#include "os/os.h"
#include "plan/lock.h"
#include "rules/rules.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const dl_option dl_snapshot_options[] = {
    DL_OPT_PROBE_TIMEOUT,
    DL_OPT_PYTHON,
    DL_OPT_NO_RUNTIME,
    DL_OPT_IMPORT_TIMEOUT,
    DL_OPT_REDACT,
    DL_OPT_INDEX_MIRROR,
    DL_OPT_TEXT("output", 'o', "FILE", output,
                "write to FILE, - for stdout (default: dlenv-snapshot-HOST-YYYYMMDD-HHMMSS.json "
                "here, UTC; --lock: stdout)"),
    DL_OPT_FLAG("lock", 0, lock,
                "write the exact reinstall commands of the torch stack of `python` (or --python)"),
    DL_OPT_END,
};

/* The time now in UTC: ISO 8601 ("2025-03-01T09:30:00Z") or, for file names, compact
 * ("20250301-093000"). */
static void utc_now(char *out, size_t n, bool compact)
{
    time_t now = time(NULL);
    const struct tm *t = gmtime(&now);
    size_t done = !t ? 0
                  : compact ? strftime(out, n, "%Y%m%d-%H%M%S", t)
                            : strftime(out, n, "%Y-%m-%dT%H:%M:%SZ", t);
    if (!done)
        snprintf(out, n, "unknown");
}

void dl_cli_utc_now(char *out, size_t n)
{
    utc_now(out, n, false);
}

static char *host_name(void)
{
    dl_uname u;
    char *error = NULL, *name;
    if (!dl_os_uname(&u, &error)) {
        free(error);
        return NULL;
    }
    name = u.nodename && *u.nodename ? dl_strdup(u.nodename) : NULL;
    dl_uname_free(&u);
    return name;
}

void dl_cli_snapshot_judge(dl_snapshot *s, const dl_knowledge *know)
{
    dl_rule_input rin;
    if (s->has_findings)
        return;
    rin.facts = &s->facts;
    rin.know = know;
    dl_rules_run(&rin, NULL, &s->findings);
    s->has_findings = true;
}

int dl_cli_take_snapshot(const dl_cli *cli, const dl_knowledge *know, dl_snapshot *out)
{
    return dl_cli_take_snapshot_measured(cli, know, NULL, out);
}

int dl_cli_take_snapshot_measured(const dl_cli *cli, const dl_knowledge *know,
                                  const char *measure, dl_snapshot *out)
{
    char when[32];
    int rc;
    memset(out, 0, sizeof *out);
    rc = dl_cli_gather_measured(cli, measure, &out->facts);
    if (rc != DL_EXIT_OK)
        return rc;
    utc_now(when, sizeof when, false);
    out->schema = dl_strdup(DL_SNAPSHOT_SCHEMA);
    out->taken_at = dl_strdup(when);
    out->host = host_name();
    dl_cli_snapshot_judge(out, know);
    return DL_EXIT_OK;
}

/* dlenv-snapshot-HOST-20250301-093000.json; the host name kept to characters every file
 * system takes. A redacted snapshot's name does not give the host away either:
 * dlenv-snapshot-20250301-093000.json. */
static char *default_name(const char *host, bool redacted)
{
    char when[32], *name;
    size_t i;
    utc_now(when, sizeof when, true);
    name = redacted ? dl_fmt("dlenv-snapshot-%s.json", when)
                    : dl_fmt("dlenv-snapshot-%s-%s.json", host ? host : "unknown-host", when);
    for (i = strlen("dlenv-snapshot-"); name[i]; i++)
        if (!isalnum((unsigned char)name[i]) && !strchr("-_.", name[i]))
            name[i] = '_';
    return name;
}

/* To standard output ("-") or whole to a file; an exit code. */
static int put(const char *path, const char *text, const char *what)
{
    char *error = NULL;
    if (!strcmp(path, "-"))
        return dl_cli_write(text, false);
    if (!dl_file_write_atomic(path, text, strlen(text), &error)) {
        dl_cli_error("%s", error);
        free(error);
        return DL_EXIT_TOOL;
    }
    printf("%s written to %s\n", what, path);
    return fflush(stdout) == 0 ? DL_EXIT_OK : DL_EXIT_TOOL;
}

static int write_lock(const dl_cli *cli)
{
    dl_cli quiet = *cli;
    dl_facts f;
    dl_lock_input in;
    char when[32], *host, *text, *error = NULL;
    int rc;
    quiet.no_runtime = true; /* versions come from the files; no need to import torch */
    rc = dl_cli_gather(&quiet, &f);
    if (rc != DL_EXIT_OK) {
        dl_facts_free(&f);
        return rc;
    }
    utc_now(when, sizeof when, false);
    host = host_name();
    in.python = dl_q_main_python(&f); /* --python, when given, is inspected first */
    in.mirror = cli->index_mirror;
    in.taken_at = when;
    in.host = cli->redact ? "<host>" : host;
    text = dl_cli_redact_text(cli, dl_lock_text(&in, &error));
    if (!text) {
        dl_cli_error("%s", error);
        rc = DL_EXIT_FINDINGS;
    } else {
        rc = put(cli->output ? cli->output : "-", text, "Lock");
    }
    free(error);
    free(text);
    free(host);
    dl_facts_free(&f);
    return rc;
}

static int write_snapshot(const dl_cli *cli, const dl_knowledge *know)
{
    dl_snapshot s;
    char *text, *name;
    int rc = dl_cli_take_snapshot(cli, know, &s);
    if (rc == DL_EXIT_OK) {
        char *json;
        name = cli->output ? dl_strdup(cli->output) : default_name(s.host, cli->redact);
        if (cli->redact) {
            dl_cli_redact(cli, &s.facts, &s.findings);
            free(s.host);
            s.host = dl_strdup("<host>");
        }
        json = dl_snapshot_to_json_text(&s);
        text = dl_fmt("%s\n", json); /* ends with a newline */
        free(json);
        rc = put(name, text, "Snapshot");
        free(name);
        free(text);
    }
    dl_snapshot_free(&s);
    return rc;
}

int dl_cmd_snapshot(const dl_cli *cli, const dl_context *ctx)
{
    return cli->lock ? write_lock(cli) : write_snapshot(cli, ctx->know);
}
