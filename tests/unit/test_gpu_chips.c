/* Every NVIDIA GPU in this machine's pci.ids resolves to a compute capability by its chip
 * code (data/gpu_chips.csv), or is in tests/plan/gpu_knowingly_unknown.tsv; and the names
 * nvidia-smi prints resolve by name (data/gpu_compute_capability.csv). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "know/geforce_series.h"
#include "know/gpu_chip.h"
#include "plan/gpu_names.h"
#include "test_know.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_UNKNOWN 32

typedef struct unknown_list {
    char prefix[MAX_UNKNOWN][16];
    size_t n;
} unknown_list;

static void read_unknown(unknown_list *u)
{
    FILE *f = fopen(DLENV_TEST_DATA "/plan/gpu_knowingly_unknown.tsv", "r");
    char line[512];
    u->n = 0;
    assert_non_null(f);
    while (fgets(line, sizeof line, f) && u->n < MAX_UNKNOWN) {
        char *tab = strchr(line, '\t');
        if (line[0] == '#' || !tab || tab - line >= 16)
            continue;
        memcpy(u->prefix[u->n], line, (size_t)(tab - line));
        u->prefix[u->n++][tab - line] = '\0';
    }
    fclose(f);
}

static bool starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* A GPU, not one of the card's other functions (HDMI audio, USB-C) or a chipset part:
 * its name starts with a graphics chip family's code, or names a graphics product. */
static bool is_gpu(const char *name)
{
    static const char *const not_gpu[] = {"Audio", "USB", "UCSI", "Bridge", "SATA", "SMBus",
                                          "IDE", "Ethernet", "Memory Controller", "LPC",
                                          "ISA", "PCI Express", "Co-processor", "Modem",
                                          "Serial", "Host", "Endpoint", "Switch"};
    static const char *const families[] = {"G7", "G8", "G9", "GT2", "GF", "GK", "GM", "GP",
                                           "GV", "TU", "GA", "AD", "GH", "GB", "NV"};
    size_t i;
    for (i = 0; i < sizeof not_gpu / sizeof not_gpu[0]; i++)
        if (strstr(name, not_gpu[i]))
            return false;
    for (i = 0; i < sizeof families / sizeof families[0]; i++)
        if (starts(name, families[i]) && isdigit((unsigned char)name[strlen(families[i])]))
            return true;
    return strstr(name, "[GeForce") || strstr(name, "[Quadro") || strstr(name, "[Tesla") ||
           strstr(name, "[TITAN") || strstr(name, "[RTX") || strstr(name, "[ION");
}

static void every_pci_ids_gpu_resolves(void **state)
{
    const char *path = getenv("DLENV_PCI_IDS") ? getenv("DLENV_PCI_IDS")
                                               : "/usr/share/misc/pci.ids";
    FILE *f = fopen(path, "r");
    char line[512];
    bool nvidia = false;
    unknown_list u;
    size_t gpus = 0, resolved = 0, by_name = 0, unknown = 0, failed = 0, i;
    (void)state;
    if (!f)
        skip(); /* no pci.ids here (Windows, a minimal container) */
    read_unknown(&u);
    while (fgets(line, sizeof line, f)) {
        dl_gpu_chip chip;
        dl_gpu_match match;
        char *name;
        line[strcspn(line, "\r\n")] = '\0';
        if (isxdigit((unsigned char)line[0])) {
            nvidia = starts(line, "10de  ");
            continue;
        }
        if (!nvidia || line[0] != '\t' || line[1] == '\t' || strlen(line) < 8)
            continue;
        name = line + 7; /* "\t1c03  GP106 [...]" */
        if (!is_gpu(name))
            continue;
        gpus++;
        if (dl_gpu_chip_lookup(&dl_test_know, name, &chip)) {
            resolved++;
            continue;
        }
        /* a board code instead of the chip ("GN20-P0-R-K2 [GeForce RTX 3050 6GB Laptop
         * GPU]"): the marketing name decides */
        dl_gpu_resolve_name(&dl_test_know, name, &match);
        if (match.found) {
            by_name++;
            continue;
        }
        for (i = 0; i < u.n && !starts(name, u.prefix[i]); i++)
            ;
        if (i < u.n) {
            unknown++;
            continue;
        }
        failed++;
        print_message("unresolved: 10de:%.4s %s\n", line + 1, name);
    }
    fclose(f);
    print_message("%zu NVIDIA GPUs in %s: %zu resolve by chip, %zu by name, %zu knowingly "
                  "unknown\n", gpus, path, resolved, by_name, unknown);
    assert_true(gpus > 500);
    assert_int_equal(failed, 0);
}

