/* OpenBLAS x86_64 core names (driver/others/dynamic.c of OpenBLAS 0.3.21-0.3.28, the
 * strings in Debian 12's libopenblasp-r0.3.21.so) and the instructions each kernel uses.
 * A build for one target (no DYNAMIC_ARCH) names it in capitals, "HASWELL": compared
 * without case. */
#include "know/blas_kernel.h"

#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>

static const struct {
    const char *core;
    dl_x86_level level;
} cores[] = {
    {"Katmai", DL_X86_SSE},      {"Coppermine", DL_X86_SSE},   {"Northwood", DL_X86_SSE},
    {"Prescott", DL_X86_SSE},    {"Banias", DL_X86_SSE},       {"Atom", DL_X86_SSE},
    {"Core2", DL_X86_SSE},       {"Penryn", DL_X86_SSE},       {"Dunnington", DL_X86_SSE},
    {"Nehalem", DL_X86_SSE},     {"Athlon", DL_X86_SSE},       {"Opteron", DL_X86_SSE},
    {"Opteron_SSE3", DL_X86_SSE}, {"Barcelona", DL_X86_SSE},   {"Nano", DL_X86_SSE},
    {"Bobcat", DL_X86_SSE},
    /* AVX without AVX2: Bulldozer to Excavator have FMA3/FMA4 kernels, still 128/256-bit
     * without AVX2's integer and gather forms. */
    {"Sandybridge", DL_X86_AVX}, {"Bulldozer", DL_X86_AVX},    {"Piledriver", DL_X86_AVX},
    {"Steamroller", DL_X86_AVX}, {"Excavator", DL_X86_AVX},
    {"Haswell", DL_X86_AVX2},    {"Zen", DL_X86_AVX2},
    {"SkylakeX", DL_X86_AVX512}, {"Cooperlake", DL_X86_AVX512},
    {"SapphireRapids", DL_X86_AVX512},
};

static bool same_name(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

dl_x86_level dl_openblas_core_level(const char *core)
{
    size_t i;
    for (i = 0; core && i < sizeof cores / sizeof cores[0]; i++)
        if (same_name(cores[i].core, core))
            return cores[i].level;
    return DL_X86_UNKNOWN;
}

const char *dl_openblas_core_for(dl_x86_level level)
{
    switch (level) {
    case DL_X86_SSE: return "Nehalem";
    case DL_X86_AVX: return "Sandybridge";
    case DL_X86_AVX2: return "Haswell";
    case DL_X86_AVX512: return "SkylakeX";
    default: return NULL;
    }
}

const char *dl_x86_level_name(dl_x86_level level)
{
    switch (level) {
    case DL_X86_SSE: return "SSE";
    case DL_X86_AVX: return "AVX";
    case DL_X86_AVX2: return "AVX2";
    case DL_X86_AVX512: return "AVX-512";
    default: return NULL;
    }
}
