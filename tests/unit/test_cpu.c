/* The CPU probe: /proc/cpuinfo samples of real machine kinds (under --root, so cpuid is
 * never consulted), the cpuid decoding from register values, and this machine's cpuid
 * against its own /proc/cpuinfo. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "base/str.h"
#include "probe/system/cpu_isa.h"
#include "probe/probe.h"

#define CPU_DATA DLENV_TEST_DATA "/unit/data/cpu"

typedef struct probed {
    dl_facts f;
    dl_probe_outcome out;
} probed;

static void probe_root(probed *p, const char *root)
{
    dl_machine m;
    dl_probe_ctx ctx = {NULL, {0}};
    char *error = NULL;
    ctx.machine = &m;
    if (!dl_machine_open(&m, root, &error))
        fail_msg("cannot open %s: %s", root, error);
    dl_facts_init(&p->f);
    p->out.status = DL_PROBE_OK;
    p->out.detail = NULL;
    dl_probe_cpu(&ctx, &p->f, &p->out);
    dl_machine_close(&m);
}

/* Probes one sample machine under tests/unit/data/cpu. */
static void probe_sample(probed *p, const char *name)
{
    char *root = dl_fmt("%s/%s", CPU_DATA, name);
    probe_root(p, root);
    free(root);
}

static void probed_free(probed *p)
{
    dl_facts_free(&p->f);
    free(p->out.detail);
}

/* The list as one space-separated string, so a test states the order it expects. */
static char *joined(const dl_list *l)
{
    dl_buf b = {0};
    size_t i;
    for (i = 0; i < l->count; i++) {
        if (i)
            dl_buf_puts(&b, " ");
        dl_buf_puts(&b, DL_LIST_AT(*l, char *, i));
    }
    return dl_buf_take(&b);
}

static void assert_isa(const dl_cpu_facts *c, const char *expected, const char *source)
{
    char *got;
    assert_true(c->isa.known);
    got = joined(&c->isa);
    assert_string_equal(got, expected);
    free(got);
    assert_non_null(c->isa_source.value);
    assert_string_equal(c->isa_source.value, source);
}

static void assert_int(const dl_int *v, long long expected)
{
    if (!v->known)
        fail_msg("expected %lld, got unknown (%s)", expected, v->why ? v->why : "no reason");
    assert_int_equal(v->value, expected);
}

/* Unknown, with a reason that mentions `part`. */
static void assert_int_unknown(const dl_int *v, const char *part)
{
    assert_false(v->known);
    assert_non_null(v->why);
    if (!strstr(v->why, part))
        fail_msg("reason \"%s\" does not mention \"%s\"", v->why, part);
}

static void assert_text_unknown(const dl_text *t, const char *part)
{
    assert_null(t->value);
    assert_non_null(t->why);
    if (!strstr(t->why, part))
        fail_msg("reason \"%s\" does not mention \"%s\"", t->why, part);
}

#define ALL_X86                                                                        \
    "sse4_2 avx avx2 fma f16c avx512f avx512bw avx512dq avx512vl avx512_vnni avx512_bf16 " \
    "avx512_fp16 avx_vnni amx_tile amx_bf16 amx_int8"

/* ---- samples ------------------------------------------------------------------------ */

static void intel_sapphire_rapids(void **state)
{
    probed p;
    (void)state;
    probe_sample(&p, "intel-spr");
    assert_int_equal(p.out.status, DL_PROBE_OK);
    assert_string_equal(p.f.cpu.vendor.value, "GenuineIntel");
    assert_string_equal(p.f.cpu.model.value, "Intel(R) Xeon(R) Platinum 8480+");
    assert_int(&p.f.cpu.sockets, 2);
    assert_int(&p.f.cpu.physical_cores, 4);
    assert_int(&p.f.cpu.logical_threads, 8);
    /* This runner's own CPU may lack AMX: the list can only have come from the file. */
    assert_isa(&p.f.cpu, ALL_X86, "/proc/cpuinfo");
    probed_free(&p);
}

static void amd_zen3(void **state)
{
    probed p;
    (void)state;
    probe_sample(&p, "amd-zen3");
    assert_int_equal(p.out.status, DL_PROBE_OK);
    assert_string_equal(p.f.cpu.vendor.value, "AuthenticAMD");
    assert_string_equal(p.f.cpu.model.value, "AMD EPYC 7763 64-Core Processor");
    assert_int(&p.f.cpu.sockets, 1);
    assert_int(&p.f.cpu.physical_cores, 4);
    assert_int(&p.f.cpu.logical_threads, 8);
    /* No AVX-512 on Zen 3, whatever the CPU running this test has. */
    assert_isa(&p.f.cpu, "sse4_2 avx avx2 fma f16c", "/proc/cpuinfo");
    probed_free(&p);
}

