#include "rules/gpu_limits.h"

#include "base/str.h"

#include <string.h>

bool dl_gpu_arch_of(const dl_knowledge *know, const dl_cuda_device *d, dl_gpu_arch *out)
{
    memset(out, 0, sizeof *out);
    return know && d && d->compute_capability.value &&
           dl_gpu_arch_lookup(know, d->compute_capability.value, d->name.value, out);
}

dl_limit dl_limit_flops(const dl_cuda_device *d, const dl_gpu_arch *arch,
                        const dl_gpu_rate *rate, const char *what)
{
    dl_limit l = {0, NULL};
    if (!arch || !rate || !rate->known || !d || !d->sm_count.known || !d->clock_khz.known)
        return l;
    l.value = dl_gpu_peak_flops((int)d->sm_count.value, rate->flops_per_clk_sm,
                                (double)d->clock_khz.value) / 1e12;
    if (l.value > 0)
        l.what = dl_fmt("%lld SMs x %.0f %s FLOP/clock x %lld MHz%s", d->sm_count.value,
                        rate->flops_per_clk_sm, what, d->clock_khz.value / 1000,
                        arch->reduced && strcmp(what, "fp32") ? ", GeForce rate" : "");
    return l;
}

dl_limit dl_limit_gpu_memory(const dl_cuda_device *d)
{
    dl_limit l = {0, NULL};
    if (!d || !d->memory_clock_khz.known || !d->memory_bus_width_bits.known)
        return l;
    l.value = dl_gpu_mem_peak_gbps((double)d->memory_clock_khz.value,
                                   (int)d->memory_bus_width_bits.value);
    if (l.value > 0)
        l.what = dl_fmt("2 x %lld MHz x %lld bits", d->memory_clock_khz.value / 1000,
                        d->memory_bus_width_bits.value);
    return l;
}

/* The link as it trained while copying; its maximum when NVML did not say. */
dl_limit dl_limit_pcie(const dl_gpu_measure *m)
{
    dl_limit l = {0, NULL};
    long long gen = m->load_pcie_generation.known ? m->load_pcie_generation.value
                    : m->pcie_generation_max.known ? m->pcie_generation_max.value : 0;
    long long width = m->load_pcie_width.known ? m->load_pcie_width.value
                      : m->pcie_width_max.known ? m->pcie_width_max.value : 0;
    l.value = dl_pcie_peak_gbps((int)gen, (int)width);
    if (l.value > 0)
        l.what = dl_fmt("PCIe gen %lld x%lld%s", gen, width,
                        m->load_pcie_generation.known ? " under load" : "");
    return l;
}

const dl_gpu_rate *dl_gpu_matmul_rate(const dl_gpu_arch *arch, const char *dtype)
{
    if (!dtype)
        return NULL;
    if (!strcmp(dtype, "fp32"))
        return &arch->fp32;
    if (!strcmp(dtype, "tf32"))
        return &arch->tf32;
    if (!strcmp(dtype, "fp16"))
        return &arch->fp16;
    if (!strcmp(dtype, "bf16"))
        return &arch->bf16;
    return NULL;
}

double dl_limit_pct(const dl_limit *l, const dl_num *value)
{
    return l->value > 0 && value->known ? value->value / l->value * 100.0 : -1.0;
}
