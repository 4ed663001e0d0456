/* Which x86 instruction set an OpenBLAS kernel uses, by the core name OpenBLAS reports
 * (openblas_get_corename), and which core name to ask for on a given CPU.
 *
 * A DYNAMIC_ARCH OpenBLAS (Debian's, the one bundled in aarch64 torch wheels) chooses its
 * kernel from the CPU's family and model. A model it does not know, which is what a
 * virtual machine often shows, makes it fall back to "Prescott", an SSE3 kernel that runs
 * a matrix product several times slower than the AVX-512 kernel on the same CPU.
 * OPENBLAS_CORETYPE overrides the choice. Pure functions, no I/O. */
#ifndef DLENV_KNOW_BLAS_KERNEL_H
#define DLENV_KNOW_BLAS_KERNEL_H

typedef enum dl_x86_level {
    DL_X86_UNKNOWN = 0, /* not an x86 kernel, or a name this table does not know */
    DL_X86_SSE,
    DL_X86_AVX,
    DL_X86_AVX2,
    DL_X86_AVX512
} dl_x86_level;

/* The widest vector instructions the named OpenBLAS kernel uses. */
dl_x86_level dl_openblas_core_level(const char *core);

/* The OPENBLAS_CORETYPE value for a CPU with this level: a core every DYNAMIC_ARCH build
 * since 0.3.x has. NULL for DL_X86_UNKNOWN. */
const char *dl_openblas_core_for(dl_x86_level level);

/* "SSE", "AVX", "AVX2", "AVX-512" (NULL for DL_X86_UNKNOWN). */
const char *dl_x86_level_name(dl_x86_level level);

#endif