/* arm64: no model name and no physical id / core id; the topology comes from /sys
 * (under the sample's root), the names from the MIDR numbers. */
static void graviton3(void **state)
{
    probed p;
    (void)state;
    probe_sample(&p, "graviton3");
    assert_int_equal(p.out.status, DL_PROBE_OK);
    assert_string_equal(p.f.cpu.vendor.value, "ARM");
    assert_string_equal(p.f.cpu.model.value, "Neoverse-V1");
    assert_int(&p.f.cpu.sockets, 1);
    assert_int(&p.f.cpu.physical_cores, 4);
    assert_int(&p.f.cpu.logical_threads, 4);
    /* svei8mm and svebf16 are other words: i8mm and bf16 are there in their own right. */
    assert_isa(&p.f.cpu, "neon asimdhp sve bf16 i8mm atomics", "/proc/cpuinfo");
    probed_free(&p);
}

/* arm64 without /sys: threads still count, cores and sockets say why they are unknown. */
static void ampereone_without_sys(void **state)
{
    probed p;
    (void)state;
    probe_sample(&p, "ampereone");
    assert_int_equal(p.out.status, DL_PROBE_OK);
    assert_string_equal(p.f.cpu.vendor.value, "Ampere");
    assert_string_equal(p.f.cpu.model.value, "AmpereOne");
    assert_int(&p.f.cpu.logical_threads, 2);
    assert_int_unknown(&p.f.cpu.physical_cores, "no physical id and core id");
    assert_int_unknown(&p.f.cpu.physical_cores, "/sys/devices/system/cpu");
    assert_int_unknown(&p.f.cpu.sockets, "/sys/devices/system/cpu");
    assert_isa(&p.f.cpu, "neon asimdhp bf16 i8mm atomics", "/proc/cpuinfo");
    probed_free(&p);
}

/* Cut in the middle of the third processor's flags: the first block still names the
 * CPU and its features, but no count from a partial list may pass for the real one. */
static void truncated_mid_line(void **state)
{
    probed p;
    (void)state;
    probe_sample(&p, "intel-truncated");
    assert_string_equal(p.f.cpu.vendor.value, "GenuineIntel");
    assert_string_equal(p.f.cpu.model.value, "Intel(R) Xeon(R) Platinum 8480+");
    assert_int_unknown(&p.f.cpu.logical_threads, "cut short");
    assert_int_unknown(&p.f.cpu.physical_cores, "cut short");
    assert_int_unknown(&p.f.cpu.sockets, "cut short");
    assert_isa(&p.f.cpu, ALL_X86, "/proc/cpuinfo");
    probed_free(&p);
}

static void garbage(void **state)
{
    probed p;
    (void)state;
    probe_sample(&p, "garbage");
    assert_int_equal(p.out.status, DL_PROBE_FAILED);
    assert_non_null(p.out.detail);
    assert_text_unknown(&p.f.cpu.vendor, "vendor_id");
    /* The one line that reads as a field is kept, its invalid byte made visible. */
    assert_string_equal(p.f.cpu.model.value, "Bad\\xFF name");
    assert_int_unknown(&p.f.cpu.logical_threads, "no processor entries");
    assert_int_unknown(&p.f.cpu.physical_cores, "no processor entries");
    assert_int_unknown(&p.f.cpu.sockets, "no processor entries");
    assert_false(p.f.cpu.isa.known);
    assert_non_null(p.f.cpu.isa.why);
    assert_null(p.f.cpu.isa_source.value);
    probed_free(&p);
}

/* The samples folder itself is a machine without /proc/cpuinfo. */
static void missing_cpuinfo(void **state)
{
    probed p;
    const char *why = "cannot read /proc/cpuinfo: ";
    (void)state;
    probe_root(&p, CPU_DATA);
    assert_int_equal(p.out.status, DL_PROBE_NOT_PRESENT);
    assert_non_null(p.out.detail);
    assert_text_unknown(&p.f.cpu.vendor, why);
    assert_text_unknown(&p.f.cpu.model, why);
    assert_int_unknown(&p.f.cpu.sockets, why);
    assert_int_unknown(&p.f.cpu.physical_cores, why);
    assert_int_unknown(&p.f.cpu.logical_threads, why);
    assert_false(p.f.cpu.isa.known);
    assert_true(dl_starts_with(p.f.cpu.isa.why, why));
    assert_null(p.f.cpu.isa_source.value);
    probed_free(&p);
}

/* ---- cpuid decoding ------------------------------------------------------------------ */

#define BIT(n) ((uint32_t)1 << (n))

