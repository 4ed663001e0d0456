/* dlenv diff A B: what changed from A to B. Each is a snapshot file (or a saved
 * `dlenv report --json` / `dlenv doctor --json`), or "-" for this machine now, gathered as
 * the doctor gathers it. Exit 0 when equal (volatile values aside), 1 when different, 4
 * when a file cannot be read or is not a snapshot (one line naming the file). */
#include "cli/exit_codes.h"
#include "cli/input.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "cli/snapshot.h"

#include "base/str.h"
#include "diff/facts_diff.h"
#include "render/diff_render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A snapshot is some hundred kilobytes; anything far larger is not one. */
#define MAX_SNAPSHOT_BYTES (64u * 1024u * 1024u)

static int read_side(const char *path, dl_snapshot *s)
{
    size_t len = 0;
    char *text = dl_cli_read_input(path, MAX_SNAPSHOT_BYTES, &len), *error = NULL;
    memset(s, 0, sizeof *s);
    if (!text)
        return DL_EXIT_BAD_INPUT;
    if (!dl_snapshot_from_json_text(text, len, s, &error)) {
        dl_cli_error("%s: %s", path, error);
        free(error);
        free(text);
        return DL_EXIT_BAD_INPUT;
    }
    free(text);
    return DL_EXIT_OK;
}

/* "-" is this machine now; anything else a file. Findings are the rules' when the
 * document has none. */
static int load_side(const dl_cli *cli, const dl_knowledge *know, const char *source,
                     dl_snapshot *s)
{
    int rc;
    if (!strcmp(source, "-"))
        return dl_cli_take_snapshot(cli, know, s);
    rc = read_side(source, s);
    if (rc == DL_EXIT_OK)
        dl_cli_snapshot_judge(s, know);
    return rc;
}

static dl_diff_side side_of(const char *source, const dl_snapshot *s)
{
    dl_diff_side d;
    d.source = source;
    d.schema = s->schema;
    d.taken_at = s->taken_at;
    d.host = s->host;
    return d;
}

static int compare(const dl_cli *cli, const dl_snapshot *a, const dl_snapshot *b)
{
    dl_diff d;
    dl_diff_input in;
    char *text;
    int rc;
    memset(&d, 0, sizeof d);
    dl_diff_facts(&a->facts, &b->facts, cli->verbose, &d);
    dl_diff_findings(&a->findings, &b->findings, &d);
    in.diff = &d;
    in.a = side_of(cli->args[0], a);
    in.b = side_of(cli->args[1], b);
    in.verbose = cli->verbose;
    if (cli->json) {
        text = dl_render_diff_json(&in);
    } else {
        dl_style style = dl_cli_style(cli);
        text = dl_render_diff_text(&in, &style);
    }
    rc = dl_cli_write(text, cli->json);
    if (rc == DL_EXIT_OK && !dl_diff_equal(&d))
        rc = DL_EXIT_FINDINGS;
    free(text);
    dl_diff_free(&d);
    return rc;
}

const dl_option dl_diff_options[] = {
    DL_OPT_JSON,
    DL_OPT_PROBE_TIMEOUT,
    DL_OPT_PYTHON,
    DL_OPT_NO_RUNTIME,
    DL_OPT_IMPORT_TIMEOUT,
    DL_OPT_FLAG("verbose", 'v', verbose, "also show volatile values (clocks, memory in use, timings)"),
    DL_OPT_END,
};

int dl_cmd_diff(const dl_cli *cli, const dl_context *ctx)
{
    dl_snapshot a, b;
    int rc;
    if (cli->n_args < 2) {
        dl_cli_error("diff needs two snapshots: dlenv diff A B (- is this machine "
                        "now)");
        return DL_EXIT_USAGE;
    }
    memset(&b, 0, sizeof b);
    rc = load_side(cli, ctx->know, cli->args[0], &a);
    if (rc == DL_EXIT_OK)
        rc = load_side(cli, ctx->know, cli->args[1], &b);
    if (rc == DL_EXIT_OK)
        rc = compare(cli, &a, &b);
    dl_snapshot_free(&a);
    dl_snapshot_free(&b);
    return rc;
}
