/* `dlenv fleet report`: run a launcher (or read saved reports) and fold every node's
 * report into one picture (diff/fleet_fold.h). Called by fleet.c. */
#ifndef DLENV_CLI_FLEET_REPORT_H
#define DLENV_CLI_FLEET_REPORT_H

#include "cli/commands.h"

int dl_fleet_report(const dl_cli *cli, const dl_context *ctx);

#endif
