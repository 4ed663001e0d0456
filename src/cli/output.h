/* What every command shares about output: the style for this terminal and writing the
 * result to stdout with errors reported. */
#ifndef DLENV_CLI_OUTPUT_H
#define DLENV_CLI_OUTPUT_H

#include "base/str.h"
#include "cli/options.h"
#include "render/style.h"

dl_style dl_cli_style(const dl_cli *cli);
/* Writes text (and a final newline when add_newline) to stdout; returns an exit code. */
int dl_cli_write(const char *text, bool add_newline);
/* An error: one line on stderr, "dlenv: " and the message. What arguments and files put
 * in it is shown, not acted on: a line break, a terminal escape or invalid UTF-8 becomes
 * \xNN, so the error stays one line and cannot recolour or rewrite the terminal. */
void dl_cli_error(const char *fmt, ...) DL_PRINTF_LIKE(1, 2);

#endif
