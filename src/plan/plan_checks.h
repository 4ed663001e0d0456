/* The planner's checks of one candidate (a release row and a variant) against the
 * machine: constraints, platform, Python, GPU, driver, architectures, known bad releases.
 * Each failed check sets its bit and says why in plain words. */
#ifndef DLENV_PLAN_PLAN_CHECKS_H
#define DLENV_PLAN_PLAN_CHECKS_H

#include "plan/plan.h"

typedef struct dl_plan_checker {
    const dl_knowledge *k;
    const dl_plan_machine *m;
    const dl_plan_constraints *cons;
    char python_tag[16];    /* "cp312", "cp313t"; "" unknown */
    char platform[24];      /* "linux-x86_64" */
    int driver_cuda;        /* the machine's, or derived from its driver; 0 unknown */
    int last_branch;        /* the newest driver branch the GPUs run; 0: no limit known */
    const char *last_branch_gpu; /* the GPU that sets it */
} dl_plan_checker;

bool dl_plan_checker_init(dl_plan_checker *chk, const dl_knowledge *k, const dl_plan_machine *m,
                          const dl_plan_constraints *cons, char **error);
void dl_plan_check(const dl_plan_checker *chk, size_t release_row, const char *variant,
                   dl_plan_candidate *c);

/* 1 when the candidate uses an accelerator this machine has (a CUDA, ROCm or XPU build;
 * the macOS wheels on Apple silicon, for MPS). */
int dl_plan_accelerated(const dl_plan_candidate *c, const dl_plan_machine *m);
/* Orders variants of one kind: cu130 > cu126, rocm6.4 > rocm6.3; cpu lowest. */
int dl_plan_variant_rank(const char *variant);

#endif
