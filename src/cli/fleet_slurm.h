/* fleet's Slurm side: the node's name in Slurm, `fleet check --drain` (scontrol, through
 * the exec layer under a time limit, never a shell) and `fleet gres-conf`. Called by
 * fleet.c; the decision itself is slurm_drain.c's pure function. */
#ifndef DLENV_CLI_FLEET_SLURM_H
#define DLENV_CLI_FLEET_SLURM_H

#include "cli/commands.h"
#include "cli/slurm_drain.h"

/* --node NAME, else $SLURMD_NODENAME (slurmd sets it for its HealthCheckProgram), else
 * the host name up to its first dot; NULL with *why when none can be had. */
char *dl_fleet_node_name(const dl_cli *cli, char **why);
/* Drains, resumes or leaves this node as dl_slurm_drain_step says, after reading its
 * state with scontrol; one line on stderr says what it did. DL_EXIT_OK, or DL_EXIT_TOOL
 * when scontrol could not be run or refused. */
int dl_fleet_slurm_drain(const dl_cli *cli, dl_slurm_health health, const char *reason);
/* `dlenv fleet gres-conf`. */
int dl_fleet_gres_conf(const dl_cli *cli, const dl_context *ctx);

#endif
