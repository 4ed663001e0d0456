/* Hardware: is there a GPU CUDA can use at all. */
#include "facts/query.h"
#include "rules/fixes.h"
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
    x = dl_finding_add(out, "no_gpu", DL_SEV_INFO,
                       "No GPU on this machine: PyTorch runs on the CPU");
    dl_finding_evidence(x, "gpus", "no display or 3D controller on the PCI bus");
    if (f->os.virtualization.detected.known && f->os.virtualization.detected.value)
        dl_finding_evidence(x, "os.virtualization", "a %s virtual machine: a GPU must be passed "
                                                    "through to it (or a vGPU assigned)",
                            f->os.virtualization.hypervisor.value
                                ? f->os.virtualization.hypervisor.value : "");
    /* Information: a torch that runs on the CPU needs nothing, and a missing one is the
     * Python layer's finding, with its install command. */
}

void dl_rule_non_nvidia_gpu(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    const dl_pci_gpu *g = dl_q_first_pci_gpu(f, 0);
    dl_finding *x;
    if (!g || dl_q_has_nvidia_gpu(f) || gpu_through_wsl(f))
        return;
    x = dl_finding_add(out, "non_nvidia_gpu", DL_SEV_INFO,
                       "The GPU is not an NVIDIA GPU: CUDA cannot use it");
    dl_finding_evidence(x, "gpus[0]", "%s %s (vendor 0x%04llx)",
                        g->vendor_name.value ? g->vendor_name.value : "vendor",
                        g->device_name.value ? g->device_name.value : "",
                        g->vendor_id.known ? g->vendor_id.value : 0);
    if (dl_q_pci_gpus(f, DL_PCI_AMD))
        dl_fix_note(x, "AMD GPUs that ROCm supports, on Linux: the ROCm wheels (`dlenv plan "
                       "--for rocm`)");
    if (dl_q_pci_gpus(f, DL_PCI_INTEL))
        dl_fix_note(x, "Intel Arc and Data Center GPUs: the XPU wheels (`dlenv plan --for "
                       "xpu`)");
}
