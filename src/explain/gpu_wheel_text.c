#include "explain/gpu_wheel_text.h"

#include "base/str.h"
#include "explain/build_choice.h"
#include "explain/quote.h"
#include "explain/text_cause.h"
#include "explain/text_marks.h"
#include "facts/query.h"
#include "know/gpu_target.h"
#include "know/version.h"
#include "plan/gpu_names.h"
#include "rules/fixes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* torch's own start-up warning gives the range its build covers: that beats every table
 * (dl_explain_capability_outside_torch_range reads it). */
static bool torch_states_range(const dl_paste *p)
{
    return dl_paste_find(p, 0, "minimum and maximum cuda capability supported") >= 0;
}

void dl_explain_gpu_below_every_wheel(const dl_knowledge *k, dl_explanation *e)
{
    const dl_nvml_gpu *g = e->facts.nvml.gpus.count
                               ? &DL_LIST_AT(e->facts.nvml.gpus, dl_nvml_gpu, 0) : NULL;
    dl_finding *x;
    size_t i;
    /* "torch sees no GPU" (no_gpu_visible) is the symptom this cause explains */
    if ((e->findings.items.count &&
         !(e->findings.items.count == 1 && dl_findings_has(&e->findings, "no_gpu_visible"))) ||
        !g || !g->name.value || torch_states_range(&e->paste) ||
        dl_gpu_vendor_of_name(g->name.value) != DL_GPU_NVIDIA || !dl_text_wants_cuda(&e->paste) ||
        !dl_gpu_below_every_wheel(k, &e->facts, &e->gpu))
        return;
    x = dl_finding_add(&e->findings, "gpu_arch_dropped", DL_SEV_FAILURE,
                       "%s (sm_%u%s) is older than every architecture in the torch wheels "
                       "%s",
                       g->name.value, e->gpu.hi, e->gpu.lo != e->gpu.hi ? " at most" : "",
                       e->gpu.hi < 20 ? "of any release (CUDA 7 and later build no code for "
                                        "capability 1.x)"
                                      : "dlenv knows (1.12 onward)");
    for (i = 0; i < e->where.n; i++)
        if (strstr(e->where.where[i].fact, "gpus[0]"))
            dl_quote_line(x, &e->paste, e->where.where[i].line);
    dl_finding_fix(x, "# an older torch that still has kernels for it (built from source, or "
                      "a release from before the architecture was dropped), or a newer GPU");
}

/* A CUDA error said in words, without the message ("crashes with CUDA error on RTX 5070
 * Ti", "CUDA errors since the new card"): on a GPU only the newest wheels know, the error a
 * torch without its kernels raises at the first kernel. */
static bool cuda_error_in_words(const dl_paste *p)
{
    static const char *const words[] = {"cuda error", "cuda_error", "cuda crash",
                                        "cuda kernel error"};
    return dl_paste_find_any(p, words, sizeof words / sizeof words[0]) >= 0;
}

/* torch and the new card said not to work together, or a nightly build asked for to run it
 * ("pytorch has trouble working with the new RTX 5090", "a nightly build compatible with
 * RTX 5090s"): on a GPU only the newest wheels know, what a torch without its kernels does.
 * A driver talked of is another candidate (an app's "try updating your Nvidia drivers"),
 * which these words cannot set aside. */
static bool support_in_words(const dl_paste *p)
{
    static const char *const words[] = {"nightly", "not compatible", "incompatible",
                                        "trouble working with", "does not support",
                                        "doesn't support", "not supported"};
    return dl_paste_find(p, 0, "driver") < 0 &&
           dl_paste_find_any(p, words, sizeof words / sizeof words[0]) >= 0;
}

/* The GPU said to be unusable in words ("unable to use the RTX 5080", "can't use my
 * 5090", "does not work with the new card"): on a GPU newer than the torch, what a torch
 * without its kernels does. A driver talked of is another cause of the same words, which
 * these words cannot set aside. */
static bool unusable_in_words(const dl_paste *p)
{
    static const char *const words[] = {"unable to use", "can't use", "cannot use",
                                        "can not use", "not working", "doesn't work",
                                        "does not work", "won't work"};
    return dl_paste_find(p, 0, "driver") < 0 &&
           dl_paste_find_any(p, words, sizeof words / sizeof words[0]) >= 0;
}

/* CUDA errors whose cause is elsewhere than missing kernels: a handle shared between
 * processes (CUDA IPC, which WSL 2 does not offer) is refused whatever the wheel holds; a
 * library that does not load (nvrtc's builtins) fails before any kernel runs. */