/* A Sapphire Rapids: every feature we report. */
static dl_x86_cpuid spr_regs(uint64_t xcr0)
{
    dl_x86_cpuid id;
    memset(&id, 0, sizeof id);
    id.leaf1_ecx = BIT(20) | BIT(28) | BIT(12) | BIT(29) | BIT(27);
    id.leaf7_ebx = BIT(5) | BIT(16) | BIT(30) | BIT(17) | BIT(31);
    id.leaf7_ecx = BIT(11);
    id.leaf7_edx = BIT(23) | BIT(24) | BIT(22) | BIT(25);
    id.leaf7_1_eax = BIT(4) | BIT(5);
    id.xcr0 = xcr0;
    return id;
}

static char *decoded(const dl_x86_cpuid *id)
{
    const char *names[DL_X86_ISA_MAX];
    size_t i, n = dl_x86_isa_decode(id, names);
    dl_buf b = {0};
    for (i = 0; i < n; i++) {
        if (i)
            dl_buf_puts(&b, " ");
        dl_buf_puts(&b, names[i]);
    }
    return dl_buf_take(&b);
}

static void assert_decodes(const dl_x86_cpuid *id, const char *expected)
{
    char *got = decoded(id);
    assert_string_equal(got, expected);
    free(got);
}

static void decode_everything_enabled(void **state)
{
    /* x87, SSE, AVX, opmask, ZMM_Hi256, Hi16_ZMM, XTILECFG, XTILEDATA */
    dl_x86_cpuid id = spr_regs(0x600E7);
    (void)state;
    assert_decodes(&id, ALL_X86);
}

static void decode_avx512_without_zmm_state(void **state)
{
    /* The CPU has AVX-512 and AMX, but the OS saves only x87/SSE/AVX state. */
    dl_x86_cpuid id = spr_regs(0x7);
    (void)state;
    assert_decodes(&id, "sse4_2 avx avx2 fma f16c avx_vnni");
}

static void decode_partial_zmm_state(void **state)
{
    /* Opmask saved but not the upper ZMM halves: still not usable. */
    dl_x86_cpuid id = spr_regs(0x27 | 0x60000);
    (void)state;
    assert_decodes(&id, "sse4_2 avx avx2 fma f16c avx_vnni amx_tile amx_bf16 amx_int8");
}

static void decode_amx_without_tile_state(void **state)
{
    dl_x86_cpuid id = spr_regs(0xE7);
    (void)state;
    assert_decodes(&id, "sse4_2 avx avx2 fma f16c avx512f avx512bw avx512dq avx512vl "
                        "avx512_vnni avx512_bf16 avx512_fp16 avx_vnni");
}

static void decode_no_xsave(void **state)
{
    /* XGETBV unavailable (OSXSAVE clear): the probe passes xcr0 = 0. */
    dl_x86_cpuid id = spr_regs(0);
    (void)state;
    assert_decodes(&id, "sse4_2");
}

static void decode_dependencies(void **state)
{
    dl_x86_cpuid id;
    (void)state;
    /* AVX-512 sub-features without AVX-512F, AMX-BF16 without AMX-TILE, AVX2 without AVX:
     * Linux hides each, and so do we. */
    memset(&id, 0, sizeof id);
    id.leaf1_ecx = BIT(20);
    id.leaf7_ebx = BIT(5) | BIT(30) | BIT(17) | BIT(31);
    id.leaf7_edx = BIT(22);
    id.xcr0 = 0x600E7;
    assert_decodes(&id, "sse4_2");
    /* avx512_fp16 builds on avx512bw, avx512_vnni and avx512_bf16 on avx512vl. */
    id = spr_regs(0x600E7);
    id.leaf7_ebx &= ~(BIT(30) | BIT(31));
    assert_decodes(&id, "sse4_2 avx avx2 fma f16c avx512f avx512dq avx_vnni amx_tile "
                        "amx_bf16 amx_int8");
}

static void decode_zen3(void **state)
{
    dl_x86_cpuid id;
    (void)state;
    memset(&id, 0, sizeof id);
    /* Zen 3-like words: many other feature bits are set, none of AVX-512's or AMX's;
     * XCR0 also holds PKRU (bit 9), which must not matter. */
    id.leaf1_ecx = 0x7ed8320b;
    id.leaf7_ebx = 0x219c97a9;
    id.leaf7_ecx = 0x0040069c;
    id.xcr0 = 0x207;
    assert_decodes(&id, "sse4_2 avx avx2 fma f16c");
}

/* Packs text into registers the way the CPU returns it. */
static void pack(uint32_t *regs, size_t count, const char *text)
{
    size_t i, len = strlen(text);
    for (i = 0; i < count * 4; i++) {
        uint32_t byte = i < len ? (unsigned char)text[i] : 0;
        if (i % 4 == 0)
            regs[i / 4] = 0;
        regs[i / 4] |= byte << (8 * (i % 4));
    }
}

