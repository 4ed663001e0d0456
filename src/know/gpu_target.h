/* AMD and Intel GPUs against the ROCm and XPU wheels: a GPU's name -> its target (an AMD
 * gfx id, an Intel Xe family; data/gpu_targets.csv), and the targets each wheel is built
 * for (data/wheel_targets.csv). NVIDIA GPUs go through compute capability instead. */
#ifndef DLENV_KNOW_GPU_TARGET_H
#define DLENV_KNOW_GPU_TARGET_H

#include "know/tables.h"

#include <stdbool.h>
#include <stddef.h>

/* The target of a GPU by name ("AMD Radeon RX 7900 XTX" -> "gfx1100"; "Intel(R) UHD
 * Graphics 630" -> "gen9-xe-lp"): the longest name_match of vendor ("amd", "intel") that
 * the lower-cased name holds, with "(R)"/"(TM)" dropped. A name that is itself a gfx id
 * ("gfx1100") is that target. Writes "" and returns false when unknown. */
bool dl_gpu_target_of_name(const dl_knowledge *k, const char *vendor, const char *name,
                           char *out, size_t cap);

/* The ';'-separated targets torch (X.Y.Z) variant ("rocm6.4", "xpu") is built for; NULL
 * when the table has no row for that release and variant. An exact variant row wins over
 * the family row ("rocm"). */
const char *dl_wheel_targets(const dl_knowledge *k, const char *torch, const char *variant);

/* Whether the ';'-separated list holds target. */
bool dl_target_in_list(const char *list, const char *target);

#endif
