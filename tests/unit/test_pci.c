/* The PCI GPU probe and the pci.ids reader, on fixture roots under data/pci/ and on this
 * machine's real /sys and pci.ids. */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L /* mkdtemp, for the empty-bus root made at run time */
#endif

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_run.h"

#include "base/str.h"
#include "facts/facts.h"
#include "os/os.h"
#include "probe/system/pci_ids.h"
#include "probe/probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(_WIN32)
#include <sys/stat.h>
#include <unistd.h>
#endif

#define DATA DLENV_TEST_DATA "/unit/data/pci/"
#define FIXTURE_IDS "/usr/share/misc/pci.ids"

typedef dl_test_run run;

static void open_root(dl_machine *m, const char *root)
{
    char *error = NULL;
    if (!dl_machine_open(m, root, &error))
        fail_msg("cannot open root %s: %s", root, error);
}

static void probe_root(run *r, const char *root)
{
    dl_test_run_open(r, root);
    dl_probe_pci(&r->ctx, &r->f, &r->out);
}

static const dl_pci_gpu *gpu_at(const run *r, size_t i)
{
    assert_true(r->f.gpus.known);
    assert_true(i < r->f.gpus.count);
    return &DL_LIST_AT(r->f.gpus, dl_pci_gpu, i);
}

static void assert_text(const dl_text *t, const char *value)
{
    assert_non_null(t->value);
    assert_string_equal(t->value, value);
    assert_null(t->why);
}

static void assert_unknown_text(const dl_text *t, const char *why)
{
    assert_null(t->value);
    assert_non_null(t->why);
    assert_string_equal(t->why, why);
}

static void assert_int(const dl_int *v, long long value)
{
    assert_true(v->known);
    assert_int_equal(v->value, value);
    assert_null(v->why);
}

static void assert_flag_absent(const dl_flag *v)
{
    assert_false(v->known);
    assert_null(v->why);
}

/* ---- the fixture machine with five display devices and a network card ------------------ */

static void test_mixed_keeps_display_devices_in_address_order(void **state)
{
    static const char *const want[] = {"0000:00:02.0", "0000:01:00.0", "0000:03:00.0",
                                       "0000:04:00.0", "0000:05:00.0"};
    run r;
    size_t i;
    (void)state;
    probe_root(&r, DATA "mixed");
    assert_int_equal(r.out.status, DL_PROBE_OK);
    assert_null(r.out.detail);
    assert_int_equal(r.f.gpus.count, 5); /* the 0x020000 network card is not one */
    for (i = 0; i < 5; i++)
        assert_text(&gpu_at(&r, i)->address, want[i]);
    assert_text(&r.f.pci_ids, FIXTURE_IDS);
    dl_test_run_free(&r);
}

static void test_mixed_nvidia_3d_controller(void **state)
{
    run r;
    const dl_pci_gpu *g;
    (void)state;
    probe_root(&r, DATA "mixed");
    g = gpu_at(&r, 1);
    assert_int(&g->class_code, 0x030200);
    assert_text(&g->class_name, "3D controller");
    assert_int(&g->vendor_id, 0x10de);
    assert_int(&g->device_id, 0x2684);
    assert_int(&g->subsystem_vendor_id, 0x1043);
    assert_int(&g->subsystem_device_id, 0x8701);
    assert_text(&g->vendor_name, "NVIDIA Corporation");
    assert_text(&g->device_name, "AD102 [GeForce RTX 4090]");
    /* The same subsystem ids under device 1eb8 come first in the file. */
    assert_text(&g->subsystem_name, "ROG Strix GeForce RTX 4090 OC Edition");
    assert_text(&g->driver, "nvidia");
    assert_flag_absent(&g->boot_vga);
    dl_test_run_free(&r);
}

static void test_mixed_amd_vga_boot_display(void **state)
{
    run r;
    const dl_pci_gpu *g;
    (void)state;
    probe_root(&r, DATA "mixed");
    g = gpu_at(&r, 2);
    assert_int(&g->class_code, 0x030000);
    assert_text(&g->class_name, "VGA compatible controller");
    assert_int(&g->vendor_id, 0x1002);
    assert_int(&g->device_id, 0x744c);
    assert_text(&g->vendor_name, "Advanced Micro Devices, Inc. [AMD/ATI]");
    assert_text(&g->device_name, "Navi 31 [Radeon RX 7900 XT/7900 XTX/7900 GRE/7900M]");
    assert_text(&g->subsystem_name, "Radeon RX 7900 XTX");
    assert_text(&g->driver, "amdgpu");
    assert_true(g->boot_vga.known);
    assert_true(g->boot_vga.value);
    dl_test_run_free(&r);
}

