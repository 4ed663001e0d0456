/* The GPU lines of the verify view: per CUDA device, dlenv's own kernels against the
 * limits the hardware sets (SMs x FLOPs per clock per SM for its architecture x clock;
 * memory clock x bus width; the PCIe link as trained under load), then torch's products
 * on the device against the tensor-core peak. The clock is the boost clock the device
 * reports: NVIDIA rates some parts' tensor peaks at a lower clock, so those read a few
 * percent low, never high. */
#include "render/verify_view.h"

#include "base/str.h"
#include "facts/query.h"
#include "know/gpu_arch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct gpu_ctx {
    dl_verify_view *v;
    char group[32];
    char *title;
    const dl_cuda_device *dev;   /* the driver probe's description; may be NULL */
    dl_gpu_arch arch;
    bool has_arch;
} gpu_ctx;

static const dl_cuda_device *cuda_device(const dl_facts *f, long long index)
{
    size_t i;
    for (i = 0; f->cuda_driver.devices.known && i < f->cuda_driver.devices.count; i++) {
        const dl_cuda_device *d = &DL_LIST_AT(f->cuda_driver.devices, dl_cuda_device, i);
        if (d->index.known && d->index.value == index)
            return d;
    }
    return NULL;
}

static void open_gpu(gpu_ctx *g, dl_verify_view *v, const dl_facts *f, const char *prefix,
                     long long index, const char *kind, const dl_knowledge *know)
{
    const dl_cuda_device *d = cuda_device(f, index);
    memset(g, 0, sizeof *g);
    g->v = v;
    g->dev = d;
    snprintf(g->group, sizeof g->group, "%s%lld", prefix, index);
    g->has_arch = d && d->compute_capability.value &&
                  dl_gpu_arch_lookup(know, d->compute_capability.value, d->name.value,
                                     &g->arch);
    g->title = dl_fmt("%s %lld: %s (compute capability %s, %lld SMs)%s", "GPU", index,
                      d && d->name.value ? d->name.value : "?",
                      d && d->compute_capability.value ? d->compute_capability.value : "?",
                      d && d->sm_count.known ? d->sm_count.value : 0, kind);
}

/* Sets the verdict from the share of the limit reached. */
static void judge(dl_verify_line *l, double min_pct)
{
    double pct = dl_verify_line_pct(l);
    if (pct >= 0 && pct < min_pct)
        l->verdict = DL_SEV_WARNING;
}

/* A peak in TFLOPS from a per-SM rate: SMs x rate x the device's clock. */
static void flops_limit(gpu_ctx *g, dl_verify_line *l, const dl_gpu_rate *r, const char *what)
{
    const dl_cuda_device *d = g->dev;
    if (!g->has_arch || !r->known || !d || !d->sm_count.known || !d->clock_khz.known)
        return;
    dl_verify_limit(l, dl_gpu_peak_flops((int)d->sm_count.value, r->flops_per_clk_sm,
                                         (double)d->clock_khz.value) / 1e12,
                    dl_fmt("%lld SMs x %.0f %s FLOP/clock x %lld MHz%s", d->sm_count.value,
                           r->flops_per_clk_sm, what, d->clock_khz.value / 1000,
                           g->arch.reduced && strcmp(what, "fp32") ? ", GeForce rate" : ""));
}

static dl_verify_line *num(gpu_ctx *g, const char *what, const char *key, const char *unit,
                           const dl_num *value)
{
    return dl_verify_add(g->v, g->group, g->title, what, key, unit, value);
}

static void memory_lines(gpu_ctx *g, const dl_gpu_measure *m)
{
    const dl_cuda_device *d = g->dev;
    double peak = 0;
    dl_verify_line *a, *b;
    a = num(g, "memory, copy kernel", "copy_kernel_gbps", "GB/s", &m->copy_kernel_gbps);
    b = num(g, "memory, cuMemcpyDtoD", "dtod_gbps", "GB/s", &m->dtod_gbps);
    if (d && d->memory_clock_khz.known && d->memory_bus_width_bits.known)
        peak = dl_gpu_mem_peak_gbps((double)d->memory_clock_khz.value,
                                    (int)d->memory_bus_width_bits.value);
    if (peak > 0) {
        char *what = dl_fmt("2 x %lld MHz x %lld bits", d->memory_clock_khz.value / 1000,
                            d->memory_bus_width_bits.value);
        dl_verify_limit(a, peak, dl_strdup(what));
        dl_verify_limit(b, peak, what);
    }
    judge(a, DL_VERIFY_GPU_MIN_PCT);
    judge(b, DL_VERIFY_GPU_MIN_PCT);
}

/* The link as it trained while copying; its maximum when NVML did not say. */
static void link_of(const dl_gpu_measure *m, long long *gen, long long *width)
{
    *gen = m->load_pcie_generation.known ? m->load_pcie_generation.value
                                         : m->pcie_generation_max.known
                                               ? m->pcie_generation_max.value : 0;
    *width = m->load_pcie_width.known ? m->load_pcie_width.value
                                      : m->pcie_width_max.known ? m->pcie_width_max.value : 0;
}

