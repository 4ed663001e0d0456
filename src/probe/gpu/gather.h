/* The driver-library probes' inner halves. They load NVML and the CUDA driver in this
 * process and fill the facts; dlenv runs them only inside a child process of its own
 * (child.c), because a broken driver can hang or crash on its first call. */
#ifndef DLENV_PROBE_GPU_GATHER_H
#define DLENV_PROBE_GPU_GATHER_H

#include "facts/schema.h"
#include "probe/probe.h"

void dl_gather_nvml(dl_nvml_facts *facts, dl_probe_outcome *out);
void dl_gather_cuda(dl_cuda_driver_facts *facts, dl_probe_outcome *out);

#endif
