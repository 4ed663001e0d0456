/* Every help text, made from the tables: `dlenv --help` lists the commands one line each;
 * `dlenv CMD --help` and `dlenv help CMD` show that command's own options. */
#include "cli/commands.h"

#include "cli/exit_codes.h"
#include "cli/output.h"

#include <stdio.h>
#include <string.h>

const dl_option dl_help_options[] = {DL_OPT_END};

#define WIDTH 80
#define HELP_COLUMN 25

/* text from column HELP_COLUMN, broken at spaces to stay within WIDTH columns. */
static void wrapped(FILE *out, const char *text)
{
    size_t room = WIDTH - HELP_COLUMN;
    while (strlen(text) > room) {
        size_t cut = room;
        while (cut > 0 && text[cut] != ' ')
            cut--;
        if (!cut)
            break; /* one word longer than the room: left whole */
        fprintf(out, "%.*s\n%*s", (int)cut, text, HELP_COLUMN, "");
        text += cut + 1;
    }
    fprintf(out, "%s\n", text);
}

/* Prose (a command's notes): a single line break is a space, a blank line ends a
 * paragraph; written in lines of at most WIDTH columns. */
static void reflow(FILE *out, const char *text)
{
    size_t col = 0;
    for (; *text == '\n'; text++)
        fputc('\n', out);
    while (*text) {
        size_t n = strcspn(text, " \n");
        if (n && col && col + 1 + n > WIDTH) {
            fputc('\n', out);
            col = 0;
        }
        if (n) {
            fprintf(out, "%s%.*s", col ? " " : "", (int)n, text);
            col += (col ? 1 : 0) + n;
        }
        text += n;
        if (text[0] == '\n' && text[1] == '\n') {
            fputs(col ? "\n\n" : "\n", out);
            col = 0;
            text++;
        }
        if (*text)
            text++;
    }
    if (col)
        fputc('\n', out);
}

static void option_line(FILE *out, const dl_option *o)
{
    char left[48];
    if (o->short_name)
        snprintf(left, sizeof left, "-%c, --%s%s%s", o->short_name, o->name, o->arg ? " " : "",
                 o->arg ? o->arg : "");
    else
        snprintf(left, sizeof left, "    --%s%s%s", o->name, o->arg ? " " : "",
                 o->arg ? o->arg : "");
    if (strlen(left) > HELP_COLUMN - 3) /* a long name: its help on the next line */
        fprintf(out, "  %s\n%*s", left, HELP_COLUMN, "");
    else
        fprintf(out, "  %-22s ", left);
    wrapped(out, o->help);
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
    reflow(out, "\nEach command's own options (--json, --root, ...): dlenv help COMMAND, "
                "or dlenv COMMAND --help.");
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
        reflow(out, c->notes);
}

void dl_cli_help(FILE *out, const dl_command *c)
{
    if (c)
        command_help(out, c);
    else
        general_help(out);
    if (!c || !(c->flags & DL_CMD_OWN_EXIT_CODES))
        reflow(out, "\nExit codes: 0 ok, 1 a failure was found, 2 usage error, 3 dlenv "
                    "failed, 4 unusable input.");
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