static void transfer_lines(gpu_ctx *g, const dl_gpu_measure *m)
{
    long long gen, width;
    double peak;
    dl_verify_line *l[4];
    int i;
    link_of(m, &gen, &width);
    peak = dl_pcie_peak_gbps((int)gen, (int)width);
    l[0] = num(g, "host to device, pinned", "h2d_pinned_gbps", "GB/s", &m->h2d_pinned_gbps);
    l[1] = num(g, "device to host, pinned", "d2h_pinned_gbps", "GB/s", &m->d2h_pinned_gbps);
    l[2] = num(g, "host to device, pageable", "h2d_pageable_gbps", "GB/s",
               &m->h2d_pageable_gbps);
    l[3] = num(g, "device to host, pageable", "d2h_pageable_gbps", "GB/s",
               &m->d2h_pageable_gbps);
    for (i = 0; i < 4; i++) {
        if (peak > 0)
            dl_verify_limit(l[i], peak, dl_fmt("PCIe gen %lld x%lld%s", gen, width,
                                               m->load_pcie_generation.known ? " under load"
                                                                             : ""));
        /* pageable copies go through a staging buffer: slower by design, so only shown */
        if (i < 2)
            judge(l[i], DL_VERIFY_GPU_MIN_PCT);
        else if (l[i]->known)
            l[i]->verdict = DL_SEV_OK;
    }
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
                         const dl_knowledge *know, const dl_gpu_measure *m)
{
    gpu_ctx g;
    dl_verify_line *l;
    open_gpu(&g, v, f, "gpu", m->index.known ? m->index.value : 0, ", dlenv's kernels", know);
    l = dl_verify_add_text(v, g.group, g.title, "kernel check", "check", &m->check);
    if (l->known && strcmp(l->text, "passed") != 0)
        l->verdict = DL_SEV_FAILURE;
    else if (!l->known && m->error.value)
        l->verdict = DL_SEV_FAILURE;   /* a launch that fails is a GPU that does not work */
    l = num(&g, "fp32 FMA throughput", "fp32_tflops", "TFLOPS", &m->fp32_tflops);
    flops_limit(&g, l, &g.arch.fp32, "fp32");
    judge(l, DL_VERIFY_GPU_MIN_PCT);
    clock_line(&g, m, fs);
    memory_lines(&g, m);
    transfer_lines(&g, m);
    allocation_line(&g, m);
    free(g.title);
}

static const dl_gpu_rate *tensor_rate(const dl_gpu_arch *a, const char *dtype)
{
    if (!strcmp(dtype, "fp32"))
        return &a->fp32;
    if (!strcmp(dtype, "tf32"))
        return &a->tf32;
    if (!strcmp(dtype, "fp16"))
        return &a->fp16;
    if (!strcmp(dtype, "bf16"))
        return &a->bf16;
    return NULL;
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

static void torch_gpu_lines(dl_verify_view *v, const dl_facts *f, const dl_knowledge *know)
{
    const dl_python *py = dl_q_main_python(f);
    const dl_list *l = py ? &py->runtime.gpu_matmul : NULL;
    size_t i;
    if (!l || (!l->known && !l->why))
        return;
    if (!l->known) {
        dl_num none = {0, 0, l->why};
        dl_verify_add(v, "torch_gpu", "torch on the GPU", "torch matmul", "matmul_tflops",
                      "TFLOPS", &none)->verdict = DL_SEV_WARNING;
        return;
    }
    for (i = 0; i < l->count; i++) {
        const dl_torch_gpu_matmul *mm = &DL_LIST_AT(*l, dl_torch_gpu_matmul, i);
        const char *dtype = mm->dtype.value ? mm->dtype.value : "?";
        gpu_ctx g;
        dl_verify_line *line;
        const dl_gpu_rate *r;
        open_gpu(&g, v, f, "torch_gpu", mm->device.known ? mm->device.value : 0,
                 ", torch's matmul", know);
        line = num(&g, matmul_key(dtype), matmul_key(dtype), "TFLOPS", &mm->tflops);
        line->what = !strcmp(dtype, "fp32") ? "fp32 matmul (TF32 off)"
                     : !strcmp(dtype, "tf32") ? "tf32 matmul"
                     : !strcmp(dtype, "fp16") ? "fp16 matmul" : "bf16 matmul";
        r = tensor_rate(&g.arch, dtype);
        if (r)
            flops_limit(&g, line, r, strcmp(dtype, "fp32") ? "tensor" : "fp32");
        judge(line, DL_VERIFY_MATMUL_MIN_PCT);
        if (mm->check.value && strcmp(mm->check.value, "passed") != 0) {
            line->verdict = DL_SEV_FAILURE;
            free(line->limit_what);
            line->limit_what = NULL;
            line->has_limit = false;
            free(line->why);
            line->known = false;
            line->why = dl_fmt("wrong result: %s", mm->check.value);
        }
        free(g.title);
    }
}

void dl_verify_view_gpu(dl_verify_view *v, const dl_facts *f, const dl_findings *fs,
                        const dl_knowledge *know)
{
    const dl_gpu_measure_facts *g = &f->gpu_measure;
    size_t i;
    if (g->devices.known && g->devices.count > 0) {
        for (i = 0; i < g->devices.count; i++)
            native_lines(v, f, fs, know, &DL_LIST_AT(g->devices, dl_gpu_measure, i));
    } else {
        dl_num none = {0, 0, NULL};
        none.why = g->detail.value ? g->detail.value
                   : dl_q_has_nvidia_gpu(f) ? (char *)"the GPU was not measured"
                                            : (char *)"no NVIDIA GPU on this machine";
        dl_verify_add(v, "gpu", "GPU", "GPU compute and bandwidth", "gpu", "", &none);
        if (g->status.value && (!strcmp(g->status.value, "failed") ||
                                !strcmp(g->status.value, "timed_out")))
            v->lines[v->count - 1].verdict = DL_SEV_FAILURE;
    }
    torch_gpu_lines(v, f, know);
}
