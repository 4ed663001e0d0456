/* Readers of distribution files: os-release (KEY="value" lines) and the C library's
 * version stamp inside an image. */
#ifndef DLENV_PROBE_OS_RELEASE_H
#define DLENV_PROBE_OS_RELEASE_H

#include "facts/value.h"
#include "os/os.h"

typedef struct dl_os_release {
    dl_pair *pairs;
    size_t count;
} dl_os_release;

/* Parses os-release text (shell-like quoting, as os-release(5) describes). */
void dl_os_release_parse(const char *text, size_t len, dl_os_release *rel);
bool dl_os_release_read(const dl_machine *m, const char *path, dl_os_release *rel,
                        dl_io_error *err);
const char *dl_os_release_get(const dl_os_release *rel, const char *key);
/* Sets t to the key's value, or unknown "because <path> has no KEY". */
void dl_os_release_field(const dl_os_release *rel, const char *key, const char *path,
                         dl_text *t);
void dl_os_release_free(dl_os_release *rel);

/* The C library of a root that is not this machine: musl by its loader's name, glibc by
 * the version stamp inside libc.so.6. */
bool dl_libc_from_root(const dl_machine *m, char **name, char **version, char **error);
/* Finds "release version X.Y" in a glibc binary's bytes. */
char *dl_glibc_version_in(const char *data, size_t len);

#endif
