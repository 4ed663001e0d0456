/* torch's CUDA out-of-memory message carries the numbers that tell "the model is too big"
 * (cuda_oom) from "another process holds the GPU" (gpu_memory_held_by_other_process):
 * the GPU's total, what is free, and what PyTorch itself holds. */
#ifndef DLENV_PARSE_OOM_H
#define DLENV_PARSE_OOM_H

#include "parse/paste.h"
#include "rules/finding.h"

/* Adds gpu_memory_held_by_other_process when an OOM line shows more than half of the
 * GPU's memory held outside this PyTorch process. */
void dl_explain_oom(const dl_paste *p, dl_findings *out);

#endif
