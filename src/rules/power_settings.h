/* The Linux and NVML speed settings (rules/power_settings.c): the CPU frequency governor,
 * a GPU's power limit and applications clocks. Verify's judgements (gpu_measured.c,
 * cpu_matmul.c) name them beside a measured rate that fell far below its limit. */
#ifndef DLENV_RULES_POWER_SETTINGS_H
#define DLENV_RULES_POWER_SETTINGS_H

#include "rules/rules.h"

/* The NVML GPU that is this PCI bus id (CUDA's "0000:01:00.0" or NVML's
 * "00000000:01:00.0"); the only one when there is one and the id is unknown. */
const dl_nvml_gpu *dl_power_nvml_gpu(const dl_facts *f, const char *pci_bus_id);

/* Adds to x, once per GPU, the settings that hold this GPU below its speed, each with the
 * measured figure ("measured 4.1 TFLOPS, 38% of peak; the power limit is 70 W of a 170 W
 * default"), and their fixes. False when none is set. */
bool dl_power_explain_gpu(const dl_rule_input *in, dl_finding *x, const dl_nvml_gpu *g,
                          const char *measured);
/* The same for the CPU: a frequency governor that holds it low. */
bool dl_power_explain_cpu(const dl_rule_input *in, dl_finding *x, const char *measured);

#endif
