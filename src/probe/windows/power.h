/* The Windows settings that cost speed (issue 25): the power scheme and power mode (from
 * the registry, power.c), the power source (GetSystemPowerStatus through os/power.h) and
 * the NVIDIA driver's power-management mode (NVAPI, power_nvapi.c, in a child process).
 * Everything that interprets a value is portable, so the Linux unit tests run it on
 * fixture registries and raw values. */
#ifndef DLENV_PROBE_WINDOWS_POWER_H
#define DLENV_PROBE_WINDOWS_POWER_H

#include "os/power.h"
#include "probe/probe.h"

/* The active scheme, its name and the AC power mode, from the machine's registry. */
void dl_windows_power_scheme(const dl_machine *m, dl_windows_power_facts *p);
/* on_battery and battery_present from GetSystemPowerStatus's bytes; s NULL: unknown, why. */
void dl_windows_power_source(const dl_power_status *s, const char *why,
                             dl_windows_power_facts *p);
/* "optimal_power" ... for a PREFERRED_PSTATE value; NULL for one the SDK does not name. */
const char *dl_nvapi_power_mode_name(uint32_t value);

/* The child side (`dlenv __probe nvapi`): loads NVAPI (library: NULL for System32's
 * nvapi64.dll / nvapi.dll; tests name a fake), reads the global profile's power-management
 * mode into p->nvidia_power_mode and says how it went. */
void dl_gather_nvapi(const char *library, dl_windows_power_facts *p, dl_probe_outcome *out);

#endif
