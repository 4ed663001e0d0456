/* Verify's judgements of what it measured on the GPUs (dlenv's own kernels, torch's
 * products), from the figures and the limits rules/gpu_limits.c works out. Quiet where
 * nothing was measured (the doctor's facts). Each figure a finding rests on is its
 * evidence, under the figure's fact path, so the verify view marks that figure's line. */
#include "base/str.h"
#include "facts/query.h"
#include "rules/fixes.h"
#include "rules/gpu_limits.h"
#include "rules/power_settings.h"
#include "rules/rules.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

void dl_rule_gpu_measure_failed(const dl_rule_input *in, dl_findings *out)
{
    const dl_gpu_measure_facts *g = &in->facts->gpu_measure;
    bool timed_out = dl_q_text_is(&g->status, "timed_out");
    dl_finding *x;
    if ((g->devices.known && g->devices.count > 0) ||
        !(timed_out || dl_q_text_is(&g->status, "failed")))
        return;
    x = dl_finding_add(out, "gpu_measure_failed", DL_SEV_FAILURE,
                       timed_out ? "dlenv's GPU measurement did not finish in time"
                                 : "dlenv's GPU measurement failed");
    dl_finding_evidence(x, "gpu_measure.status", "%s%s%s", g->status.value,
                        g->detail.value ? ": " : "", g->detail.value ? g->detail.value : "");
    dl_fix_note(x, "the CUDA driver hung or crashed under a plain kernel: `dlenv doctor` "
                   "checks the driver; a wedged driver needs a reboot");
}

void dl_rule_gpu_kernel_check_failed(const dl_rule_input *in, dl_findings *out)
{
    const dl_list *devices = &in->facts->gpu_measure.devices;
    dl_finding *x = NULL;
    size_t i;
    for (i = 0; devices->known && i < devices->count; i++) {
        const dl_gpu_measure *m = &DL_LIST_AT(*devices, dl_gpu_measure, i);
        const char *said = m->check.value ? m->check.value : m->error.value;
        char *key;
        if (!said || dl_q_text_is(&m->check, "passed"))
            continue;
        if (!x) {
            /* a launch that fails is a GPU that does not work */
            x = dl_finding_add(out, "gpu_kernel_check_failed", DL_SEV_FAILURE,
                               "dlenv's own kernel does not run correctly on a GPU");
            dl_fix_note(x, "`dlenv doctor` checks the driver; if it is fine, look at the GPU "
                           "itself: Xid errors in the kernel log, ECC errors");
            dl_finding_fix(x, "nvidia-smi -q -d ECC");
        }
        key = dl_fmt("gpu_measure.devices[%zu].check", i);
        dl_finding_evidence(x, key, "%s", said);
        free(key);
    }
}

/* Adds a figure under its share of the limit to the finding (made on the first). Returns
 * "measured 4.1 TFLOPS, 38% of peak" when it was under (caller frees), else NULL. */
static char *below(dl_findings *out, dl_finding **x, const char *id, const char *title,
                   const char *key, const dl_num *value, const char *unit, dl_limit *limit,
                   double min_pct)
{
    double pct = dl_limit_pct(limit, value);
    char *measured = NULL;
    if (pct >= 0 && pct < min_pct) {
        if (!*x)
            *x = dl_finding_add(out, id, DL_SEV_WARNING, "%s", title);
        dl_finding_evidence(*x, key, "%.1f of %.1f %s (%.0f%%; %s)", value->value,
                            limit->value, unit, pct, limit->what);
        measured = dl_fmt("measured %.1f %s, %.0f%% of peak", value->value, unit, pct);
    }
    free(limit->what);
    limit->what = NULL;
    return measured;
}

/* A speed setting of this GPU (power limit, clocks) that explains the figure, named with it
 * (rules/power_settings.c). */
static void explain(const dl_rule_input *in, dl_finding *x, const char *bus_id,
                    char **measured)
{
    if (*measured)
        dl_power_explain_gpu(in, x, dl_power_nvml_gpu(in->facts, bus_id), *measured);
    free(*measured);
    *measured = NULL;
}

static void device_below_peak(const dl_rule_input *in, size_t i, dl_findings *out,
                              dl_finding **x)
{
    static const char *const title = "A GPU runs below half of what its hardware allows";
    const dl_gpu_measure *m = &DL_LIST_AT(in->facts->gpu_measure.devices, dl_gpu_measure, i);
    const dl_cuda_device *d = dl_q_cuda_device(in->facts, m->index.known ? m->index.value : 0);
    static const struct {
        const char *key;
        size_t offset;
        int limit;   /* 0 flops, 1 memory, 2 PCIe */
    } figures[] = {
        {"fp32_tflops", offsetof(dl_gpu_measure, fp32_tflops), 0},
        {"copy_kernel_gbps", offsetof(dl_gpu_measure, copy_kernel_gbps), 1},
        {"dtod_gbps", offsetof(dl_gpu_measure, dtod_gbps), 1},
        {"h2d_pinned_gbps", offsetof(dl_gpu_measure, h2d_pinned_gbps), 2},
        {"d2h_pinned_gbps", offsetof(dl_gpu_measure, d2h_pinned_gbps), 2},
    };
    dl_gpu_arch arch;
    bool has_arch = dl_gpu_arch_of(in->know, d, &arch);
    char *first = NULL;   /* the first figure under its limit, for the settings' evidence */
    size_t k;
    for (k = 0; k < sizeof figures / sizeof figures[0]; k++) {
        const dl_num *v = (const dl_num *)(const void *)((const char *)m + figures[k].offset);
        dl_limit l = figures[k].limit == 0
                         ? dl_limit_flops(d, has_arch ? &arch : NULL, &arch.fp32, "fp32")
                     : figures[k].limit == 1 ? dl_limit_gpu_memory(d)
                                             : dl_limit_pcie(m);
        char *key = dl_fmt("gpu_measure.devices[%zu].%s", i, figures[k].key);
        char *measured = below(out, x, "gpu_below_peak", title, key, v,
                               figures[k].limit ? "GB/s" : "TFLOPS", &l, DL_VERIFY_GPU_MIN_PCT);
        /* Power and clocks slow the kernels, not the PCIe copies. */
        if (measured && !first && figures[k].limit != 2)
            first = measured;
        else
            free(measured);
        free(key);
    }
    explain(in, *x, m->pci_bus_id.value ? m->pci_bus_id.value : d ? d->pci_bus_id.value : NULL,
            &first);
}

