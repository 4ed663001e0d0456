/* AMD and Intel GPUs by chip codename (data/gpu_codenames.csv), and every GPU id of the
 * generated data/pci_gpus.csv: each AMD display device in this machine's pci.ids resolves
 * to a gfx target by its codename or is in tests/plan/codenames_knowingly_unknown.tsv;
 * each id of the built-in table resolves (NVIDIA by chip, AMD/Intel by codename) or is
 * knowingly unknown, so a machine without pci.ids (Windows) gets the same answer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "know/gpu_chip.h"
#include "know/gpu_target.h"
#include "know/pci_gpus.h"
#include "plan/gpu_names.h"
#include "test_know.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_UNKNOWN 160

typedef struct unknown_list {
    char vendor[MAX_UNKNOWN][8];
    char prefix[MAX_UNKNOWN][48];
    size_t n;
} unknown_list;

/* "vendor<TAB>prefix<TAB>why" lines: NVIDIA's list (gpu_knowingly_unknown.tsv, no vendor
 * column) and AMD's and Intel's (codenames_knowingly_unknown.tsv). */
static void read_list(unknown_list *u, const char *file, const char *vendor)
{
    FILE *f = fopen(file, "r");
    char line[512];
    assert_non_null(f);
    while (fgets(line, sizeof line, f) && u->n < MAX_UNKNOWN) {
        char *p = line, *tab;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (!vendor) { /* vendor<TAB>prefix */
            tab = strchr(p, '\t');
            if (!tab || tab - p >= 8)
                continue;
            snprintf(u->vendor[u->n], sizeof u->vendor[0], "%.*s", (int)(tab - p), p);
            p = tab + 1;
        } else {
            snprintf(u->vendor[u->n], sizeof u->vendor[0], "%s", vendor);
        }
        tab = strchr(p, '\t');
        if (!tab || tab - p >= 48)
            continue;
        snprintf(u->prefix[u->n], sizeof u->prefix[0], "%.*s", (int)(tab - p), p);
        u->n++;
    }
    fclose(f);
}

static void read_unknown(unknown_list *u)
{
    u->n = 0;
    read_list(u, DLENV_TEST_DATA "/plan/gpu_knowingly_unknown.tsv", "nvidia");
    read_list(u, DLENV_TEST_DATA "/plan/codenames_knowingly_unknown.tsv", NULL);
}

static bool starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool knowingly_unknown(const unknown_list *u, const char *vendor, const char *name)
{
    size_t i;
    for (i = 0; i < u->n; i++)
        if (!strcmp(u->vendor[i], vendor) && starts(name, u->prefix[i]))
            return true;
    return false;
}

/* An AMD display device, judged by its marketing name only (not by the codename table
 * under test): a Radeon/FirePro/Instinct product, not the card's audio or USB function. */
static bool is_amd_display(const char *name)
{
    static const char *const not_gpu[] = {"Audio", "USB", "Bridge", "SMBus", "SATA",
                                          "Controller", "Switch", "Port", "Cryptographic"};
    static const char *const products[] = {"[Radeon", "Radeon ", "FirePro", "FireGL",
                                           "Instinct", "FireStream", "Mobility"};
    size_t i;
    for (i = 0; i < sizeof not_gpu / sizeof not_gpu[0]; i++)
        if (strstr(name, not_gpu[i]))
            return false;
    for (i = 0; i < sizeof products / sizeof products[0]; i++)
        if (strstr(name, products[i]))
            return true;
    return false;
}

static void every_amd_display_device_resolves(void **state)
{
    const char *path = getenv("DLENV_PCI_IDS") ? getenv("DLENV_PCI_IDS")
                                               : "/usr/share/misc/pci.ids";
    FILE *f = fopen(path, "r");
    char line[512], target[32];
    bool amd = false;
    unknown_list u;
    size_t gpus = 0, resolved = 0, unknown = 0, failed = 0;
    (void)state;
    if (!f)
        skip(); /* no pci.ids here (Windows, a minimal container) */
    read_unknown(&u);
    while (fgets(line, sizeof line, f)) {
        const char *name;
        line[strcspn(line, "\r\n")] = '\0';
        if (isxdigit((unsigned char)line[0])) {
            amd = starts(line, "1002  ");
            continue;
        }
        if (!amd || line[0] != '\t' || line[1] == '\t' || strlen(line) < 8)
            continue;
        name = line + 7; /* "\t744c  Navi 31 [...]" */
        if (!is_amd_display(name))
            continue;
        gpus++;
        if (dl_gpu_target_of_chip(&dl_test_know, "amd", name, strtol(line + 1, NULL, 16),
                                  target, sizeof target) &&
            !strncmp(target, "gfx", 3)) {
            resolved++;
        } else if (knowingly_unknown(&u, "amd", name)) {
            unknown++;
        } else {
            failed++;
            print_message("unresolved: 1002:%.4s %s\n", line + 1, name);
        }
    }
    fclose(f);
    print_message("%zu AMD display devices in %s: %zu resolve by codename, %zu knowingly "
                  "unknown\n", gpus, path, resolved, unknown);
    assert_true(gpus > 300);
    assert_true(resolved > 100);
    assert_int_equal(failed, 0);
}

