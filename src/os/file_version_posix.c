/* Only Windows has System32 and version resources. */
#include "os/os.h"

#include "base/str.h"

char *dl_system_dll_version(const char *name, char **why)
{
    *why = dl_fmt("%s: no System32 here; only Windows has one", name);
    return NULL;
}
