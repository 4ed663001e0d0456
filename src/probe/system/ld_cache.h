/* A reader of the dynamic loader's cache, /etc/ld.so.cache, as ldconfig writes it. The
 * loader consults this file after LD_LIBRARY_PATH and before its default directories, so
 * it is the only way to know which directories from /etc/ld.so.conf a library comes from
 * without running ldconfig. */
#ifndef DLENV_PROBE_LD_CACHE_H
#define DLENV_PROBE_LD_CACHE_H

#include "os/os.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DL_LD_CACHE_PATH "/etc/ld.so.cache"

/* ldconfig's entry flags: the low byte says the library type, the next one the ABI. */
#define DL_LD_CACHE_TYPE_MASK 0x00ff
#define DL_LD_CACHE_ELF_LIBC6 0x0003
#define DL_LD_CACHE_ARCH_MASK 0xff00
#define DL_LD_CACHE_X86_64 0x0300
#define DL_LD_CACHE_AARCH64 0x0a00

typedef struct dl_ld_cache_entry {
    char *soname;     /* the key: libcudart.so.12 (bytes as stored, not yet cleaned) */
    char *path;       /* where ldconfig found it: /usr/local/cuda/lib64/libcudart.so.12 */
    int32_t flags;
    uint64_t hwcap;   /* nonzero for glibc-hwcaps subdirectory entries */
} dl_ld_cache_entry;

typedef struct dl_ld_cache {
    dl_ld_cache_entry *entries;   /* in file order, which is the loader's order */
    size_t count;
} dl_ld_cache;

/* Parses the bytes of a cache in the "glibc-ld.so.cache1.1" format, alone or after the
 * old "ld.so-1.7.0" entries. False with *why (caller frees) when it is malformed. */
bool dl_ld_cache_parse(const unsigned char *data, size_t len, dl_ld_cache *c, char **why);

typedef enum dl_ld_cache_status {
    DL_LD_CACHE_OK,
    DL_LD_CACHE_MISSING,     /* no file: normal in minimal images */
    DL_LD_CACHE_UNREADABLE,  /* exists but cannot be read */
    DL_LD_CACHE_MALFORMED
} dl_ld_cache_status;

/* Reads and parses the machine's /etc/ld.so.cache; *why is set unless OK. */
dl_ld_cache_status dl_ld_cache_load(const dl_machine *m, dl_ld_cache *c, char **why);
void dl_ld_cache_free(dl_ld_cache *c);

#endif
