/* dlenv: argument table -> command -> exit code. Nothing below main exits. */
#include "cli/exit_codes.h"
#include "cli/options.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    dl_cli cli;
    char *error = NULL;
    const dl_command *command;
    if (!dl_cli_parse(argc, argv, &cli, &error)) {
        fprintf(stderr, "dlenv: %s\n", error);
        free(error);
        return DL_EXIT_USAGE;
    }
    if (cli.help || !cli.command) {
        dl_cli_help(stdout, cli.command);
        return DL_EXIT_OK;
    }
    if (cli.version) {
        printf("dlenv %s\n", DLENV_VERSION);
        return DL_EXIT_OK;
    }
    command = dl_cli_find_command(cli.command);
    return command->run(&cli);
}
