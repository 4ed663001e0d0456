#include "explain/visible_devices_note.h"

#include "base/str.h"

#include <string.h>

/* The writer's words that the variable set in the script changed nothing. */
static const char *const ignored[] = {
    "no effect", "any effect", "not work", "doesn't work", "does not take effect", "always use",
    "always select", "always runs on", "always on gpu 0", "is ignored", "consistently use",
    "losing efficacy", "没有用", "没用", "不起作用", "无效"};

/* The writer's words that it was set after torch, or a CUDA call, came first. */
static const char *const set_late[] = {
    "after torch import", "after import torch", "after importing torch",
    "after torch is imported", "after torch was imported", "before setting cuda_visible_devices",
    "before setting `cuda_visible_devices", "changed afterwards", "does not update after",
    "was already called"};

bool dl_text_visible_devices_set_late(const dl_paste *p)
{
    return dl_paste_find(p, 0, "cuda_visible_devices") >= 0 &&
           dl_paste_find_any(p, set_late, sizeof set_late / sizeof set_late[0]) >= 0;
}

/* The program set it (os.environ["CUDA_VISIBLE_DEVICES"] = ..., a launcher's env_set) and
 * says it was ignored, or says it was set after torch or a CUDA call came first. */
static bool set_in_code_ignored(const dl_paste *p)
{
    static const char *const set[] = {"os.environ[", "os['cuda_visible_devices']",
                                      "os[\"cuda_visible_devices\"]"};
    return dl_text_visible_devices_set_late(p) ||
           (dl_paste_find(p, 0, "cuda_visible_devices") >= 0 &&
            dl_paste_find_any(p, set, sizeof set / sizeof set[0]) >= 0 &&
            dl_paste_find_any(p, ignored, sizeof ignored / sizeof ignored[0]) >= 0);
}

/* torch's "found at least two devices, cuda:0 and cuda:1": a model spread over the GPUs
 * (device_map="auto", DataParallel) or a fixed cuda:N beside cuda:0; "cuda:0 and cpu" is
 * the program's own mix, with nothing to say about the GPUs. */
static bool two_gpus_mixed(const dl_paste *p)
{
    long i;
    for (i = dl_paste_find(p, 0, "found at least two devices, cuda:"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "found at least two devices, cuda:"))
        if (strstr(p->lines[i].lower, " and cuda:"))
            return true;
    return false;
}

/* The writer says nvidia-smi's GPU numbers are not the program's: nvidia-smi counts in PCI
 * bus order, CUDA fastest first unless CUDA_DEVICE_ORDER says otherwise. */
static bool device_numbers_differ(const dl_paste *p)
{
    static const char *const differ[] = {
        "cuda_device_order", "order of cuda devices", "device order", "gpu order",
        "order of the gpus", "order of gpus", "numbered differently", "different numbering",
        "not match the device number", "device number not matching", "device numbers do not match",
        "device numbers don't match", "device ids do not match", "device ids don't match",
        "index does not match", "indices do not match", "indexes do not match",
        "disagree with nvidia-smi", "disagrees with nvidia-smi", "order from nvidia-smi",
        "torch order", "not the fastest one"};
    return dl_paste_find(p, 0, "nvidia-smi") >= 0 &&
           dl_paste_find_any(p, differ, sizeof differ / sizeof differ[0]) >= 0;
}

void dl_explain_visible_devices_in_code(dl_explanation *e)
{
    if (device_numbers_differ(&e->paste))
        dl_strv_add_once(
            &e->notes,
            "nvidia-smi numbers the GPUs in PCI bus order, CUDA (and torch) fastest first, so on "
            "a machine with different GPUs cuda:0 can be nvidia-smi's GPU 1: set "
            "CUDA_DEVICE_ORDER=PCI_BUS_ID before the program starts (Windows cmd: set "
            "CUDA_DEVICE_ORDER=PCI_BUS_ID) and both count alike, CUDA_VISIBLE_DEVICES "
            "included; the install is fine");
    if (set_in_code_ignored(&e->paste))
        dl_strv_add_once(
            &e->notes,
            "CUDA_VISIBLE_DEVICES set inside the program works only before anything "
            "initialised CUDA: set after torch (or a library that imports it) touched CUDA, it "
            "is ignored. Set it before Python starts (CUDA_VISIBLE_DEVICES=1 python train.py; "
            "Windows cmd: set CUDA_VISIBLE_DEVICES=1; PowerShell: $env:CUDA_VISIBLE_DEVICES=\"1\"), "
            "or make os.environ[\"CUDA_VISIBLE_DEVICES\"] = \"1\" the first lines of the entry "
            "script, before any import that pulls in torch, or pick the GPU in code "
            "(torch.device(\"cuda:1\")); in Jupyter, restart the kernel after changing it; the "
            "install is fine (pytorch/pytorch#9158)");
    if (two_gpus_mixed(&e->paste))
        dl_strv_add_once(
            &e->notes,
            "the program puts parts of the model on two GPUs (device_map=\"auto\", "
            "DataParallel, or a fixed cuda:N beside cuda:0): to run on one GPU, make only that "
            "one visible before Python starts (CUDA_VISIBLE_DEVICES=0 python ...); the install "
            "is fine");
}
