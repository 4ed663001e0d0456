/* Which strings are NVIDIA driver versions. Windows shows every display driver in one
 * four-group form, and an Intel "32.0.101.6556" converts as digits to "165.56", a driver
 * that never existed; so a driver given to the planner is checked for NVIDIA's shapes
 * first: Linux "535.104.05" / "570.26" (branch 71-999, then a group of two or more
 * digits) and Windows "31.0.15.3598" (the third group 10-19, NVIDIA's; Intel's is 100 or
 * 101, AMD's has four or five digits). */
#ifndef DLENV_PLAN_DRIVER_FORM_H
#define DLENV_PLAN_DRIVER_FORM_H

#include <stdbool.h>
#include <stddef.h>

/* True when s has an NVIDIA driver's shape; else false with why (one line) in why[n]. */
bool dl_driver_is_nvidia(const char *s, char *why, size_t n);

/* NVIDIA's "560.76" as Windows shows it: "*.*.15.6076" (the first two groups follow the
 * Windows driver model, not the driver, so they are left open). False when the version
 * has no such form (a Linux three-group version, fewer than five digits). */
bool dl_driver_windows_form(const char *nvidia, char *out, size_t n);

#endif
