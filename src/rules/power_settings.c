/* Settings that trade speed for power on Linux and on any NVIDIA GPU: the CPU frequency
 * governor (power_plan_saving), a GPU power limit below its default (power_plan_saving),
 * persistence mode off on a headless GPU server (gpu_persistence_off), applications clocks
 * set below their defaults (gpu_clocks_locked_low). Windows' power scheme and battery are
 * rules/power_settings_windows.c's. Verify's judgements call dl_power_explain_* to name
 * these settings beside the figure they slow. */
#include "rules/power_settings.h"

#include "base/str.h"
#include "facts/query.h"
#include "rules/fixes.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A power limit this far under the default is a setting, not the few watts the enforced
 * limit can differ from the management limit by. */
#define LIMIT_LOW_PCT 95.0
/* A busy GPU (P0) held by the applications-clocks event below this share of its maximum
 * SM clock has its clocks locked (nvidia-smi -lgc): NVML has no read-only query for locked
 * clocks, only this event. */
#define LOCKED_CLOCK_PCT 80.0

/* ---- the CPU ------------------------------------------------------------------------- */

/* The kernel's documentation (docs.kernel.org admin-guide/pm/intel_pstate.rst, "Active
 * Mode", and amd-pstate.rst, "Active mode"): in active mode intel_pstate and
 * amd-pstate-epp bypass the cpufreq governors. Their "powersave" and "performance" are
 * the driver's own two policies, and with hardware-managed P-states "powersave" lets the
 * processor pick the frequency as the energy/performance preference (EPP) says. So
 * "powersave" there is the normal dynamic setting (EPP balance_performance by default);
 * only an EPP leaning to power holds the CPU back. Every other driver (acpi-cpufreq;
 * intel_cpufreq, which is intel_pstate in passive mode; amd-pstate in passive or guided
 * mode; cppc_cpufreq) runs the generic governors, and the generic "powersave" pins each
 * CPU at its lowest frequency (admin-guide/pm/cpufreq.rst, "powersave"). */
static bool active_mode_driver(const dl_text *driver)
{
    return dl_q_text_is(driver, "intel_pstate") || dl_q_text_is(driver, "amd-pstate-epp");
}

/* An EPP name, or a raw value from 0 (performance) to 255 (power); balance_performance is
 * 128 on Intel. */
static bool epp_saves_power(const char *epp)
{
    char *end;
    long v;
    if (!strcmp(epp, "power") || !strcmp(epp, "balance_power"))
        return true;
    v = strtol(epp, &end, 10);
    return end != epp && *end == '\0' && v > 128;
}

typedef enum { CPU_FAST, CPU_GOVERNOR_SAVES, CPU_EPP_SAVES } cpu_setting;

/* How this CPU's frequency is set; *epp is the power-leaning preference when that is it. */
static cpu_setting cpu_judge(const dl_cpu_facts *c, const char **epp)
{
    const dl_list *l = &c->energy_preferences;
    size_t i;
    if (active_mode_driver(&c->frequency_driver)) {
        for (i = 0; l->known && i < l->count; i++)
            if (epp_saves_power(DL_LIST_AT(*l, char *, i))) {
                *epp = DL_LIST_AT(*l, char *, i);
                return CPU_EPP_SAVES;
            }
        return CPU_FAST;
    }
    return dl_textlist_has(&c->frequency_governors, "powersave") ? CPU_GOVERNOR_SAVES
                                                                 : CPU_FAST;
}

/* "powersave (acpi-cpufreq): ..." for the evidence; caller frees. */
static char *cpu_words(const dl_cpu_facts *c, cpu_setting s, const char *epp)
{
    const char *driver = dl_text_or(&c->frequency_driver, "driver unknown");
    if (s == CPU_EPP_SAVES)
        return dl_fmt("energy preference %s under %s's powersave policy: the processor "
                      "favours saving power", epp, driver);
    return dl_fmt("governor powersave%s (%s): it holds each CPU at its lowest frequency",
                  c->frequency_governors.count > 1 ? " on some CPUs" : "", driver);
}

static const char *cpu_key(cpu_setting s)
{
    return s == CPU_EPP_SAVES ? "cpu.energy_preferences" : "cpu.frequency_governors";
}

