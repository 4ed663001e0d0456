/* Memory from /proc/meminfo (values there are in KiB). */
#include "probe/probe.h"

#include "base/str.h"

#include <stdlib.h>
#include <string.h>

/* Finds "Key:   12345 kB" and returns bytes. */
static bool meminfo_value(const char *text, const char *key, long long *bytes)
{
    size_t kl = strlen(key);
    const char *p = text;
    while (p && *p) {
        if (strncmp(p, key, kl) == 0 && p[kl] == ':') {
            char *end;
            long long kib = strtoll(p + kl + 1, &end, 10);
            if (end == p + kl + 1 || kib < 0)
                return false;
            while (*end == ' ' || *end == '\t')
                end++;
            *bytes = strncmp(end, "kB", 2) == 0 ? kib * 1024 : kib;
            return true;
        }
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return false;
}

static void fill(const char *text, const char *key, dl_int *v)
{
    long long bytes;
    if (meminfo_value(text, key, &bytes))
        dl_int_set(v, bytes);
    else
        dl_int_unknown(v, "/proc/meminfo has no readable %s line", key);
}

void dl_probe_memory(const dl_machine *m, dl_facts *f, dl_probe_outcome *out)
{
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
