#include "explain/mac_text.h"

#include "explain/text_cause.h"
#include "explain/text_marks.h"
#include "facts/query.h"
#include "plan/gpu_names.h"

#include <string.h>

/* The line naming a GPU that is not Apple's: the text's first GPU when its vendor is
 * another's, else a vendor's GPU in words ("AMD GPU", "Radeon", "Intel Iris"); -1 when
 * none. Apple silicon's own GPU runs torch through MPS, these do not run CUDA on macOS. */
static long other_gpu_line(const dl_explanation *e)
{
    static const char *const named[] = {"radeon", "intel iris", "iris graphics", "iris pro",
                                        "intel uhd", "intel hd graphics", "amd gpu",
                                        "amd graphics", "amd card", "intel gpu", "nvidia gpu",
                                        "nvidia card", "geforce", "egpu"};
    const dl_nvml_gpu *g =
        e->facts.nvml.gpus.count ? &DL_LIST_AT(e->facts.nvml.gpus, dl_nvml_gpu, 0) : NULL;
    size_t j;
    if (g && g->name.value && dl_gpu_vendor_of_name(g->name.value) != DL_GPU_APPLE)
        for (j = 0; j < e->where.n; j++)
            if (!strcmp(e->where.where[j].fact, "nvml.gpus[0].name"))
                return (long)e->where.where[j].line;
    return dl_paste_find_any(&e->paste, named, sizeof named / sizeof named[0]);
}

void dl_explain_mac_other_gpu(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "no_cuda_on_macos",
        "A Mac asks about CUDA or its GPU: macOS has no CUDA (NVIDIA dropped it after "
        "CUDA 10.2), and torch's macOS builds use the GPU only through MPS",
        "# on macOS 12.3 or later torch.device(\"mps\") runs on Apple silicon and AMD "
        "GPUs; an Intel GPU has no torch backend there: run on the CPU",
        {"non_nvidia_gpu"},
        "`python -c \"import torch; print(torch.backends.mps.is_available())\"` and the "
        "macOS version (MPS needs 12.3)"};
    long gpu;
    if (e->findings.items.count || !dl_q_text_is(&e->facts.os.family, "macos") ||
        dl_text_shows_error(&e->paste) || dl_paste_find(&e->paste, 0, "mps") >= 0 ||
        !dl_text_wants_cuda(&e->paste) || (gpu = other_gpu_line(e)) < 0)
        return;
    dl_text_cause_add(e, &cause, gpu, -1);
}

/* The line where torch says it has no NCCL ("Distributed package doesn't have NCCL built
 * in"), else, when the text shows an error, where the code asks for it
 * (init_process_group("nccl"), "with backend nccl"); -1 when none. */
static long nccl_line(const dl_paste *p)
{
    static const char *const asks[] = {"init_process_group(\"nccl\"",
                                       "init_process_group('nccl'", "backend=\"nccl\"",
                                       "backend='nccl'", "with backend nccl"};
    long line = dl_paste_find(p, 0, "have nccl built in");
    if (line >= 0 || !dl_text_shows_error(p))
        return line;
    return dl_paste_find_any(p, asks, sizeof asks / sizeof asks[0]);
}

void dl_explain_mac_nccl(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "no_cuda_on_macos",
        "A Mac runs code that asks for NCCL: NCCL is NVIDIA's CUDA library, and macOS has "
        "neither CUDA nor an NCCL build of torch",
        "# use the gloo backend (or no distributed launch for one process), and run on "
        "torch.device(\"mps\") or the CPU where the code hard-codes CUDA",
        {NULL},
        NULL};
    long line;
    if (e->findings.items.count || !dl_q_text_is(&e->facts.os.family, "macos") ||
        (line = nccl_line(&e->paste)) < 0)
        return;
    dl_text_cause_add(e, &cause, line, -1);
}
