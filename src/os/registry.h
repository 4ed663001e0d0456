/* The Windows registry of the inspected machine, UTF-8 in and out. Keys are
 * "HKLM\\SOFTWARE\\..." or "HKCU\\..." (HKEY_LOCAL_MACHINE and HKEY_CURRENT_USER too);
 * each read says whether the value was there, and nothing here has a Win32 type, so the
 * logic that reads it (PEP 514 discovery, the Windows version and settings) is built and
 * tested on every system.
 *
 * Two backends. A machine whose `registry` is NULL reads its own: RegGetValueW on Windows
 * (registry_win.c; the 64-bit view, as a 64-bit Python and the driver see it), and none
 * elsewhere (registry_posix.c: every read says "not there"). A fixture (registry.c)
 * is a registry written as text, which the tests set on a machine opened on a fixture
 * root:
 *
 *     # a comment
 *     [HKLM\SOFTWARE\Python\PythonCore\3.11\InstallPath]
 *     @ = C:\Python311\
 *     ExecutablePath = C:\Python311\python.exe
 *     UBR = dword:3880
 *     PagingFiles = multi:C:\pagefile.sys 0 0|D:\pagefile.sys 0 0
 *
 * A section is a key (its parents exist with it); `@` is the default value; a value is a
 * string unless it starts with `dword:` (decimal or 0x hex) or `multi:` (entries joined by
 * `|`); `sz:` forces a string. Key and value names match case-insensitively, as Windows'. */
#ifndef DLENV_OS_REGISTRY_H
#define DLENV_OS_REGISTRY_H

#include "base/str.h"
#include "os/os.h"

#include <stdbool.h>
#include <stdint.h>

/* A registry written as text (above); NULL with *error ("line 3: ...") when it is not. */
dl_registry *dl_registry_parse(const char *text, char **error);
void dl_registry_free(dl_registry *r);

/* A string value (REG_SZ / REG_EXPAND_SZ, unexpanded); value NULL or "" is the default. */
bool dl_reg_text(const dl_machine *m, const char *key, const char *value, char **out);
bool dl_reg_dword(const dl_machine *m, const char *key, const char *value, uint32_t *out);
/* A REG_MULTI_SZ, one string per entry. */
bool dl_reg_multi(const dl_machine *m, const char *key, const char *value, dl_strv *out);
/* The names of the subkeys, sorted. */
bool dl_reg_subkeys(const dl_machine *m, const char *key, dl_strv *out);

/* This machine's own registry, for the calls above (registry_win.c, registry_posix.c). */
bool dl_reg_live_text(const char *key, const char *value, char **out);
bool dl_reg_live_dword(const char *key, const char *value, uint32_t *out);
bool dl_reg_live_multi(const char *key, const char *value, dl_strv *out);
bool dl_reg_live_subkeys(const char *key, dl_strv *out);

#endif
