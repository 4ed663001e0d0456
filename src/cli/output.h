/* What every command shares about output: the style for this terminal and writing the
 * result to stdout with errors reported. */
#ifndef DLENV_CLI_OUTPUT_H
#define DLENV_CLI_OUTPUT_H

#include "cli/options.h"
#include "render/style.h"

dl_style dl_cli_style(const dl_cli *cli);
/* Writes text (and a final newline when add_newline) to stdout; returns an exit code. */
int dl_cli_write(const char *text, bool add_newline);

#endif
