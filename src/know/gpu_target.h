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
 * the lower-cased name holds, with "(R)"/"(TM)" dropped; else the chip codename a pci.ids
 * name starts with ("Navi 31 [...]", dl_gpu_target_of_chip). A name that is itself a gfx
 * id ("gfx1100") is that target. Writes "" and returns false when unknown. */
bool dl_gpu_target_of_name(const dl_knowledge *k, const char *vendor, const char *name,
                           char *out, size_t cap);

/* The target of a chip codename as pci.ids names a GPU ("Navi 31", "Ellesmere", "Aqua
 * Vanjaram", "DG2", "Meteor Lake-P"), through data/gpu_codenames.csv: the chip text (what
 * comes before " [" when a whole pci.ids name is given) starts with a row's codename,
 * compared in lower case without spaces or punctuation ("Polaris12" = "Polaris 12"), and a
 * codename ending in a digit is not the start of a longer number ("Navi 1" never matches
 * "Navi 10"). The longest codename wins; a row that lists device ids (pci.ids gives the
 * MI350X the MI300X's codename) wins for those devices. device < 0: not known. Writes ""
 * and returns false when no codename matches. */
bool dl_gpu_target_of_chip(const dl_knowledge *k, const char *vendor, const char *chip,
                           long device, char *out, size_t cap);

/* The ';'-separated targets torch (X.Y.Z) variant ("rocm6.4", "xpu") is built for; NULL
 * when the table has no row for that release and variant. An exact variant row wins over
 * the family row ("rocm"). */
const char *dl_wheel_targets(const dl_knowledge *k, const char *torch, const char *variant);

/* Whether an AMD gfx target ("gfx803") is older than every target of every ROCm wheel in
 * wheel_targets.csv (their oldest is gfx900): no ROCm wheel of torch ever ran it, the way
 * a Kepler GPU is below every CUDA wheel's list. False for a target in a gap or newer. */
bool dl_gfx_below_every_rocm_wheel(const dl_knowledge *k, const char *target);

/* Whether the ';'-separated list holds target. */
bool dl_target_in_list(const char *list, const char *target);

#endif