static void expect_chip(const char *name, unsigned major, unsigned minor, int branch)
{
    dl_gpu_chip c;
    if (!dl_gpu_chip_lookup(&dl_test_know, name, &c))
        fail_msg("%s: no chip row", name);
    if (c.cc_major != major || c.cc_minor != minor || c.last_driver_branch != branch)
        fail_msg("%s: got %u.%u (branch %d), want %u.%u (branch %d)", name, c.cc_major,
                 c.cc_minor, c.last_driver_branch, major, minor, branch);
}

/* pci.ids names, as this machine's copy or a newer one spells them. */
static void chips_give_capabilities(void **state)
{
    dl_gpu_chip c;
    (void)state;
    expect_chip("GP106 [GeForce GTX 1060 6GB]", 6, 1, 580);
    expect_chip("GK110BGL [Tesla K40m]", 3, 5, 470);
    expect_chip("GK180GL [Tesla K40c]", 3, 5, 470);
    expect_chip("GK210GL [Tesla K80]", 3, 7, 470);
    expect_chip("GK104 [GeForce GTX 680]", 3, 0, 470);
    expect_chip("GK208B [GeForce GT 730]", 3, 5, 470);
    expect_chip("GF108 [GeForce GT 730]", 2, 1, 390);
    expect_chip("GM108M [GeForce MX130]", 5, 0, 580);
    expect_chip("GM204 [GeForce GTX 970]", 5, 2, 580);
    expect_chip("GM20B", 5, 3, 0);
    expect_chip("GV100GL [Tesla V100 PCIe 16GB]", 7, 0, 580);
    expect_chip("TU117M [GeForce GTX 1650 Mobile / Max-Q]", 7, 5, 0);
    expect_chip("GA102GL [A10G]", 8, 6, 0);
    expect_chip("GA10B", 8, 7, 0);
    expect_chip("GA107GLM [RTX A1000 Laptop GPU]", 8, 6, 0);
    expect_chip("AD102 [GeForce RTX 4090]", 8, 9, 0);
    expect_chip("GH100 [H100 PCIe]", 9, 0, 0);
    expect_chip("GB100 [B200]", 10, 0, 0);
    expect_chip("GB202GL [RTX PRO 6000 Blackwell Max-Q Workstation Edition]", 12, 0, 0);
    expect_chip("GB10", 12, 1, 0);
    /* not chip codes: a product name, a longer code, an unknown family */
    assert_false(dl_gpu_chip_lookup(&dl_test_know, "GB200", &c));
    assert_false(dl_gpu_chip_lookup(&dl_test_know, "GK1040", &c));
    assert_false(dl_gpu_chip_lookup(&dl_test_know, "GTX 1060", &c));
    assert_false(dl_gpu_chip_lookup(&dl_test_know, "NV44 [GeForce 6200]", &c));
    assert_int_equal(dl_gpu_last_driver_branch(&dl_test_know, 3, 7), 470);
    assert_int_equal(dl_gpu_last_driver_branch(&dl_test_know, 6, 1), 580);
    assert_int_equal(dl_gpu_last_driver_branch(&dl_test_know, 7, 5), 0);
}

static void expect_name(const char *name, unsigned major, unsigned minor, const char *guess)
{
    dl_gpu_match m;
    dl_gpu_resolve_name(&dl_test_know, name, &m);
    if (!m.found || m.major != major || m.minor != minor)
        fail_msg("'%s': got %s %u.%u, want %u.%u", name, m.found ? "" : "nothing", m.major,
                 m.minor, major, minor);
    if (strcmp(m.guessed, guess) != 0)
        fail_msg("'%s': guessed '%s', want '%s'", name, m.guessed, guess);
}

