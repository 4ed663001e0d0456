/* The command table: one row per command (cli/commands.c) naming its handler, its options
 * (an array in the command's own file), what it takes besides them and what it needs
 * prepared. Adding a command: its file (handler + options), one row, and its
 * DL_COMMAND_DECLARE line below. */
#ifndef DLENV_CLI_COMMANDS_H
#define DLENV_CLI_COMMANDS_H

#include "cli/options.h"
#include "know/tables.h"

#include <stdio.h>

/* What main prepares before the handler runs, once for every command that asks. */
typedef struct dl_context {
    const dl_knowledge *know; /* DL_CMD_NEEDS_KNOWLEDGE; else NULL */
} dl_context;

typedef int (*dl_command_fn)(const dl_cli *cli, const dl_context *ctx);

enum {
    DL_CMD_NEEDS_KNOWLEDGE = 1 << 0, /* the tables (built in or --data DIR), loaded first */
    DL_CMD_OWN_EXIT_CODES = 1 << 1   /* its notes give the exit codes (run: the command's) */
};

/* The arguments besides the options: up to max plain ones (cli->args), then, when
 * then_command, the rest (or what follows `--`) is a command to run, untouched. */
typedef struct dl_positional {
    const char *usage;       /* as the help shows it after "dlenv NAME" */
    unsigned max;
    bool then_command;
} dl_positional;
/* positional.max for a command that takes any number of plain arguments (cli->paths) */
#define DL_POSITIONAL_LIST 0xFFFFu

typedef struct dl_command {
    const char *name;
    const char *summary;     /* one line, for `dlenv --help` */
    dl_command_fn run;
    const dl_option *options;
    unsigned flags;
    dl_positional positional;
    const char *notes;       /* more help after the options; NULL: none */
} dl_command;

/* The table, ended by a row whose name is NULL. */
extern const dl_command dl_commands[];

const dl_command *dl_command_find(const char *name);
/* The closest command or option name to a mistyped one, or NULL when none is close. */
const char *dl_command_suggest(const char *typed);
/* Runs cli's command: prepares what its row asks for, then its handler; an exit code. */
int dl_command_run(const dl_cli *cli);

/* Writes the help for one command, or the general help when command is NULL. */
void dl_cli_help(FILE *out, const dl_command *command);

/* Each command's file: its handler and its options. */
#define DL_COMMAND_DECLARE(name)                                  \
    int dl_cmd_##name(const dl_cli *cli, const dl_context *ctx); \
    extern const dl_option dl_##name##_options[]
DL_COMMAND_DECLARE(report);
DL_COMMAND_DECLARE(doctor);
DL_COMMAND_DECLARE(plan);
DL_COMMAND_DECLARE(setup);
DL_COMMAND_DECLARE(restore);
DL_COMMAND_DECLARE(explain);
DL_COMMAND_DECLARE(verify);
DL_COMMAND_DECLARE(data);
DL_COMMAND_DECLARE(snapshot);
DL_COMMAND_DECLARE(diff);
DL_COMMAND_DECLARE(run);
DL_COMMAND_DECLARE(profile);
DL_COMMAND_DECLARE(lint);
DL_COMMAND_DECLARE(fleet);
DL_COMMAND_DECLARE(help);

#endif
