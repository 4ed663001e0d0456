/* DXGI is Windows': elsewhere it lists nothing. */
#include "os/os.h"

bool dl_dxgi_adapters(dl_dxgi_adapter **out, size_t *count)
{
    *out = NULL;
    *count = 0;
    return false;
}