/* What nvidia-smi prints (with and without the maker's words), and what people type. */
static void names_resolve(void **state)
{
    dl_gpu_match m;
    (void)state;
    expect_name("Tesla K40m", 3, 5, "");
    expect_name("NVIDIA A10G", 8, 6, "");
    expect_name("NVIDIA GeForce GTX 960M", 5, 0, "");
    expect_name("GeForce 940MX", 5, 0, "");
    expect_name("NVIDIA GeForce MX130", 5, 0, "");
    expect_name("GeForce GTX 680", 3, 0, "");
    expect_name("NVIDIA GeForce GTX 770", 3, 0, "");
    expect_name("Quadro P620", 6, 1, "");
    expect_name("NVIDIA RTX A1000 Laptop GPU", 8, 6, "");
    expect_name("NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition", 12, 0, "");
    expect_name("RTX PRO 6000 Blackwell Max-Q", 12, 0, "");
    expect_name("gtx1060", 6, 1, "");
    expect_name("  nvidia  GEFORCE   gtx  1060 ", 6, 1, "");
    expect_name("NVIDIA A100-SXM4-40GB", 8, 0, "");
    expect_name("GP106 [GeForce GTX 1060 6GB]", 6, 1, "");
    expect_name("GeForce GTZ 1060", 6, 1, "GeForce GTX 1060");
    /* the model number is never guessed */
    dl_gpu_resolve_name(&dl_test_know, "GTX 1090", &m);
    assert_false(m.found);
    dl_gpu_resolve_name(&dl_test_know, "Banana GPU", &m);
    assert_false(m.found);
    assert_string_equal(m.unknown_why, "");
    /* Kepler GK208 and Fermi GF108 boards are both sold as "GT 730" */
    dl_gpu_resolve_name(&dl_test_know, "NVIDIA GeForce GT 730", &m);
    assert_false(m.found);
    assert_non_null(strstr(m.unknown_why, "sm_35"));
    assert_non_null(strstr(m.unknown_why, "sm_21"));
    /* ... yet both are below sm_37: the span says so */
    assert_int_equal(m.span_lo, 21);
    assert_int_equal(m.span_hi, 35);
    dl_gpu_resolve_name(&dl_test_know, "NVIDIA GeForce GT 740M", &m);
    assert_false(m.found);
    assert_int_equal(m.span_lo, 30);
    assert_int_equal(m.span_hi, 35);
    expect_name("GeForce GT 750M", 3, 0, "");
    /* a family without its model number is no GPU */
    dl_gpu_resolve_name(&dl_test_know, "NVIDIA Quadro", &m);
    assert_false(m.found);
    assert_int_equal(m.span_hi, 0);
}

static void search(const char *name, const char *const *lines, dl_plan_gpu *g)
{
    dl_gpu_pci_search s;
    size_t i;
    memset(g, 0, sizeof *g);
    dl_gpu_pci_search_begin(&s, name);
    for (i = 0; lines[i]; i++)
        dl_gpu_pci_search_line(&dl_test_know, &s, lines[i], strlen(lines[i]));
    dl_gpu_pci_search_end(&s, g);
}

/* pci.ids' names for what no hand row holds; only vendor 10de counts. */
static void pci_ids_names_resolve(void **state)
{
    static const char *const lines[] = {
        "1002  Advanced Micro Devices, Inc. [AMD/ATI]",
        "\t13bb  Fake [Quadro K620]",
        "10de  NVIDIA Corporation",
        "\t0fc0  GK107 [GeForce GT 640 OEM]",
        "\t124b  GF116 [GeForce GT 640 OEM]",
        "\t13b6  GM107GLM [Quadro M1200 Mobile]",
        "\t13bb  GM107GL [Quadro K620]",
        "\t\t103c 1098  Quadro K620",
        "\t1c20  GP106M [GeForce GTX 1060 Mobile / Max-Q]",
        "10df  Emulex Corporation",
        "\t1234  GP106 [Not an NVIDIA]",
        NULL};
    dl_plan_gpu g;
    (void)state;
    search("Quadro K620", lines, &g);
    assert_int_equal(g.cc_major * 10 + g.cc_minor, 50);
    search("NVIDIA Quadro M1200", lines, &g);
    assert_int_equal(g.cc_major * 10 + g.cc_minor, 50);
    search("GeForce GTX 1060 Mobile", lines, &g);
    assert_int_equal(g.cc_major * 10 + g.cc_minor, 61);
    search("GeForce GT 640 OEM", lines, &g);
    assert_int_equal(g.cc_major, 0);
    assert_non_null(strstr(g.unknown_why, "GF116"));
    search("Not an NVIDIA", lines, &g);
    assert_int_equal(g.cc_major, 0);
    assert_string_equal(g.unknown_why, "");
    search("Quadro", lines, &g); /* a word of a name is not the name */
    assert_int_equal(g.cc_major, 0);
}

