#include "explain/memory_text.h"

#include "base/str.h"
#include "explain/text_cause.h"
#include "parse/oom.h"


void dl_explain_oom_in_words(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "cuda_oom",
        "Genuine out of memory (the GPU's memory is too small for the run)",
        "# a smaller batch, model or image size, mixed precision; a launcher's "
        "low-memory options (--medvram, --lowvram)",
        {"gpu_memory_held_by_other_process"},
        "the whole error (torch's \"CUDA out of memory\" line gives "
        "the GPU's total, free and PyTorch's share) and `nvidia-smi`"};
    static const char *const gpu[] = {"vram", "gpu", "cuda", "gtx", "rtx", "graphics card",
                                      "video card"};
    static const char *const host[] = {"killed process", "exit code 137", "host memory",
                                       "system memory", "system ram", "cpu memory", "cpu ram",
                                       "wsl"};
    long line;
    if (e->findings.items.count || (line = dl_oom_word_line(&e->paste)) < 0 ||
        dl_paste_find_any(&e->paste, gpu, sizeof gpu / sizeof gpu[0]) < 0 ||
        dl_paste_find_any(&e->paste, host, sizeof host / sizeof host[0]) >= 0)
        return;
    dl_text_cause_add(e, &cause, line, -1);
}

void dl_explain_oom_share_candidates(dl_explanation *e)
{
    dl_oom oom;
    if (!dl_findings_has(&e->findings, "gpu_memory_held_by_other_process") ||
        !dl_oom_read(&e->paste, &oom) ||
        dl_oom_unexplained_bytes(&oom) >= oom.total_bytes / 2)
        return;
    dl_strv_add(&e->alternatives, dl_strdup("cuda_oom"));
}
