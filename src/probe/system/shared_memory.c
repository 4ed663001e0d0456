/* /dev/shm's size, from the tmpfs mount's options in /proc/self/mountinfo: DataLoader
 * workers hand tensors over through it and NCCL puts its intra-node buffers there, and a
 * container gets 64 MiB of it unless it is started with --ipc=host or --shm-size. */
#include "probe/probe.h"

#include "base/str.h"

#include <stdlib.h>
#include <string.h>

/* The largest size believed: 2^49 bytes, as for memory (probe/system/memory.c). */
#define MAX_SHM_BYTES (1ULL << 49)

/* "size=65536k" (tmpfs takes k, m, g or a plain count of bytes; a "%" of memory too) as
 * bytes; false for what is not such a size. */
static bool tmpfs_size(const char *v, size_t n, long long total, long long *bytes)
{
    unsigned long long x = 0, unit = 1;
    size_t i = 0;
    if (n == 0)
        return false;
    for (; i < n && v[i] >= '0' && v[i] <= '9'; i++) {
        x = x * 10 + (unsigned)(v[i] - '0');
        if (x > MAX_SHM_BYTES)
            return false;
    }
    if (i == 0)
        return false;
    if (i < n) {
        switch (v[i]) {
        case 'k': case 'K': unit = 1ULL << 10; break;
        case 'm': case 'M': unit = 1ULL << 20; break;
        case 'g': case 'G': unit = 1ULL << 30; break;
        case '%':
            if (total <= 0 || x > 100)
                return false;
            *bytes = (long long)((unsigned long long)total / 100 * x);
            return i + 1 == n;
        default: return false;
        }
        if (i + 1 != n)
            return false;
    }
    if (x > MAX_SHM_BYTES / unit)
        return false;
    *bytes = (long long)(x * unit);
    return true;
}

/* The super options (after " - TYPE SOURCE ") of the /dev/shm line of mountinfo, and
 * whether that mount is tmpfs; NULL when no line mounts /dev/shm. The last such line wins:
 * a later mount hides an earlier one. */
static char *shm_options(const char *mountinfo, bool *tmpfs)
{
    const char *line = mountinfo;
    char *found = NULL;
    while (line && *line) {
        const char *nl = strchr(line, '\n');
        char *copy = dl_strndup(line, nl ? (size_t)(nl - line) : strlen(line));
        dl_strv tok = {0};
        size_t i;
        dl_strv_split(&tok, copy, ' ');
        for (i = 0; tok.n > 4 && strcmp(tok.v[4], "/dev/shm") == 0 && i + 3 < tok.n; i++) {
            if (strcmp(tok.v[i], "-") == 0) {
                free(found);
                found = dl_strdup(tok.v[i + 3]);
                *tmpfs = strcmp(tok.v[i + 1], "tmpfs") == 0;
                break;
            }
        }
        dl_strv_free(&tok);
        free(copy);
        line = nl ? nl + 1 : NULL;
    }
    return found;
}

/* The value of "size=" among comma-separated options; NULL (and *n 0) when absent. */
static const char *size_option(const char *options, size_t *n)
{
    const char *p = options;
    while (p && *p) {
        size_t len = strcspn(p, ",");
        if (strncmp(p, "size=", 5) == 0) {
            *n = len - 5;
            return p + 5;
        }
        p += len;
        if (*p == ',')
            p++;
    }
    *n = 0;
    return NULL;
}

void dl_probe_shared_memory(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out)
{
    dl_int *shm = &f->memory.shm_bytes;
    const dl_int *total = &f->memory.total_bytes;
    dl_io_error err = {0};
    char *mountinfo, *options;
    const char *size;
    bool tmpfs = false;
    long long bytes;
    size_t n;
    if (!dl_fs_read(ctx->machine, "/proc/self/mountinfo", 1u << 20, &mountinfo, NULL, NULL,
                    &err)) {
        dl_int_unknown(shm, "%s", err.message);
        dl_probe_note(out, dl_probe_status_of_io(err.status), err.message);
        dl_io_error_clear(&err);
        return;
    }
    options = shm_options(mountinfo, &tmpfs);
    free(mountinfo);
    if (!options || !tmpfs) {
        dl_int_unknown(shm, options ? "/dev/shm is not a tmpfs mount"
                                    : "/proc/self/mountinfo has no /dev/shm mount");
        free(options);
        return;
    }
    size = size_option(options, &n);
    if (size && tmpfs_size(size, n, total->known ? total->value : 0, &bytes))
        dl_int_set(shm, bytes);
    else if (size)
        dl_int_unknown(shm, "/dev/shm's size option (size=%.*s) is not a size",
                       (int)(n > 40 ? 40 : n), size);
    else if (total->known)
        dl_int_set(shm, total->value / 2); /* tmpfs without size=: half of memory */
    else
        dl_int_unknown(shm, "/dev/shm has no size option and memory's total is unknown");
    free(options);
}
