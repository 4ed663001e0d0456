/* The Windows settings that cost speed (issue 25). The power scheme comes from the
 * registry, through os/registry.h, rather than from PowerGetActiveScheme: it is where the
 * power service keeps the user's choice, it needs no extra DLL (powrprof.dll is no
 * KnownDLL), and one code path then runs on Windows, under Wine and in the Linux unit tests
 * on a text registry. A Group Policy choice is read first, since it overrides the user's.
 * When neither is there the scheme stays unknown and says how to look. */
#include "probe/windows/power.h"

#include "base/str.h"
#include "facts/query.h"
#include "os/registry.h"
#include "probe/gpu/child.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define POWER_SCHEMES "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Power\\User\\PowerSchemes"
#define POWER_POLICY "HKLM\\SOFTWARE\\Policies\\Microsoft\\Power\\PowerSettings"

/* The built-in schemes (powercfg /list) and the power modes laid over a scheme on AC
 * (PowerGetUserConfiguredACPowerMode's documented values). */
static const char *const schemes[][2] = {
    {"a1841308-3541-4fab-bc81-f71556f20b4a", "power_saver"},
    {"381b4222-f694-41f0-9685-ff5bb260df2e", "balanced"},
    {"8c5e7fda-e8bf-4a96-9a85-a6e23a8c635c", "high_performance"},
    {"e9a42b02-d5df-448d-aa00-03f14749eb61", "ultimate"},
};
static const char *const power_modes[][2] = {
    {"961cc777-2547-4f9d-8174-7d86181b8a7a", "best_efficiency"},
    {"00000000-0000-0000-0000-000000000000", "balanced"},
    {"381b4222-f694-41f0-9685-ff5bb260df2e", "balanced"}, /* some builds write the scheme's */
    {"ded574b5-45a0-4f42-8737-46345c09c238", "best_performance"},
};

/* "{8C5E7FDA-...}" as "8c5e7fda-...". */
static char *guid_text(const char *raw)
{
    size_t n;
    char *g;
    while (*raw == '{' || isspace((unsigned char)*raw))
        raw++;
    n = strcspn(raw, "} \t");
    g = dl_ascii_lower(raw, n);
    return g;
}

static const char *lookup(const char *const table[][2], size_t n, const char *guid)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (strcmp(table[i][0], guid) == 0)
            return table[i][1];
    return NULL;
}

/* FriendlyName: "My plan", or for a built-in one an indirect string
 * "@%SystemRoot%\system32\powrprof.dll,-12,Balanced" whose last part is the English name. */
static void read_name(const dl_machine *m, const char *guid, dl_text *name)
{
    char *key = dl_fmt("%s\\%s", POWER_SCHEMES, guid), *text = NULL;
    if (dl_reg_text(m, key, "FriendlyName", &text) && *text) {
        const char *comma = strrchr(text, ',');
        if (text[0] != '@')
            dl_text_set(name, text);
        else if (comma && comma[1] && comma[1] != '-')
            dl_text_set(name, comma + 1);
        else
            dl_text_unknown(name, "FriendlyName is a resource reference only: %s", text);
    } else {
        dl_text_unknown(name, "the registry has no FriendlyName under %s", key);
    }
    free(text);
    free(key);
}

static void read_power_mode(const dl_machine *m, dl_windows_power_facts *p)
{
    char *raw = NULL, *guid;
    const char *mode;
    if (!dl_reg_text(m, POWER_SCHEMES, "ActiveOverlayAcPowerScheme", &raw)) {
        dl_text_unknown(&p->power_mode, "the registry has no ActiveOverlayAcPowerScheme: this "
                                        "Windows shows no power mode for the scheme");
        free(raw);
        return;
    }
    guid = guid_text(raw);
    mode = lookup(power_modes, sizeof power_modes / sizeof power_modes[0], guid);
    dl_text_set(&p->power_mode, mode ? mode : guid);
    free(guid);
    free(raw);
}

