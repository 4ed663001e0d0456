/* torch at run time: it imported, it is a CUDA build, and still sees no GPU. */
#include "rules/query.h"
#include "rules/rules.h"

void dl_rule_no_gpu_visible(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    const dl_python *py = dl_q_main_python(f);
    dl_finding *x;
    if (!py || !dl_q_torch_imported(py) || !dl_q_has_nvidia_gpu(f) ||
        !py->runtime.cuda.value || dl_q_text_is(&py->runtime.cuda, "none") ||
        !py->runtime.cuda_available.known || py->runtime.cuda_available.value)
        return;
    x = dl_finding_add(out, "no_gpu_visible", DL_LAYER_TORCH_RUNTIME, DL_SEV_FAILURE,
                       "torch (a CUDA %s build) sees no GPU although one is there",
                       py->runtime.cuda.value);
    dl_finding_evidence(x, "pythons[0].runtime.cuda_available", "False");
    if (py->runtime.cuda_warning.value)
        dl_finding_evidence(x, "pythons[0].runtime.cuda_warning", "%s",
                            py->runtime.cuda_warning.value);
    dl_finding_fix(x, "# the layers below say why; if they are all fine, run "
                      "python -c \"import torch; torch.cuda.init()\" to see CUDA's own error");
}
