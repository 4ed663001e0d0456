/* An NVIDIA GPU identified by its chip: pci.ids names each device with the chip it is
 * made of ("1c03  GP106 [GeForce GTX 1060 6GB]"), and the chip fixes the architecture and
 * the compute capability (data/gpu_chips.csv). A rule per chip family covers every board
 * built on it, named or not, which a list of marketing names never does.
 * Pure functions: no I/O; the strings returned point into the knowledge tables. */
#ifndef DLENV_KNOW_GPU_CHIP_H
#define DLENV_KNOW_GPU_CHIP_H

#include "know/tables.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct dl_gpu_chip {
    unsigned cc_major, cc_minor;
    const char *chip;          /* the table's chip cell: "GP10x" */
    const char *architecture;  /* "Pascal" */
    int last_driver_branch;    /* 580: the newest driver branch for this chip; 0: none
                                  (still supported, or a Jetson with its own drivers) */
    const char *source;
} dl_gpu_chip;

/* The chip code that starts name ("GP106", "GK110BGL", "GM108M", "GA10B"), resolved
 * through gpu_chips.csv: a row's x stands for one digit, and letters after the code
 * (M mobile, GL professional, B a revision) do not change the chip. An exact row beats a
 * family row (GM20B, Tegra X1, beats GM20x). False when name does not start with a chip
 * code the table knows. */
bool dl_gpu_chip_lookup(const dl_knowledge *k, const char *name, dl_gpu_chip *out);

/* The newest driver branch that supports compute capability major.minor (470 for Kepler,
 * 580 for Maxwell, Pascal, Volta), from the chips of that capability; 0 when none ends. */
int dl_gpu_last_driver_branch(const dl_knowledge *k, unsigned major, unsigned minor);

/* The first cuDNN version ("8.9") with no kernels for compute capability major.minor
 * (Kepler: cuDNN 8.9 and newer start at Maxwell), or NULL when every cuDNN dlenv knows has
 * them. */
const char *dl_gpu_first_cudnn_without(const dl_knowledge *k, unsigned major, unsigned minor);

/* The cuDNN that torch `torch_version`'s `variant` build bundles (cudnn.csv, by torch minor
 * and variant) has no kernels for compute capability major.minor: true, with that cuDNN in
 * *bundled and the first cuDNN without them in *without; false when it has them or either
 * table does not say. */
bool dl_gpu_bundled_cudnn_lacks(const dl_knowledge *k, const char *torch_version,
                                const char *variant, unsigned major, unsigned minor,
                                const char **bundled, const char **without);

#endif
