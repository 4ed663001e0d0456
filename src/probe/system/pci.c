/* The GPUs on the PCI bus, read from sysfs and named from pci.ids. No vendor library is
 * loaded: this has to work when no driver is installed, which is when it is needed most. */
#include "probe/probe.h"

#include "base/str.h"
#include "probe/system/pci_ids.h"

#include <stdlib.h>
#include <string.h>

#define PCI_DEVICES "/sys/bus/pci/devices"
#define ATTR_MAX 256   /* sysfs attributes read here are one short line */
#define QUOTE_MAX 32   /* how much of a broken file a reason quotes */
#define CLASS_DISPLAY 0x03

/* ---- sysfs attributes ------------------------------------------------------------------ */

/* One sysfs attribute, trimmed; NULL with err set when it cannot be read. A file longer
 * than ATTR_MAX is reported through *truncated so it is never half-parsed. */
static char *read_attr(const dl_machine *m, const char *path, bool *truncated,
                       dl_io_error *err)
{
    char *data = NULL, *text;
    if (!dl_fs_read(m, path, ATTR_MAX, &data, NULL, truncated, err))
        return NULL;
    text = dl_strdup(dl_trim(data));
    free(data);
    return text;
}

/* A reason quotes what a broken file held, but only the start of it. */
static char *quote_of(const char *text)
{
    if (strlen(text) <= QUOTE_MAX)
        return dl_strdup(text);
    return dl_fmt("%.*s...", QUOTE_MAX, text);
}

/* A hex attribute ("0x10de\n") no larger than max. Returns DL_PROBE_OK, or the status
 * the failure means with *why set (caller frees). */
static dl_probe_status read_hex(const dl_machine *m, const char *path,
                                unsigned long long max, unsigned long long *value, char **why)
{
    dl_io_error err = {DL_IO_OK, NULL};
    bool truncated = false;
    char *text = read_attr(m, path, &truncated, &err);
    dl_probe_status st = DL_PROBE_OK;
    if (!text) {
        st = dl_probe_status_of_io(err.status);
        *why = dl_strdup(err.message);
    } else if (truncated || !dl_parse_u64(text, 16, value) || *value > max) {
        char *quote = quote_of(text);
        st = DL_PROBE_FAILED;
        *why = dl_fmt("%s holds '%s', not a hex id", path, quote);
        free(quote);
    }
    free(text);
    dl_io_error_clear(&err);
    return st;
}

static void read_id(const dl_machine *m, const char *dir, const char *name, dl_int *v)
{
    char *path = dl_fmt("%s/%s", dir, name), *why = NULL;
    unsigned long long id;
    if (read_hex(m, path, 0xFFFF, &id, &why) == DL_PROBE_OK)
        dl_int_set(v, (long long)id);
    else
        dl_int_unknown(v, "%s", why);
    free(why);
    free(path);
}

/* The driver link points into /sys/bus/pci/drivers/<name>; only its last part matters,
 * so a fixture's dangling link reads the same as a live one. */
static void set_driver_name(dl_text *t, char *target, const char *path)
{
    size_t len = strlen(target);
    const char *base;
    while (len && target[len - 1] == '/')
        target[--len] = '\0';
    base = strrchr(target, '/');
    base = base ? base + 1 : target;
    if (*base)
        dl_text_set(t, base);
    else
        dl_text_unknown(t, "%s points to '/', which names no driver", path);
}

static void read_driver(const dl_machine *m, const char *dir, dl_text *t)
{
    char *path = dl_fmt("%s/driver", dir), *target = NULL;
    dl_io_error err = {DL_IO_OK, NULL};
    if (dl_fs_readlink(m, path, &target, &err))
        set_driver_name(t, target, path);
    else if (err.status == DL_IO_NOT_FOUND)
        dl_text_set(t, "none"); /* the kernel removes the link when no driver is bound */
    else
        dl_text_unknown(t, "%s", err.message);
    free(target);
    free(path);
    dl_io_error_clear(&err);
}

