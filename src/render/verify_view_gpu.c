/* The GPU lines of the verify view: per CUDA device, dlenv's own kernels next to the
 * limits the hardware sets (rules/gpu_limits.c works them out), then torch's products on
 * the device against the tensor-core peak. Whether a figure is too slow or wrong is the
 * rules' word (rules/gpu_measured.c): a line is marked when a finding names its figure. */
#include "render/verify_view.h"

#include "base/str.h"
#include "facts/query.h"
#include "rules/gpu_limits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct gpu_ctx {
    dl_verify_view *v;
    const dl_findings *fs;
    char group[32];              /* "torch_gpu" and a long long: always fits */
    char *title;
    char fact[64];               /* the fact path of the figures: gpu_measure.devices[0]
                                    (a prefix and a size_t: always fits) */
    const dl_cuda_device *dev;   /* the driver probe's description; may be NULL */
    dl_gpu_arch arch;
    bool has_arch;
} gpu_ctx;

static void open_gpu(gpu_ctx *g, dl_verify_view *v, const dl_facts *f, const char *prefix,
                     long long index, const char *kind, const dl_knowledge *know)
{
    const dl_cuda_device *d = dl_q_cuda_device(f, index);
    memset(g, 0, sizeof *g);
    g->v = v;
    g->dev = d;
    snprintf(g->group, sizeof g->group, "%s%lld", prefix, index);
    g->has_arch = dl_gpu_arch_of(know, d, &g->arch);
    g->title = dl_fmt("%s %lld: %s (compute capability %s, %lld SMs)%s", "GPU", index,
                      d && d->name.value ? d->name.value : "?",
                      d && d->compute_capability.value ? d->compute_capability.value : "?",
                      d && d->sm_count.known ? d->sm_count.value : 0, kind);
}

/* Shows a limit on the line (the line takes its words). */
static void show_limit(dl_verify_line *l, dl_limit lim)
{
    dl_verify_limit(l, lim.value, lim.what);
}

/* The line's verdict from the findings that name its figure (fact.key). */
static void judged(gpu_ctx *g, dl_verify_line *l, const char *key)
{
    char *fact = dl_fmt("%s.%s", g->fact, key);
    dl_severity s = dl_verify_finding_on(g->fs, fact);
    if (s > l->verdict)
        l->verdict = s;
    free(fact);
}

static dl_verify_line *num(gpu_ctx *g, const char *what, const char *key, const char *unit,
                           const dl_num *value)
{
    dl_verify_line *l = dl_verify_add(g->v, g->group, g->title, what, key, unit, value);
    judged(g, l, key);
    return l;
}

static void memory_lines(gpu_ctx *g, const dl_gpu_measure *m)
{
    dl_limit peak = dl_limit_gpu_memory(g->dev);
    dl_verify_line *a, *b;
    a = num(g, "memory, copy kernel", "copy_kernel_gbps", "GB/s", &m->copy_kernel_gbps);
    b = num(g, "memory, cuMemcpyDtoD", "dtod_gbps", "GB/s", &m->dtod_gbps);
    if (peak.value > 0) {
        dl_verify_limit(a, peak.value, dl_strdup(peak.what));
        show_limit(b, peak);
    }
}

static void transfer_lines(gpu_ctx *g, const dl_gpu_measure *m)
{
    dl_limit peak = dl_limit_pcie(m);
    dl_verify_line *l[4];
    int i;
    l[0] = num(g, "host to device, pinned", "h2d_pinned_gbps", "GB/s", &m->h2d_pinned_gbps);
    l[1] = num(g, "device to host, pinned", "d2h_pinned_gbps", "GB/s", &m->d2h_pinned_gbps);
    l[2] = num(g, "host to device, pageable", "h2d_pageable_gbps", "GB/s",
               &m->h2d_pageable_gbps);
    l[3] = num(g, "device to host, pageable", "d2h_pageable_gbps", "GB/s",
               &m->d2h_pageable_gbps);
    for (i = 0; i < 4 && peak.value > 0; i++)
        dl_verify_limit(l[i], peak.value, dl_strdup(peak.what));
    free(peak.what);
}
static void allocation_line(gpu_ctx *g, const dl_gpu_measure *m)
{
    dl_num gib = {0, 0, NULL};
    dl_verify_line *l;
    gib.known = m->max_alloc_bytes.known;
    gib.value = (double)m->max_alloc_bytes.value / (1024.0 * 1024.0 * 1024.0);
    gib.why = m->max_alloc_bytes.why;
    l = num(g, "largest allocation", "max_alloc_gib", "GiB", &gib);
    if (m->memory_free_bytes.known)
        dl_verify_limit(l, (double)m->memory_free_bytes.value / (1024.0 * 1024.0 * 1024.0),
                        dl_strdup("free memory (cuMemGetInfo)"));
}

static void clock_line(gpu_ctx *g, const dl_gpu_measure *m, const dl_findings *fs)
{
    dl_num mhz = {0, 0, NULL};
    dl_verify_line *l;
    mhz.known = m->load_sm_clock_mhz.known;
    mhz.value = (double)m->load_sm_clock_mhz.value;
    mhz.why = m->load_sm_clock_mhz.why;
    l = num(g, "SM clock under load", "sm_clock_under_load_mhz", "MHz", &mhz);
    if (m->load_sm_clock_max_mhz.known)
        dl_verify_limit(l, (double)m->load_sm_clock_max_mhz.value, dl_strdup("maximum"));
    if (l->known && dl_verify_has_finding(fs, "gpu_throttled"))
        l->verdict = DL_SEV_WARNING;
}

