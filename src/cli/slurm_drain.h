/* `dlenv fleet check --drain`'s decision, pure: from what `scontrol -o show node NAME` says
 * and the node's health, whether to drain it, resume it or leave it, and the scontrol
 * command that does it. It never touches a drain reason dlenv did not set: a node drained
 * (or downed) by a person or another checker keeps its state and reason, sick or healthy.
 * fleet_slurm.c runs the commands. */
#ifndef DLENV_CLI_SLURM_DRAIN_H
#define DLENV_CLI_SLURM_DRAIN_H

#include <stdbool.h>

/* Every reason dlenv sets starts with this; only those are dlenv's to change or clear. */
#define DL_SLURM_REASON_PREFIX "dlenv:"

/* One node as `scontrol -o show node NAME` prints it (one line of Key=Value fields). */
typedef struct dl_slurm_node {
    char *state;       /* IDLE+DRAIN, MIXED, DOWN+NOT_RESPONDING ... */
    bool drained;      /* DRAIN is among the state's flags (draining or drained) */
    char *reason;      /* the reason without Slurm's " [user@time]" tail; NULL: none */
} dl_slurm_node;

/* false with *why when text holds no node (no State= field). */
bool dl_slurm_node_parse(const char *text, dl_slurm_node *out, char **why);
void dl_slurm_node_free(dl_slurm_node *n);

typedef enum dl_slurm_health {
    DL_SLURM_HEALTHY,  /* no failure (warnings allowed) */
    DL_SLURM_FAILING,  /* a failure: reason names the root cause */
    DL_SLURM_UNKNOWN   /* cannot judge: no reason to drain, none to resume either */
} dl_slurm_health;

typedef enum dl_slurm_verb { DL_SLURM_KEEP, DL_SLURM_DRAIN, DL_SLURM_RESUME } dl_slurm_verb;

#define DL_SLURM_MAX_ARGV 6
typedef struct dl_slurm_step {
    dl_slurm_verb verb;
    const char *why;                   /* one phrase: why this step (or none) */
    char *argv[DL_SLURM_MAX_ARGV];     /* scontrol update ...; NULL-terminated; {NULL} for KEEP */
} dl_slurm_step;

/* The command that asks for the node: scontrol -o show node NAME (argv[0] "scontrol"). */
void dl_slurm_show_argv(const char *node, char *argv[DL_SLURM_MAX_ARGV]);
/* What to do with node (now as scontrol showed it) whose health is health; reason (the
 * "dlenv: ..." line) only matters when it is failing. */
void dl_slurm_drain_step(const char *node, dl_slurm_health health, const char *reason,
                         const dl_slurm_node *now, dl_slurm_step *out);
void dl_slurm_argv_free(char *argv[DL_SLURM_MAX_ARGV]);

#endif