static void test_mixed_intel_without_driver_and_latin1_name(void **state)
{
    run r;
    const dl_pci_gpu *g;
    (void)state;
    probe_root(&r, DATA "mixed");
    g = gpu_at(&r, 0);
    assert_int(&g->vendor_id, 0x8086);
    assert_text(&g->driver, "none");
    assert_flag_absent(&g->boot_vga);
    assert_text(&g->vendor_name, "Intel Corporation");
    /* The file holds the latin-1 byte 0xE9; the fact must be valid UTF-8. */
    assert_text(&g->device_name, "Alder Lake-P GT2 [Iris Xe Graphics] (r\\xE9vision)");
    assert_true(dl_utf8_valid(g->device_name.value, strlen(g->device_name.value)));
    assert_unknown_text(&g->subsystem_name,
                        "pci.ids has no entry for 8086:46a6 subsystem 8086:3024");
    dl_test_run_free(&r);
}

static void test_mixed_garbage_ids(void **state)
{
    run r;
    const dl_pci_gpu *g;
    (void)state;
    probe_root(&r, DATA "mixed");
    g = gpu_at(&r, 3);
    assert_int(&g->class_code, 0x038000);
    assert_text(&g->class_name, "Display controller");
    assert_false(g->vendor_id.known);
    assert_int_equal(g->vendor_id.value, 0);
    assert_string_equal(g->vendor_id.why,
                        "/sys/bus/pci/devices/0000:04:00.0/vendor holds 'zzzz', not a hex id");
    /* 100 bytes of garbage are quoted as their first 32. */
    assert_false(g->device_id.known);
    assert_string_equal(g->device_id.why, "/sys/bus/pci/devices/0000:04:00.0/device holds "
                                          "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...', not a hex id");
    assert_int(&g->subsystem_vendor_id, 0);
    assert_unknown_text(&g->vendor_name, "the vendor id is unknown");
    assert_unknown_text(&g->device_name, "the vendor or device id is unknown");
    assert_unknown_text(&g->subsystem_name, "the device or subsystem ids are unknown");
    assert_text(&g->driver, "none");
    dl_test_run_free(&r);
}

static void test_mixed_unknown_device_name(void **state)
{
    run r;
    const dl_pci_gpu *g;
    (void)state;
    probe_root(&r, DATA "mixed");
    g = gpu_at(&r, 4);
    assert_text(&g->vendor_name, "NVIDIA Corporation");
    /* 2bff is only in a second 10de block that a reader stopping after the first block,
     * as it must, never takes. */
    assert_unknown_text(&g->device_name, "pci.ids has no entry for 10de:2bff");
    assert_unknown_text(&g->subsystem_name,
                        "pci.ids has no entry for 10de:2bff subsystem 10de:0000");
    dl_test_run_free(&r);
}

/* ---- other fixture machines ------------------------------------------------------------ */

static void test_no_pci_ids(void **state)
{
    run r;
    const dl_pci_gpu *g;
    (void)state;
    probe_root(&r, DATA "noids");
    assert_int_equal(r.out.status, DL_PROBE_OK);
    assert_int_equal(r.f.gpus.count, 1);
    assert_unknown_text(&r.f.pci_ids,
                        "no pci.ids found (looked in /usr/share/misc/pci.ids, "
                        "/usr/share/hwdata/pci.ids, /usr/share/pci.ids, "
                        "/usr/local/share/pci.ids, /var/lib/pciutils/pci.ids)");
    g = gpu_at(&r, 0);
    assert_int(&g->vendor_id, 0x10de);
    assert_text(&g->driver, "nvidia");
    assert_unknown_text(&g->vendor_name, "no pci.ids found");
    assert_unknown_text(&g->device_name, "no pci.ids found");
    assert_unknown_text(&g->subsystem_name, "no pci.ids found");
    dl_test_run_free(&r);
}

static void test_bad_class_is_skipped_and_reported(void **state)
{
    run r;
    const dl_pci_gpu *g;
    (void)state;
    probe_root(&r, DATA "badclass");
    assert_int_equal(r.f.gpus.count, 1);
    g = gpu_at(&r, 0);
    assert_text(&g->address, "0000:01:00.0");
    assert_text(&g->driver, "nvidia"); /* the link text ends in a slash */
    assert_int_equal(r.out.status, DL_PROBE_FAILED);
    assert_non_null(r.out.detail);
    assert_string_equal(r.out.detail,
                        "skipped 1 PCI device whose class could not be read "
                        "(/sys/bus/pci/devices/0000:00:01.0/class holds 'hello', not a hex id)");
    dl_test_run_free(&r);
}