static bool error_not_of_kernels(const dl_paste *p)
{
    static const char *const errors[] = {"invalid resource handle", "cuda ipc", "ipc handle",
                                         "cudaipc", "cannot open shared object file",
                                         "failed to open lib", "nvrtc: error"};
    return dl_paste_find_any(p, errors, sizeof errors / sizeof errors[0]) >= 0;
}

/* The first CUDA call said to take minutes ("x = torch.zeros(...).cuda()" and "all of them
 * take more than 400s"): a torch without machine code for the GPU has the driver compile
 * its PTX for it at the first call (pytorch/pytorch#45822, an RTX 3090 under torch 1.4). */
static bool first_call_slow_in_words(const dl_paste *p)
{
    static const char *const slow[] = {"minutes", "more than 100s", "more than 200s",
                                       "more than 300s", "more than 400s", "more than 500s",
                                       "take forever", "takes forever", "much slower"};
    return (dl_text_cuda_call_line(p) >= 0 || dl_paste_find(p, 0, "cuda tensor") >= 0) &&
           dl_paste_find_any(p, slow, sizeof slow / sizeof slow[0]) >= 0;
}

/* The text says the GPU fails: an error shown or said, the card said not to work, or its
 * first CUDA call said to take minutes. */
static bool gpu_fails(const dl_paste *p)
{
    return !error_not_of_kernels(p) &&
           (dl_text_shows_error(p) || cuda_error_in_words(p) || support_in_words(p) ||
            unusable_in_words(p) || first_call_slow_in_words(p));
}

/* The text's first GPU, when it is a named NVIDIA one, nothing was found, and no torch
 * of an interpreter was read (its version or packages): the readings below judge the GPU
 * against the wheels alone. NULL otherwise. */
static const dl_nvml_gpu *named_nvidia_gpu_only(const dl_explanation *e)
{
    const dl_facts *f = &e->facts;
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    const dl_nvml_gpu *g = f->nvml.gpus.count ? &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, 0) : NULL;
    if (dl_text_cause_read(e) || !g || !g->name.value ||
        dl_gpu_vendor_of_name(g->name.value) != DL_GPU_NVIDIA ||
        (py && (py->runtime.version.value || py->site_packages.count)))
        return NULL;
    return g;
}

void dl_explain_gpu_newer_than_most_wheels(const dl_knowledge *k, dl_explanation *e)
{
    const dl_facts *f = &e->facts;
    const dl_nvml_gpu *g = named_nvidia_gpu_only(e);
    dl_finding *x;
    size_t i;
    if (!g || torch_states_range(&e->paste) || !gpu_fails(&e->paste) ||
        !dl_gpu_newer_than_most_wheels(k, f, &e->gpu))
        return;
    x = dl_finding_add(&e->findings, "arch_not_in_wheel", DL_SEV_FAILURE,
                       "%s (sm_%u) has kernels only in the newest torch wheels; a torch "
                       "installed without asking for one lacks them",
                       g->name.value, e->gpu.lo);
    for (i = 0; i < e->where.n; i++)
        if (strstr(e->where.where[i].fact, "gpus[0]"))
            dl_quote_line(x, &e->paste, e->where.where[i].line);
    dl_finding_fix(x, "# a wheel whose list covers the GPU (dlenv plan --gpu \"%s\" prints "
                      "the command)", g->name.value);
    dl_strv_add(&e->ask, dl_strdup("`python -m torch.utils.collect_env` (torch's version and "
                                   "build) and the whole error, from the first line of the "
                                   "traceback"));
}

void dl_explain_gpu_newer_than_text_torch(const dl_knowledge *k, dl_explanation *e)
{
    const dl_facts *f = &e->facts;
    const dl_nvml_gpu *g = f->nvml.gpus.count ? &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, 0) : NULL;
    dl_finding *x;
    size_t i;
    if (dl_text_cause_read(e) || !g || !g->name.value ||
        dl_gpu_vendor_of_name(g->name.value) != DL_GPU_NVIDIA || torch_states_range(&e->paste) ||
        !gpu_fails(&e->paste) || !dl_gpu_above_every_wheel_of_torch(k, f, &e->gpu))
        return;
    x = dl_finding_add(&e->findings, "arch_not_in_wheel", DL_SEV_FAILURE,
                       "%s (sm_%u) is newer than every wheel of the text's torch release: "
                       "none of them has kernels for it",
                       g->name.value, e->gpu.lo);
    for (i = 0; i < e->where.n; i++)
        if (strstr(e->where.where[i].fact, "gpus[0]") ||
            strstr(e->where.where[i].fact, "runtime.version") ||
            strstr(e->where.where[i].fact, "torches[0].version"))
            dl_quote_line(x, &e->paste, e->where.where[i].line);
    dl_finding_fix(x, "# a newer torch, from a wheel whose list covers the GPU (dlenv plan "
                      "--gpu \"%s\" prints the command)", g->name.value);
}

