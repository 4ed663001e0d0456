/* What the text's own facts say about a signature's guess: pip's list of versions, a wheel's
 * file name against the Python, the GPU against "no kernel image". Each reading either keeps
 * the signature's finding, replaces it by the one the facts show, or drops it. */
#ifndef DLENV_EXPLAIN_READINGS_H
#define DLENV_EXPLAIN_READINGS_H

#include "facts/facts.h"
#include "know/tables.h"
#include "parse/paste.h"

/* The compute capabilities the text's GPU may have, as major * 10 + minor, lowest and
 * highest: one value for a GPU whose capability the text gives or its name fixes, two for a
 * name sold on two chips ("GT 740M": GK107 sm_30 and GK208 sm_35); 0 when unknown. Looked up
 * once per report (explain.c), never per line. */
typedef struct dl_gpu_span {
    unsigned lo, hi;
} dl_gpu_span;

/* Every wheel dlenv knows (wheel_arches.csv, torch 1.12 onward; only the text's torch
 * release when it gives one) is newer than the GPU's highest possible capability: no wheel
 * has kernels for it. False when the GPU or the wheels are unknown. */
bool dl_gpu_below_every_wheel(const dl_knowledge *k, const dl_facts *f, const dl_gpu_span *gpu);

/* Fewer than half of the wheels dlenv knows (on the text's OS when it says) have machine
 * code (SASS) for the GPU's lowest possible capability, and the others are older than it
 * (newer than their list, or left to JIT an old PTX): an sm_120 GPU, which only cu128
 * and later have. */
bool dl_gpu_newer_than_most_wheels(const dl_knowledge *k, const dl_facts *f,
                                   const dl_gpu_span *gpu);

/* The text's torch release has no wheel (of any CUDA, on any OS) whose list runs the GPU's
 * lowest possible capability in machine code: every list stops below it (an sm_120 card
 * under torch 2.6).
 * False when the text names no torch or no GPU. */
bool dl_gpu_above_every_wheel_of_torch(const dl_knowledge *k, const dl_facts *f,
                                       const dl_gpu_span *gpu);

/* The newest torch release dlenv knows (on the text's OS when it says) has a wheel with no
 * kernels for the GPU's highest possible capability, while some wheel has them: a Maxwell
 * or Pascal GPU, which the cu128 and later wheels dropped and only cu126 still carries. */
bool dl_gpu_dropped_by_newest_wheels(const dl_knowledge *k, const dl_facts *f,
                                     const dl_gpu_span *gpu);

/* torch's own library (libc10.so, ...) is missing where an extension was imported with no
 * "import torch" before it: the import order, not a build for another torch. */
bool dl_text_extension_before_torch(const dl_paste *p);

/* The finding id the text supports instead of `id` (the finding of the signature row named
 * `signature`), "" to drop it, or id. *settled (when given) is set when the text's facts
 * rule the signature's alternatives out (the GPU against the wheels), so none stays a
 * candidate. */
const char *dl_reading_for(const dl_knowledge *k, const dl_paste *p, const dl_facts *f,
                           const dl_gpu_span *gpu, const char *signature, const char *id,
                           bool *settled);

#endif
