/* The fix of driver_too_old from the CUDA the driver runs (torch's "found version N",
 * nvidia-smi's "CUDA Version"): the newest torch build that runs on that driver, and the
 * driver that would run the torch the text has. */
#ifndef DLENV_EXPLAIN_DRIVER_FIX_H
#define DLENV_EXPLAIN_DRIVER_FIX_H

#include "explain/explain.h"

/* Replaces driver_too_old's general fix (its row's "the number after 'found version'")
 * with one computed from the text's driver CUDA and OS; leaves it when that is unknown. */
void dl_explain_driver_too_old_fix(const dl_knowledge *k, dl_explanation *e);

#endif