void dl_explain_cuda9_build_on_turing(dl_explanation *e)
{
    const dl_facts *f = &e->facts;
    const dl_nvml_gpu *g = f->nvml.gpus.count ? &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, 0) : NULL;
    const char *cuda = dl_q_torch_cuda(f);
    dl_finding *x;
    size_t i;
    if (dl_text_cause_read(e) || !g || !g->name.value || !cuda || strncmp(cuda, "9.", 2) ||
        e->gpu.lo != 75 || e->gpu.hi != 75 || !gpu_fails(&e->paste))
        return;
    x = dl_finding_add(&e->findings, "arch_not_in_wheel", DL_SEV_FAILURE,
                       "torch was built with CUDA %s, and %s is a Turing GPU (sm_75): CUDA 9's "
                       "cuBLAS and cuDNN predate Turing, which needs a build made with CUDA 10 "
                       "or later",
                       cuda, g->name.value);
    for (i = 0; i < e->where.n; i++)
        if (strstr(e->where.where[i].fact, "gpus[0].name") ||
            (strstr(e->where.where[i].fact, "runtime.cuda") &&
             !strstr(e->where.where[i].fact, "available")) ||
            strstr(e->where.where[i].fact, "torches[0].cuda"))
            dl_quote_line(x, &e->paste, e->where.where[i].line);
    dl_finding_fix(x, "# install a torch built with CUDA 10.0 or later (dlenv plan --gpu \"%s\" "
                      "prints the command for this GPU)", g->name.value);
}

/* torch (or its CUDA build) said not to support the card, on one line ("installed versions
 * of torch that did not support ... this card", "cu128 (which no longer supports Pascal)",
 * "cuda dropped support for these cards", "this torch version can not support old gpu like
 * gtx1070"): a feature not supported on the card ("bf16 is
 * not supported on the GTX 1080") names neither before the words. A driver talked of is
 * another cause of the same words (the 590 drivers dropped the same GPUs), which these
 * words cannot set aside. */
static bool dropped_support_in_words(const dl_paste *p)
{
    static const char *const words[] = {"no longer support", "dropped support",
                                        "did not support",   "didn't support",
                                        "does not support",  "doesn't support",
                                        "not supported",     "can not support",
                                        "cannot support",    "can't support"};
    static const char *const whose[] = {"torch", "cu12", "cu13", "cuda"};
    size_t i, w, o;
    if (dl_paste_find(p, 0, "driver") >= 0)
        return false;
    for (i = 0; i < p->count; i++)
        for (w = 0; w < sizeof words / sizeof words[0]; w++) {
            const char *at = strstr(p->lines[i].lower, words[w]);
            /* CUDA's own error "operation not supported" (cudaErrorNotSupported: an
             * allocator or a call the device or driver lacks) says nothing of torch's
             * support for the GPU */
            if (at && at - p->lines[i].lower >= 10 && !strncmp(at - 10, "operation ", 10))
                continue;
            for (o = 0; at && o < sizeof whose / sizeof whose[0]; o++) {
                const char *by = strstr(p->lines[i].lower, whose[o]);
                if (by && by < at)
                    return true;
            }
        }
    return false;
}

void dl_explain_gpu_dropped_by_newest_wheels(const dl_knowledge *k, dl_explanation *e)
{
    const dl_facts *f = &e->facts;
    const dl_nvml_gpu *g = named_nvidia_gpu_only(e);
    dl_finding *x;
    size_t i;
    /* with torch's version in the text the wheel table judges the GPU against that torch */
    if (!g || dl_q_listed_torch(f) || torch_states_range(&e->paste) ||
        !dropped_support_in_words(&e->paste) || !dl_gpu_dropped_by_newest_wheels(k, f, &e->gpu))
        return;
    x = dl_finding_add(&e->findings, "gpu_arch_dropped", DL_SEV_FAILURE,
                       "%s (sm_%u%s) is older than every architecture in the newest torch "
                       "wheels; older wheels (cu126 for Maxwell, Pascal and Volta) still "
                       "carry it",
                       g->name.value, e->gpu.hi, e->gpu.lo != e->gpu.hi ? " at most" : "");
    for (i = 0; i < e->where.n; i++)
        if (strstr(e->where.where[i].fact, "gpus[0]"))
            dl_quote_line(x, &e->paste, e->where.where[i].line);
    dl_finding_fix(x, "# a wheel that still covers it: dlenv plan --gpu \"%s\" prints the "
                      "command", g->name.value);
    dl_strv_add(&e->ask, dl_strdup("`python -m torch.utils.collect_env` (the torch and CUDA "
                                   "build the installer chose)"));
}