void dl_windows_power_scheme(const dl_machine *m, dl_windows_power_facts *p)
{
    char *raw = NULL, *guid;
    const char *kind;
    if (!dl_reg_text(m, POWER_POLICY, "ActivePowerScheme", &raw) || !*raw) {
        free(raw);
        raw = NULL;
        if (!dl_reg_text(m, POWER_SCHEMES, "ActivePowerScheme", &raw) || !*raw) {
            const char *why = "the registry has no ActivePowerScheme (PowerShell: powercfg "
                              "/getactivescheme)";
            dl_text_unknown(&p->scheme, "%s", why);
            dl_text_unknown(&p->scheme_guid, "%s", why);
            dl_text_unknown(&p->scheme_name, "%s", why);
            read_power_mode(m, p);
            free(raw);
            return;
        }
    }
    guid = guid_text(raw);
    kind = lookup(schemes, sizeof schemes / sizeof schemes[0], guid);
    dl_text_set(&p->scheme, kind ? kind : "custom");
    dl_text_set(&p->scheme_guid, guid);
    read_name(m, guid, &p->scheme_name);
    read_power_mode(m, p);
    free(guid);
    free(raw);
}

void dl_windows_power_source(const dl_power_status *s, const char *why,
                             dl_windows_power_facts *p)
{
    if (!s) {
        dl_flag_unknown(&p->on_battery, "%s", why);
        dl_flag_unknown(&p->battery_present, "%s", why);
        return;
    }
    if (s->ac_line_status == 0 || s->ac_line_status == 1)
        dl_flag_set(&p->on_battery, s->ac_line_status == 0);
    else
        dl_flag_unknown(&p->on_battery, "Windows does not know the AC line status (%u)",
                        s->ac_line_status);
    if (s->battery_flag == 255)
        dl_flag_unknown(&p->battery_present, "Windows does not know the battery status");
    else
        dl_flag_set(&p->battery_present, (s->battery_flag & 128) == 0);
}

/* The NVIDIA power-management mode from the isolated child; its outcome stays its own
 * (a machine without an NVIDIA driver is no failure of this probe). */
static void read_nvidia_mode(const dl_probe_ctx *ctx, const dl_facts *f,
                             dl_windows_power_facts *p)
{
    dl_probe_child c = {"nvapi", NULL, NULL, 0};
    dl_probe_outcome child = {DL_PROBE_OK, NULL};
    dl_windows_power_facts answer;
    if (f->gpus.known && !dl_q_has_nvidia_gpu(f)) {
        dl_text_unknown(&p->nvidia_power_mode, "no NVIDIA display adapter");
        return;
    }
    c.library = sizeof(void *) == 8 ? "nvapi64.dll" : "nvapi.dll";
    memset(&answer, 0, sizeof answer);
    dl_probe_child_run(ctx, &c, &dl_windows_power_schema, &answer, &child);
    if (answer.nvidia_power_mode.value || answer.nvidia_power_mode.why) {
        p->nvidia_power_mode = answer.nvidia_power_mode;
        memset(&answer.nvidia_power_mode, 0, sizeof answer.nvidia_power_mode);
    } else {
        /* a hang, a crash or a skipped child leaves the optional fact silent: say why */
        dl_text_unknown(&p->nvidia_power_mode, "%s",
                        child.detail ? child.detail : "the NVAPI child probe did not say");
    }
    dl_schema_free(&dl_windows_power_schema, &answer);
    free(child.detail);
}

void dl_probe_windows_power(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out)
{
    dl_windows_power_facts *p = &f->os.windows.power;
    dl_power_status status;
    char *why = NULL;
    (void)out;
    dl_windows_power_scheme(ctx->machine, p);
    if (ctx->machine->live && dl_power_status_read(&status, &why))
        dl_windows_power_source(&status, NULL, p);
    else
        dl_windows_power_source(NULL, why ? why : "read only on the machine dlenv runs on", p);
    free(why);
    dl_text_unknown(&p->memory_compression,
                    "Windows gives it only through WMI, which dlenv does not use; check in "
                    "PowerShell: (Get-MMAgent).MemoryCompression");
    read_nvidia_mode(ctx, f, p);
}
