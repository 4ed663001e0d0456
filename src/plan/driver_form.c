/* NVIDIA driver shapes; see driver_form.h. */
#include "plan/driver_form.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_GROUPS 4

/* Splits "31.0.15.3598" into digit groups; false unless every group is 1-6 digits. */
static size_t groups(const char *s, unsigned long *value, size_t *digits)
{
    size_t n = 0;
    while (n < MAX_GROUPS) {
        size_t d = 0;
        value[n] = 0;
        for (; isdigit((unsigned char)s[d]) && d < 7; d++)
            value[n] = value[n] * 10 + (unsigned long)(s[d] - '0');
        if (d == 0 || d > 6)
            return 0;
        digits[n++] = d;
        s += d;
        if (!*s)
            return n;
        if (*s++ != '.')
            return 0;
    }
    return 0; /* a fifth group */
}

bool dl_driver_is_nvidia(const char *s, char *why, size_t n)
{
    unsigned long v[MAX_GROUPS];
    size_t d[MAX_GROUPS], count = s ? groups(s, v, d) : 0;
    if (count == 4) {
        if (v[2] >= 10 && v[2] <= 19 && d[2] == 2 && d[3] <= 4)
            return true;
        if (v[2] >= 100 && v[2] <= 999)
            snprintf(why, n, "%s is an Intel graphics driver version (Windows' third group "
                             "%lu is Intel's; NVIDIA's is 10-19, as in 31.0.15.3598)", s, v[2]);
        else if (d[2] >= 4)
            snprintf(why, n, "%s looks like an AMD graphics driver version (NVIDIA's third "
                             "group is 10-19, as in 31.0.15.3598)", s);
        else
            snprintf(why, n, "%s is not an NVIDIA driver version in Windows' form (its third "
                             "group is 10-19, as in 31.0.15.3598)", s);
        return false;
    }
    if (count == 2 || count == 3) {
        if (v[0] >= 71 && v[0] <= 999 && d[1] >= 2)
            return true;
        snprintf(why, n, "%s is not an NVIDIA driver version (NVIDIA's branches run from 71 "
                         "to 999 and the next group has two or more digits, as in 535.104.05)",
                 s);
        return false;
    }
    snprintf(why, n, "%s is not a driver version (expected 535.104.05 or the Windows form "
                     "31.0.15.3598)", s ? s : "(nothing)");
    return false;
}

bool dl_driver_windows_form(const char *nvidia, char *out, size_t n)
{
    unsigned long v[MAX_GROUPS];
    size_t d[MAX_GROUPS], count = nvidia ? groups(nvidia, v, d) : 0;
    char digits[16];
    if (count != 2 || d[0] != 3 || d[1] != 2)
        return false;
    snprintf(digits, sizeof digits, "%03lu%02lu", v[0], v[1]);
    /* the last digit of the third group and the four of the fourth */
    snprintf(out, n, "*.*.1%c.%s", digits[0], digits + 1);
    return true;
}
