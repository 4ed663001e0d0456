/* Reading the Windows registry, UTF-8 in and out. Keys are "HKLM\\SOFTWARE\\..." or
 * "HKCU\\..."; each read says whether the value was there. The 64-bit view is read, as a
 * 64-bit Python and the driver see it. */
#ifndef DLENV_PROBE_REGISTRY_WIN_H
#define DLENV_PROBE_REGISTRY_WIN_H

#include "base/str.h"

#include <stdbool.h>
#include <stdint.h>

/* A string value (REG_SZ / REG_EXPAND_SZ, unexpanded); value NULL or "" is the default. */
bool dl_reg_text(const char *key, const char *value, char **out);
bool dl_reg_dword(const char *key, const char *value, uint32_t *out);
/* A REG_MULTI_SZ, one string per entry. */
bool dl_reg_multi(const char *key, const char *value, dl_strv *out);
/* The names of the subkeys, sorted. */
bool dl_reg_subkeys(const char *key, dl_strv *out);

#endif
