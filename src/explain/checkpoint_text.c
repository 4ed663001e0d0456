#include "explain/checkpoint_text.h"

#include "base/str.h"
#include "explain/text_cause.h"
#include "explain/text_marks.h"
#include "facts/query.h"

#include <string.h>

/* torch.load's message, in its newer form ("on a CUDA device but
 * torch.cuda.is_available() is False") or its older one ("on CUDA device 0 but
 * torch.cuda.device_count() is 0"): -1 when absent. */
static long deserialize_line(const dl_paste *p)
{
    long line = dl_paste_find(p, 0, "deserialize object on a cuda device");
    size_t i;
    if (line >= 0)
        return line;
    for (i = 0; i < p->count; i++)
        if (strstr(p->lines[i].lower, "deserialize object on cuda device") &&
            strstr(p->lines[i].lower, "device_count() is 0"))
            return (long)i;
    return -1;
}

bool dl_text_checkpoint_without_gpu_evidence(const dl_paste *p, const dl_facts *f)
{
    static const char *const nvidia[] = {"nvidia-smi", "driver version", "geforce", "rtx",
                                         "gtx", "quadro", "tesla", "cuda version", "+cu",
                                         "cuda used to build pytorch: 1", "my gpu", "i have a gpu",
                                         "i have gpu", "i have an nvidia",
                                         "have an nvidia", "nvidia gpu"};
    /* a CPU build named is what the signature reads: it stands */
    static const char *const cpu_build[] = {"cpu only version", "cpu-only version",
                                            "cpu version", "cpu only build", "cpu-only build",
                                            "cpu build", "+cpu", "cpuonly"};
    const char *cuda = dl_q_torch_cuda(f);
    return deserialize_line(p) >= 0 && !f->nvml.gpus.count && !f->nvml.driver_version.value &&
           !cuda && dl_paste_find_any(p, nvidia, sizeof nvidia / sizeof nvidia[0]) < 0 &&
           dl_paste_find_any(p, cpu_build, sizeof cpu_build / sizeof cpu_build[0]) < 0;
}

/* The writer says the machine has only a CPU ("i only have cpu", "no gpu", "cpu-only
 * laptop"): a line of theirs, not torch's message (its "If you are running on a CPU-only
 * machine" is advice, not a fact). */
static long cpu_only_machine_said(const dl_paste *p)
{
    static const char *const words[] = {"only have cpu", "only have a cpu", "only has cpu",
                                        "cpu only machine", "cpu-only machine",
                                        "cpu only laptop", "cpu-only laptop",
                                        "cpu only computer", "cpu-only computer",
                                        "no gpu", "don't have a gpu", "do not have a gpu",
                                        "don't have gpu", "without a gpu", "without gpu",
                                        "have no gpu"};
    size_t i, k;
    for (i = 0; i < p->count; i++) {
        const char *low = p->lines[i].lower;
        if (strstr(low, "deserialize") || strstr(low, "map_location"))
            continue;
        for (k = 0; k < sizeof words / sizeof words[0]; k++)
            if (strstr(low, words[k]))
                return (long)i;
    }
    return -1;
}

void dl_explain_checkpoint_where_cuda_unavailable(dl_explanation *e)
{
    static const dl_text_cause no_gpu = {
        "no_gpu",
        "A checkpoint saved on a GPU is loaded on a machine without one: torch has no CUDA "
        "device to put it on, and nothing is broken",
        "# load it onto the CPU where it is loaded: torch.load(path, map_location=\"cpu\")",
        {"cpu_only_build"},
        NULL};
    const dl_paste *p = &e->paste;
    long line = deserialize_line(p), said;
    if (dl_text_cause_read(e) || line < 0 ||
        !dl_text_checkpoint_without_gpu_evidence(p, &e->facts) ||
        dl_q_text_is(&e->facts.os.family, "macos"))
        return;
    if ((said = cpu_only_machine_said(p)) >= 0) {
        dl_text_cause_add(e, &no_gpu, line, said);
        return;
    }
    dl_strv_add(&e->alternatives, dl_strdup("no_gpu"));
    dl_strv_add(&e->alternatives, dl_strdup("cpu_only_build"));
    dl_strv_add(&e->ask, dl_strdup("whether the machine has an NVIDIA GPU (`nvidia-smi`) and "
                                   "`python -c \"import torch; print(torch.__version__, "
                                   "torch.version.cuda)\"`: without a GPU, load the checkpoint "
                                   "with torch.load(path, map_location=\"cpu\"); with one, "
                                   "torch is a CPU build"));
}
