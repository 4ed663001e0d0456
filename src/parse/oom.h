/* torch's CUDA out-of-memory message carries the numbers that tell "the model is too big"
 * (cuda_oom) from "another process holds the GPU" (gpu_memory_held_by_other_process):
 * the GPU's total, what is free, and what PyTorch itself holds. This file only reads
 * them; the rule that judges them is in rules/torch_runtime.c. */
#ifndef DLENV_PARSE_OOM_H
#define DLENV_PARSE_OOM_H

#include "parse/paste.h"

typedef struct dl_oom {
    size_t line;          /* index into the paste's lines */
    double total_bytes;   /* the GPU's capacity */
    double free_bytes;
    double torch_bytes;   /* reserved by PyTorch, allocated or not */
} dl_oom;

/* The first OOM line with all three numbers; false when there is none. */
bool dl_oom_read(const dl_paste *p, dl_oom *out);

/* The first line that says "OOM" as a word ("--medvram OOMs", "OOM at 512x512"), not the
 * kernel's OOM killer ("OOMKilled", "oom-kill"); -1 when none. */
long dl_oom_word_line(const dl_paste *p);

#endif
