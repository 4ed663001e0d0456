/* What report and doctor share: open the machine, configure and run every probe. */
#ifndef DLENV_CLI_GATHER_H
#define DLENV_CLI_GATHER_H

#include "cli/options.h"
#include "facts/facts.h"

/* Fills f (initialised here) and returns DL_EXIT_OK, or an exit code after printing the
 * one-line error (an unusable --root or --python). f needs dl_facts_free either way. */
int dl_cli_gather(const dl_cli *cli, dl_facts *f);

/* With --redact: the output with the user name, home directory and host name replaced
 * (in a JSON document's string values only). Takes ownership of text and returns the text
 * to print. */
char *dl_cli_redact(const dl_cli *cli, char *text, bool json);

#endif
