/* Memory from /proc/meminfo (values there are in KiB). */
#include "probe/probe.h"

#include "base/str.h"

#include <stdlib.h>
#include <string.h>

/* 2^49 bytes (512 TiB): ten times the largest machines, and within the 15 digits cJSON
 * writes a number with, so the report keeps the count exact. */
#define MAX_MEMORY_BYTES (1ULL << 49)

/* The line "Key:   12345 kB" (or a bare count of bytes) of text, without its "Key:";
 * NULL when there is none. */
static const char *meminfo_line(const char *text, const char *key)
{
    size_t kl = strlen(key);
    const char *p = text;
    while (p && *p) {
        if (strncmp(p, key, kl) == 0 && p[kl] == ':')
            return p + kl + 1;
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return NULL;
}

/* The value of one meminfo line in bytes: digits only, then "kB" or nothing before the
 * line ends. False with *why for what is not a count or is past MAX_MEMORY_BYTES
 * ("1e400 kB" once read as 1 B, 2^64 kB as -1024 B). */
static bool meminfo_bytes(const char *p, long long *bytes, const char **why)
{
    unsigned long long v = 0;
    bool kib;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p < '0' || *p > '9') {
        *why = "is not a number";
        return false;
    }
    for (; *p >= '0' && *p <= '9'; p++) {
        v = v * 10 + (unsigned)(*p - '0');
        if (v > MAX_MEMORY_BYTES) { /* no overflow: checked at every digit */
            *why = "is too large to be a memory size";
            return false;
        }
    }
    while (*p == ' ' || *p == '\t')
        p++;
    kib = strncmp(p, "kB", 2) == 0;
    if (kib)
        p += 2;
    while (*p == ' ' || *p == '\t' || *p == '\r')
        p++;
    if (*p && *p != '\n') {
        *why = "is not a number of kB";
        return false;
    }
    if (v > MAX_MEMORY_BYTES / (kib ? 1024u : 1u)) {
        *why = "is too large to be a memory size";
        return false;
    }
    *bytes = (long long)v * (kib ? 1024 : 1);
    return true;
}

static void fill(const char *text, const char *key, dl_int *v)
{
    const char *line = meminfo_line(text, key), *why = NULL;
    long long bytes;
    size_t n;
    if (!line) {
        dl_int_unknown(v, "/proc/meminfo has no %s line", key);
        return;
    }
    if (meminfo_bytes(line, &bytes, &why)) {
        dl_int_set(v, bytes);
        return;
    }
    line += strspn(line, " \t");
    n = strcspn(line, "\r\n");
    dl_int_unknown(v, "/proc/meminfo's %s (%.*s) %s", key, (int)(n > 40 ? 40 : n), line, why);
}

void dl_probe_memory(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out)
{
    const dl_machine *m = ctx->machine;
    dl_memory_facts *mem = &f->memory;
    dl_io_error err = {0};
    char *text;
    if (!dl_fs_read(m, "/proc/meminfo", 256 * 1024, &text, NULL, NULL, &err)) {
        dl_int_unknown(&mem->total_bytes, "%s", err.message);
        dl_int_unknown(&mem->available_bytes, "%s", err.message);
        dl_int_unknown(&mem->swap_total_bytes, "%s", err.message);
        dl_int_unknown(&mem->swap_free_bytes, "%s", err.message);
        dl_probe_note(out, dl_probe_status_of_io(err.status), err.message);
        dl_io_error_clear(&err);
        return;
    }
    fill(text, "MemTotal", &mem->total_bytes);
    fill(text, "MemAvailable", &mem->available_bytes);
    fill(text, "SwapTotal", &mem->swap_total_bytes);
    fill(text, "SwapFree", &mem->swap_free_bytes);
    free(text);
}