/* The series a three-digit GeForce name is read as, and names that are no such GeForce. */
static void geforce_series_names(void **state)
{
    unsigned lo = 0, hi = 0;
    (void)state;
    assert_int_equal(dl_geforce_series_of("NVIDIA GeForce GT 720M"), 700);
    assert_int_equal(dl_geforce_series_of("nvidia gt 630"), 600);
    assert_int_equal(dl_geforce_series_of("gt650m"), 600);
    assert_int_equal(dl_geforce_series_of("Nvidia GTX 860 M"), 800);
    assert_int_equal(dl_geforce_series_of("GeForce 210"), 200);
    assert_int_equal(dl_geforce_series_of("GeForce 940MX"), 900);
    assert_int_equal(dl_geforce_series_of("GeForce GTX 1060"), 0);
    assert_int_equal(dl_geforce_series_of("GeForce MX 570"), 0);
    assert_int_equal(dl_geforce_series_of("GeForce 8800 GTX"), 0);
    assert_int_equal(dl_geforce_series_of("Quadro 600"), 0);
    assert_int_equal(dl_geforce_series_of("NVIDIA 535"), 0);
    assert_true(dl_geforce_series_span(&dl_test_know, "GeForce GT 720M", &lo, &hi));
    assert_int_equal(lo, 21);
    assert_int_equal(hi, 52);
    assert_false(dl_geforce_series_span(&dl_test_know, "GeForce RTX 3060", &lo, &hi));
}

/* A GeForce line named by its series ("RTX 50 series") spans its GeForce models in the name
 * table; a workstation board of the same digits (Quadro RTX 5000, sm_75) is not one. */
static void geforce_line_spans(void **state)
{
    unsigned lo = 0, hi = 0;
    (void)state;
    assert_true(dl_geforce_line_span(&dl_test_know, "RTX 50 series", &lo, &hi));
    assert_int_equal(lo, 120);
    assert_int_equal(hi, 120);
    assert_true(dl_geforce_line_span(&dl_test_know, "GTX 16 series", &lo, &hi));
    assert_int_equal(lo, 75);
    assert_int_equal(hi, 75);
    assert_true(dl_geforce_line_span(&dl_test_know, "RTX 30 series", &lo, &hi));
    assert_int_equal(lo, 86);
    assert_int_equal(hi, 86);
    assert_false(dl_geforce_line_span(&dl_test_know, "RTX 5000", &lo, &hi));
    assert_false(dl_geforce_line_span(&dl_test_know, "Quadro RTX 50 series", &lo, &hi));
    assert_false(dl_geforce_line_span(&dl_test_know, "RTX 90 series", &lo, &hi));
}

/* Every three-digit GeForce in this machine's pci.ids is made of a chip whose capability
 * lies in its series' span (data/geforce_series.csv). */
static void geforce_series_spans_hold(void **state)
{
    const char *path = getenv("DLENV_PCI_IDS") ? getenv("DLENV_PCI_IDS")
                                               : "/usr/share/misc/pci.ids";
    FILE *f = fopen(path, "r");
    char line[512];
    bool nvidia = false;
    size_t checked = 0, failed = 0;
    (void)state;
    if (!f)
        skip(); /* no pci.ids here (Windows, a minimal container) */
    while (fgets(line, sizeof line, f)) {
        dl_gpu_chip chip;
        const char *open;
        unsigned lo, hi, cc;
        line[strcspn(line, "\r\n")] = '\0';
        if (isxdigit((unsigned char)line[0])) {
            nvidia = starts(line, "10de  ");
            continue;
        }
        if (!nvidia || line[0] != '\t' || line[1] == '\t' || strlen(line) < 8 ||
            (open = strstr(line, "[GeForce ")) == NULL || strchr(open, '/') ||
            !dl_geforce_series_span(&dl_test_know, open + 1, &lo, &hi) ||
            !dl_gpu_chip_lookup(&dl_test_know, line + 7, &chip))
            continue;
        checked++;
        cc = chip.cc_major * 10 + chip.cc_minor;
        if (cc < lo || cc > hi) {
            failed++;
            print_message("outside its series: %s (sm_%u, span %u-%u)\n", line + 7, cc, lo, hi);
        }
    }
    fclose(f);
    assert_true(checked > 100);
    assert_int_equal(failed, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(chips_give_capabilities),
        cmocka_unit_test(names_resolve),
        cmocka_unit_test(pci_ids_names_resolve),
        cmocka_unit_test(every_pci_ids_gpu_resolves),
        cmocka_unit_test(geforce_series_names),
        cmocka_unit_test(geforce_line_spans),
        cmocka_unit_test(geforce_series_spans_hold),
    };
    return cmocka_run_group_tests(tests, dl_test_know_setup, dl_test_know_teardown);
}
