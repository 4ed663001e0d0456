#include "parse/oom.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The size just before `after` ("23.65 GiB of which") in bytes; -1 when none. Both forms
 * of the message: "total capacity of 23.65 GiB of which 1.10 GiB is free ... 3.20 GiB is
 * allocated by PyTorch, and 512.00 MiB is reserved by PyTorch but unallocated" (2.1+) and
 * "(20.00 GiB total capacity; 1.50 GiB already allocated; 100.00 MiB free; 2.00 GiB
 * reserved in total by PyTorch)" (older). */
static double size_before(const char *low, const char *after)
{
    const char *at = strstr(low, after), *p;
    double scale;
    if (!at)
        return -1;
    p = at;
    while (p > low && p[-1] == ' ')
        p--;
    if (p - low >= 3 && !strncmp(p - 3, "gib", 3))
        scale = 1024.0 * 1024.0 * 1024.0;
    else if (p - low >= 3 && !strncmp(p - 3, "mib", 3))
        scale = 1024.0 * 1024.0;
    else if (p - low >= 3 && !strncmp(p - 3, "kib", 3))
        scale = 1024.0;
    else if (p - low >= 5 && !strncmp(p - 5, "bytes", 5)) {
        /* "0 bytes free", "of which 0 bytes is free": torch prints no unit prefix for 0. */
        scale = 1.0;
        p -= 2;
    } else
        return -1;
    p -= 3;
    while (p > low && p[-1] == ' ')
        p--;
    while (p > low && ((p[-1] >= '0' && p[-1] <= '9') || p[-1] == '.'))
        p--;
    return strtod(p, NULL) * scale;
}

static double first_of(const char *low, const char *a, const char *b)
{
    double v = size_before(low, a);
    return v >= 0 ? v : size_before(low, b);
}

/* torch before 1.4: "(GPU 0; 3.95 GiB total capacity; 1.62 GiB already allocated; 23.00 MiB
 * free; 9.10 MiB cached)": what PyTorch holds is what it allocated plus what its caching
 * allocator keeps unallocated; -1 without both numbers. */
static double cached_by_torch(const char *low)
{
    double allocated = size_before(low, " already allocated"), cached = size_before(low, " cached)");
    if (cached < 0)
        cached = size_before(low, " cached;");
    return allocated >= 0 && cached >= 0 ? allocated + cached : -1;
}

/* The size right after `before` ("this process has 1.50 GiB memory in use") in bytes; -1
 * when none. */
static double size_after(const char *low, const char *before)
{
    const char *at = strstr(low, before);
    char *end;
    double v;
    if (!at)
        return -1;
    at += strlen(before);
    v = strtod(at, &end);
    if (end == at)
        return -1;
    while (*end == ' ')
        end++;
    if (!strncmp(end, "gib", 3))
        return v * 1024.0 * 1024.0 * 1024.0;
    if (!strncmp(end, "mib", 3))
        return v * 1024.0 * 1024.0;
    if (!strncmp(end, "kib", 3))
        return v * 1024.0;
    return !strncmp(end, "bytes", 5) ? v : -1;
}

double dl_oom_outside_bytes(const dl_oom *o)
{
    return o->total_bytes - o->free_bytes - (o->own_bytes >= 0 ? o->own_bytes : o->torch_bytes);
}

double dl_oom_unexplained_bytes(const dl_oom *o)
{
    double outside = dl_oom_outside_bytes(o);
    return o->own_bytes >= 0 ? outside : outside - DL_OOM_CONTEXT_BYTES;
}

/* The numbers of the first OOM line, each -1 when the line does not say it; false when
 * there is no such line. */
static bool read_numbers(const dl_paste *p, dl_oom *out)
{
    long i = dl_paste_find(p, 0, "cuda out of memory");
    const char *low;
    /* A paste that starts below torch's first line still has the numbers: "Tried to
     * allocate 2.00 GiB (GPU 0; 23.65 GiB total capacity; ...)". */
    if (i < 0 || !strstr(p->lines[i].lower, "total capacity"))
        i = dl_paste_find(p, 0, "total capacity") >= 0 ? dl_paste_find(p, 0, "total capacity") : i;
    if (i < 0)
        return false;
    low = p->lines[i].lower;
    out->line = (size_t)i;
    out->total_bytes = first_of(low, " of which", " total capacity");
    /* "GPU 0 has a total capacity of 15.11 GiB." with no free memory said (XPU's form) */
    if (out->total_bytes < 0)
        out->total_bytes = size_after(low, "total capacity of ");
    out->free_bytes = first_of(low, " is free", " free;");
    out->torch_bytes = first_of(low, " reserved in total by pytorch", " is allocated by pytorch");
    if (out->torch_bytes < 0)
        out->torch_bytes = cached_by_torch(low);
    /* torch 2.1+ names this process apart from the others ("Process 4242 has ..."), but
     * only where NVML's process id is this one's: not inside a container's namespace. */
    out->own_bytes = size_after(low, "this process has ");
    out->requested_bytes = size_after(low, "tried to allocate ");
    if (out->torch_bytes >= 0 && strstr(low, "reserved by pytorch but unallocated")) {
        double extra = size_before(low, " is reserved by pytorch but unallocated");
        if (extra > 0)
            out->torch_bytes += extra;
    }
    return true;
}

bool dl_oom_read(const dl_paste *p, dl_oom *out)
{
    return read_numbers(p, out) && out->total_bytes > 0 && out->free_bytes >= 0 &&
           out->torch_bytes >= 0;
}

bool dl_oom_read_request(const dl_paste *p, dl_oom *out)
{
    return read_numbers(p, out) && out->total_bytes > 0 && out->requested_bytes > 0;
}

/* "oom" at `at` stands alone: no letter before it, none after it but a plural "s", and not
 * the start of the kernel killer's names ("oomkilled", "oom-kill", "oom_kill", "oom killer"). */
static bool oom_word_at(const char *line, const char *at, size_t len)
{
    const char *end = at + len;
    if (at > line && isalpha((unsigned char)at[-1]))
        return false;
    if (*end == 's')
        end++;
    if (isalpha((unsigned char)*end))
        return false;
    return strncmp(end, "-kill", 5) != 0 && strncmp(end, "_kill", 5) != 0 &&
           strncmp(end, " kill", 5) != 0;
}

long dl_oom_word_line(const dl_paste *p)
{
    return dl_paste_find_where(p, 0, "oom", oom_word_at);
}
