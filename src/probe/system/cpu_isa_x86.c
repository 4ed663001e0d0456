/* cpuid words → feature names. Pure code, compiled on every architecture so the tests of
 * the decoding run everywhere. */
#include "probe/system/cpu_isa.h"

#include "os/os.h"

#include <stdbool.h>
#include <string.h>

/* The register a feature bit lives in. */
enum { R_L1_ECX, R_L7_EBX, R_L7_ECX, R_L7_EDX, R_L7_1_EAX };

/* XCR0 state components the OS must save before a feature is usable: SSE and AVX (bits
 * 1-2); AVX-512 adds opmask, ZMM_Hi256 and Hi16_ZMM (5-7); AMX adds XTILECFG and
 * XTILEDATA (17-18). A CPU can have a feature whose registers the OS has not enabled: its
 * instructions then fault, so Linux hides the feature and so do we. */
#define XCR0_YMM ((uint64_t)0x6)
#define XCR0_ZMM (XCR0_YMM | (uint64_t)0xE0)
#define XCR0_AMX ((uint64_t)0x60000)

const char *const dl_x86_isa_names[DL_X86_ISA_MAX] = {
    "sse4_2", "avx", "avx2", "fma", "f16c", "avx512f", "avx512bw", "avx512dq", "avx512vl",
    "avx512_vnni", "avx512_bf16", "avx512_fp16", "avx_vnni", "amx_tile", "amx_bf16",
    "amx_int8",
};

/* Where dl_x86_isa_names[i] lives: isa_bits[i]. */
typedef struct isa_bit {
    int reg;
    int bit;
    uint64_t xcr0;
    int needs;   /* index of the feature this one builds on, or -1 */
} isa_bit;

/* Dependencies follow the Linux kernel's (arch/x86/kernel/cpu/cpuid-deps.c), so what we
 * report on a live machine matches its /proc/cpuinfo; f16c and avx_vnni are VEX-encoded,
 * so they also need what AVX needs. */
static const isa_bit isa_bits[DL_X86_ISA_MAX] = {
    {R_L1_ECX, 20, 0, -1},           /* sse4_2 */
    {R_L1_ECX, 28, XCR0_YMM, -1},    /* avx */
    {R_L7_EBX, 5, XCR0_YMM, 1},      /* avx2 */
    {R_L1_ECX, 12, XCR0_YMM, 1},     /* fma */
    {R_L1_ECX, 29, XCR0_YMM, 1},     /* f16c */
    {R_L7_EBX, 16, XCR0_ZMM, 1},     /* avx512f */
    {R_L7_EBX, 30, XCR0_ZMM, 5},     /* avx512bw */
    {R_L7_EBX, 17, XCR0_ZMM, 5},     /* avx512dq */
    {R_L7_EBX, 31, XCR0_ZMM, 5},     /* avx512vl */
    {R_L7_ECX, 11, XCR0_ZMM, 8},     /* avx512_vnni */
    {R_L7_1_EAX, 5, XCR0_ZMM, 8},    /* avx512_bf16 */
    {R_L7_EDX, 23, XCR0_ZMM, 6},     /* avx512_fp16 */
    {R_L7_1_EAX, 4, XCR0_YMM, 2},    /* avx_vnni */
    {R_L7_EDX, 24, XCR0_AMX, -1},    /* amx_tile */
    {R_L7_EDX, 22, XCR0_AMX, 13},    /* amx_bf16 */
    {R_L7_EDX, 25, XCR0_AMX, 13},    /* amx_int8 */
};

static uint32_t reg_of(const dl_x86_cpuid *id, int reg)
{
    switch (reg) {
    case R_L1_ECX: return id->leaf1_ecx;
    case R_L7_EBX: return id->leaf7_ebx;
    case R_L7_ECX: return id->leaf7_ecx;
    case R_L7_EDX: return id->leaf7_edx;
    default: return id->leaf7_1_eax;
    }
}

/* Whether feature i is usable: the CPU has it, the OS saves its registers, and what it
 * builds on is usable too. */
static bool usable(const dl_x86_cpuid *id, int i)
{
    const isa_bit *b = &isa_bits[i];
    if (!(reg_of(id, b->reg) & ((uint32_t)1 << b->bit)))
        return false;
    if ((id->xcr0 & b->xcr0) != b->xcr0)
        return false;
    return b->needs < 0 || usable(id, b->needs);
}

size_t dl_x86_isa_decode(const dl_x86_cpuid *id, const char *names[DL_X86_ISA_MAX])
{
    int i;
    size_t n = 0;
    for (i = 0; i < DL_X86_ISA_MAX; i++)
        if (usable(id, i))
            names[n++] = dl_x86_isa_names[i];
    return n;
}

/* Registers hold text little-endian: the first character is the lowest byte. */
static void put_reg(char *out, uint32_t r)
{
    int i;
    for (i = 0; i < 4; i++)
        out[i] = (char)((r >> (8 * i)) & 0xFF);
}

void dl_x86_vendor_text(const uint32_t leaf0[4], char out[13])
{
    put_reg(out, leaf0[1]);
    put_reg(out + 4, leaf0[3]);
    put_reg(out + 8, leaf0[2]);
    out[12] = '\0';
}

void dl_x86_brand_text(const uint32_t regs[12], char out[49])
{
    char raw[49];
    size_t start = 0, end;
    int i;
    for (i = 0; i < 12; i++)
        put_reg(raw + 4 * i, regs[i]);
    raw[48] = '\0';
    end = strlen(raw);   /* the string is NUL-padded when shorter than 48 bytes */
    while (start < end && raw[start] == ' ')
        start++;
    while (end > start && raw[end - 1] == ' ')
        end--;
    memcpy(out, raw + start, end - start);
    out[end - start] = '\0';
}

bool dl_x86_cpuid_read(dl_x86_cpuid *id)
{
    uint32_t r[4], max_leaf, max_sub = 0;
    memset(id, 0, sizeof *id);
    if (!dl_cpuid(0, 0, r))
        return false;
    max_leaf = r[0];
    if (max_leaf >= 1 && dl_cpuid(1, 0, r))
        id->leaf1_ecx = r[2];
    if (max_leaf >= 7 && dl_cpuid(7, 0, r)) {
        max_sub = r[0];
        id->leaf7_ebx = r[1];
        id->leaf7_ecx = r[2];
        id->leaf7_edx = r[3];
    }
    if (max_sub >= 1 && dl_cpuid(7, 1, r))
        id->leaf7_1_eax = r[0];
    if (!dl_xgetbv0(&id->xcr0))
        id->xcr0 = 0;   /* no XSAVE enabled: the OS saves no vector state beyond SSE */
    return true;
}