static void cpu_fix(dl_finding *x, const dl_facts *f, cpu_setting s)
{
    if (dl_q_in_container(f))
        dl_fix_note(x, "the CPU frequency is the host's: change it on the host");
    if (s == CPU_EPP_SAVES) {
        dl_fix_note(x, "%s lets the processor choose its frequency by the energy preference: "
                       "set the default preference back on every CPU",
                    dl_text_or(&f->cpu.frequency_driver, "the driver"));
        dl_fix_as_root(x, f, "sh -c 'for p in /sys/devices/system/cpu/cpu*/cpufreq/"
                             "energy_performance_preference; do echo balance_performance > "
                             "\"$p\"; done'");
    } else {
        dl_fix_note(x, "switch every CPU to the performance governor (cpupower comes with "
                       "linux-tools on Ubuntu and Debian, kernel-tools on Fedora):");
        dl_fix_as_root(x, f, "cpupower frequency-set -g performance");
    }
    dl_fix_note(x, "this lasts until the next boot; a tuned or power-profiles-daemon "
                   "performance profile keeps it");
}

/* ---- a GPU --------------------------------------------------------------------------- */

static bool limit_low(const dl_nvml_gpu *g)
{
    return g->power_limit_watts.known && g->power_limit_default_watts.known &&
           g->power_limit_default_watts.value > 0 &&
           g->power_limit_watts.value * 100.0 <
               LIMIT_LOW_PCT * g->power_limit_default_watts.value;
}

static bool below_default(const dl_int *set, const dl_int *def)
{
    return set->known && def->known && def->value > 0 && set->value < def->value;
}

static bool app_clocks_low(const dl_nvml_gpu *g)
{
    return below_default(&g->app_clock_graphics_mhz, &g->app_clock_graphics_default_mhz) ||
           below_default(&g->app_clock_memory_mhz, &g->app_clock_memory_default_mhz);
}

/* Busy, held by the applications-clocks event well below its maximum, and its
 * applications clocks not the reason: locked clocks are. */
static bool clocks_locked(const dl_nvml_gpu *g)
{
    return !app_clocks_low(g) && g->performance_state.known && g->performance_state.value == 0 &&
           dl_textlist_has(&g->throttle_reasons, "applications_clocks_setting") &&
           !dl_textlist_has(&g->throttle_reasons, "gpu_idle") && g->sm_clock_mhz.known &&
           g->sm_clock_max_mhz.known &&
           g->sm_clock_mhz.value * 100.0 < LOCKED_CLOCK_PCT * (double)g->sm_clock_max_mhz.value;
}

static long long gpu_index(const dl_facts *f, const dl_nvml_gpu *g)
{
    return g->index.known ? g->index.value
                          : (long long)(g - &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, 0));
}

/* A GPU command that needs root, run where it can reach the driver. */
static void gpu_root_fix(dl_finding *x, const dl_facts *f, const char *fmt, ...)
    DL_PRINTF_LIKE(3, 4);
static void gpu_root_fix(dl_finding *x, const dl_facts *f, const char *fmt, ...)
{
    va_list ap;
    char *cmd;
    va_start(ap, fmt);
    cmd = dl_vfmt(fmt, ap);
    va_end(ap);
    if (dl_q_is_wsl(f)) {
        dl_fix_note(x, "WSL cannot change the GPU's settings: on Windows, in a PowerShell run "
                       "as administrator:");
        dl_finding_fix(x, "%s", cmd);
    } else if (dl_q_in_container(f)) {
        dl_fix_note(x, "on the host, as root:");
        dl_finding_fix(x, "%s", cmd);
    } else {
        dl_fix_as_root(x, f, "%s", cmd);
    }
    free(cmd);
}

static char *limit_words(const dl_nvml_gpu *g)
{
    return dl_fmt("the power limit is %.0f W of a %.0f W default", g->power_limit_watts.value,
                  g->power_limit_default_watts.value);
}

static char *clock_words(const dl_nvml_gpu *g)
{
    if (below_default(&g->app_clock_graphics_mhz, &g->app_clock_graphics_default_mhz))
        return dl_fmt("applications clocks set to %lld MHz of a %lld MHz default",
                      g->app_clock_graphics_mhz.value, g->app_clock_graphics_default_mhz.value);
    if (app_clocks_low(g))
        return dl_fmt("applications memory clock set to %lld MHz of a %lld MHz default",
                      g->app_clock_memory_mhz.value, g->app_clock_memory_default_mhz.value);
    return dl_fmt("clocks locked: %lld of %lld MHz while busy, held by the "
                  "applications-clocks setting", g->sm_clock_mhz.value,
                  g->sm_clock_max_mhz.value);
}

