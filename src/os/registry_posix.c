/* A POSIX system has no registry of its own: every read of it says "not there". */
#include "os/registry.h"

bool dl_reg_live_text(const char *key, const char *value, char **out)
{
    (void)key;
    (void)value;
    *out = NULL;
    return false;
}

bool dl_reg_live_dword(const char *key, const char *value, uint32_t *out)
{
    (void)key;
    (void)value;
    (void)out;
    return false;
}

bool dl_reg_live_multi(const char *key, const char *value, dl_strv *out)
{
    (void)key;
    (void)value;
    (void)out;
    return false;
}

bool dl_reg_live_subkeys(const char *key, dl_strv *out)
{
    (void)key;
    (void)out;
    return false;
}