void dl_explain_amd_below_every_rocm_wheel(const dl_knowledge *k, dl_explanation *e)
{
    static const dl_text_cause cause = {
        "gpu_arch_dropped",
        "The AMD GPU's target is older than every ROCm build of torch (their oldest is gfx900): "
        "no ROCm wheel has code for it",
        "# run torch on the CPU (the CPU build: dlenv plan --for cpu), or a newer AMD GPU; a "
        "ROCm torch for this target exists only as a build from source "
        "(PYTORCH_ROCM_ARCH set to the GPU's target), and ROCm itself stopped supporting it",
        {NULL},
        NULL};
    static const char *const ids[] = {"arch_not_in_wheel"};
    const dl_nvml_gpu *g = e->facts.nvml.gpus.count
                               ? &DL_LIST_AT(e->facts.nvml.gpus, dl_nvml_gpu, 0) : NULL;
    char target[32];
    size_t i;
    dl_finding *x;
    if (!dl_findings_has_failure(&e->findings, "arch_not_in_wheel") || !g || !g->name.value ||
        dl_gpu_vendor_of_name(g->name.value) != DL_GPU_AMD ||
        !dl_gpu_target_of_name(k, "amd", g->name.value, target, sizeof target) ||
        !dl_gfx_below_every_rocm_wheel(k, target))
        return;
    dl_text_causes_step_back(e, ids, 1);
    x = dl_finding_add(&e->findings, cause.id, DL_SEV_FAILURE, "%s (%s): %s", g->name.value,
                       target, cause.title);
    for (i = 0; i < e->where.n; i++)
        if (strstr(e->where.where[i].fact, "gpus[0]"))
            dl_quote_line(x, &e->paste, e->where.where[i].line);
    dl_finding_fix(x, "%s", cause.fix);
}

/* "(7.0) - (12.0)" at or after `at`: the range torch's warning gives, as major*10+minor. */
static bool capability_range(const char *at, unsigned *lo, unsigned *hi)
{
    unsigned a, b, c, d;
    const char *open = at ? strchr(at, '(') : NULL;
    if (!open || sscanf(open, "(%u.%u) - (%u.%u)", &a, &b, &c, &d) != 4 || b > 9 || d > 9)
        return false;
    *lo = a * 10 + b;
    *hi = c * 10 + d;
    return *lo <= *hi;
}

void dl_explain_device_line_arch_below_gpu(dl_explanation *e)
{
    const dl_paste *p = &e->paste;
    long i;
    for (i = dl_paste_find(p, 0, "arch=sm_"); i >= 0; i = dl_paste_find(p, (size_t)i + 1, "arch=sm_")) {
        const char *low = p->lines[i].lower, *cap = strstr(low, "capability=(");
        unsigned arch, cc_major, cc_minor;
        dl_finding *x;
        if (!cap || sscanf(strstr(low, "arch=sm_") + 8, "%u", &arch) != 1 ||
            sscanf(cap + 12, "%u, %u", &cc_major, &cc_minor) != 2 || cc_minor > 9 ||
            cc_major <= arch / 10 || dl_text_cause_read(e))
            continue;
        x = dl_finding_add(&e->findings, "arch_not_in_wheel", DL_SEV_FAILURE,
                           "The newest architecture this torch build has kernels for is sm_%u "
                           "(the Device line's arch), and the GPU is sm_%u%u: none of its "
                           "kernels run there",
                           arch, cc_major, cc_minor);
        dl_quote_line(x, p, i);
        dl_finding_fix(x, "# a torch whose CUDA build covers the GPU (for sm_120, RTX 50: "
                          "CUDA 12.8 or newer; dlenv plan --gpu sm_%u%u prints the command)",
                       cc_major, cc_minor);
        return;
    }
}

