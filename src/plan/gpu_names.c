#include "plan/gpu_names.h"

#include "know/arch.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool contains_word(const char *hay, const char *word)
{
    size_t n = strlen(word), i, h = strlen(hay);
    for (i = 0; n && i + n <= h; i++) {
        size_t j;
        for (j = 0; j < n && tolower((unsigned char)hay[i + j]) ==
                                 tolower((unsigned char)word[j]); j++)
            ;
        if (j == n && (i == 0 || !isalnum((unsigned char)hay[i - 1])) &&
            !isalnum((unsigned char)hay[i + n]))
            return true;
    }
    return false;
}

dl_gpu_vendor dl_gpu_vendor_of_name(const char *name)
{
    static const struct { const char *word; dl_gpu_vendor v; } words[] = {
        {"AMD", DL_GPU_AMD}, {"Radeon", DL_GPU_AMD}, {"Instinct", DL_GPU_AMD},
        {"Intel", DL_GPU_INTEL}, {"Arc", DL_GPU_INTEL}, {"Iris", DL_GPU_INTEL},
        {"UHD", DL_GPU_INTEL}, {"Apple", DL_GPU_APPLE},
    };
    size_t i;
    for (i = 0; i < sizeof words / sizeof words[0]; i++)
        if (contains_word(name, words[i].word))
            return words[i].v;
    return DL_GPU_NVIDIA;
}

static const char *skip_nvidia(const char *s)
{
    while (*s == ' ')
        s++;
    return strncmp(s, "NVIDIA ", 7) == 0 ? s + 7 : s;
}

static int ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

bool dl_gpu_cc_from_name(const dl_knowledge *k, const char *name, unsigned *major,
                         unsigned *minor)
{
    const dl_table *t = dl_knowledge_table(k, "gpu_compute_capability");
    const char *want = skip_nvidia(name);
    long best = -1, shortest = -1;
    size_t best_len = 0, short_len = 0, r;
    for (r = 0; t && r < t->rows; r++) {
        const char *row = skip_nvidia(dl_table_get(t, r, "gpu_name"));
        size_t len = strlen(row);
        if (ieq(row, want)) {
            best = (long)r;
            break;
        }
        /* "NVIDIA GeForce RTX 3060 Laptop GPU (12GB)" holds the row "GeForce RTX 3060
         * Laptop GPU": the longest row inside the name wins. */
        if (len > best_len && contains_word(want, row)) {
            best = (long)r;
            best_len = len;
        }
        /* "RTX 3060" is inside "GeForce RTX 3060" and "GeForce RTX 3060 Ti": the shortest
         * row holding a short name is the plain model. */
        if (contains_word(row, want) && (shortest < 0 || len < short_len)) {
            shortest = (long)r;
            short_len = len;
        }
    }
    if (best < 0)
        best = shortest;
    return best >= 0 &&
           dl_cc_parse(dl_table_get(t, (size_t)best, "compute_capability"), major, minor);
}

bool dl_gpu_cc_from_text(const char *s, unsigned *major, unsigned *minor)
{
    dl_arch_target t[2];
    size_t n = 0;
    if (dl_cc_parse(s, major, minor))
        return *major > 0;
    if (!dl_arch_target_parse(s, strlen(s), t, &n) || n == 0 ||
        (strncmp(s, "sm_", 3) != 0 && strncmp(s, "compute_", 8) != 0))
        return false;
    *major = t[0].major;
    *minor = t[0].minor;
    return true;
}

bool dl_gpu_pci_id_parse(const char *s, long *vendor, long *device)
{
    char *end;
    unsigned long v, d;
    if (strlen(s) != 9 || s[4] != ':')
        return false;
    v = strtoul(s, &end, 16);
    if (end != s + 4)
        return false;
    d = strtoul(s + 5, &end, 16);
    if (*end)
        return false;
    *vendor = (long)v;
    *device = (long)d;
    return true;
}

dl_gpu_vendor dl_gpu_vendor_of_pci(long vendor)
{
    switch (vendor) {
    case 0x10de: return DL_GPU_NVIDIA;
    case 0x1002: return DL_GPU_AMD;
    case 0x8086: return DL_GPU_INTEL;
    case 0x106b: return DL_GPU_APPLE;
    default: return DL_GPU_OTHER;
    }
}
