/* Which GPUs `dlenv run --gpu` and `dlenv profile write --gpu` mean: each value names a
 * GPU as `nvidia-smi -i` does (an index, a UUID or a unique prefix of one, a PCI bus id),
 * and is looked up among the GPUs NVML lists. NVML numbers GPUs in PCI bus order, which
 * is CUDA's order under CUDA_DEVICE_ORDER=PCI_BUS_ID, so the indices found here are the
 * ones to pass. Pure: the caller gathers the list. */
#ifndef DLENV_RUN_GPU_SELECT_H
#define DLENV_RUN_GPU_SELECT_H

#include "base/str.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct dl_gpu_entry {
    long index;             /* NVML's */
    const char *uuid;       /* GPU-5c2b6a8e-1f2d-..., or NULL when unknown */
    const char *name;       /* NULL when unknown */
    const char *pci_bus_id; /* 00000000:01:00.0, or NULL when unknown */
} dl_gpu_entry;

typedef enum dl_gpu_status {
    DL_GPU_OK,
    DL_GPU_SYNTAX,   /* the value names no GPU in any form: a usage error */
    DL_GPU_NO_SUCH   /* well formed, but this machine has no such GPU (or several match) */
} dl_gpu_status;

/* The --gpu values split at commas ("0,2" and "--gpu 0 --gpu 2" are the same), trimmed.
 * An empty entry, or one that is no index, GPU-UUID (prefix) or PCI bus id in form, is
 * DL_GPU_SYNTAX with *error: a usage error, found before any driver is asked. */
dl_gpu_status dl_gpu_split(const char *const *values, size_t n, dl_strv *tokens, char **error);

/* Each token's GPU among gpus[0..n): *chosen gets their indices in the order asked
 * (caller frees, whatever the result). A GPU named twice is DL_GPU_SYNTAX; a token that matches no GPU, or a
 * UUID prefix that matches several, DL_GPU_NO_SUCH with *error naming what exists. */
dl_gpu_status dl_gpu_resolve(const dl_strv *tokens, const dl_gpu_entry *gpus, size_t n,
                             long **chosen, size_t *n_chosen, char **error);

/* "0 NVIDIA GeForce RTX 4090 (GPU-5c2b6a8e), 1 ..." for messages; "none" when n is 0. */
char *dl_gpu_list_text(const dl_gpu_entry *gpus, size_t n);

/* "0,2": the indices as CUDA_VISIBLE_DEVICES takes them. */
char *dl_gpu_index_list(const long *indices, size_t n);

#endif
