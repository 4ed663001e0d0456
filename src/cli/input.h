/* Reading what the user hands over (a saved report, a pasted log): a file or standard
 * input, bounded in size, with one-line errors. */
#ifndef DLENV_CLI_INPUT_H
#define DLENV_CLI_INPUT_H

#include <stdbool.h>
#include <stddef.h>

/* Reads path ("-": standard input) whole, at most max bytes. NULL after printing
 * "dlenv: PATH: why" (cannot open, cannot read, larger than the limit). */
char *dl_cli_read_input(const char *path, size_t max, size_t *len);

#endif
