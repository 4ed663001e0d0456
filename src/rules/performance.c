/* Performance: it works, but slower than the hardware can. */
#include "base/str.h"
#include "facts/query.h"
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>

static const char *const slowdowns[] = {"hw_slowdown", "hw_thermal_slowdown",
                                        "sw_thermal_slowdown", "hw_power_brake_slowdown"};

/* Below this share of its maximum SM clock, a GPU at full load that NVML says is at its
 * power cap is held back (a power limit set low, a weak supply): a healthy card under an
 * FMA load stays within 10-25% of its boost clock. */
#define POWER_CAP_CLOCK_PCT 60.0

static dl_finding *throttled_finding(dl_findings *out, dl_finding *x)
{
    return x ? x : dl_finding_add(out, "gpu_throttled", DL_SEV_WARNING,
                                  "A GPU is held below its clocks by a thermal or power limit");
}

/* What NVML said while dlenv verify's FMA kernel kept the GPU busy. */
static dl_finding *throttled_under_load(const dl_facts *f, dl_findings *out, dl_finding *x)
{
    size_t i, j;
    for (i = 0; f->gpu_measure.devices.known && i < f->gpu_measure.devices.count; i++) {
        const dl_gpu_measure *m = &DL_LIST_AT(f->gpu_measure.devices, dl_gpu_measure, i);
        bool low = m->load_sm_clock_mhz.known && m->load_sm_clock_max_mhz.known &&
                   m->load_sm_clock_max_mhz.value > 0 &&
                   m->load_sm_clock_mhz.value * 100.0 <
                       POWER_CAP_CLOCK_PCT * (double)m->load_sm_clock_max_mhz.value;
        char *who = dl_fmt("gpu_measure.devices[%zu] (CUDA device %lld, under load)", i,
                           m->index.value);
        for (j = 0; j < sizeof slowdowns / sizeof slowdowns[0]; j++) {
            if (!dl_textlist_has(&m->load_throttle_reasons, slowdowns[j]))
                continue;
            x = throttled_finding(out, x);
            dl_finding_evidence(x, who, "%s at %lld of %lld MHz", slowdowns[j],
                                m->load_sm_clock_mhz.value, m->load_sm_clock_max_mhz.value);
        }
        if (low && dl_textlist_has(&m->load_throttle_reasons, "sw_power_cap")) {
            x = throttled_finding(out, x);
            dl_finding_evidence(x, who, "sw_power_cap at %lld of %lld MHz",
                                m->load_sm_clock_mhz.value, m->load_sm_clock_max_mhz.value);
        }
        free(who);
    }
    return x;
}

void dl_rule_gpu_throttled(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    dl_finding *x = NULL;
    size_t i, j;
    for (i = 0; f->nvml.gpus.known && i < f->nvml.gpus.count; i++) {
        const dl_nvml_gpu *g = &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, i);
        for (j = 0; j < sizeof slowdowns / sizeof slowdowns[0]; j++) {
            if (!dl_textlist_has(&g->throttle_reasons, slowdowns[j]))
                continue;
            x = throttled_finding(out, x);
            dl_finding_evidence(x, g->name.value ? g->name.value : "gpu", "%s at %lld of %lld MHz",
                                slowdowns[j], g->sm_clock_mhz.value, g->sm_clock_max_mhz.value);
        }
    }
    x = throttled_under_load(f, out, x);
    if (x)
        dl_finding_fix(x, "# check cooling and airflow, the power cable and the power limit "
                          "(nvidia-smi -q -d PERFORMANCE,POWER,TEMPERATURE)");
}

/* A link trains down to save power at idle, so only a narrow link, or a slow one under
 * load, is a problem. */
static bool degraded(const dl_nvml_gpu *g)
{
    bool busy = g->performance_state.known && g->performance_state.value == 0 &&
                !dl_textlist_has(&g->throttle_reasons, "gpu_idle");
    bool narrow = g->pcie_width.known && g->pcie_width_max.known &&
                  g->pcie_width.value < g->pcie_width_max.value;
    bool slow = g->pcie_generation.known && g->pcie_generation_max.known &&
                g->pcie_generation.value < g->pcie_generation_max.value;
    return narrow || (busy && slow);
}

static dl_finding *link_finding(dl_findings *out, dl_finding *x)
{
    return x ? x : dl_finding_add(out, "pcie_link_degraded", DL_SEV_WARNING,
                                  "A GPU's PCIe link runs below its maximum");
}

/* The link as it trained while dlenv verify copied to the GPU: no idle power saving
 * excuses a slow one then. A GPU whose link NVML already reported is not repeated. */
static dl_finding *degraded_under_load(const dl_facts *f, dl_findings *out, dl_finding *x)
{
    size_t i;
    for (i = 0; f->gpu_measure.devices.known && i < f->gpu_measure.devices.count; i++) {
        const dl_gpu_measure *m = &DL_LIST_AT(f->gpu_measure.devices, dl_gpu_measure, i);
        bool slow = m->load_pcie_generation.known && m->pcie_generation_max.known &&
                    m->load_pcie_generation.value < m->pcie_generation_max.value;
        bool narrow = m->load_pcie_width.known && m->pcie_width_max.known &&
                      m->load_pcie_width.value < m->pcie_width_max.value;
        if (!slow && !narrow)
            continue;
        x = link_finding(out, x);
        dl_finding_evidence(x, m->pci_bus_id.value ? m->pci_bus_id.value : "gpu",
                            "gen %lld x%lld while copying, can do gen %lld x%lld",
                            m->load_pcie_generation.value, m->load_pcie_width.value,
                            m->pcie_generation_max.value, m->pcie_width_max.value);
    }
    return x;
}

void dl_rule_pcie_link_degraded(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    dl_finding *x = NULL;
    size_t i;
    for (i = 0; f->nvml.gpus.known && i < f->nvml.gpus.count; i++) {
        const dl_nvml_gpu *g = &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, i);
        if (!degraded(g))
            continue;
        x = link_finding(out, x);
        dl_finding_evidence(x, g->pci_bus_id.value ? g->pci_bus_id.value : "gpu",
                            "gen %lld x%lld, can do gen %lld x%lld", g->pcie_generation.value,
                            g->pcie_width.value, g->pcie_generation_max.value,
                            g->pcie_width_max.value);
    }
    if (!x)
        x = degraded_under_load(f, out, x);
    if (x)
        dl_finding_fix(x, "# reseat the card or use another slot; check the slot's lanes and the "
                          "PCIe setting in the firmware");
}

void dl_rule_hags_enabled(const dl_rule_input *in, dl_findings *out)
{
    const dl_windows_facts *w = &in->facts->os.windows;
    dl_finding *x;
    if (!dl_q_is_windows(in->facts) || !w->hags.known || !w->hags.value)
        return;
    x = dl_finding_add(out, "hags_enabled", DL_SEV_INFO,
                       "Hardware-accelerated GPU scheduling is on");
    dl_finding_evidence(x, "os.windows.hags", "HwSchMode = 2");
    dl_finding_fix(x, "# nothing to do unless you see stutter or CUDA errors under load: then "
                      "Settings > System > Display > Graphics > Change default graphics "
                      "settings > Hardware-accelerated GPU scheduling: Off, and restart");
}
