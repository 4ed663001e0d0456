/* The order matters: the check first (a GPU that computes wrong has no speed worth
 * reporting), the FMA peak while NVML watches the clocks, the memory, the host copies
 * while NVML watches the link, and the allocation search last, once every buffer of ours
 * is freed. The first failing call ends that device's run and is its error. */
#include "measure/gpu_measure.h"

#include "base/str.h"
#include "measure/gpu_compute.h"
#include "measure/gpu_memory.h"
#include "measure/gpu_transfer.h"
#include "probe/gpu/gather.h"

#include <stdlib.h>
#include <string.h>

bool dl_gpu_budget_for(const char *level, dl_gpu_budget *b)
{
    if (strcmp(level, "quick") == 0) {
        b->sample_ms = 5.0;
        b->samples = 3;
        b->copy_cap = (size_t)256 << 20;
        b->transfer_cap = (size_t)64 << 20;
    } else if (strcmp(level, "default") == 0) {
        b->sample_ms = 20.0;
        b->samples = 5;
        b->copy_cap = (size_t)512 << 20;
        b->transfer_cap = (size_t)256 << 20;
    } else if (strcmp(level, "full") == 0) {
        b->sample_ms = 50.0;
        b->samples = 9;
        b->copy_cap = (size_t)1 << 30;
        b->transfer_cap = (size_t)1 << 30;
    } else {
        return false;
    }
    return true;
}

static void set_bus_id(dl_gpu_session *s)
{
    int domain = 0, bus = 0, slot = 0;
    dl_cuda *c = s->cu;
    if (c->attribute(&domain, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, s->dev) == CUDA_SUCCESS &&
        c->attribute(&bus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, s->dev) == CUDA_SUCCESS &&
        c->attribute(&slot, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, s->dev) == CUDA_SUCCESS) {
        char *id = dl_fmt("%08x:%02x:%02x.0", (unsigned)domain, (unsigned)bus, (unsigned)slot);
        dl_text_set(&s->out->pci_bus_id, id);
        free(id);
    } else {
        dl_text_unknown(&s->out->pci_bus_id, "cuDeviceGetAttribute(PCI ids) failed");
    }
}

/* NVML's view of this GPU right now: the device whose bus id is ours. NULL when NVML does
 * not answer or does not list it; *why says which. */
static const dl_nvml_gpu *nvml_now(const dl_gpu_session *s, dl_nvml_facts *f, char **why)
{
    dl_probe_outcome po = {DL_PROBE_OK, NULL};
    size_t i;
    memset(f, 0, sizeof *f);
    dl_gather_nvml(f, &po);
    for (i = 0; f->gpus.known && s->out->pci_bus_id.value && i < f->gpus.count; i++) {
        const dl_nvml_gpu *g = &DL_LIST_AT(f->gpus, dl_nvml_gpu, i);
        if (g->pci_bus_id.value && dl_contains_ci(g->pci_bus_id.value, s->out->pci_bus_id.value) &&
            strlen(g->pci_bus_id.value) == strlen(s->out->pci_bus_id.value)) {
            free(po.detail);
            return g;
        }
    }
    *why = po.status != DL_PROBE_OK && po.detail
               ? dl_fmt("NVML did not answer: %s", po.detail)
               : dl_strdup("NVML does not list this GPU's bus id");
    free(po.detail);
    return NULL;
}

static void copy_int(const dl_int *from, dl_int *to)
{
    if (from->known)
        dl_int_set(to, from->value);
    else
        dl_int_unknown(to, "%s", from->why ? from->why : "NVML did not say");
}

/* While the FMA kernel runs: clocks, clock-event reasons, power. */
static void sample_clocks(dl_gpu_session *s, void *arg)
{
    dl_nvml_facts f;
    char *why = NULL;
    const dl_nvml_gpu *g = nvml_now(s, &f, &why);
    dl_gpu_measure *o = s->out;
    size_t i;
    (void)arg;
    if (g) {
        copy_int(&g->sm_clock_mhz, &o->load_sm_clock_mhz);
        copy_int(&g->sm_clock_max_mhz, &o->load_sm_clock_max_mhz);
        if (g->power_draw_watts.known)
            dl_num_set(&o->load_power_watts, g->power_draw_watts.value);
        if (g->throttle_reasons.known) {
            dl_list_known(&o->load_throttle_reasons);
            for (i = 0; i < g->throttle_reasons.count; i++)
                dl_textlist_add(&o->load_throttle_reasons,
                                DL_LIST_AT(g->throttle_reasons, char *, i));
        }
    } else {
        dl_int_unknown(&o->load_sm_clock_mhz, "%s", why);
    }
    free(why);
    dl_schema_free(&dl_nvml_schema, &f);
}

