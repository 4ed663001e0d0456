/* `dlenv snapshot --lock`: the exact commands that reinstall one interpreter's torch stack
 * as it is now, like a lock file. The packages are what the Python probe recorded per
 * site-packages (torch, its companions, the nvidia-* wheels, triton, numpy ...), the first
 * copy of each name in import order (a user-site copy shadows the system one). Versions
 * are pinned with their local tag (torch==2.3.1+cu121: pip keeps an installed 2.3.1+cpu
 * when asked for torch==2.3.1), and each local tag's packages come from that PyTorch index
 * (https://download.pytorch.org/whl/cu121); the rest, which PyPI holds (it refuses local
 * versions), from the default index. Pure: no I/O. */
#ifndef DLENV_PLAN_LOCK_H
#define DLENV_PLAN_LOCK_H

#include "facts/facts.h"

typedef struct dl_lock_input {
    const dl_python *python;   /* the interpreter to lock */
    const char *mirror;        /* --index-mirror for https://download.pytorch.org/whl; NULL */
    const char *taken_at;      /* for the header; NULL: left out */
    const char *host;
} dl_lock_input;

/* The lock as text: # comments, then one install command per index. NULL with *error (one
 * line) when the interpreter has no torch stack to lock. */
char *dl_lock_text(const dl_lock_input *in, char **error);

#endif
