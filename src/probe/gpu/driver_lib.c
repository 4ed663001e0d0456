#include "probe/gpu/driver_lib.h"

void *dl_driver_sym(dl_lib *lib, const char *newest, const char *older, dl_strv *lacking)
{
    void *p = dl_lib_sym(lib, newest);
    if (p)
        return p;
    if (lacking)
        dl_strv_add_once(lacking, newest);
    return older ? dl_lib_sym(lib, older) : NULL;
}
