/* The display adapters DXGI lists, with their dedicated memory and LUID. */
#define COBJMACROS
#include "os/os.h"

#include "base/str.h"

#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <dxgi.h>

#include <stdlib.h>

typedef HRESULT(WINAPI *create_factory_fn)(REFIID, void **);

/* dxgi.dll is not a KnownDLL: loaded here from System32 (dl_lib_open), never imported,
 * which would look beside dlenv.exe first. */
bool dl_dxgi_adapters(dl_dxgi_adapter **out, size_t *count)
{
    IDXGIFactory1 *factory = NULL;
    IDXGIAdapter1 *adapter = NULL;
    char *why = NULL;
    dl_lib *lib = dl_lib_open("dxgi.dll", &why);
    create_factory_fn create = lib ? (create_factory_fn)dl_lib_sym(lib, "CreateDXGIFactory1")
                                   : NULL;
    UINT i;
    free(why); /* no DXGI: the caller goes without memory and LUID */
    *out = NULL;
    *count = 0;
    if (!create || FAILED(create(&IID_IDXGIFactory1, (void **)&factory))) {
        dl_lib_close(lib);
        return false;
    }
    for (i = 0; IDXGIFactory1_EnumAdapters1(factory, i, &adapter) != DXGI_ERROR_NOT_FOUND; i++) {
        DXGI_ADAPTER_DESC1 d;
        dl_dxgi_adapter *a;
        if (FAILED(IDXGIAdapter1_GetDesc1(adapter, &d))) {
            IDXGIAdapter1_Release(adapter);
            continue;
        }
        *out = dl_xrealloc(*out, (*count + 1) * sizeof **out);
        a = &(*out)[(*count)++];
        a->vendor_id = d.VendorId;
        a->device_id = d.DeviceId;
        a->luid_high = (unsigned long)d.AdapterLuid.HighPart;
        a->luid_low = (unsigned long)d.AdapterLuid.LowPart;
        a->dedicated_memory = (unsigned long long)d.DedicatedVideoMemory;
        IDXGIAdapter1_Release(adapter);
    }
    IDXGIFactory1_Release(factory);
    dl_lib_close(lib);
    return true;
}

