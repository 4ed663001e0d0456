/* A checkpoint saved on a GPU, loaded where torch has no CUDA ("Attempting to deserialize
 * object on a CUDA device but torch.cuda.is_available() is False"). torch's message fits a
 * machine without an NVIDIA GPU as well as a CPU build on one with a GPU: the text decides. */
#ifndef DLENV_EXPLAIN_CHECKPOINT_TEXT_H
#define DLENV_EXPLAIN_CHECKPOINT_TEXT_H

#include "explain/explain.h"

#include <stdbool.h>

/* The message, in a text that shows neither an NVIDIA GPU (no nvidia-smi, no GPU name, no
 * driver version, no CUDA build of torch) nor a CPU build ("+cpu", "the cpu only version"):
 * the signature's CPU-build reading has nothing to stand on. */
bool dl_text_checkpoint_without_gpu_evidence(const dl_paste *p, const dl_facts *f);

/* That text: where the writer says the machine has no GPU, no_gpu (load the checkpoint onto
 * the CPU); else the two candidates and the question that decides. */
void dl_explain_checkpoint_where_cuda_unavailable(dl_explanation *e);

#endif
