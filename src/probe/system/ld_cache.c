/* Parses /etc/ld.so.cache without glibc's help, so a --root image (or a cache from another
 * glibc) reads the same as this machine's. Layout, as ldconfig writes it:
 *   new:  "glibc-ld.so.cache" "1.1", u32 nlibs, u32 len_strings, u8 flags, 3 pad,
 *         u32 extension_offset, 3 x u32 unused (48 bytes), then nlibs entries of
 *         {i32 flags, u32 key, u32 value, u32 osversion, u64 hwcap} (24 bytes), then the
 *         strings; key and value are offsets from the start of this header.
 *   old:  "ld.so-1.7.0", u32 nlibs at offset 12, nlibs x 12-byte entries; the new header
 *         follows, aligned to 8. Only the new part is read, as glibc 2.32+ does. */
#include "probe/system/ld_cache.h"

#include "base/str.h"

#include <stdlib.h>
#include <string.h>

#define OLD_MAGIC "ld.so-1.7.0"
#define OLD_HEADER 16
#define OLD_ENTRY 12
#define NEW_MAGIC "glibc-ld.so.cache1.1"
#define NEW_HEADER 48
#define NEW_ENTRY 24
#define NEW_ALIGN 8
#define FLAGS_BIG_ENDIAN 3   /* the header's endianness byte: 0 unset, 2 little, 3 big */
#define CACHE_MAX ((size_t)256 << 20)   /* far above any real cache; bounds a bad file */

/* Reads integers byte by byte: the cache may be unaligned in memory and, written on
 * another machine, in the other byte order. */
static uint64_t get_uint(const unsigned char *p, size_t n, bool big)
{
    uint64_t v = 0;
    size_t i;
    for (i = 0; i < n; i++)
        v |= (uint64_t)p[big ? n - 1 - i : i] << (8 * i);
    return v;
}

/* A NUL-terminated string at offset off of the new section, or NULL when it runs out. */
static const char *string_at(const unsigned char *sec, size_t len, uint64_t off)
{
    if (off >= len || !memchr(sec + off, '\0', len - (size_t)off))
        return NULL;
    return (const char *)sec + off;
}

/* Where the new section starts: 0, or after the old entries. */
static bool find_new_section(const unsigned char *data, size_t len, size_t *start, char **why)
{
    uint64_t nold;
    size_t off;
    if (len >= sizeof OLD_MAGIC - 1 && memcmp(data, OLD_MAGIC, sizeof OLD_MAGIC - 1) == 0) {
        if (len < OLD_HEADER) {
            *why = dl_strdup("it ends inside the old-format header");
            return false;
        }
        nold = get_uint(data + 12, 4, false);
        if (nold > (len - OLD_HEADER) / OLD_ENTRY) {
            *why = dl_fmt("it claims %llu old-format entries but is %zu bytes long",
                          (unsigned long long)nold, len);
            return false;
        }
        off = OLD_HEADER + (size_t)nold * OLD_ENTRY;
        *start = (off + NEW_ALIGN - 1) & ~(size_t)(NEW_ALIGN - 1);
    } else {
        *start = 0;
    }
    if (*start > len || len - *start < NEW_HEADER ||
        memcmp(data + *start, NEW_MAGIC, sizeof NEW_MAGIC - 1) != 0) {
        *why = dl_strdup(*start ? "it has only the old ld.so-1.7.0 format, which the loader "
                                  "no longer reads"
                                : "it does not start with glibc-ld.so.cache1.1 or "
                                  "ld.so-1.7.0");
        return false;
    }
    return true;
}

static bool read_entry(const unsigned char *sec, size_t len, size_t i, bool big,
                       dl_ld_cache_entry *e, char **why)
{
    const unsigned char *p = sec + NEW_HEADER + i * NEW_ENTRY;
    const char *key = string_at(sec, len, get_uint(p + 4, 4, big));
    const char *value = string_at(sec, len, get_uint(p + 8, 4, big));
    if (!key || !value) {
        *why = dl_fmt("entry %zu points outside the file", i);
        return false;
    }
    e->flags = (int32_t)(uint32_t)get_uint(p, 4, big);
    e->hwcap = get_uint(p + 16, 8, big);
    /* Copied as they are: the few that become facts are cleaned then (dl_text_set). */
    e->soname = dl_strdup(key);
    e->path = dl_strdup(value);
    return true;
}

bool dl_ld_cache_parse(const unsigned char *data, size_t len, dl_ld_cache *c, char **why)
{
    size_t start, i, seclen;
    const unsigned char *sec;
    uint64_t n;
    bool big;
    memset(c, 0, sizeof *c);
    if (!find_new_section(data, len, &start, why))
        return false;
    sec = data + start;
    seclen = len - start;
    big = sec[28] == FLAGS_BIG_ENDIAN;
    n = get_uint(sec + 20, 4, big);
    if (n > (seclen - NEW_HEADER) / NEW_ENTRY) {
        *why = dl_fmt("it claims %llu entries but is %zu bytes long", (unsigned long long)n,
                      len);
        return false;
    }
    c->entries = dl_xcalloc(n ? (size_t)n : 1, sizeof *c->entries);
    for (i = 0; i < (size_t)n; i++) {
        if (!read_entry(sec, seclen, i, big, &c->entries[i], why)) {
            dl_ld_cache_free(c);
            return false;
        }
        c->count++;
    }
    return true;
}

dl_ld_cache_status dl_ld_cache_load(const dl_machine *m, dl_ld_cache *c, char **why)
{
    dl_io_error err = {DL_IO_OK, NULL};
    char *data = NULL, *reason = NULL;
    size_t len = 0;
    bool truncated = false;
    dl_ld_cache_status st = DL_LD_CACHE_OK;
    memset(c, 0, sizeof *c);
    if (!dl_fs_read(m, DL_LD_CACHE_PATH, CACHE_MAX, &data, &len, &truncated, &err)) {
        st = err.status == DL_IO_NOT_FOUND ? DL_LD_CACHE_MISSING : DL_LD_CACHE_UNREADABLE;
        *why = dl_strdup(err.message);
    } else if (truncated) {
        st = DL_LD_CACHE_MALFORMED;
        *why = dl_fmt("%s is larger than %zu bytes", DL_LD_CACHE_PATH, CACHE_MAX);
    } else if (!dl_ld_cache_parse((const unsigned char *)data, len, c, &reason)) {
        st = DL_LD_CACHE_MALFORMED;
        *why = dl_fmt("%s is malformed: %s", DL_LD_CACHE_PATH, reason);
    }
    free(reason);
    free(data);
    dl_io_error_clear(&err);
    return st;
}

void dl_ld_cache_free(dl_ld_cache *c)
{
    size_t i;
    for (i = 0; i < c->count; i++) {
        free(c->entries[i].soname);
        free(c->entries[i].path);
    }
    free(c->entries);
    memset(c, 0, sizeof *c);
}
