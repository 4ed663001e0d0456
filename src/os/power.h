/* The power source, as Windows reports it (power_win.c: GetSystemPowerStatus; elsewhere
 * power_posix.c says it is not Windows). The raw bytes come back untouched: what they mean
 * is the probe's to say (probe/windows/power.c), so that part is tested everywhere. */
#ifndef DLENV_OS_POWER_H
#define DLENV_OS_POWER_H

#include <stdbool.h>

/* SYSTEM_POWER_STATUS's two bytes: ACLineStatus (0 offline, 1 online, 255 unknown) and
 * BatteryFlag (bits: 1 high, 2 low, 4 critical, 8 charging, 128 no system battery; 255
 * unknown). */
typedef struct dl_power_status {
    unsigned ac_line_status;
    unsigned battery_flag;
} dl_power_status;

/* False with *why (caller frees) when the system cannot say. */
bool dl_power_status_read(dl_power_status *out, char **why);

#endif