/* boot_vga exists only for VGA-class devices on some platforms: no file, no flag. */
static void read_boot_vga(const dl_machine *m, const char *dir, dl_flag *v)
{
    char *path = dl_fmt("%s/boot_vga", dir), *text;
    dl_io_error err = {DL_IO_OK, NULL};
    bool truncated = false;
    text = read_attr(m, path, &truncated, &err);
    if (!text) {
        if (err.status != DL_IO_NOT_FOUND)
            dl_flag_unknown(v, "%s", err.message);
    } else if (!truncated && (strcmp(text, "0") == 0 || strcmp(text, "1") == 0)) {
        dl_flag_set(v, text[0] == '1');
    } else {
        char *quote = quote_of(text);
        dl_flag_unknown(v, "%s holds '%s', not 0 or 1", path, quote);
        free(quote);
    }
    free(text);
    free(path);
    dl_io_error_clear(&err);
}

/* The PCI specification's subclass names (the same words as pci.ids's "C 03" section),
 * so naming the class never needs the database. */
static const char *class_name_of(unsigned long long code)
{
    switch ((code >> 8) & 0xFF) {
    case 0x00: return "VGA compatible controller";
    case 0x01: return "XGA compatible controller";
    case 0x02: return "3D controller";
    default: return "Display controller";
    }
}

static void read_gpu(const dl_machine *m, const char *address, const char *dir,
                     unsigned long long class_code, dl_pci_gpu *g)
{
    dl_text_set(&g->address, address);
    dl_int_set(&g->class_code, (long long)class_code);
    dl_text_set(&g->class_name, class_name_of(class_code));
    read_id(m, dir, "vendor", &g->vendor_id);
    read_id(m, dir, "device", &g->device_id);
    read_id(m, dir, "subsystem_vendor", &g->subsystem_vendor_id);
    read_id(m, dir, "subsystem_device", &g->subsystem_device_id);
    read_driver(m, dir, &g->driver);
    read_boot_vga(m, dir, &g->boot_vga);
}

/* ---- the device list --------------------------------------------------------------------- */

/* Devices whose class cannot be read might be GPUs, so they are not dropped silently: the
 * count and the first reason go into the probe's outcome. */
typedef struct skipped {
    size_t count;
    dl_probe_status status;
    char *why;
} skipped;

static void skip_device(skipped *sk, dl_probe_status st, char *why)
{
    if (sk->count++ == 0) {
        sk->status = st;
        sk->why = why;
    } else {
        free(why);
    }
}

static void note_skipped(dl_probe_outcome *out, skipped *sk)
{
    char *detail;
    if (!sk->count)
        return;
    detail = dl_fmt("skipped %lu PCI device%s whose class could not be read (%s)",
                    (unsigned long)sk->count, sk->count == 1 ? "" : "s", sk->why);
    dl_probe_note(out, sk->status, detail);
    free(detail);
    free(sk->why);
}

static void scan_device(const dl_machine *m, dl_facts *f, const char *address, skipped *sk)
{
    char *dir = dl_fmt(PCI_DEVICES "/%s", address);
    char *path = dl_fmt("%s/class", dir), *why = NULL;
    unsigned long long class_code = 0;
    dl_probe_status st = read_hex(m, path, 0xFFFFFF, &class_code, &why);
    if (st != DL_PROBE_OK)
        skip_device(sk, st, why);
    else if ((class_code >> 16) == CLASS_DISPLAY)
        read_gpu(m, address, dir, class_code, dl_list_push(&f->gpus, sizeof(dl_pci_gpu)));
    free(path);
    free(dir);
}

/* ---- names ----------------------------------------------------------------------------------- */

static void names_unknown(dl_pci_gpu *g, const char *why)
{
    dl_text_unknown(&g->vendor_name, "%s", why);
    dl_text_unknown(&g->device_name, "%s", why);
    dl_text_unknown(&g->subsystem_name, "%s", why);
}

static long id_or_none(const dl_int *v)
{
    return v->known ? (long)v->value : -1;
}

static void fill_query(const dl_pci_gpu *g, dl_pci_ids_query *q)
{
    q->vendor = id_or_none(&g->vendor_id);
    q->device = id_or_none(&g->device_id);
    q->subvendor = id_or_none(&g->subsystem_vendor_id);
    q->subdevice = id_or_none(&g->subsystem_device_id);
}