void dl_explain_capability_outside_torch_range(dl_explanation *e)
{
    const dl_paste *p = &e->paste;
    unsigned cc_major, cc_minor, cc, lo, hi;
    long gpu_line = dl_paste_find(p, 0, "which is of cuda capability ");
    long range_line = dl_paste_find(p, 0, "minimum and maximum cuda capability supported");
    const char *at, *range;
    char joined[512];
    dl_finding *x;
    if (dl_text_cause_read(e) || gpu_line < 0 || range_line < 0)
        return;
    at = strstr(p->lines[gpu_line].lower, "which is of cuda capability ") + 28;
    if (sscanf(at, "%u.%u", &cc_major, &cc_minor) != 2 || cc_minor > 9)
        return;
    /* the range is on the message's line or, where torch broke it, the next */
    range = strstr(p->lines[range_line].lower, "pytorch is");
    snprintf(joined, sizeof joined, "%s %s", range ? range : "",
             (size_t)range_line + 1 < p->count ? p->lines[range_line + 1].lower : "");
    if (!capability_range(joined, &lo, &hi))
        return;
    cc = cc_major * 10 + cc_minor;
    if (cc < lo) {
        x = dl_finding_add(&e->findings, "gpu_arch_dropped", DL_SEV_FAILURE,
                           "The GPU (sm_%u) is older than the oldest architecture this torch "
                           "is built for (sm_%u): torch says so at start, and its kernels do "
                           "not run there",
                           cc, lo);
        dl_finding_fix(x, "# a torch built for sm_%u: an older release or CUDA variant whose "
                          "list still has it (dlenv plan --gpu sm_%u prints the command), or "
                          "a newer GPU",
                       cc, cc);
    } else if (cc / 10 > hi / 10) {
        x = dl_finding_add(&e->findings, "arch_not_in_wheel", DL_SEV_FAILURE,
                           "The GPU (sm_%u) is newer than every architecture this torch is "
                           "built for (up to sm_%u): torch says so at start",
                           cc, hi);
        dl_finding_fix(x, "# a torch whose list covers sm_%u (dlenv plan --gpu sm_%u prints "
                          "the command)",
                       cc, cc);
    } else {
        return; /* within the range, or a newer minor of its newest major: binary compatible */
    }
    dl_quote_line(x, p, (size_t)gpu_line);
    if (range_line != gpu_line)
        dl_quote_line(x, p, (size_t)range_line);
}

/* A driver newer than any CUDA: the build is then chosen for the GPU alone. */
enum { ANY_DRIVER = 99000 };

/* A GPU some wheel still covers: the newest build with kernels for it (on the text's driver
 * where it shows one, else the driver first), named in place of the table's example; false
 * (the fix untouched) when no build dlenv knows has them. */
static bool newest_build_fix(const dl_knowledge *k, dl_explanation *e, dl_finding *x)
{
    const dl_table *t = dl_knowledge_at(k, DL_TABLE_torch_releases);
    const dl_facts *f = &e->facts;
    dl_plan_os os = dl_plan_os_parse(f->os.family.value);
    int driver = f->nvml.cuda_driver_version.known && f->nvml.cuda_driver_version.value > 0
                     ? (int)f->nvml.cuda_driver_version.value : ANY_DRIVER;
    char tag[16] = "", runs[16], needs[16];
    long row = dl_newest_build_for(k, &e->gpu, driver, os, NULL, tag, sizeof tag);
    bool driver_first = row < 0 && driver < ANY_DRIVER;
    if (driver_first)
        row = dl_newest_build_for(k, &e->gpu, ANY_DRIVER, os, NULL, tag, sizeof tag);
    if (row < 0)
        return false;
    dl_finding_fix_clear(x);
    if (driver_first) {
        dl_cuda_version_from_int(driver, runs, sizeof runs);
        dl_cuda_version_from_int(dl_variant_cuda(tag), needs, sizeof needs);
        dl_fix_note(x, "the driver runs CUDA up to %s, older than every build dlenv knows (1.12 "
                       "onward) with kernels for this GPU: update the driver to one that runs "
                       "CUDA %s, then torch %s's %s build; or keep the driver and an older "
                       "torch built for CUDA %s (pytorch.org's previous versions)",
                    runs, needs, dl_table_cell(t, (size_t)row, DL_COL_torch_releases_torch_version),
                    tag, runs);
    } else {
        dl_fix_note(x, "torch %s's %s build is the newest with kernels for this GPU (sm_%u%s)%s:",
                    dl_table_cell(t, (size_t)row, DL_COL_torch_releases_torch_version), tag,
                    e->gpu.hi, e->gpu.lo != e->gpu.hi ? " at most" : "",
                    driver < ANY_DRIVER ? " that runs on this driver" : "");
    }
    dl_fix_install_build(x, t, row, tag);
    return true;
}