/* dlenv's kernels: the FMA rate, device memory and pinned copies against their limits
 * (pageable copies go through a staging buffer: slower by design, so only shown). */
void dl_rule_gpu_below_peak(const dl_rule_input *in, dl_findings *out)
{
    const dl_list *devices = &in->facts->gpu_measure.devices;
    dl_finding *x = NULL;
    size_t i;
    for (i = 0; devices->known && i < devices->count; i++)
        device_below_peak(in, i, out, &x);
    if (x)
        dl_fix_note(x, "look at what holds the GPU back: its clocks and power limit "
                       "(nvidia-smi -q -d PERFORMANCE), its PCIe slot for the copies, other "
                       "processes on it");
}

static const dl_list *gpu_products(const dl_facts *f)
{
    const dl_python *py = dl_q_main_python(f);
    return py ? &py->runtime.gpu_matmul : NULL;
}

void dl_rule_gpu_matmul_not_measured(const dl_rule_input *in, dl_findings *out)
{
    const dl_list *l = gpu_products(in->facts);
    dl_finding *x;
    if (!l || l->known || !l->why)
        return;
    x = dl_finding_add(out, "gpu_matmul_not_measured", DL_SEV_WARNING,
                       "torch's matrix products on the GPU could not be measured");
    dl_finding_evidence(x, "pythons[0].runtime.gpu_matmul", "%s", l->why);
}

void dl_rule_gpu_matmul_wrong_result(const dl_rule_input *in, dl_findings *out)
{
    const dl_list *l = gpu_products(in->facts);
    dl_finding *x = NULL;
    size_t i;
    for (i = 0; l && l->known && i < l->count; i++) {
        const dl_torch_gpu_matmul *mm = &DL_LIST_AT(*l, dl_torch_gpu_matmul, i);
        char *key;
        if (!mm->check.value || dl_q_text_is(&mm->check, "passed"))
            continue;
        if (!x) {
            x = dl_finding_add(out, "gpu_matmul_wrong_result", DL_SEV_FAILURE,
                               "torch's matrix product on the GPU gives wrong results");
            dl_fix_note(x, "if dlenv's own kernel check passed (dlenv verify), the fault is "
                           "in torch's CUDA libraries (reinstall torch), else in the GPU");
        }
        key = dl_fmt("pythons[0].runtime.gpu_matmul[%zu].check", i);
        dl_finding_evidence(x, key, "%s: %s", dl_text_or(&mm->dtype, "?"), mm->check.value);
        free(key);
    }
}

void dl_rule_gpu_matmul_slow(const dl_rule_input *in, dl_findings *out)
{
    const dl_list *l = gpu_products(in->facts);
    dl_finding *x = NULL;
    size_t i;
    for (i = 0; l && l->known && i < l->count; i++) {
        const dl_torch_gpu_matmul *mm = &DL_LIST_AT(*l, dl_torch_gpu_matmul, i);
        const dl_cuda_device *d =
            dl_q_cuda_device(in->facts, mm->device.known ? mm->device.value : 0);
        dl_gpu_arch arch;
        bool has_arch = dl_gpu_arch_of(in->know, d, &arch);
        const dl_gpu_rate *r = dl_gpu_matmul_rate(&arch, mm->dtype.value);
        dl_limit lim;
        char *key, *measured;
        if (mm->check.value && !dl_q_text_is(&mm->check, "passed"))
            continue;   /* gpu_matmul_wrong_result: its speed does not matter */
        lim = dl_limit_flops(d, has_arch ? &arch : NULL, r,
                             dl_q_text_is(&mm->dtype, "fp32") ? "fp32" : "tensor");
        key = dl_fmt("pythons[0].runtime.gpu_matmul[%zu].tflops", i);
        measured = below(out, &x, "gpu_matmul_slow",
                         "torch's matrix product on the GPU runs under a quarter of the GPU's "
                         "peak", key, &mm->tflops, "TFLOPS", &lim, DL_VERIFY_MATMUL_MIN_PCT);
        explain(in, x, d ? d->pci_bus_id.value : NULL, &measured);
        free(key);
    }
    if (x)
        dl_fix_note(x, "compare with dlenv's own kernels (dlenv verify): if they reach their "
                       "limits, torch's build or its CUDA libraries are the slow part");
}
