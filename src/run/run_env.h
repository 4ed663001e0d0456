/* The environment a command runs in under `dlenv run` and the launchers `dlenv profile`
 * writes: a short list of changes (set, remove, prepend to a path list) rather than a
 * whole environment, so a launcher file prepends to the PATH it finds when it runs
 * instead of freezing today's. Pure: applying the changes to an environment is tested on
 * every system with both name rules. */
#ifndef DLENV_RUN_RUN_ENV_H
#define DLENV_RUN_RUN_ENV_H

#include "base/str.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum dl_env_op {
    DL_ENV_SET,
    DL_ENV_UNSET,
    DL_ENV_PREPEND  /* value, the list separator, then the current value (if any) */
} dl_env_op;

typedef struct dl_env_change {
    dl_env_op op;
    char *name;
    char *value;    /* NULL for DL_ENV_UNSET */
} dl_env_change;

typedef struct dl_env_changes {
    dl_env_change *v;
    size_t n;
} dl_env_changes;

void dl_env_change_add(dl_env_changes *c, dl_env_op op, const char *name, const char *value);
void dl_env_changes_free(dl_env_changes *c);

/* GPU selection, the variables each framework honours: CUDA_VISIBLE_DEVICES (CUDA and
 * torch), CUDA_DEVICE_ORDER=PCI_BUS_ID (so the indices are nvidia-smi's),
 * HIP_VISIBLE_DEVICES (ROCm) and ZE_AFFINITY_MASK (Level Zero, Intel). cpu: empty lists,
 * which hide every GPU; Level Zero reads an empty mask as "all", so its mask is removed
 * instead. Otherwise the indices (NVML's), in the order given. */
void dl_env_gpu_changes(dl_env_changes *c, bool cpu, const long *indices, size_t n);

typedef enum dl_env_kind {
    DL_PY_VENV,     /* a venv / virtualenv (pyvenv.cfg) */
    DL_PY_CONDA,    /* a conda env or base (conda-meta) */
    DL_PY_PLAIN     /* any other interpreter: only its own directory goes on PATH */
} dl_env_kind;

/* What `activate` does for the env at prefix whose interpreter is in bin_dir: its
 * directories first on PATH (Windows conda: the prefix, Library\mingw-w64\bin,
 * Library\usr\bin, Library\bin, Scripts, bin, as conda activate orders them),
 * VIRTUAL_ENV or CONDA_PREFIX (+ CONDA_DEFAULT_ENV), and PYTHONHOME removed (it would
 * point the interpreter at another installation). A conda env also removes VIRTUAL_ENV:
 * tools such as uv and poetry would otherwise install into the venv. */
void dl_env_python_changes(dl_env_changes *c, dl_env_kind kind, const char *prefix,
                           const char *bin_dir, bool windows);

/* base ("NAME=value" entries) with the changes applied, as a new list of owned strings
 * in base's order, new names at the end. Windows names compare without case (Path is
 * PATH) when ignore_case; the name base already uses is kept. sep separates a
 * prepended path list: ':' or ';'. */
void dl_env_apply(const char *const *base, size_t n, const dl_env_changes *c, bool ignore_case,
                  char sep, dl_strv *out);

/* The value of name in env entries, or NULL. */
const char *dl_env_lookup(const dl_strv *env, const char *name, bool ignore_case);

#endif
