/* Fix text shared by rules: the install command for an interpreter, distribution-aware
 * package commands. */
#ifndef DLENV_RULES_FIXES_H
#define DLENV_RULES_FIXES_H

#include "rules/rules.h"

#define DL_TORCH_INDEX "https://download.pytorch.org/whl/"

/* "<python> -m pip install --upgrade --force-reinstall torch torchvision torchaudio
 *  --index-url https://download.pytorch.org/whl/<variant>"; variant NULL picks the CUDA
 * variant that fits this machine's driver (dl_fix_cuda_variant). */
void dl_fix_install_torch(dl_finding *x, const dl_rule_input *in, const dl_python *py,
                          const char *variant);
/* The newest CUDA wheel variant ("cu126") whose CUDA the driver runs, from the knowledge
 * tables; NULL when the tables or the driver's CUDA version are unknown. Caller frees. */
char *dl_fix_cuda_variant(const dl_rule_input *in);
/* The driver's newest CUDA as NVML or the CUDA driver API says it (12040), or 0. */
long long dl_fix_driver_cuda(const dl_facts *f);
/* The distribution family for package commands: "ubuntu", "debian", "fedora", "arch", "other". */
const char *dl_fix_distro(const dl_facts *f);

#endif
