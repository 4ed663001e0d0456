/* Plain words for the planner's GPUs and variants, shared by the text and JSON views. */
#include "render/plan_view.h"

#include "know/version.h"

#include <stdio.h>
#include <string.h>

void dl_plan_gpu_describe(const dl_plan_gpu *g, char *out, size_t n)
{
    if (g->vendor == DL_GPU_NVIDIA && g->cc_major && g->guessed[0])
        snprintf(out, n, "%s (sm_%u%u, read as %s: did you mean that?)", g->name, g->cc_major,
                 g->cc_minor, g->guessed);
    else if (g->vendor == DL_GPU_NVIDIA && g->cc_major)
        snprintf(out, n, "%s (sm_%u%u)", g->name, g->cc_major, g->cc_minor);
    else if (g->vendor == DL_GPU_NVIDIA)
        snprintf(out, n, "%s (compute capability unknown)", g->name);
    else if (g->target[0])
        snprintf(out, n, "%s (%s)", g->name, g->target);
    else
        snprintf(out, n, "%s", g->name);
}

void dl_plan_variant_describe(const char *variant, char *out, size_t n)
{
    dl_variant v = dl_torch_variant(variant);
    if (!strcmp(variant, "cpu"))
        snprintf(out, n, "CPU only");
    else if (!strcmp(variant, "macos"))
        snprintf(out, n, "macOS wheels (MPS on Apple silicon)");
    else if (!strcmp(variant, "xpu"))
        snprintf(out, n, "Intel XPU");
    else if (v.kind == DL_VARIANT_CUDA)
        snprintf(out, n, "CUDA %s", v.version);
    else if (v.kind == DL_VARIANT_ROCM)
        snprintf(out, n, "ROCm %s", v.version);
    else
        snprintf(out, n, "%s", variant);
}
