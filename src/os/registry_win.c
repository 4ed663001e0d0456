/* This Windows machine's registry through RegGetValueW / RegEnumKeyExW. */
#include "os/registry.h"

#include "os/fs_names.h"
#include "os/wide_win.h"

#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <stdlib.h>
#include <string.h>

static HKEY root_of(const char *key, const char **rest)
{
    static const struct {
        const char *name;
        HKEY root;
    } roots[] = {{"HKLM\\", HKEY_LOCAL_MACHINE}, {"HKCU\\", HKEY_CURRENT_USER},
                 {"HKEY_LOCAL_MACHINE\\", HKEY_LOCAL_MACHINE},
                 {"HKEY_CURRENT_USER\\", HKEY_CURRENT_USER}};
    size_t i;
    for (i = 0; i < sizeof roots / sizeof roots[0]; i++)
        if (dl_starts_with(key, roots[i].name)) {
            *rest = key + strlen(roots[i].name);
            return roots[i].root;
        }
    return NULL;
}

/* RegGetValueW with a growing buffer; the data is returned NUL-terminated. */
static bool get_value(const char *key, const char *value, DWORD flags, void **data, DWORD *size)
{
    const char *sub = NULL;
    HKEY root = root_of(key, &sub);
    wchar_t *wsub, *wval;
    DWORD n = 256;
    LSTATUS rc;
    *data = NULL;
    if (!root)
        return false;
    wsub = dl_wide(sub);
    wval = value && *value ? dl_wide(value) : NULL;
    for (;;) {
        DWORD got = n;
        *data = dl_xrealloc(*data, (size_t)n + 4);
        rc = RegGetValueW(root, wsub, wval, flags, NULL, *data, &got);
        if (rc == ERROR_MORE_DATA) {
            n = got > n ? got : n * 2;
            continue;
        }
        if (rc == ERROR_SUCCESS) {
            memset((char *)*data + got, 0, 4);
            *size = got;
        }
        break;
    }
    free(wsub);
    free(wval);
    if (rc != ERROR_SUCCESS) {
        free(*data);
        *data = NULL;
    }
    return rc == ERROR_SUCCESS;
}

bool dl_reg_live_text(const char *key, const char *value, char **out)
{
    void *data;
    DWORD size;
    *out = NULL;
    if (!get_value(key, value, RRF_RT_REG_SZ | RRF_RT_REG_EXPAND_SZ | RRF_NOEXPAND, &data, &size))
        return false;
    *out = dl_narrow(data);
    free(data);
    return true;
}

bool dl_reg_live_dword(const char *key, const char *value, uint32_t *out)
{
    void *data;
    DWORD size;
    if (!get_value(key, value, RRF_RT_REG_DWORD, &data, &size))
        return false;
    memcpy(out, data, sizeof *out);
    free(data);
    return true;
}

bool dl_reg_live_multi(const char *key, const char *value, dl_strv *out)
{
    void *data;
    DWORD size;
    const wchar_t *p;
    if (!get_value(key, value, RRF_RT_REG_MULTI_SZ, &data, &size))
        return false;
    for (p = data; *p; p += wcslen(p) + 1)
        dl_strv_add(out, dl_narrow(p));
    free(data);
    return true;
}

bool dl_reg_live_subkeys(const char *key, dl_strv *out)
{
    const char *sub = NULL;
    HKEY root = root_of(key, &sub), h;
    wchar_t *wsub, name[256];
    DWORD i;
    if (!root)
        return false;
    wsub = dl_wide(sub);
    if (RegOpenKeyExW(root, wsub, 0, KEY_READ, &h) != ERROR_SUCCESS) {
        free(wsub);
        return false;
    }
    free(wsub);
    for (i = 0;; i++) {
        DWORD n = sizeof name / sizeof name[0];
        if (RegEnumKeyExW(h, i, name, &n, NULL, NULL, NULL, NULL) != ERROR_SUCCESS)
            break;
        dl_strv_add(out, dl_narrow(name));
    }
    RegCloseKey(h);
    dl_names_sort(out->v, out->n);
    return true;
}
