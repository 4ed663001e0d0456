/* What cuda_driver.csv says about a driver: the minimum driver for a CUDA version, and the
 * newest CUDA a driver runs. Windows cells of 13.x read "N/A" (NVIDIA publishes no
 * Windows minimum since the driver left the toolkit); driver branches are numbered alike
 * on both systems, so the Linux minimum stands in and the caller is told. */
#ifndef DLENV_PLAN_DRIVER_TABLE_H
#define DLENV_PLAN_DRIVER_TABLE_H

#include "know/tables.h"
#include "plan/plan.h"

#include <stdbool.h>
#include <stddef.h>

/* The minimum driver ("525.60.13", no operator) that runs CUDA X.Y outright: its first
 * (GA) row. *from_linux says the Linux minimum stood in for a missing Windows one. False
 * when the table has none, or when it does not fit out's n bytes (a cut version would
 * mislead; dl_driver_unlock_for_cuda alike). */
bool dl_driver_min_for_cuda(const dl_knowledge *k, const char *cuda, dl_plan_os os, char *out,
                            size_t n, bool *from_linux);
/* The minor-version-compatibility minimum cell for CUDA X.Y (">=525"), or NULL. */
const char *dl_driver_mvc_min(const dl_knowledge *k, const char *cuda, dl_plan_os os);
/* The smallest driver that runs CUDA X.Y at all: the minor-version-compatibility minimum
 * of its major (never below the first driver of X.0: ">=525" means 525.60.13) when that
 * is below the outright minimum, else the outright minimum. *through_mvc says which. */
bool dl_driver_unlock_for_cuda(const dl_knowledge *k, const char *cuda, dl_plan_os os,
                               char *out, size_t n, bool *through_mvc);
/* The branch of a driver: 580 for "580.65.06"; 0 when unreadable. */
int dl_driver_branch(const char *driver);
/* The newest CUDA (12040) whose minimum this driver meets; 0 when none or unreadable. */
int dl_driver_cuda_for_driver(const dl_knowledge *k, const char *driver, dl_plan_os os);

#endif
