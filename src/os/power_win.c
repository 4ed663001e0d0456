/* The power source (os/power.h): GetSystemPowerStatus, in kernel32, which every Windows
 * has; it needs no privilege and cannot hang. */
#include "os/power.h"

#include "base/str.h"

#define WIN32_LEAN_AND_MEAN
#include <windows.h>

bool dl_power_status_read(dl_power_status *out, char **why)
{
    SYSTEM_POWER_STATUS s;
    if (!GetSystemPowerStatus(&s)) {
        *why = dl_fmt("GetSystemPowerStatus failed (error %lu)", (unsigned long)GetLastError());
        return false;
    }
    out->ac_line_status = s.ACLineStatus;
    out->battery_flag = s.BatteryFlag;
    return true;
}