static void vendor_and_brand_text(void **state)
{
    uint32_t leaf0[4] = {0x20, 0x756e6547, 0x6c65746e, 0x49656e69};
    uint32_t brand[12];
    char text[49];
    (void)state;
    dl_x86_vendor_text(leaf0, text);
    assert_string_equal(text, "GenuineIntel");
    /* Older Intel brand strings are right-aligned behind spaces. */
    pack(brand, 12, "       Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz");
    dl_x86_brand_text(brand, text);
    assert_string_equal(text, "Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz");
    pack(brand, 12, "AMD EPYC 7763 64-Core Processor                 ");
    dl_x86_brand_text(brand, text);
    assert_string_equal(text, "AMD EPYC 7763 64-Core Processor");
    /* A brand string shorter than 48 bytes ends at its NUL. */
    pack(brand, 12, "Short");
    dl_x86_brand_text(brand, text);
    assert_string_equal(text, "Short");
}

/* ---- this machine ------------------------------------------------------------------- */

/* The flags line of this machine's first processor, or NULL. */
static char *live_flags_line(void)
{
    dl_machine m;
    char *error = NULL, *data = NULL, *line = NULL, *p;
    size_t len = 0;
    bool truncated = false;
    dl_io_error err = {DL_IO_OK, NULL};
    if (!dl_machine_open(&m, "/", &error)) {
        free(error);
        return NULL;
    }
    if (dl_fs_read(&m, "/proc/cpuinfo", (size_t)4 << 20, &data, &len, &truncated, &err)) {
        for (p = data; p && *p && !line; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
            size_t n = strcspn(p, "\n");
            if (dl_starts_with(p, "flags") && memchr(p, ':', n))
                line = dl_strndup(p, n);
        }
    }
    dl_io_error_clear(&err);
    free(data);
    dl_machine_close(&m);
    return line;
}

/* Whether the flags line holds the whole word (avx512f must not match avx512fp16). */
static bool flag_listed(const char *line, const char *word)
{
    size_t n = strlen(word);
    const char *p = strchr(line, ':') + 1;
    while (*p) {
        size_t len;
        p += strspn(p, " \t");
        len = strcspn(p, " \t");
        if (len == n && strncmp(p, word, n) == 0)
            return true;
        p += len;
    }
    return false;
}

/* On x86-64 Linux, cpuid + XCR0 and the kernel's flags must agree on every name. */
static void live_cpuid_matches_cpuinfo(void **state)
{
    probed p;
    char *flags;
    size_t i;
    uint32_t r[4];
    (void)state;
    flags = dl_cpuid(0, 0, r) ? live_flags_line() : NULL;
    if (!flags) {
        skip();   /* not x86, or no /proc/cpuinfo (not Linux) */
        return;
    }
    probe_root(&p, "/");
    assert_int_equal(p.out.status, DL_PROBE_OK);
    assert_non_null(p.f.cpu.vendor.value);
    assert_true(p.f.cpu.logical_threads.known && p.f.cpu.logical_threads.value > 0);
    assert_true(p.f.cpu.physical_cores.known && p.f.cpu.physical_cores.value > 0);
    assert_true(p.f.cpu.sockets.known && p.f.cpu.sockets.value > 0);
    assert_true(p.f.cpu.isa.known);
    assert_string_equal(p.f.cpu.isa_source.value, "cpuid");
    for (i = 0; i < DL_X86_ISA_MAX; i++) {
        const char *name = dl_x86_isa_names[i];
        bool by_cpuid = dl_textlist_has(&p.f.cpu.isa, name);
        if (by_cpuid != flag_listed(flags, name))
            fail_msg("%s: cpuid says %s, /proc/cpuinfo says %s", name,
                     by_cpuid ? "yes" : "no", by_cpuid ? "no" : "yes");
    }
    free(flags);
    probed_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(intel_sapphire_rapids),
        cmocka_unit_test(amd_zen3),
        cmocka_unit_test(graviton3),
        cmocka_unit_test(ampereone_without_sys),
        cmocka_unit_test(truncated_mid_line),
        cmocka_unit_test(garbage),
        cmocka_unit_test(missing_cpuinfo),
        cmocka_unit_test(decode_everything_enabled),
        cmocka_unit_test(decode_avx512_without_zmm_state),
        cmocka_unit_test(decode_partial_zmm_state),
        cmocka_unit_test(decode_amx_without_tile_state),
        cmocka_unit_test(decode_no_xsave),
        cmocka_unit_test(decode_dependencies),
        cmocka_unit_test(decode_zen3),
        cmocka_unit_test(vendor_and_brand_text),
        cmocka_unit_test(live_cpuid_matches_cpuinfo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
