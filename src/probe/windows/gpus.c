/* Display adapters on Windows, without any vendor library: every adapter Windows installed
 * a driver for has a key under the Display device class, with the driver's version, date
 * and provider and the PCI ids it matched; DXGI adds each adapter's dedicated memory and
 * LUID. The registry decides what is listed (DXGI also lists software renderers). */
#include "probe/probe.h"

#include "base/str.h"
#include "know/version.h"
#include "os/registry.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DISPLAY_CLASS \
    "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Class\\{4d36e968-e325-11ce-bfc1-08002be10318}"

static bool starts_ci(const char *s, const char *prefix)
{
    for (; *prefix; s++, prefix++)
        if (tolower((unsigned char)*s) != tolower((unsigned char)*prefix))
            return false;
    return true;
}

/* "PCI\VEN_10DE&DEV_2684&SUBSYS_16F310DE&REV_A1": the number after key, or -1. */
static long long id_after(const char *text, const char *key)
{
    const char *p;
    for (p = text; *p; p++)
        if (starts_ci(p, key))
            return strtoll(p + strlen(key), NULL, 16);
    return -1;
}

static void set_id(dl_int *v, long long id, const char *what)
{
    if (id >= 0)
        dl_int_set(v, id);
    else
        dl_int_unknown(v, "the driver's MatchingDeviceId names no %s", what);
}

static void set_reg(const dl_machine *m, dl_text *t, const char *key, const char *value)
{
    char *v = NULL;
    if (dl_reg_text(m, key, value, &v) && *v)
        dl_text_set(t, v);
    else
        dl_text_unknown(t, "the adapter's driver key has no %s", value);
    free(v);
}

static void read_ids(const dl_machine *m, dl_pci_gpu *g, const char *key)
{
    char *match = NULL;
    long long subsys;
    dl_reg_text(m, key, "MatchingDeviceId", &match);
    if (!match)
        match = dl_strdup("");
    subsys = id_after(match, "SUBSYS_");
    set_id(&g->vendor_id, id_after(match, "VEN_"), "vendor (VEN_)");
    set_id(&g->device_id, id_after(match, "DEV_"), "device (DEV_)");
    /* SUBSYS_ddddvvvv: the subsystem device, then its vendor */
    if (subsys >= 0) {
        dl_int_set(&g->subsystem_device_id, (subsys >> 16) & 0xffff);
        dl_int_set(&g->subsystem_vendor_id, subsys & 0xffff);
    } else {
        dl_int_unknown(&g->subsystem_device_id, "the driver matched without SUBSYS_");
        dl_int_unknown(&g->subsystem_vendor_id, "the driver matched without SUBSYS_");
    }
    free(match);
}

/* NVIDIA's number hides in the Windows one: 31.0.15.3598 -> 535.98. */
static void read_driver(const dl_machine *m, dl_pci_gpu *g, const char *key)
{
    set_reg(m, &g->driver_version, key, "DriverVersion");
    set_reg(m, &g->driver_date, key, "DriverDate");
    set_reg(m, &g->driver, key, "ProviderName");
    if (g->vendor_id.known && g->vendor_id.value == 0x10de && g->driver_version.value) {
        char nvidia[32];
        if (dl_driver_from_windows(g->driver_version.value, nvidia, sizeof nvidia))
            dl_text_set(&g->nvidia_driver_version, nvidia);
    }
}

static void add_adapter(const dl_machine *m, dl_facts *f, const char *key)
{
    dl_pci_gpu *g = dl_list_push(&f->gpus, sizeof *g);
    dl_text_set(&g->source, "registry");
    dl_text_unknown(&g->address, "Windows lists display adapters by driver, not by PCI address");
    dl_int_unknown(&g->class_code, "the Display device class holds VGA and 3D controllers alike");
    dl_text_set(&g->class_name, "Display adapter");
    read_ids(m, g, key);
    set_reg(m, &g->device_name, key, "DriverDesc");
    read_driver(m, g, key);
    dl_text_unknown(&g->vendor_name, "no PCI name database on Windows: see the device name");
    dl_text_unknown(&g->subsystem_name, "no PCI name database on Windows");
}

/* DXGI's view of the same adapters (os/dxgi_win.c): memory and LUID, matched by vendor and
 * device id. None off Windows: the registry's facts stand, without memory and LUID. */
static void add_dxgi_details(dl_facts *f)
{
    dl_dxgi_adapter *adapters = NULL;
    size_t n = 0, i, j;
    if (!dl_dxgi_adapters(&adapters, &n))
        return;
    for (i = 0; i < n; i++) {
        const dl_dxgi_adapter *d = &adapters[i];
        for (j = 0; j < f->gpus.count; j++) {
            dl_pci_gpu *g = &DL_LIST_AT(f->gpus, dl_pci_gpu, j);
            if (g->vendor_id.known && g->vendor_id.value == d->vendor_id && g->device_id.known &&
                g->device_id.value == d->device_id && !g->luid.value) {
                char luid[40];
                snprintf(luid, sizeof luid, "0x%08lx:0x%08lx", (unsigned long)d->luid_high,
                         (unsigned long)d->luid_low);
                dl_text_set(&g->luid, luid);
                dl_int_set(&g->dedicated_memory_bytes, (long long)d->dedicated_memory);
                break;
            }
        }
    }
    free(adapters);
}

static bool is_instance_name(const char *name)
{
    return strlen(name) == 4 && isdigit((unsigned char)name[0]) &&
           isdigit((unsigned char)name[3]);
}

void dl_probe_gpus_windows(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out)
{
    dl_strv keys = {NULL, 0};
    size_t i;
    dl_list_known(&f->gpus);
    dl_text_unknown(&f->pci_ids, "not used on Windows: names come from the drivers");
    if (!dl_reg_subkeys(ctx->machine, DISPLAY_CLASS, &keys)) {
        dl_probe_note(out, DL_PROBE_FAILED, "cannot open the Display device class key");
        return;
    }
    for (i = 0; i < keys.n; i++) {
        if (is_instance_name(keys.v[i])) {
            char *key = dl_fmt("%s\\%s", DISPLAY_CLASS, keys.v[i]);
            add_adapter(ctx->machine, f, key);
            free(key);
        }
    }
    dl_strv_free(&keys);
    add_dxgi_details(f);
}
