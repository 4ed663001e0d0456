#include "parse/paste_index.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/str.h"

/* 8 KB of real reports (tracebacks, paths, collect_env) holds some three thousand distinct
 * trigrams, so a 16384-bit filter is about a sixth full, and a token of ten characters
 * (eight trigrams) passes a block that lacks it about once in a million. The filters take a
 * quarter of the text's size. */
#define BLOCK_BYTES 8192u
#define FILTER_SHIFT 14
#define FILTER_WORDS ((1u << FILTER_SHIFT) / 64u)
/* The longest token the filters answer for: each block's filter also holds the trigrams
 * of this many bytes after the block, so a token that starts in a block and runs past its
 * end is still wholly in its filter. Longer tokens are searched with strstr. */
#define LONGEST 256u
/* Below this the whole text is searched: one strstr over a quarter of a megabyte costs
 * less than building the filters. */
#define PIECE_MIN 256u
#define PIECE_MAX 4096u
#define INDEXED_FROM (256u * 1024u)

struct dl_paste_index {
    size_t len;
    size_t blocks;
    uint64_t *bits; /* FILTER_WORDS per block */
};

static unsigned trigram(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    uint32_t v = ((uint32_t)u[0] << 16) | ((uint32_t)u[1] << 8) | u[2];
    return (unsigned)((uint32_t)(v * 2654435761u) >> (32 - FILTER_SHIFT));
}

dl_paste_index *dl_paste_index_build(const char *text, size_t len)
{
    dl_paste_index *ix;
    size_t b;
    if (len < INDEXED_FROM)
        return NULL;
    ix = dl_xmalloc(sizeof *ix);
    ix->len = len;
    ix->blocks = (len + BLOCK_BYTES - 1) / BLOCK_BYTES;
    ix->bits = dl_xcalloc(ix->blocks * FILTER_WORDS, sizeof *ix->bits);
    for (b = 0; b < ix->blocks; b++) {
        uint64_t *f = ix->bits + b * FILTER_WORDS;
        size_t i = b * BLOCK_BYTES, end = i + BLOCK_BYTES + LONGEST;
        if (end > len)
            end = len;
        if (i + 3 <= end) {
            /* trigram()'s value, rolled on a byte at a time */
            const unsigned char *u = (const unsigned char *)text;
            uint32_t v = ((uint32_t)u[i] << 8) | u[i + 1];
            for (i += 2; i < end; i++) {
                unsigned h;
                v = ((v << 8) | u[i]) & 0xFFFFFFu;
                h = (unsigned)((uint32_t)(v * 2654435761u) >> (32 - FILTER_SHIFT));
                f[h >> 6] |= (uint64_t)1 << (h & 63);
            }
        }
    }
    return ix;
}

void dl_paste_index_free(dl_paste_index *ix)
{
    if (!ix)
        return;
    free(ix->bits);
    free(ix);
}

static int block_may_hold(const dl_paste_index *ix, size_t b, const unsigned *h, size_t n)
{
    const uint64_t *f = ix->bits + b * FILTER_WORDS;
    size_t k;
    for (k = 0; k < n; k++)
        if (!(f[h[k] >> 6] & ((uint64_t)1 << (h[k] & 63))))
            return 0;
    return 1;
}

/* The first occurrence of needle (n bytes) starting in [lo, hi), where hi + n - 1 is within
 * the text. Each piece is copied out and ended, so that libc's strstr (far faster than a
 * loop of memchr and memcmp) cannot run past it. The pieces start small and grow: a token
 * searched again from the line after its last hit is usually a few lines on. */
static const char *find_between(const char *text, size_t lo, size_t hi, const char *needle,
                                size_t n)
{
    char piece[PIECE_MAX + LONGEST];
    size_t size = PIECE_MIN;
    while (lo < hi) {
        size_t end = hi - lo > size ? lo + size : hi, len = end - lo + n - 1;
        const char *hit;
        memcpy(piece, text + lo, len);
        piece[len] = '\0';
        if ((hit = strstr(piece, needle)) != NULL)
            return text + lo + (size_t)(hit - piece);
        lo = end;
        if (size < PIECE_MAX)
            size *= 2;
    }
    return NULL;
}

const char *dl_paste_index_find(const dl_paste_index *ix, const char *text, size_t from,
                                const char *needle)
{
    unsigned h[LONGEST];
    size_t n = strlen(needle), k, b;
    if (!ix || n < 3 || n > LONGEST)
        return strstr(text + from, needle);
    if (from >= ix->len || n > ix->len - from)
        return NULL;
    for (k = 0; k + 3 <= n; k++)
        h[k] = trigram(needle + k);
    for (b = from / BLOCK_BYTES; b < ix->blocks; b++) {
        size_t lo = b * BLOCK_BYTES, hi = lo + BLOCK_BYTES, last = ix->len - n + 1;
        const char *hit;
        if (!block_may_hold(ix, b, h, n - 2))
            continue;
        if (lo < from)
            lo = from;
        if (hi > last)
            hi = last;
        if (lo < hi && (hit = find_between(text, lo, hi, needle, n)) != NULL)
            return hit;
    }
    return NULL;
}
