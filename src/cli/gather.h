/* What report and doctor share: open the machine, configure and run every probe. */
#ifndef DLENV_CLI_GATHER_H
#define DLENV_CLI_GATHER_H

#include "cli/options.h"
#include "facts/facts.h"
#include "probe/probe.h"

/* Fills f (initialised here) and returns DL_EXIT_OK, or an exit code after printing the
 * one-line error (an unusable --root or --python). f needs dl_facts_free either way.

 * measure (dl_cli_gather_measured): verify's level for timing torch's products (quick,
 * default, full), or NULL. */
int dl_cli_gather(const dl_cli *cli, dl_facts *f);
int dl_cli_gather_measured(const dl_cli *cli, const char *measure, dl_facts *f);
/* The probe settings the options choose; free settings->self_path after. */
void dl_cli_probe_settings(const dl_cli *cli, dl_probe_settings *settings);

#endif
