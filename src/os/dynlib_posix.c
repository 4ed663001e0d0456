/* Dynamic libraries loaded at run time (POSIX): vendor libraries are never linked. */
#define _GNU_SOURCE 1 /* dlinfo/RTLD_DI_LINKMAP where the C library has them */
#include "os/os.h"

#include "base/str.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#if defined(__linux__)
#include <link.h>
#endif

struct dl_lib {
    void *handle;
};

dl_lib *dl_lib_open(const char *name, char **error)
{
    void *h;
    dl_lib *lib;
    dlerror();
    h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        *error = dl_strdup(why ? why : "dlopen failed");
        return NULL;
    }
    lib = dl_xcalloc(1, sizeof *lib);
    lib->handle = h;
    return lib;
}

void *dl_lib_sym(dl_lib *lib, const char *symbol)
{
    return lib ? dlsym(lib->handle, symbol) : NULL;
}

char *dl_lib_path(dl_lib *lib)
{
#if defined(__linux__) && (defined(__GLIBC__) || defined(RTLD_DI_LINKMAP))
    struct link_map *map = NULL;
    if (lib && dlinfo(lib->handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name &&
        *map->l_name) {
        char *real = realpath(map->l_name, NULL);
        char *out = dl_strdup(real ? real : map->l_name);
        free(real);
        return out;
    }
#else
    (void)lib;
#endif
    return NULL;
}

void dl_lib_close(dl_lib *lib)
{
    if (!lib)
        return;
    dlclose(lib->handle);
    free(lib);
}

const char *dl_lib_name_nvml(void)
{
    return "libnvidia-ml.so.1";
}

const char *dl_lib_name_cuda(void)
{
    return "libcuda.so.1";
}
