/* Hardware: is there a GPU CUDA can use at all. */
#include "rules/fixes.h"
#include "rules/query.h"
#include "rules/rules.h"

#include <string.h>

/* WSL shows no NVIDIA device on its PCI bus: the GPU comes through /dev/dxg. */
static bool gpu_through_wsl(const dl_facts *f)
{
    return dl_q_is_wsl(f) && f->os.wsl.dev_dxg.known && f->os.wsl.dev_dxg.value;
}

void dl_rule_no_gpu(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    dl_finding *x;
    if (!f->gpus.known || dl_q_pci_gpus(f, 0) > 0 || gpu_through_wsl(f) ||
        dl_q_has_nvidia_gpu(f))
        return;
    x = dl_finding_add(out, "no_gpu", DL_LAYER_HARDWARE, DL_SEV_INFO,
                       "No GPU on this machine: PyTorch runs on the CPU");
    dl_finding_evidence(x, "gpus", "no display or 3D controller on the PCI bus");
    dl_fix_install_torch(x, in, dl_q_main_python(f), "cpu");
}

void dl_rule_non_nvidia_gpu(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    const dl_pci_gpu *g = dl_q_first_pci_gpu(f, 0);
    dl_finding *x;
    if (!g || dl_q_has_nvidia_gpu(f) || gpu_through_wsl(f))
        return;
    x = dl_finding_add(out, "non_nvidia_gpu", DL_LAYER_HARDWARE, DL_SEV_INFO,
                       "The GPU is not an NVIDIA GPU: CUDA cannot use it");
    dl_finding_evidence(x, "gpus[0]", "%s %s (vendor 0x%04llx)",
                        g->vendor_name.value ? g->vendor_name.value : "vendor",
                        g->device_name.value ? g->device_name.value : "",
                        g->vendor_id.known ? g->vendor_id.value : 0);
    if (dl_q_pci_gpus(f, DL_PCI_AMD))
        dl_finding_fix(x, "# AMD GPUs supported by ROCm on Linux: the ROCm wheels "
                          "(https://pytorch.org/get-started/locally/, Compute Platform ROCm)");
    if (dl_q_pci_gpus(f, DL_PCI_INTEL))
        dl_finding_fix(x, "# Intel Arc / Data Center GPUs: the XPU wheels "
                          "(--index-url https://download.pytorch.org/whl/xpu)");
    dl_fix_install_torch(x, in, dl_q_main_python(f), "cpu");
}