static void test_first_pci_ids_location_wins(void **state)
{
    run r;
    const dl_pci_gpu *g;
    (void)state;
    probe_root(&r, DATA "badclass"); /* in hwdata and in pciutils */
    assert_text(&r.f.pci_ids, "/usr/share/hwdata/pci.ids");
    g = gpu_at(&r, 0);
    assert_text(&g->vendor_name, "NVIDIA Corporation (hwdata)");
    assert_text(&g->device_name, "AD102 (hwdata)");
    dl_test_run_free(&r);
}

static void test_no_sys(void **state)
{
    run r;
    (void)state;
    probe_root(&r, DATA "nosys");
    assert_false(r.f.gpus.known);
    assert_int_equal(r.f.gpus.count, 0);
    assert_non_null(r.f.gpus.why);
    assert_non_null(strstr(r.f.gpus.why, "cannot list /sys/bus/pci/devices"));
    assert_int_equal(r.out.status, DL_PROBE_NOT_PRESENT);
    assert_non_null(r.out.detail);
    assert_string_equal(r.out.detail, r.f.gpus.why);
    assert_null(r.f.pci_ids.value);
    assert_non_null(r.f.pci_ids.why);
    dl_test_run_free(&r);
}

#if !defined(_WIN32)
/* Git keeps no empty directories, so the empty bus is made here. */
static char *make_empty_bus(void)
{
    char tmpl[] = "/tmp/dlenv-pci-XXXXXX";
    const char *parts[] = {"/sys", "/sys/bus", "/sys/bus/pci", "/sys/bus/pci/devices"};
    char *root;
    size_t i;
    assert_non_null(mkdtemp(tmpl));
    root = dl_strdup(tmpl);
    for (i = 0; i < 4; i++) {
        char *dir = dl_fmt("%s%s", root, parts[i]);
        assert_int_equal(mkdir(dir, 0700), 0);
        free(dir);
    }
    return root;
}

static void remove_empty_bus(char *root)
{
    const char *parts[] = {"/sys/bus/pci/devices", "/sys/bus/pci", "/sys/bus", "/sys", ""};
    size_t i;
    for (i = 0; i < 5; i++) {
        char *dir = dl_fmt("%s%s", root, parts[i]);
        chmod(dir, 0700);
        rmdir(dir);
        free(dir);
    }
    free(root);
}

static void test_empty_bus_is_known_empty(void **state)
{
    char *root = make_empty_bus();
    run r;
    (void)state;
    probe_root(&r, root);
    assert_true(r.f.gpus.known);
    assert_null(r.f.gpus.why);
    assert_int_equal(r.f.gpus.count, 0);
    assert_int_equal(r.out.status, DL_PROBE_OK);
    dl_test_run_free(&r);
    remove_empty_bus(root);
}

static void test_unreadable_bus(void **state)
{
    char *root;
    char *devices;
    run r;
    (void)state;
    if (geteuid() == 0)
        skip(); /* root reads a mode-000 directory anyway */
    root = make_empty_bus();
    devices = dl_fmt("%s/sys/bus/pci/devices", root);
    assert_int_equal(chmod(devices, 0), 0);
    probe_root(&r, root);
    assert_false(r.f.gpus.known);
    assert_non_null(r.f.gpus.why);
    assert_int_equal(r.out.status, DL_PROBE_NO_PERMISSION);
    dl_test_run_free(&r);
    free(devices);
    remove_empty_bus(root);
}
#endif

/* ---- the pci.ids reader on its own ------------------------------------------------------- */

static dl_pci_ids_query query(long vendor, long device, long subvendor, long subdevice)
{
    dl_pci_ids_query q;
    memset(&q, 0, sizeof q);
    q.vendor = vendor;
    q.device = device;
    q.subvendor = subvendor;
    q.subdevice = subdevice;
    return q;
}

static void assert_name(const char *got, const char *want)
{
    if (!want) {
        assert_null(got);
        return;
    }
    assert_non_null(got);
    assert_string_equal(got, want);
}

