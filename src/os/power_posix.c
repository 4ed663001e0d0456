/* The power source is read only on Windows (os/power.h); Linux's is under /sys, which
 * the Linux probes read as files. */
#include "os/power.h"

#include "base/str.h"

bool dl_power_status_read(dl_power_status *out, char **why)
{
    (void)out;
    *why = dl_strdup("not Windows: the power source is read with GetSystemPowerStatus");
    return false;
}