static void limit_fix(dl_finding *x, const dl_facts *f, const dl_nvml_gpu *g)
{
    gpu_root_fix(x, f, "nvidia-smi -i %lld -pl %.0f", gpu_index(f, g),
                 g->power_limit_default_watts.value);
}

static void clock_fix(dl_finding *x, const dl_facts *f, const dl_nvml_gpu *g)
{
    gpu_root_fix(x, f, "nvidia-smi -i %lld -rac", gpu_index(f, g));
    if (!app_clocks_low(g))
        gpu_root_fix(x, f, "nvidia-smi -i %lld -rgc", gpu_index(f, g));
}

static bool has_evidence(const dl_finding *x, const char *key)
{
    size_t i;
    for (i = 0; i < x->evidence.count; i++)
        if (!strcmp(DL_LIST_AT(x->evidence, dl_pair, i).name, key))
            return true;
    return false;
}

/* ---- the rules ------------------------------------------------------------------------ */

static dl_finding *saving_finding(dl_findings *out, dl_finding *x, const char *title)
{
    /* The Windows row (power_settings_windows.c) may have started the finding: one
     * power_plan_saving finding carries every cause, as severe as the worst. */
    if (!x && (x = dl_findings_get(out, "power_plan_saving")) != NULL)
        dl_finding_raise(x, DL_SEV_WARNING);
    return x ? x : dl_finding_add(out, "power_plan_saving", DL_SEV_WARNING, "%s", title);
}

void dl_rule_power_plan_saving_cpu_gpu(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    const char *epp = NULL;
    cpu_setting cpu = dl_q_is_windows(f) ? CPU_FAST : cpu_judge(&f->cpu, &epp);
    dl_finding *x = NULL;
    size_t i;
    if (cpu != CPU_FAST) {
        char *words = cpu_words(&f->cpu, cpu, epp);
        x = saving_finding(out, x, "The CPU's frequency setting favours saving power over "
                                   "speed");
        dl_finding_evidence(x, cpu_key(cpu), "%s", words);
        free(words);
        cpu_fix(x, f, cpu);
    }
    for (i = 0; f->nvml.gpus.known && i < f->nvml.gpus.count; i++) {
        const dl_nvml_gpu *g = &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, i);
        char *key, *words;
        if (!limit_low(g))
            continue;
        x = saving_finding(out, x, "A GPU's power limit is set below its default");
        key = dl_fmt("nvml.gpus[%zu].power_limit_watts", i);
        words = limit_words(g);
        dl_finding_evidence(x, key, "%s", words);
        free(words);
        free(key);
        limit_fix(x, f, g);
    }
}

/* No display initialised and no monitor plugged in: a compute server. */
static bool headless(const dl_nvml_gpu *g)
{
    return g->display_active.known && !g->display_active.value &&
           !(g->display_connected.known && g->display_connected.value);
}

void dl_rule_gpu_persistence_off(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    const dl_flag *daemon = &f->nvidia_kernel.persistenced;
    dl_finding *x = NULL;
    size_t i;
    /* Windows has no persistence mode; WSL's GPU is the Windows driver's. */
    if (dl_q_is_windows(f) || dl_q_is_wsl(f))
        return;
    for (i = 0; f->nvml.gpus.known && i < f->nvml.gpus.count; i++) {
        const dl_nvml_gpu *g = &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, i);
        char *key;
        if (!g->persistence_mode.known || g->persistence_mode.value || !headless(g))
            continue;
        if (!x)
            x = dl_finding_add(out, "gpu_persistence_off", DL_SEV_WARNING,
                               "Persistence mode is off on a GPU with no display: every "
                               "process pays the driver's start-up");
        key = dl_fmt("nvml.gpus[%zu].persistence_mode", i);
        dl_finding_evidence(x, key, "off, no display active or connected");
        free(key);
    }
    if (!x)
        return;
    if (daemon->known)
        dl_finding_evidence(x, "nvidia_kernel.persistenced", "%s",
                            daemon->value ? "running" : "not running");
    if (daemon->known && daemon->value) {
        dl_fix_note(x, "nvidia-persistenced runs without holding the GPUs: turn it on");
        gpu_root_fix(x, f, "nvidia-smi -pm 1");
        return;
    }
    dl_fix_note(x, "start NVIDIA's persistence daemon now and at every boot:");
    gpu_root_fix(x, f, "systemctl enable --now nvidia-persistenced");
    dl_fix_note(x, "or, without the daemon, until the next reboot:");
    gpu_root_fix(x, f, "nvidia-smi -pm 1");
}