static void test_lookup_many_in_one_pass(void **state)
{
    dl_machine m;
    dl_io_error err = {DL_IO_OK, NULL};
    dl_pci_ids_query q[6];
    size_t i;
    (void)state;
    open_root(&m, DATA "mixed");
    q[0] = query(0x10de, 0x2684, 0x1043, 0x8701);
    q[1] = query(0x1002, 0x67df, 0x1002, 0x0b37);
    q[2] = query(0x10de, 0x1eb8, 0x1043, 0x8701);
    q[3] = query(0x0010, 0x8139, -1, -1); /* a comment line sits before the device */
    q[4] = query(0x1002, -1, -1, -1);
    q[5] = query(0x10de, 0x2684, 0x10de, 0x1111);
    assert_true(dl_pci_ids_lookup(&m, FIXTURE_IDS, q, 6, &err));
    assert_name(q[0].vendor_name, "NVIDIA Corporation");
    assert_name(q[0].device_name, "AD102 [GeForce RTX 4090]");
    assert_name(q[0].subsystem_name, "ROG Strix GeForce RTX 4090 OC Edition");
    assert_name(q[1].device_name, "Ellesmere [Radeon RX 470/480/570/570X/580/580X/590]");
    assert_name(q[1].subsystem_name, "Radeon RX 580");
    assert_name(q[2].device_name, "TU104GL [Tesla T4]");
    assert_name(q[2].subsystem_name, "Wrong subsystem (belongs to 1eb8)");
    assert_name(q[3].vendor_name, "Allied Telesis, Inc (Wrong ID)");
    assert_name(q[3].device_name, "AT-2500TX V3 Ethernet");
    assert_name(q[4].vendor_name, "Advanced Micro Devices, Inc. [AMD/ATI]");
    assert_name(q[4].device_name, NULL);
    assert_name(q[5].device_name, "AD102 [GeForce RTX 4090]");
    assert_name(q[5].subsystem_name, NULL);
    for (i = 0; i < 6; i++)
        dl_pci_ids_query_free(&q[i]);
    dl_machine_close(&m);
}

static void test_lookup_class_section_is_not_vendors(void **state)
{
    dl_machine m;
    dl_io_error err = {DL_IO_OK, NULL};
    dl_pci_ids_query q = query(0xc0de, 0x0001, -1, -1);
    (void)state;
    open_root(&m, DATA "mixed");
    assert_true(dl_pci_ids_lookup(&m, FIXTURE_IDS, &q, 1, &err));
    assert_name(q.vendor_name, NULL);
    assert_name(q.device_name, NULL);
    dl_pci_ids_query_free(&q);
    dl_machine_close(&m);
}

/* A vendor's block is taken once: reading on for another vendor (ffff comes last) must not
 * take devices from a later block with the same vendor id. */
static void test_lookup_vendor_block_taken_once(void **state)
{
    dl_machine m;
    dl_io_error err = {DL_IO_OK, NULL};
    dl_pci_ids_query q[2];
    (void)state;
    open_root(&m, DATA "mixed");
    q[0] = query(0x10de, 0x2bff, -1, -1);
    q[1] = query(0xffff, -1, -1, -1);
    assert_true(dl_pci_ids_lookup(&m, FIXTURE_IDS, q, 2, &err));
    assert_name(q[0].vendor_name, "NVIDIA Corporation");
    assert_name(q[0].device_name, NULL);
    assert_name(q[1].vendor_name, "Illegal Vendor ID");
    dl_pci_ids_query_free(&q[0]);
    dl_pci_ids_query_free(&q[1]);
    dl_machine_close(&m);
}

static void test_lookup_missing_file(void **state)
{
    dl_machine m;
    dl_io_error err = {DL_IO_OK, NULL};
    dl_pci_ids_query q = query(0x10de, 0x2684, -1, -1);
    (void)state;
    open_root(&m, DATA "noids");
    assert_null(dl_pci_ids_find(&m));
    assert_false(dl_pci_ids_lookup(&m, FIXTURE_IDS, &q, 1, &err));
    assert_int_equal(err.status, DL_IO_NOT_FOUND);
    assert_non_null(strstr(err.message, FIXTURE_IDS));
    assert_name(q.vendor_name, NULL);
    dl_io_error_clear(&err);
    /* Nothing to look up: the file is not even opened. */
    q = query(-1, 0x2684, -1, -1);
    assert_true(dl_pci_ids_lookup(&m, FIXTURE_IDS, &q, 1, &err));
    assert_name(q.vendor_name, NULL);
    dl_machine_close(&m);
}

/* ---- this machine ------------------------------------------------------------------------- */