static void native_lines(dl_verify_view *v, const dl_facts *f, const dl_findings *fs,
                         const dl_knowledge *know, size_t i)
{
    const dl_gpu_measure *m = &DL_LIST_AT(f->gpu_measure.devices, dl_gpu_measure, i);
    gpu_ctx g;
    dl_verify_line *l;
    open_gpu(&g, v, f, "gpu", m->index.known ? m->index.value : 0, ", dlenv's kernels", know);
    g.fs = fs;
    snprintf(g.fact, sizeof g.fact, "gpu_measure.devices[%zu]", i);
    l = dl_verify_add_text(v, g.group, g.title, "kernel check", "check", &m->check);
    judged(&g, l, "check");
    l = num(&g, "fp32 FMA throughput", "fp32_tflops", "TFLOPS", &m->fp32_tflops);
    show_limit(l, dl_limit_flops(g.dev, g.has_arch ? &g.arch : NULL, &g.arch.fp32, "fp32"));
    clock_line(&g, m, fs);
    memory_lines(&g, m);
    transfer_lines(&g, m);
    allocation_line(&g, m);
    free(g.title);
}

static const char *matmul_key(const char *dtype)
{
    static const char *const keys[][2] = {{"fp32", "matmul_fp32_tflops"},
                                          {"tf32", "matmul_tf32_tflops"},
                                          {"fp16", "matmul_fp16_tflops"},
                                          {"bf16", "matmul_bf16_tflops"}};
    size_t i;
    for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!strcmp(dtype, keys[i][0]))
            return keys[i][1];
    return "matmul_tflops";
}

static void torch_gpu_line(dl_verify_view *v, const dl_facts *f, const dl_findings *fs,
                           const dl_knowledge *know, size_t i)
{
    const dl_python *py = dl_q_main_python(f);
    const dl_torch_gpu_matmul *mm = &DL_LIST_AT(py->runtime.gpu_matmul, dl_torch_gpu_matmul, i);
    const char *dtype = mm->dtype.value ? mm->dtype.value : "?";
    gpu_ctx g;
    dl_verify_line *line;
    open_gpu(&g, v, f, "torch_gpu", mm->device.known ? mm->device.value : 0,
             ", torch's matmul", know);
    g.fs = fs;
    snprintf(g.fact, sizeof g.fact, "pythons[0].runtime.gpu_matmul[%zu]", i);
    line = num(&g, matmul_key(dtype), matmul_key(dtype), "TFLOPS", &mm->tflops);
    judged(&g, line, "tflops");
    line->what = !strcmp(dtype, "fp32") ? "fp32 matmul (TF32 off)"
                 : !strcmp(dtype, "tf32") ? "tf32 matmul"
                 : !strcmp(dtype, "fp16") ? "fp16 matmul" : "bf16 matmul";
    if (mm->check.value && strcmp(mm->check.value, "passed") != 0) {
        judged(&g, line, "check");
        free(line->why);
        line->known = false;
        line->why = dl_fmt("wrong result: %s", mm->check.value);
    } else {
        show_limit(line, dl_limit_flops(g.dev, g.has_arch ? &g.arch : NULL,
                                        dl_gpu_matmul_rate(&g.arch, dtype),
                                        strcmp(dtype, "fp32") ? "tensor" : "fp32"));
    }
    free(g.title);
}

static void torch_gpu_lines(dl_verify_view *v, const dl_facts *f, const dl_findings *fs,
                            const dl_knowledge *know)
{
    const dl_python *py = dl_q_main_python(f);
    const dl_list *l = py ? &py->runtime.gpu_matmul : NULL;
    size_t i;
    if (!l || (!l->known && !l->why))
        return;
    if (!l->known) {
        dl_num none = {0, 0, l->why};
        dl_verify_line *line = dl_verify_add(v, "torch_gpu", "torch on the GPU",
                                             "torch matmul", "matmul_tflops", "TFLOPS", &none);
        dl_severity s = dl_verify_finding_on(fs, "pythons[0].runtime.gpu_matmul");
        if (s > line->verdict)
            line->verdict = s;
        return;
    }
    for (i = 0; i < l->count; i++)
        torch_gpu_line(v, f, fs, know, i);
}

void dl_verify_view_gpu(dl_verify_view *v, const dl_facts *f, const dl_findings *fs,
                        const dl_knowledge *know)
{
    const dl_gpu_measure_facts *g = &f->gpu_measure;
    size_t i;
    if (g->devices.known && g->devices.count > 0) {
        for (i = 0; i < g->devices.count; i++)
            native_lines(v, f, fs, know, i);
    } else {
        dl_num none = {0, 0, NULL};
        dl_verify_line *l;
        dl_severity s = dl_verify_finding_on(fs, "gpu_measure.status");
        none.why = g->detail.value ? g->detail.value
                   : dl_q_has_nvidia_gpu(f) ? (char *)"the GPU was not measured"
                                            : (char *)"no NVIDIA GPU on this machine";
        l = dl_verify_add(v, "gpu", "GPU", "GPU compute and bandwidth", "gpu", "", &none);
        if (s > l->verdict)
            l->verdict = s;
    }
    torch_gpu_lines(v, f, fs, know);
}
