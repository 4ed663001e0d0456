/* What report and doctor share: open the machine, configure and run every probe. */
#ifndef DLENV_CLI_GATHER_H
#define DLENV_CLI_GATHER_H

#include "cli/options.h"
#include "facts/facts.h"

/* Fills f (initialised here) and returns DL_EXIT_OK, or an exit code after printing the
 * one-line error (an unusable --root or --python). f needs dl_facts_free either way. */
int dl_cli_gather(const dl_cli *cli, dl_facts *f);

#endif
