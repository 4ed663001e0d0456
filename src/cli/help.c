/* Every help text, made from the tables: `dlenv --help` lists the commands one line each;
 * `dlenv CMD --help` and `dlenv help CMD` show that command's own options. */
#include "cli/commands.h"

#include "cli/exit_codes.h"
#include "cli/output.h"

#include <stdio.h>
#include <string.h>

const dl_option dl_help_options[] = {DL_OPT_END};

static void option_line(FILE *out, const dl_option *o)
{
    char left[48];
    if (o->short_name)
        snprintf(left, sizeof left, "-%c, --%s%s%s", o->short_name, o->name, o->arg ? " " : "",
                 o->arg ? o->arg : "");
    else
        snprintf(left, sizeof left, "    --%s%s%s", o->name, o->arg ? " " : "",
                 o->arg ? o->arg : "");
    fprintf(out, "  %-22s %s\n", left, o->help);
}

static void option_lines(FILE *out, const dl_option *o)
{
    for (; o->name; o++)
        option_line(out, o);
}

static void general_help(FILE *out)
{
    const dl_command *c;
    fprintf(out, "dlenv %s: makes a PyTorch environment work on the first try\n\n"
                 "Usage: dlenv <command> [options]\n\nCommands:\n",
            DLENV_VERSION);
    for (c = dl_commands; c->name; c++)
        fprintf(out, "  %-10s %s\n", c->name, c->summary);
    fprintf(out, "\nOptions of every command:\n");
    option_lines(out, dl_common_options);
    fprintf(out, "\nEach command's own options (--json, --root, ...): dlenv help COMMAND, or "
                 "dlenv COMMAND --help.\n");
}

static void command_help(FILE *out, const dl_command *c)
{
    const dl_option *o;
    fprintf(out, "Usage: dlenv %s%s\n\n%s.\n", c->name, c->positional.usage, c->summary);
    if (c->options->name) {
        fprintf(out, "\nOptions:\n");
        option_lines(out, c->options);
    }
    fprintf(out, "\nOptions of every command (see dlenv --help):\n ");
    for (o = dl_common_options; o->name; o++)
        fprintf(out, " --%s%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "",
                o[1].name ? "," : "");
    fprintf(out, "\n");
    if (c->notes)
        fputs(c->notes, out);
}

void dl_cli_help(FILE *out, const dl_command *c)
{
    if (c)
        command_help(out, c);
    else
        general_help(out);
    if (!c || !(c->flags & DL_CMD_OWN_EXIT_CODES))
        fprintf(out, "\nExit codes: 0 ok, 1 a failure was found, 2 usage error, 3 dlenv failed, "
                     "4 unusable input.\n");
}

/* dlenv help [COMMAND] */
int dl_cmd_help(const dl_cli *cli, const dl_context *ctx)
{
    const dl_command *c = cli->n_args ? dl_command_find(cli->args[0]) : NULL;
    const char *best;
    (void)ctx;
    if (cli->n_args && !c) {
        best = dl_command_suggest(cli->args[0]);
        if (best)
            dl_cli_error("no command '%s'; did you mean '%s'? (see 'dlenv --help')",
                         cli->args[0], best);
        else
            dl_cli_error("no command '%s' (see 'dlenv --help')", cli->args[0]);
        return DL_EXIT_USAGE;
    }
    dl_cli_help(stdout, c);
    return fflush(stdout) == 0 ? DL_EXIT_OK : DL_EXIT_TOOL;
}