void dl_explain_dropped_gpu_fix(const dl_knowledge *k, dl_explanation *e)
{
    dl_finding *x = dl_findings_get(&e->findings, "gpu_arch_dropped");
    if (!x || !dl_finding_fix_is_only(x, "e.g. cu126 for Pascal") || !e->gpu.hi)
        return;
    /* the wheels of the text's own torch may be older than the table (0.4's): a GPU no
     * build dlenv knows covers gets the answer of a GPU below every wheel */
    if (!dl_gpu_below_every_wheel(k, &e->facts, &e->gpu) && newest_build_fix(k, e, x))
        return;
    dl_finding_fix_clear(x);
    dl_finding_fix(x, "# no torch wheel dlenv knows (1.12 onward) has kernels for this GPU "
                      "(sm_%u%s): run torch on the CPU (dlenv plan --for cpu prints the "
                      "command), build torch from source with a CUDA that still compiles for "
                      "it, or use a newer GPU",
                   e->gpu.hi, e->gpu.lo != e->gpu.hi ? " at most" : "");
}

void dl_explain_wheel_example_fix(dl_explanation *e)
{
    const dl_facts *f = &e->facts;
    const dl_nvml_gpu *g = f->nvml.gpus.count ? &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, 0) : NULL;
    dl_finding *x = dl_findings_get(&e->findings, "arch_not_in_wheel");
    if (!x || !g || !g->name.value || !e->gpu.hi || e->gpu.lo != e->gpu.hi ||
        dl_gpu_vendor_of_name(g->name.value) != DL_GPU_NVIDIA ||
        !dl_finding_fix_is_only(x, "(e.g. cu128+ for sm_120)"))
        return;
    dl_finding_fix_clear(x);
    dl_finding_fix(x, "# a wheel whose list covers the GPU (sm_%u: dlenv plan --gpu \"%s\" prints "
                      "the command)",
                   e->gpu.hi, g->name.value);
}

/* The table's example capability ("8.6") in a rebuild's fix, where the text names one GPU:
 * its own capability, so that the build gets the kernels this GPU runs. */
void dl_explain_arch_list_fix(dl_explanation *e)
{
    static const char *const examples[] = {"TORCH_CUDA_ARCH_LIST=\"8.6\"",
                                           "TORCH_CUDA_ARCH_LIST=8.6"};
    char own[48];
    size_t i, j, k;
    if (!e->gpu.hi || e->gpu.lo != e->gpu.hi)
        return;
    for (i = 0; i < e->findings.items.count; i++) {
        dl_finding *x = &DL_LIST_AT(e->findings.items, dl_finding, i);
        for (j = 0; j < x->fix.count; j++) {
            char **line = &DL_LIST_AT(x->fix, char *, j);
            for (k = 0; k < sizeof examples / sizeof examples[0]; k++) {
                char *mended;
                if (!strstr(*line, examples[k]))
                    continue;
                snprintf(own, sizeof own, k ? "TORCH_CUDA_ARCH_LIST=%u.%u"
                                            : "TORCH_CUDA_ARCH_LIST=\"%u.%u\"",
                         e->gpu.hi / 10, e->gpu.hi % 10);
                if ((mended = dl_str_replace(*line, examples[k], own)) != NULL) {
                    free(*line);
                    *line = mended;
                }
            }
        }
    }
}

/* A driver too old for the torch's CUDA beside a GPU that torch has no kernels for: a newer
 * driver alone would not run it, so the driver's fix leads with the build that has kernels
 * for this GPU and runs on this driver (the command that follows it). */
void dl_explain_driver_fix_beside_dropped_gpu(dl_explanation *e)
{
    dl_finding *x = dl_findings_get(&e->findings, "driver_too_old");
    size_t j;
    if (!x || !dl_findings_has(&e->findings, "gpu_arch_dropped"))
        return;
    for (j = 0; j < x->fix.count; j++) {
        char **line = &DL_LIST_AT(x->fix, char *, j);
        if (strncmp(*line, "# update the driver to ", 23) != 0 || !strstr(*line, ", or:"))
            continue;
        free(*line);
        *line = dl_strdup("# a newer driver alone would not help: this torch has no kernels for "
                          "this GPU; this build has them and runs on the driver here:");
    }
}
