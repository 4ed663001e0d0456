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

/* Another process holding most of a GPU's memory turns the next allocation into an
 * out-of-memory error that looks like the user's own. */
void dl_rule_gpu_memory_held_by_other_process(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    dl_finding *x = NULL;
    size_t i, j;
    for (i = 0; f->nvml.gpus.known && i < f->nvml.gpus.count; i++) {
        const dl_nvml_gpu *g = &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, i);
        if (!g->memory_total_bytes.known || g->memory_total_bytes.value <= 0)
            continue;
        for (j = 0; g->processes.known && j < g->processes.count; j++) {
            const dl_gpu_process *p = &DL_LIST_AT(g->processes, dl_gpu_process, j);
            if (!p->used_memory_bytes.known ||
                p->used_memory_bytes.value * 2 < g->memory_total_bytes.value)
                continue;
            if (!x)
                x = dl_finding_add(out, "gpu_memory_held_by_other_process",
                                   DL_LAYER_TORCH_RUNTIME, DL_SEV_WARNING,
                                   "Another process holds most of a GPU's memory");
            dl_finding_evidence(x, g->name.value ? g->name.value : "gpu",
                                "process %lld holds %.1f of %.1f GiB", p->pid.value,
                                (double)p->used_memory_bytes.value / (1 << 30),
                                (double)g->memory_total_bytes.value / (1 << 30));
            dl_finding_fix(x, "kill %lld   # if it is not yours to stop, use another GPU "
                              "(dlenv run --gpu N)", p->pid.value);
        }
    }
}
