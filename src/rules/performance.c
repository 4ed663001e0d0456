/* Performance: it works, but slower than the hardware can. */
#include "rules/query.h"
#include "rules/rules.h"

#include <string.h>

static const char *const slowdowns[] = {"hw_slowdown", "hw_thermal_slowdown",
                                        "sw_thermal_slowdown", "hw_power_brake_slowdown"};

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
            if (!x)
                x = dl_finding_add(out, "gpu_throttled", DL_LAYER_PERFORMANCE, DL_SEV_WARNING,
                                   "A GPU is held below its clocks by a thermal or power limit");
            dl_finding_evidence(x, g->name.value ? g->name.value : "gpu", "%s at %lld of %lld MHz",
                                slowdowns[j], g->sm_clock_mhz.value, g->sm_clock_max_mhz.value);
        }
    }
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

void dl_rule_pcie_link_degraded(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    dl_finding *x = NULL;
    size_t i;
    for (i = 0; f->nvml.gpus.known && i < f->nvml.gpus.count; i++) {
        const dl_nvml_gpu *g = &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, i);
        if (!degraded(g))
            continue;
        if (!x)
            x = dl_finding_add(out, "pcie_link_degraded", DL_LAYER_PERFORMANCE, DL_SEV_WARNING,
                               "A GPU's PCIe link runs below its maximum");
        dl_finding_evidence(x, g->pci_bus_id.value ? g->pci_bus_id.value : "gpu",
                            "gen %lld x%lld, can do gen %lld x%lld", g->pcie_generation.value,
                            g->pcie_width.value, g->pcie_generation_max.value,
                            g->pcie_width_max.value);
    }
    if (x)
        dl_finding_fix(x, "# reseat the card or use another slot; check the slot's lanes and the "
                          "PCIe setting in the firmware");
}

void dl_rule_cpu_matmul_slow(const dl_rule_input *in, dl_findings *out)
{
    const dl_python *py = dl_q_main_python(in->facts);
    const dl_torch_install *t = dl_q_static_torch(py);
    dl_finding *x;
    if (!py || !dl_q_text_is(&py->runtime.blas, "generic"))
        return;
    x = dl_finding_add(out, "cpu_matmul_slow", DL_LAYER_PERFORMANCE, DL_SEV_WARNING,
                       "torch uses the generic reference BLAS: CPU matrix products run many "
                       "times slower than this CPU can");
    dl_finding_evidence(x, "pythons[0].runtime.blas", "generic");
    if (t && t->location.value && strncmp(t->location.value, "/usr/lib/python3/", 17) == 0)
        dl_finding_fix(x, "sudo apt install libopenblas0-pthread   (Debian's torch then uses "
                          "OpenBLAS through libblas.so.3)");
    else
        dl_finding_fix(x, "# install the official wheels, which bundle an optimised BLAS");
}

void dl_rule_hags_enabled(const dl_rule_input *in, dl_findings *out)
{
    const dl_windows_facts *w = &in->facts->os.windows;
    dl_finding *x;
    if (!dl_q_is_windows(in->facts) || !w->hags.known || !w->hags.value)
        return;
    x = dl_finding_add(out, "hags_enabled", DL_LAYER_PERFORMANCE, DL_SEV_INFO,
                       "Hardware-accelerated GPU scheduling is on");
    dl_finding_evidence(x, "os.windows.hags", "HwSchMode = 2");
    dl_finding_fix(x, "# nothing to do unless you see stutter or CUDA errors under load: then "
                      "Settings > System > Display > Graphics > Change default graphics "
                      "settings > Hardware-accelerated GPU scheduling: Off, and restart");
}
