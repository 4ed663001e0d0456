/* Which torch CUDA build runs on a machine: a build runs on a driver that runs its CUDA
 * (or, from CUDA 11 on, the same major: minor-version compatibility) and has machine code
 * for the GPU's capabilities in wheel_arches.csv (and a bundled cuDNN with kernels for it).
 * Shared by the fixes that name a build: driver_too_old's and cpu_only_build's. */
#ifndef DLENV_EXPLAIN_BUILD_CHOICE_H
#define DLENV_EXPLAIN_BUILD_CHOICE_H

#include "explain/readings.h"
#include "know/tables.h"
#include "plan/plan.h"
#include "rules/finding.h"

#include <stdbool.h>
#include <stddef.h>

/* A variant's CUDA ("cu118" -> 11080), through the local tag's own reader; 0 when it is
 * no CUDA variant. */
int dl_variant_cuda(const char *variant);

/* The newest released torch with a CUDA build that runs on the driver (CUDA up to
 * `driver`, as 12040) and the GPU, with wheels for `python` where given ("3.8"; NULL: any):
 * its row of torch_releases.csv and, in tag, that build's variant; -1 when none. With the
 * OS unknown, a build both Linux and Windows have. */
long dl_newest_build_for(const dl_knowledge *k, const dl_gpu_span *gpu, int driver,
                         dl_plan_os os, const char *python, char *tag, size_t cap);

/* The newest build of torch `release` on the OS that runs on the driver and the GPU: its
 * CUDA, and its variant in tag; 0 when none (or the release is not in the table). */
int dl_build_for_release(const dl_knowledge *k, const dl_gpu_span *gpu, const char *release,
                         dl_plan_os os, int driver, char *tag, size_t cap);

/* The pip command for the build `tag` of torch_releases.csv's row `row` (with its
 * torchvision), from PyTorch's index for that build. */
void dl_fix_install_build(dl_finding *x, const dl_table *t, long row, const char *tag);

#endif
