/* One isolated driver probe: dlenv started again as `dlenv __probe WHICH [ARG]`, which loads
 * a driver library, fills the facts and answers in JSON on stdout, under a timeout. */
#ifndef DLENV_PROBE_GPU_CHILD_H
#define DLENV_PROBE_GPU_CHILD_H

#include "facts/schema.h"
#include "probe/probe.h"

typedef struct dl_probe_child {
    const char *which;    /* nvml, cuda, gpu-measure */
    const char *arg;      /* its one argument, or NULL */
    const char *library;  /* the library it loads, for the messages */
    int timeout_ms;       /* 0: the context's child timeout */
} dl_probe_child;

/* Fills obj (described by s) from the child's answer; a hang, a crash or an unreadable
 * answer leaves every field unknown for that reason and sets the outcome. */
void dl_probe_child_run(const dl_probe_ctx *ctx, const dl_probe_child *c, const dl_schema *s,
                        void *obj, dl_probe_outcome *out);

#endif