/* While host-to-device copies run: the PCIe link as trained under load. */
static void sample_link(dl_gpu_session *s, void *arg)
{
    dl_nvml_facts f;
    char *why = NULL;
    const dl_nvml_gpu *g = nvml_now(s, &f, &why);
    dl_gpu_measure *o = s->out;
    (void)arg;
    if (g) {
        copy_int(&g->pcie_generation, &o->load_pcie_generation);
        copy_int(&g->pcie_width, &o->load_pcie_width);
        copy_int(&g->pcie_generation_max, &o->pcie_generation_max);
        copy_int(&g->pcie_width_max, &o->pcie_width_max);
    } else {
        dl_int_unknown(&o->load_pcie_generation, "%s", why);
    }
    free(why);
    dl_schema_free(&dl_nvml_schema, &f);
}

/* What a failure left unmeasured is unknown for the failure's reason. */
static void num_failed(dl_num *v, const char *why)
{
    if (!v->known && !v->why)
        dl_num_unknown(v, "%s", why);
}

static void rest_failed(dl_gpu_measure *m, const char *why)
{
    if (!m->check.value && !m->check.why)
        dl_text_unknown(&m->check, "%s", why);
    num_failed(&m->fp32_tflops, why);
    num_failed(&m->copy_kernel_gbps, why);
    num_failed(&m->dtod_gbps, why);
    num_failed(&m->h2d_pinned_gbps, why);
    num_failed(&m->d2h_pinned_gbps, why);
    num_failed(&m->h2d_pageable_gbps, why);
    num_failed(&m->d2h_pageable_gbps, why);
    if (!m->max_alloc_bytes.known && !m->max_alloc_bytes.why)
        dl_int_unknown(&m->max_alloc_bytes, "%s", why);
}

static void measure_one(dl_cuda *cu, int ordinal, const dl_gpu_budget *b, dl_gpu_measure *m)
{
    dl_gpu_session s;
    bool ok;
    dl_int_set(&m->index, ordinal);
    ok = dl_gpu_session_open(&s, cu, ordinal, b, m);
    if (ok) {
        set_bus_id(&s);
        ok = dl_gpu_check_kernel(&s) && dl_gpu_fp32_peak(&s, sample_clocks, NULL) &&
             dl_gpu_memory_bandwidth(&s) && dl_gpu_host_transfers(&s, sample_link, NULL) &&
             dl_gpu_max_allocation(&s);
    }
    dl_gpu_session_close(&s);
    dl_text_set(&m->status, ok ? "measured" : "failed");
    if (!ok) {
        const char *why = cu->error ? cu->error : "a CUDA call failed";
        dl_text_set(&m->error, why);
        rest_failed(m, why);
    }
    dl_cuda_clear_error(cu);
}

void dl_measure_gpus(const dl_gpu_budget *b, dl_gpu_measure_facts *out)
{
    dl_cuda cu;
    char *error = NULL;
    int count = 0, i;
    if (!dl_cuda_load(&cu, &error)) {
        dl_text_set(&out->status, "failed");
        dl_text_set(&out->detail, error);
        free(error);
        return;
    }
    if (!dl_cuda_ok(&cu, cu.init(0), "cuInit") ||
        !dl_cuda_ok(&cu, cu.device_count(&count), "cuDeviceGetCount")) {
        dl_text_set(&out->status, "failed");
        dl_text_set(&out->detail, cu.error);
        dl_cuda_release(&cu);
        return;
    }
    dl_list_known(&out->devices);
    for (i = 0; i < count; i++) {
        dl_gpu_measure *m = dl_list_push(&out->devices, sizeof(dl_gpu_measure));
        measure_one(&cu, i, b, m);
    }
    dl_text_set(&out->status, count > 0 ? "measured" : "skipped");
    if (count == 0)
        dl_text_set(&out->detail, "the CUDA driver lists no device");
    dl_cuda_release(&cu);
}
