/* CUDA_VISIBLE_DEVICES used from the program's own code in a way that cannot work: set
 * with os.environ after torch (or a library that imports it) initialised CUDA, or a model
 * spread over every visible GPU. The install is fine: a note, no finding. */
#ifndef DLENV_EXPLAIN_VISIBLE_DEVICES_NOTE_H
#define DLENV_EXPLAIN_VISIBLE_DEVICES_NOTE_H

#include "explain/explain.h"

/* The writer says the variable was set after torch was imported or a CUDA call came first
 * ("set after torch import", "is_available() was already called"): whatever value it holds,
 * that process kept the GPUs it saw at the first call. */
bool dl_text_visible_devices_set_late(const dl_paste *p);

/* Adds the note that says where to set the variable instead. */
void dl_explain_visible_devices_in_code(dl_explanation *e);

#endif