/* Every id of the built-in table resolves by its chip, or is knowingly unknown: what a
 * Windows machine, which has no pci.ids, gets for a GPU on its bus. */
static void every_table_id_resolves(void **state)
{
    const dl_table *t = dl_knowledge_at(&dl_test_know, DL_TABLE_pci_gpus);
    unknown_list u;
    size_t r, resolved = 0, unknown = 0, failed = 0;
    (void)state;
    read_unknown(&u);
    assert_true(t->rows > 500);
    for (r = 0; r < t->rows; r++) {
        const char *vendor = dl_table_cell(t, r, DL_COL_pci_gpus_vendor);
        const char *chip = dl_table_cell(t, r, DL_COL_pci_gpus_chip);
        const char *key = !strcmp(vendor, "10de") ? "nvidia"
                          : !strcmp(vendor, "1002") ? "amd" : "intel";
        char target[32];
        dl_gpu_chip c;
        bool ok = !strcmp(key, "nvidia")
                      ? dl_gpu_chip_lookup(&dl_test_know, chip, &c)
                      : dl_gpu_target_of_chip(&dl_test_know, key, chip, -1, target,
                                              sizeof target);
        if (ok)
            resolved++;
        else if (knowingly_unknown(&u, key, chip))
            unknown++;
        else {
            failed++;
            print_message("unresolved: %s '%s' (%s)\n", vendor, chip,
                          dl_table_cell(t, r, DL_COL_pci_gpus_devices));
        }
    }
    print_message("%zu chips in data/pci_gpus.csv: %zu resolve, %zu knowingly unknown\n",
                  t->rows, resolved, unknown);
    assert_int_equal(failed, 0);
}

static void expect_id(long vendor, long device, const char *chip, const char *target,
                      unsigned cc)
{
    dl_plan_gpu g;
    memset(&g, 0, sizeof g);
    if (!dl_plan_gpu_from_pci_table(&dl_test_know, vendor, device, &g))
        fail_msg("%04lx:%04lx: not resolved (%s)", vendor, device, g.unknown_why);
    assert_string_equal(dl_pci_gpu_chip(&dl_test_know, vendor, device), chip);
    assert_string_equal(g.target, target);
    assert_int_equal(g.cc_major * 10 + g.cc_minor, cc);
}

/* Ids a user passes as --gpu, without any pci.ids. */
static void ids_resolve_without_pci_ids(void **state)
{
    dl_plan_gpu g;
    char version[32];
    (void)state;
    expect_id(0x1002, 0x744c, "Navi 31", "gfx1100", 0);      /* RX 7900 XTX */
    expect_id(0x1002, 0x67df, "Ellesmere", "gfx803", 0);     /* RX 580 */
    expect_id(0x1002, 0x74a1, "Aqua Vanjaram", "gfx942", 0); /* MI300X */
    expect_id(0x1002, 0x75a0, "Aqua Vanjaram", "gfx950", 0); /* MI350X: the id decides */
    expect_id(0x1002, 0x7550, "Navi 48", "gfx1201", 0);      /* RX 9070 XT */
    expect_id(0x1002, 0x1586, "Strix Halo", "gfx1151", 0);
    expect_id(0x1002, 0x150e, "Strix", "gfx1150", 0);
    expect_id(0x10de, 0x25a2, "GA107M", "", 86);             /* RTX 3050 Mobile */
    expect_id(0x10de, 0x1c03, "GP106", "", 61);
    expect_id(0x8086, 0x56a0, "DG2", "xe-hpg", 0);           /* Arc A770 */
    expect_id(0x8086, 0xe20b, "Battlemage G21", "xe2-hpg", 0);
    expect_id(0x8086, 0x7d55, "Meteor Lake-P", "xe-lpg", 0);   /* Core Ultra iGPU */
    expect_id(0x8086, 0x7d51, "Arrow Lake-P", "xe-lpg", 0);
    expect_id(0x8086, 0x64a0, "Core Ultra 200V Series Processors Arc Graphics 130V/140V GPU",
              "xe2-lpg", 0);                                   /* Lunar Lake */
    expect_id(0x8086, 0xb080, "Panther Lake", "xe3-lpg", 0);
    expect_id(0x8086, 0x0bd5, "Ponte Vecchio XT (2 Tile)", "xe-hpc", 0); /* Max 1550 */
    expect_id(0x8086, 0x3e92, "CoffeeLake-S GT2", "gen9", 0);  /* UHD Graphics 630 */
    /* not a GPU id, and a GPU's audio function */
    memset(&g, 0, sizeof g);
    assert_false(dl_plan_gpu_from_pci_table(&dl_test_know, 0x1002, 0xffff, &g));
    assert_null(dl_pci_gpu_chip(&dl_test_know, 0x1002, 0xab40)); /* Navi 48 HDMI audio */
    assert_null(dl_pci_gpu_chip(&dl_test_know, 0x10df, 0x1c03)); /* another vendor */
    assert_true(dl_pci_gpus_version(&dl_test_know, version, sizeof version));
    assert_true(isdigit((unsigned char)version[0]));
}

