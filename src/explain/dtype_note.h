/* A model loaded in a number format the GPU lacks (bfloat16 below compute capability 8.0,
 * FP8 e4m3 below 8.9): the program's or model's choice, which no install changes. */
#ifndef DLENV_EXPLAIN_DTYPE_NOTE_H
#define DLENV_EXPLAIN_DTYPE_NOTE_H

#include "explain/explain.h"

/* Adds a note (no finding: torch and the install are fine) naming the format to load the
 * model in instead. */
void dl_explain_dtype_beyond_gpu(dl_explanation *e);

#endif
