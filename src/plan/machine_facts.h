/* This machine, as the planner sees it: the facts the probes gathered, reduced to a
 * dl_plan_machine (OS, architecture, the interpreter `python` means, GPUs with their
 * compute capability, the driver). */
#ifndef DLENV_PLAN_MACHINE_FACTS_H
#define DLENV_PLAN_MACHINE_FACTS_H

#include "facts/facts.h"
#include "plan/plan.h"

/* py: the interpreter to plan for (NULL: the first one found). */
void dl_plan_machine_from_facts(const dl_facts *f, const dl_python *py, const dl_knowledge *k,
                                dl_plan_machine *m);

#endif
