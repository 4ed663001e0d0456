/* cpuid and xgetbv: the CPU's own word on its vector features (x86-64 only). The
 * instruction is reached through each compiler's intrinsic, never GNU-only C. */
#include "os/os.h"

#if defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
#include <immintrin.h>
#include <intrin.h>
#define DL_HAVE_CPUID 1
#elif (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#include <cpuid.h>
#define DL_HAVE_CPUID 1
#else
#define DL_HAVE_CPUID 0
#endif

bool dl_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
#if DL_HAVE_CPUID && defined(_MSC_VER)
    int r[4];
    __cpuid(r, (int)(leaf & 0x80000000u));
    if ((uint32_t)r[0] < leaf)
        return false;
    __cpuidex(r, (int)leaf, (int)subleaf);
    regs[0] = (uint32_t)r[0];
    regs[1] = (uint32_t)r[1];
    regs[2] = (uint32_t)r[2];
    regs[3] = (uint32_t)r[3];
    return true;
#elif DL_HAVE_CPUID
    unsigned a, b, c, d;
    if (!__get_cpuid_count(leaf, subleaf, &a, &b, &c, &d))
        return false;
    regs[0] = a;
    regs[1] = b;
    regs[2] = c;
    regs[3] = d;
    return true;
#else
    (void)leaf;
    (void)subleaf;
    (void)regs;
    return false;
#endif
}

bool dl_xgetbv0(uint64_t *xcr0)
{
#if DL_HAVE_CPUID
    uint32_t r[4];
    /* OSXSAVE (leaf 1, ECX bit 27) says the OS enabled XGETBV; without it the
     * instruction faults. */
    if (!dl_cpuid(1, 0, r) || !(r[2] & (1u << 27)))
        return false;
#if defined(_MSC_VER)
    *xcr0 = (uint64_t)_xgetbv(0);
#else
    {
        unsigned lo, hi;
        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        *xcr0 = ((uint64_t)hi << 32) | lo;
    }
#endif
    return true;
#else
    (void)xcr0;
    return false;
#endif
}

/* Leaf 1's ECX bit 31 is set by every hypervisor that tells; the leaves from 0x40000000 then
 * are the hypervisor's own. They lie outside the CPU's maximum leaf, so the compiler's
 * range-checked helper would refuse them: ask the instruction directly, and only when the
 * bit says a hypervisor answers there. */
bool dl_cpuid_hypervisor_leaf(uint32_t leaf, uint32_t regs[4])
{
    uint32_t r[4];
    if (leaf < 0x40000000u || leaf > 0x400000ffu || !dl_cpuid(1, 0, r) ||
        !(r[2] & (1u << 31)))
        return false;
#if DL_HAVE_CPUID && defined(_MSC_VER)
    {
        int v[4];
        __cpuid(v, (int)leaf);
        regs[0] = (uint32_t)v[0];
        regs[1] = (uint32_t)v[1];
        regs[2] = (uint32_t)v[2];
        regs[3] = (uint32_t)v[3];
    }
    return true;
#elif DL_HAVE_CPUID
    __cpuid(leaf, regs[0], regs[1], regs[2], regs[3]);
    return true;
#else
    (void)regs;
    return false;
#endif
}
