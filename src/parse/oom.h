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
    double free_bytes;    /* -1 when not said (dl_oom_read_request) */
    double torch_bytes;   /* reserved by PyTorch, allocated or not; -1 as free_bytes */
    double own_bytes;     /* all this process holds, its CUDA context included ("this
                           * process has X memory in use", torch 2.1+); -1 when not said */
    double requested_bytes; /* "Tried to allocate 4.00 GiB"; -1 when not said */
} dl_oom;

/* A CUDA context with cuBLAS and cuDNN loaded, and a desktop on the same GPU, hold up to
 * about this much outside PyTorch's allocator: below it, memory PyTorch does not hold is
 * no sign of another process. */
#define DL_OOM_CONTEXT_BYTES (1024.0 * 1024.0 * 1024.0)

/* The first OOM line with all three numbers; false when there is none. */
bool dl_oom_read(const dl_paste *p, dl_oom *out);

/* The first OOM line's request and the GPU's total (what else it says, or -1); false
 * without both. */
bool dl_oom_read_request(const dl_paste *p, dl_oom *out);

/* What the message's numbers leave to other processes: the total less what is free and
 * what this process holds (its own figure when torch gives it, else PyTorch's share). */
double dl_oom_outside_bytes(const dl_oom *o);

/* The part of that no process's own CUDA context and desktop explain: all of it when torch
 * gave this process's own figure (which includes its context), else what exceeds
 * DL_OOM_CONTEXT_BYTES; 0 or less when nothing points at another process. */
double dl_oom_unexplained_bytes(const dl_oom *o);

/* The first line that says "OOM" as a word ("--medvram OOMs", "OOM at 512x512"), not the
 * kernel's OOM killer ("OOMKilled", "oom-kill"); -1 when none. */
long dl_oom_word_line(const dl_paste *p);

#endif
