/* dlenv doctor: gather the facts, run the rules, name the lowest broken layer with its
 * evidence and the exact fix. Exit 0 without a failure (warnings allowed, unless
 * --strict), 1 with one, 5 when no failure was found but a layer could not be judged. */
#include "cli/exit_codes.h"
#include "cli/gather.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "cli/redaction.h"

#include "base/str.h"
#include "know/tables.h"
#include "render/text_doctor.h"
#include "rules/rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const dl_option dl_doctor_options[] = {
    DL_OPT_ROOT,
    DL_OPT_JSON,
    DL_OPT_FROM,
    DL_OPT_PROBE_TIMEOUT,
    DL_OPT_PYTHON,
    DL_OPT_NO_RUNTIME,
    DL_OPT_IMPORT_TIMEOUT,
    DL_OPTS_EXT_IMPORT,
    DL_OPT_FLAG("markdown", 0, markdown, "print Markdown, ready to paste into a bug report"),
    DL_OPT_REDACT,
    DL_OPT_FLAG("verbose", 'v', verbose, "show every check and every probe's time"),
    DL_OPT_FLAG("list-checks", 0, list_checks, "list the checks and exit"),
    DL_OPT_LOWER("check", "ID", check, "run only this check (an id from --list-checks)"),
    DL_OPT_STRICT,
    DL_OPT_END,
};

static int list_checks(void)
{
    dl_buf b = {0};
    size_t i, n;
    const dl_rule *rules = dl_rule_table(&n);
    char *text;
    int rc;
    for (i = 0; i < n; i++)
        dl_buf_printf(&b, "%-27s %-13s %s\n", rules[i].id,
                      dl_layer_name(dl_rule_layer(&rules[i])),
                      rules[i].checks);
    text = dl_buf_take(&b);
    rc = dl_cli_write(text, false);
    free(text);
    return rc;
}

static char *render(const dl_cli *cli, const dl_doctor_input *in)
{
    dl_style style;
    if (cli->json)
        return dl_render_doctor_json(in);
    if (cli->markdown)
        return dl_render_doctor_markdown(in);
    style = dl_cli_style(cli);
    return dl_render_doctor_text(in, &style);
}

static int verdict_code(const dl_cli *cli, dl_verdict verdict)
{
    if (verdict == DL_VERDICT_FAILURE || (cli->strict && verdict == DL_VERDICT_WARNING))
        return DL_EXIT_FINDINGS;
    if (verdict == DL_VERDICT_CANNOT_JUDGE)
        return DL_EXIT_CANNOT_JUDGE;
    return DL_EXIT_OK;
}

static int diagnose(const dl_cli *cli, const dl_knowledge *know)
{
    dl_facts f;
    dl_findings fs;
    dl_doctor_view view;
    dl_doctor_input in;
    dl_rule_input rin;
    char *text;
    int rc = dl_cli_gather(cli, &f);
    if (rc != DL_EXIT_OK) {
        dl_facts_free(&f);
        return rc;
    }
    memset(&fs, 0, sizeof fs);
    rin.facts = &f;
    rin.know = know;
    dl_rules_run(&rin, cli->check, &fs);
    dl_cli_redact(cli, &f, &fs);
    dl_doctor_view_build(&view, &f, &fs, cli->check);
    in.facts = &f;
    in.findings = &fs;
    in.view = &view;
    in.verbose = cli->verbose;
    text = render(cli, &in);
    rc = dl_cli_write(text, cli->json);
    if (rc == DL_EXIT_OK)
        rc = verdict_code(cli, view.judged.verdict);
    free(text);
    dl_doctor_view_free(&view);
    dl_findings_free(&fs);
    dl_facts_free(&f);
    return rc;
}

int dl_cmd_doctor(const dl_cli *cli, const dl_context *ctx)
{
    if (cli->list_checks)
        return list_checks();
    if (cli->check && !dl_rule_find(cli->check)) {
        dl_cli_error("--check %s: no such check (see dlenv doctor --list-checks)",
                cli->check);
        return DL_EXIT_USAGE;
    }
    if (cli->json && cli->markdown) {
        dl_cli_error("--json and --markdown exclude each other");
        return DL_EXIT_USAGE;
    }
    return diagnose(cli, ctx->know);
}
