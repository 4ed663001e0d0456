/* Decoding of x86 cpuid words into the vector features PyTorch's kernels dispatch on.
 * Pure functions over register values, so tests can feed them any CPU; the probe reads
 * the registers through src/os (dl_x86_cpuid_read) and hands them here. */
#ifndef DLENV_PROBE_CPU_ISA_H
#define DLENV_PROBE_CPU_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The cpuid words that carry the features we report. Leaves the CPU does not have are
 * zero. xcr0 is XGETBV(0), zero when the OS has not enabled XSAVE (then no AVX state is
 * saved across context switches and no AVX feature is usable). */
typedef struct dl_x86_cpuid {
    uint32_t leaf1_ecx;
    uint32_t leaf7_ebx, leaf7_ecx, leaf7_edx;  /* leaf 7, subleaf 0 */
    uint32_t leaf7_1_eax;                      /* leaf 7, subleaf 1 */
    uint64_t xcr0;
} dl_x86_cpuid;

#define DL_X86_ISA_MAX 16

/* Every name dl_x86_isa_decode can return, in order. They are also the words of the
 * /proc/cpuinfo "flags" line, so one list serves both sources. */
extern const char *const dl_x86_isa_names[DL_X86_ISA_MAX];

/* The features the CPU has and the OS lets a program use, named as Linux's
 * /proc/cpuinfo spells them, in the report's fixed order. Returns how many. */
size_t dl_x86_isa_decode(const dl_x86_cpuid *id, const char *names[DL_X86_ISA_MAX]);
/* Reads the words the decoder needs from this CPU (cpuid, XGETBV); false where there is no
 * cpuid (not x86, or a compiler without the intrinsic). */
bool dl_x86_cpuid_read(dl_x86_cpuid *id);

/* "GenuineIntel", "AuthenticAMD": leaf 0's EBX, EDX, ECX as text. */
void dl_x86_vendor_text(const uint32_t leaf0[4], char out[13]);

/* The brand string of leaves 0x80000002..4 (EAX, EBX, ECX, EDX of each, in that order),
 * without the padding spaces some CPUs put around it. */
void dl_x86_brand_text(const uint32_t regs[12], char out[49]);

#endif
