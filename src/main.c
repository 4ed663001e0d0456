/* dlenv: argument table -> command -> exit code. Nothing below main exits. */
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/options.h"
#include "cli/probe_child.h"
#include "cli/output.h"
#include "os/os.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int dispatch(const dl_cli *cli)
{
    if (cli->version) {
        printf("dlenv %s (%s)\n", DLENV_VERSION, DLENV_COMMIT);
        return DL_EXIT_OK;
    }
    if (cli->help) {
        dl_cli_help(stdout, dl_command_find(cli->command));
        return DL_EXIT_OK;
    }
    if (!cli->command) { /* nothing asked: the usage, as an error */
        dl_cli_help(stderr, NULL);
        return DL_EXIT_USAGE;
    }
    return dl_command_run(cli);
}

int main(int argc, char **argv)
{
    dl_cli cli;
    char *error = NULL;
    int rc;
    dl_process_harden(); /* before anything loads a DLL */
    argv = dl_process_args(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "__probe") == 0) /* dlenv's own isolated child */
        return dl_probe_child_main(argc >= 3 ? argv[2] : NULL, argc >= 4 ? argv[3] : NULL);
    if (!dl_cli_parse(argc, argv, &cli, &error)) {
        dl_cli_error("%s", error);
        free(error);
        dl_cli_free(&cli);
        return DL_EXIT_USAGE;
    }
    rc = dispatch(&cli);
    dl_cli_free(&cli);
    return rc;
}
