#include "parse/oom.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The size just before `after` ("23.65 GiB of which") in bytes; -1 when none. Both forms
 * of the message: "total capacity of 23.65 GiB of which 1.10 GiB is free ... 3.20 GiB is
 * allocated by PyTorch, and 512.00 MiB is reserved by PyTorch but unallocated" (2.1+) and
 * "(20.00 GiB total capacity; 1.50 GiB already allocated; 100.00 MiB free; 2.00 GiB
 * reserved in total by PyTorch)" (older). */
static double size_before(const char *low, const char *after)
{
    const char *at = strstr(low, after), *p;
    double scale;
    if (!at)
        return -1;
    p = at;
    while (p > low && p[-1] == ' ')
        p--;
    if (p - low >= 3 && !strncmp(p - 3, "gib", 3))
        scale = 1024.0 * 1024.0 * 1024.0;
    else if (p - low >= 3 && !strncmp(p - 3, "mib", 3))
        scale = 1024.0 * 1024.0;
    else if (p - low >= 3 && !strncmp(p - 3, "kib", 3))
        scale = 1024.0;
    else
        return -1;
    p -= 3;
    while (p > low && p[-1] == ' ')
        p--;
    while (p > low && ((p[-1] >= '0' && p[-1] <= '9') || p[-1] == '.'))
        p--;
    return strtod(p, NULL) * scale;
}

static double first_of(const char *low, const char *a, const char *b)
{
    double v = size_before(low, a);
    return v >= 0 ? v : size_before(low, b);
}

void dl_explain_oom(const dl_paste *p, dl_findings *out)
{
    long i = dl_paste_find(p, 0, "cuda out of memory");
    /* A paste that starts below torch's first line still has the numbers: "Tried to
     * allocate 2.00 GiB (GPU 0; 23.65 GiB total capacity; ...)". */
    if (i < 0 || !strstr(p->lines[i].lower, "total capacity"))
        i = dl_paste_find(p, 0, "total capacity") >= 0 ? dl_paste_find(p, 0, "total capacity") : i;
    const char *low;
    double total, free_b, reserved, other;
    dl_finding *x;
    char key[32];
    if (i < 0)
        return;
    low = p->lines[i].lower;
    total = first_of(low, " of which", " total capacity");
    free_b = first_of(low, " is free", " free;");
    reserved = first_of(low, " reserved in total by pytorch", " is allocated by pytorch");
    if (total <= 0 || free_b < 0 || reserved < 0)
        return;
    if (strstr(low, "reserved by pytorch but unallocated")) {
        double extra = size_before(low, " is reserved by pytorch but unallocated");
        if (extra > 0)
            reserved += extra;
    }
    other = total - free_b - reserved;
    if (other <= total / 2)
        return;
    x = dl_finding_add(out, "gpu_memory_held_by_other_process", DL_LAYER_TORCH_RUNTIME,
                       DL_SEV_FAILURE,
                       "Another process holds %.1f GiB of this GPU's %.1f GiB; PyTorch itself "
                       "holds %.1f GiB",
                       other / (1 << 30), total / (1 << 30), reserved / (1 << 30));
    snprintf(key, sizeof key, "L%zu", p->lines[i].number);
    dl_finding_evidence(x, key, "%s", p->lines[i].text);
    dl_finding_fix(x, "# find the process holding the memory with nvidia-smi; end it, or use "
                      "another GPU (CUDA_VISIBLE_DEVICES)");
    dl_finding_fix(x, "nvidia-smi");
}