static void expect_chip(const char *vendor, const char *chip, long device, const char *want)
{
    char target[32];
    bool ok = dl_gpu_target_of_chip(&dl_test_know, vendor, chip, device, target,
                                    sizeof target);
    if (want && (!ok || strcmp(target, want) != 0))
        fail_msg("'%s': got '%s', want %s", chip, target, want);
    if (!want && ok)
        fail_msg("'%s': got '%s', want nothing", chip, target);
}

static void codenames_match(void **state)
{
    char target[32];
    (void)state;
    expect_chip("amd", "Navi 31 [Radeon RX 7900 XT/7900 XTX]", -1, "gfx1100");
    expect_chip("amd", "Polaris12", -1, "gfx803");
    expect_chip("amd", "Polaris 20 XL [Radeon RX 580 2048SP]", -1, "gfx803");
    expect_chip("amd", "Vega 10 XT [Radeon RX Vega 64]", -1, "gfx900");
    expect_chip("amd", "Strix Halo [Radeon 8060S Graphics]", -1, "gfx1151");
    expect_chip("amd", "Phoenix1", -1, "gfx1103");
    expect_chip("amd", "Aqua Vanjaram [Instinct MI300X]", 0x74a1, "gfx942");
    expect_chip("amd", "Aqua Vanjaram [Instinct MI355X]", 0x75a3, "gfx950");
    expect_chip("amd", "Navi 1", -1, NULL);   /* not the start of Navi 10 */
    expect_chip("amd", "Navi 310", -1, NULL); /* a longer number is another chip */
    expect_chip("amd", "Radeon Vega 10 Graphics", -1, NULL); /* an APU's marketing name */
    expect_chip("intel", "Navi 31", -1, NULL);                /* another vendor's code */
    expect_chip("intel", "Meteor Lake-P [Intel Arc Graphics]", -1, "xe-lpg");
    expect_chip("intel", "AlderLake-P [Iris Xe Graphics]", -1, "xe-lp");
    expect_chip("intel", "Lunar Lake [Intel Arc Graphics 130V / 140V]", -1, "xe2-lpg");
    /* names resolve through the codename when no marketing row matches */
    assert_true(dl_gpu_target_of_name(&dl_test_know, "amd", "Navi 32 [Radeon PRO W7700]",
                                      target, sizeof target));
    assert_string_equal(target, "gfx1101");
    assert_true(dl_gpu_target_of_name(&dl_test_know, "amd", "Aqua Vanjaram [Instinct MI350X]",
                                      target, sizeof target));
    assert_string_equal(target, "gfx950");
}

static void gfx_targets_against_every_rocm_wheel(void **state)
{
    (void)state;
    /* the ROCm wheels start at gfx900 (Vega 10): Polaris and Fiji are below all of them;
     * RDNA 1 (gfx1010) sits in a gap, not below; a listed or newer target is not below;
     * what is not a gfx id is never below */
    assert_true(dl_gfx_below_every_rocm_wheel(&dl_test_know, "gfx803"));
    assert_true(dl_gfx_below_every_rocm_wheel(&dl_test_know, "gfx701"));
    assert_false(dl_gfx_below_every_rocm_wheel(&dl_test_know, "gfx900"));
    assert_false(dl_gfx_below_every_rocm_wheel(&dl_test_know, "gfx90a"));
    assert_false(dl_gfx_below_every_rocm_wheel(&dl_test_know, "gfx1010"));
    assert_false(dl_gfx_below_every_rocm_wheel(&dl_test_know, "gfx1201"));
    assert_false(dl_gfx_below_every_rocm_wheel(&dl_test_know, "xe-lpg"));
    assert_false(dl_gfx_below_every_rocm_wheel(&dl_test_know, "gfx"));
    assert_false(dl_gfx_below_every_rocm_wheel(&dl_test_know, "gfx80z"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_amd_display_device_resolves),
        cmocka_unit_test(every_table_id_resolves),
        cmocka_unit_test(ids_resolve_without_pci_ids),
        cmocka_unit_test(codenames_match),
        cmocka_unit_test(gfx_targets_against_every_rocm_wheel),
    };
    return cmocka_run_group_tests(tests, dl_test_know_setup, dl_test_know_teardown);
}