/* Counts display-class devices the plain way, to hold the probe to. */
static size_t count_display_devices(const dl_machine *m)
{
    char **names = NULL;
    size_t count = 0, i, displays = 0;
    if (!dl_fs_list(m, "/sys/bus/pci/devices", &names, &count, NULL))
        return 0;
    for (i = 0; i < count; i++) {
        char *path = dl_fmt("/sys/bus/pci/devices/%s/class", names[i]), *text = NULL;
        if (dl_fs_read(m, path, 64, &text, NULL, NULL, NULL) &&
            (strtoul(text, NULL, 16) >> 16) == 0x03)
            displays++;
        free(text);
        free(path);
    }
    dl_fs_list_free(names, count);
    return displays;
}

static void test_this_machine(void **state)
{
    run r;
    size_t i;
    double start;
    (void)state;
#if !defined(__linux__)
    skip();
#endif
    start = dl_clock_ms();
    probe_root(&r, "/");
    print_message("pci probe on this machine: %.2f ms, %lu GPU(s), pci.ids %s\n",
                  dl_clock_ms() - start, (unsigned long)r.f.gpus.count,
                  r.f.pci_ids.value ? r.f.pci_ids.value : r.f.pci_ids.why);
    assert_true(r.f.gpus.known);
    assert_int_equal(r.out.status, DL_PROBE_OK);
    /* This development machine has only virtio devices; a GPU machine has its GPUs. */
    assert_int_equal(r.f.gpus.count, count_display_devices(&r.m));
    if (dl_fs_kind_of(&r.m, "/usr/share/misc/pci.ids", NULL) == DL_FS_FILE)
        assert_text(&r.f.pci_ids, "/usr/share/misc/pci.ids");
    for (i = 0; i < r.f.gpus.count; i++) {
        const dl_pci_gpu *g = gpu_at(&r, i);
        assert_true(g->vendor_id.known && g->device_id.known);
        assert_true(g->driver.value || g->driver.why);
        assert_true(g->vendor_name.value || g->vendor_name.why);
        assert_true(g->device_name.value || g->device_name.why);
    }
    dl_test_run_free(&r);
}

static void test_real_pci_ids(void **state)
{
    dl_machine m;
    dl_io_error err = {DL_IO_OK, NULL};
    dl_pci_ids_query q[2];
    const char *db;
    double start;
    (void)state;
    open_root(&m, "/");
    db = dl_pci_ids_find(&m);
    if (!db) {
        dl_machine_close(&m);
        skip();
    }
    q[0] = query(0x10de, 0x2684, -1, -1);
    q[1] = query(0x1002, -1, -1, -1);
    start = dl_clock_ms();
    assert_true(dl_pci_ids_lookup(&m, db, q, 2, &err));
    print_message("lookup of 10de:2684 and 1002 in %s: %.2f ms\n", db, dl_clock_ms() - start);
    assert_non_null(q[0].vendor_name);
    assert_non_null(q[0].device_name);
    assert_non_null(strstr(q[0].device_name, "AD102"));
    assert_non_null(q[1].vendor_name);
    assert_non_null(strstr(q[1].vendor_name, "Advanced Micro Devices"));
    dl_pci_ids_query_free(&q[0]);
    dl_pci_ids_query_free(&q[1]);
    dl_machine_close(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mixed_keeps_display_devices_in_address_order),
        cmocka_unit_test(test_mixed_nvidia_3d_controller),
        cmocka_unit_test(test_mixed_amd_vga_boot_display),
        cmocka_unit_test(test_mixed_intel_without_driver_and_latin1_name),
        cmocka_unit_test(test_mixed_garbage_ids),
        cmocka_unit_test(test_mixed_unknown_device_name),
        cmocka_unit_test(test_no_pci_ids),
        cmocka_unit_test(test_bad_class_is_skipped_and_reported),
        cmocka_unit_test(test_first_pci_ids_location_wins),
        cmocka_unit_test(test_no_sys),
#if !defined(_WIN32)
        cmocka_unit_test(test_empty_bus_is_known_empty),
        cmocka_unit_test(test_unreadable_bus),
#endif
        cmocka_unit_test(test_lookup_many_in_one_pass),
        cmocka_unit_test(test_lookup_class_section_is_not_vendors),
        cmocka_unit_test(test_lookup_vendor_block_taken_once),
        cmocka_unit_test(test_lookup_missing_file),
        cmocka_unit_test(test_this_machine),
        cmocka_unit_test(test_real_pci_ids),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
