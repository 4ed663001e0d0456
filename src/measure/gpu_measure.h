/* dlenv verify's native GPU measurements: every CUDA device opened in turn, its kernel
 * checked, its fp32 rate, memory bandwidth, host copies and largest allocation measured,
 * NVML asked about clocks and the PCIe link while it is busy. Runs only inside dlenv's
 * child process (`dlenv __probe gpu-measure LEVEL`): a wedged driver or a kernel that never
 * ends costs the child, not the report. */
#ifndef DLENV_MEASURE_GPU_MEASURE_H
#define DLENV_MEASURE_GPU_MEASURE_H

#include "facts/facts.h"
#include "measure/gpu_session.h"

#include <stdbool.h>

/* The budget of a level: "quick", "default" or "full"; false for another word. */
bool dl_gpu_budget_for(const char *level, dl_gpu_budget *b);

/* Measures every device; out->status says measured or failed (with detail). */
void dl_measure_gpus(const dl_gpu_budget *b, dl_gpu_measure_facts *out);

#endif