static void apply_names(dl_pci_gpu *g, const dl_pci_ids_query *q)
{
    if (q->vendor < 0)
        dl_text_unknown(&g->vendor_name, "the vendor id is unknown");
    else if (q->vendor_name)
        dl_text_set(&g->vendor_name, q->vendor_name);
    else
        dl_text_unknown(&g->vendor_name, "pci.ids has no entry for %04lx", q->vendor);
    if (q->vendor < 0 || q->device < 0)
        dl_text_unknown(&g->device_name, "the vendor or device id is unknown");
    else if (q->device_name)
        dl_text_set(&g->device_name, q->device_name);
    else
        dl_text_unknown(&g->device_name, "pci.ids has no entry for %04lx:%04lx", q->vendor,
                        q->device);
    if (q->vendor < 0 || q->device < 0 || q->subvendor < 0 || q->subdevice < 0)
        dl_text_unknown(&g->subsystem_name, "the device or subsystem ids are unknown");
    else if (q->subsystem_name)
        dl_text_set(&g->subsystem_name, q->subsystem_name);
    else
        dl_text_unknown(&g->subsystem_name, "pci.ids has no entry for %04lx:%04lx subsystem "
                        "%04lx:%04lx", q->vendor, q->device, q->subvendor, q->subdevice);
}

/* All GPUs are named in one pass over the database. */
static void lookup_names(const dl_machine *m, dl_facts *f, const char *db,
                         dl_probe_outcome *out)
{
    size_t i, n = f->gpus.count;
    dl_pci_ids_query *q = dl_xcalloc(n, sizeof *q);
    dl_io_error err = {DL_IO_OK, NULL};
    bool ok;
    for (i = 0; i < n; i++)
        fill_query(&DL_LIST_AT(f->gpus, dl_pci_gpu, i), &q[i]);
    ok = dl_pci_ids_lookup(m, db, q, n, &err);
    if (!ok)
        dl_probe_note(out, dl_probe_status_of_io(err.status), err.message);
    for (i = 0; i < n; i++) {
        if (ok)
            apply_names(&DL_LIST_AT(f->gpus, dl_pci_gpu, i), &q[i]);
        else
            names_unknown(&DL_LIST_AT(f->gpus, dl_pci_gpu, i), err.message);
        dl_pci_ids_query_free(&q[i]);
    }
    free(q);
    dl_io_error_clear(&err);
}

static char *candidates_text(void)
{
    dl_buf b = {0};
    size_t i;
    for (i = 0; dl_pci_ids_paths[i]; i++)
        dl_buf_printf(&b, "%s%s", i ? ", " : "", dl_pci_ids_paths[i]);
    return dl_buf_take(&b);
}

/* A missing database is an ordinary fact of minimal systems, not a probe failure: it is
 * said in f->pci_ids and in each name's reason. */
static void no_database(dl_facts *f)
{
    char *looked = candidates_text();
    size_t i;
    dl_text_unknown(&f->pci_ids, "no pci.ids found (looked in %s)", looked);
    free(looked);
    for (i = 0; i < f->gpus.count; i++)
        names_unknown(&DL_LIST_AT(f->gpus, dl_pci_gpu, i), "no pci.ids found");
}

static void name_gpus(const dl_machine *m, dl_facts *f, dl_probe_outcome *out)
{
    const char *db = dl_pci_ids_find(m);
    if (!db) {
        no_database(f);
        return;
    }
    dl_text_set(&f->pci_ids, db);
    if (f->gpus.count)
        lookup_names(m, f, db, out);
}

void dl_probe_pci(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out)
{
    const dl_machine *m = ctx->machine;
    char **names = NULL;
    size_t count = 0, i;
    dl_io_error err = {DL_IO_OK, NULL};
    skipped sk = {0, DL_PROBE_OK, NULL};
    if (dl_fs_list(m, PCI_DEVICES, &names, &count, &err)) {
        dl_list_known(&f->gpus);
        /* dl_fs_list sorts, and fixed-width hex addresses sort bytewise by address. */
        for (i = 0; i < count; i++)
            scan_device(m, f, names[i], &sk);
        dl_fs_list_free(names, count);
    } else {
        dl_list_unknown(&f->gpus, "%s", err.message);
        dl_probe_note(out, dl_probe_status_of_io(err.status), err.message);
    }
    dl_io_error_clear(&err);
    name_gpus(m, f, out);
    note_skipped(out, &sk);
}
