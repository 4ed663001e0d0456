/* Performance on Windows: settings that hold the machine below its speed (issue 25). The
 * power scheme, the power source and the NVIDIA driver's power-management mode are one
 * finding, power_plan_saving, as severe as its worst cause, with a fix per cause. Fixes
 * are written for PowerShell. */
#include "base/str.h"
#include "facts/query.h"
#include "rules/fixes.h"
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>

#define HIGH_PERFORMANCE_FIX "powercfg /setactive SCHEME_MIN"
#define POWER_MODE_NOTE "if Windows says the scheme does not exist (laptops " \
                        "with only Balanced): Settings > System > Power & battery > " \
                        "Power mode: Best performance"
#define NVIDIA_PANEL_NOTE "NVIDIA Control Panel > Manage 3D settings > Global Settings > " \
                          "Power management mode: Prefer maximum performance"

typedef enum cause { SCHEME_SAVER, SCHEME_BALANCED_LAPTOP, ON_BATTERY, NVIDIA_MODE, CAUSES } cause;

typedef struct judged {
    dl_severity sev[CAUSES];   /* DL_SEV_OK: not a cause */
} judged;

static bool is(const dl_text *t, const char *value)
{
    return t->value && strcmp(t->value, value) == 0;
}

/* The NVIDIA driver's mode. Optimal power is the driver's default (NVIDIA's SDK says so)
 * and, like adaptive, lowers clocks only while the GPU waits: training that keeps the GPU
 * busy runs at full clocks, work in bursts (small batches, inference, a slow data loader)
 * does not. So those are info; "prefer minimum power" holds it down always: a warning. */
static dl_severity nvidia_mode(const dl_text *mode)
{
    if (is(mode, "prefer_min_power"))
        return DL_SEV_WARNING;
    if (is(mode, "optimal_power") || is(mode, "adaptive") || is(mode, "driver_controlled"))
        return DL_SEV_INFO;
    return DL_SEV_OK;
}

/* Balanced is Windows' default and a fine choice on a desktop. On a laptop feeding a
 * discrete NVIDIA GPU it lets the CPU and the PCIe link drop into power saving between
 * bursts of work: slower data loading and kernel launches, not a broken setup, so info. The
 * "Best performance" power mode over it lifts that. */
static bool balanced_laptop(const dl_facts *f, const dl_windows_power_facts *p)
{
    return is(&p->scheme, "balanced") && p->battery_present.known &&
           p->battery_present.value && dl_q_has_nvidia_gpu(f) &&
           !is(&p->power_mode, "best_performance");
}

static void judge(const dl_facts *f, judged *j)
{
    const dl_windows_power_facts *p = &f->os.windows.power;
    memset(j, 0, sizeof *j);
    if (is(&p->scheme, "power_saver"))
        j->sev[SCHEME_SAVER] = DL_SEV_WARNING;
    if (balanced_laptop(f, p))
        j->sev[SCHEME_BALANCED_LAPTOP] = DL_SEV_INFO;
    if (p->on_battery.known && p->on_battery.value)
        j->sev[ON_BATTERY] = DL_SEV_WARNING;
    if (dl_q_has_nvidia_gpu(f))
        j->sev[NVIDIA_MODE] = nvidia_mode(&p->nvidia_power_mode);
}

static const char *title_of(const judged *j, dl_severity worst)
{
    if (j->sev[ON_BATTERY] == worst)
        return "This machine runs on battery: Windows and the GPU driver hold it below its speed";
    if (j->sev[SCHEME_SAVER] == worst)
        return "The Power saver scheme is active: Windows holds the CPU and GPU below their speed";
    if (j->sev[NVIDIA_MODE] == worst && worst == DL_SEV_WARNING)
        return "The NVIDIA driver is set to prefer minimum power: the GPU runs below its speed";
    if (j->sev[SCHEME_BALANCED_LAPTOP] == worst)
        return "The Balanced scheme on a laptop with an NVIDIA GPU: the CPU and PCIe link save "
               "power between bursts of work";
    return "The NVIDIA driver's power management lowers the GPU's clocks while it waits for work";
}

static void scheme_evidence(dl_finding *x, const dl_windows_power_facts *p)
{
    dl_finding_evidence(x, "os.windows.power.scheme", "%s (%s%s%s)", p->scheme.value,
                        dl_text_or(&p->scheme_guid, "?"), p->scheme_name.value ? ", " : "",
                        p->scheme_name.value ? p->scheme_name.value : "");
}

static void add_fixes(dl_finding *x, const dl_facts *f, const judged *j)
{
    const dl_windows_power_facts *p = &f->os.windows.power;
    if (j->sev[ON_BATTERY]) {
        dl_finding_evidence(x, "os.windows.power.on_battery", "true");
        dl_fix_note(x, "plug in the charger: on battery the GPU runs at a fraction of its "
                       "power limit");
    }
    if (j->sev[SCHEME_SAVER] || j->sev[SCHEME_BALANCED_LAPTOP]) {
        scheme_evidence(x, p);
        if (j->sev[SCHEME_BALANCED_LAPTOP])
            dl_finding_evidence(x, "os.windows.power.power_mode", "%s",
                                dl_text_or(&p->power_mode, "none"));
        dl_finding_fix(x, "%s", HIGH_PERFORMANCE_FIX);
        dl_fix_note(x, "%s", POWER_MODE_NOTE);
    }
    if (j->sev[NVIDIA_MODE]) {
        dl_finding_evidence(x, "os.windows.power.nvidia_power_mode", "%s%s",
                            p->nvidia_power_mode.value,
                            j->sev[NVIDIA_MODE] == DL_SEV_INFO
                                ? " (lowers clocks while the GPU waits; training that keeps it "
                                  "busy is not slowed, bursty work is)"
                                : "");
        dl_fix_note(x, "%s", NVIDIA_PANEL_NOTE);
    }
}

void dl_rule_power_plan_saving_windows(const dl_rule_input *in, dl_findings *out)
{
    judged j;
    dl_severity worst = DL_SEV_OK;
    size_t i;
    dl_finding *x;
    if (!dl_q_is_windows(in->facts))
        return;
    judge(in->facts, &j);
    for (i = 0; i < CAUSES; i++)
        if (j.sev[i] > worst)
            worst = j.sev[i];
    if (worst == DL_SEV_OK)
        return;
    x = dl_finding_add(out, "power_plan_saving", worst, "%s", title_of(&j, worst));
    add_fixes(x, in->facts, &j);
}
