/* Windows settings that decide whether torch loads and runs well: GPU scheduling, long
 * paths, developer mode, the Visual C++ runtime torch's DLLs link against, and the paging
 * file that backs the memory those DLLs commit. */
#include "probe/probe.h"

#include "base/str.h"
#include "os/registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GRAPHICS_DRIVERS "HKLM\\SYSTEM\\CurrentControlSet\\Control\\GraphicsDrivers"
#define FILE_SYSTEM "HKLM\\SYSTEM\\CurrentControlSet\\Control\\FileSystem"
#define APP_MODEL_UNLOCK "HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\AppModelUnlock"
#define VC_RUNTIME "HKLM\\SOFTWARE\\Microsoft\\VisualStudio\\14.0\\VC\\Runtimes\\x64"
#define VC_RUNTIME_WOW "HKLM\\SOFTWARE\\WOW6432Node\\Microsoft\\VisualStudio\\14.0\\VC\\Runtimes\\x64"
#define MEMORY_MANAGEMENT \
    "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Memory Management"

/* A DWORD switch: on when it equals `on`; absent means the system default, off. */
static void read_switch(const dl_machine *m, dl_flag *flag, const char *key, const char *value, uint32_t on)
{
    uint32_t v = 0;
    if (dl_reg_dword(m, key, value, &v))
        dl_flag_set(flag, v == on);
    else
        dl_flag_set(flag, false);
}

/* The redistributable's installer records Installed = 1 and Version = "v14.40.33810.00". */
static void read_vc_runtime(const dl_machine *m, dl_windows_facts *w)
{
    static const char *const keys[] = {VC_RUNTIME, VC_RUNTIME_WOW};
    size_t i;
    for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        uint32_t installed = 0;
        char *version = NULL;
        if (dl_reg_dword(m, keys[i], "Installed", &installed) && installed == 1 &&
            dl_reg_text(m, keys[i], "Version", &version) && *version) {
            dl_text_set(&w->vc_runtime_version, version[0] == 'v' ? version + 1 : version);
            free(version);
            return;
        }
        free(version);
    }
    dl_text_unknown(&w->vc_runtime_version,
                    "not installed: the registry has no %s with Installed = 1", VC_RUNTIME);
}

/* System32's msvcp140.dll, the runtime torch's DLLs load: its file version. */
static void read_msvcp140(dl_windows_facts *w)
{
    char *why = NULL, *version = dl_system_dll_version("msvcp140.dll", &why);
    if (version)
        dl_text_set(&w->msvcp140, version);
    else
        dl_text_unknown(&w->msvcp140, "%s", why);
    free(version);
    free(why);
}

/* PagingFiles entries: "C:\pagefile.sys 1024 4096" (initial and maximum MB), "... 0 0"
 * (that file system-managed), "?:\pagefile.sys" (all automatic); none: no paging file. */
static void read_pagefile(const dl_machine *m, dl_windows_facts *w)
{
    dl_strv files = {NULL, 0};
    dl_buf text = {0};
    long long max_mb = 0;
    bool managed = false;
    size_t i;
    if (!dl_reg_multi(m, MEMORY_MANAGEMENT, "PagingFiles", &files)) {
        dl_text_unknown(&w->pagefile, "the registry has no PagingFiles value");
        dl_flag_unknown(&w->pagefile_system_managed, "the registry has no PagingFiles value");
        dl_int_unknown(&w->pagefile_max_bytes, "the registry has no PagingFiles value");
        return;
    }
    for (i = 0; i < files.n; i++) {
        const char *e = files.v[i];
        const char *space = strchr(e, ' ');
        long long initial = 0, maximum = 0;
        if (!*e)
            continue;
        dl_buf_printf(&text, "%s%s", text.len ? "; " : "", e);
        if (e[0] == '?' || !space) {
            managed = true;
            continue;
        }
        if (sscanf(space, "%lld %lld", &initial, &maximum) == 2 && maximum > 0)
            max_mb += maximum;
        else
            managed = true;
    }
    dl_text_set(&w->pagefile, text.len ? text.data : "none (no paging file)");
    dl_flag_set(&w->pagefile_system_managed, managed);
    if (managed)
        dl_int_unknown(&w->pagefile_max_bytes, "system-managed: Windows grows it as needed");
    else
        dl_int_set(&w->pagefile_max_bytes, max_mb * 1024 * 1024);
    dl_buf_free(&text);
    dl_strv_free(&files);
}

void dl_probe_windows_settings(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out)
{
    const dl_machine *m = ctx->machine;
    dl_windows_facts *w = &f->os.windows;
    (void)out;
    read_switch(m, &w->hags, GRAPHICS_DRIVERS, "HwSchMode", 2);
    read_switch(m, &w->long_paths, FILE_SYSTEM, "LongPathsEnabled", 1);
    read_switch(m, &w->developer_mode, APP_MODEL_UNLOCK, "AllowDevelopmentWithoutDevLicense", 1);
    read_vc_runtime(m, w);
    read_msvcp140(w);
    read_pagefile(m, w);
}