void dl_rule_gpu_clocks_locked_low(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    dl_finding *x = NULL;
    size_t i;
    for (i = 0; f->nvml.gpus.known && i < f->nvml.gpus.count; i++) {
        const dl_nvml_gpu *g = &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, i);
        char *key, *words;
        if (!app_clocks_low(g) && !clocks_locked(g))
            continue;
        if (!x)
            x = dl_finding_add(out, "gpu_clocks_locked_low", DL_SEV_WARNING,
                               "A GPU's clocks are set below their defaults");
        key = dl_fmt(app_clocks_low(g) ? "nvml.gpus[%zu].app_clock_graphics_mhz"
                                       : "nvml.gpus[%zu].sm_clock_mhz", i);
        words = clock_words(g);
        dl_finding_evidence(x, key, "%s", words);
        free(words);
        free(key);
        clock_fix(x, f, g);
    }
}

/* ---- verify's tie to the figures ------------------------------------------------------- */

/* "0000:01:00.0" and "00000000:01:00.0" name the same function. */
static bool same_bus_id(const char *a, const char *b)
{
    unsigned int d1, b1, s1, f1, d2, b2, s2, f2;
    return a && b && sscanf(a, "%x:%x:%x.%x", &d1, &b1, &s1, &f1) == 4 &&
           sscanf(b, "%x:%x:%x.%x", &d2, &b2, &s2, &f2) == 4 && d1 == d2 && b1 == b2 &&
           s1 == s2 && f1 == f2;
}

const dl_nvml_gpu *dl_power_nvml_gpu(const dl_facts *f, const char *pci_bus_id)
{
    const dl_list *l = &f->nvml.gpus;
    size_t i;
    for (i = 0; l->known && pci_bus_id && i < l->count; i++)
        if (same_bus_id(DL_LIST_AT(*l, dl_nvml_gpu, i).pci_bus_id.value, pci_bus_id))
            return &DL_LIST_AT(*l, dl_nvml_gpu, i);
    return l->known && l->count == 1 && !pci_bus_id ? &DL_LIST_AT(*l, dl_nvml_gpu, 0) : NULL;
}

bool dl_power_explain_gpu(const dl_rule_input *in, dl_finding *x, const dl_nvml_gpu *g,
                          const char *measured)
{
    const dl_facts *f = in->facts;
    size_t i;
    bool any = false;
    char *key, *words;
    if (!g)
        return false;
    i = (size_t)(g - &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, 0));
    if (limit_low(g)) {
        key = dl_fmt("nvml.gpus[%zu].power_limit_watts", i);
        if (!has_evidence(x, key)) {
            words = limit_words(g);
            dl_finding_evidence(x, key, "%s; %s", measured, words);
            free(words);
            limit_fix(x, f, g);
        }
        free(key);
        any = true;
    }
    if (app_clocks_low(g) || clocks_locked(g)) {
        key = dl_fmt("nvml.gpus[%zu].%s", i,
                     app_clocks_low(g) ? "app_clock_graphics_mhz" : "sm_clock_mhz");
        if (!has_evidence(x, key)) {
            words = clock_words(g);
            dl_finding_evidence(x, key, "%s; %s", measured, words);
            free(words);
            clock_fix(x, f, g);
        }
        free(key);
        any = true;
    }
    return any;
}

bool dl_power_explain_cpu(const dl_rule_input *in, dl_finding *x, const char *measured)
{
    const dl_facts *f = in->facts;
    const char *epp = NULL;
    cpu_setting s = dl_q_is_windows(f) ? CPU_FAST : cpu_judge(&f->cpu, &epp);
    char *words;
    if (s == CPU_FAST)
        return false;
    if (has_evidence(x, cpu_key(s)))
        return true;
    words = cpu_words(&f->cpu, s, epp);
    dl_finding_evidence(x, cpu_key(s), "%s; %s", measured, words);
    free(words);
    cpu_fix(x, f, s);
    return true;
}
