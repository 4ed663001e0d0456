/* Memory on Windows: RAM, and the commit limit (RAM + paging file) that torch's DLLs and
 * every DataLoader worker draw on. */
#include "probe/probe.h"

#define WIN32_LEAN_AND_MEAN
#include <windows.h>

void dl_probe_memory_windows(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out)
{
    MEMORYSTATUSEX s;
    (void)ctx;
    s.dwLength = sizeof s;
    if (!GlobalMemoryStatusEx(&s)) {
        dl_int_unknown(&f->memory.total_bytes, "GlobalMemoryStatusEx failed");
        dl_int_unknown(&f->memory.available_bytes, "GlobalMemoryStatusEx failed");
        dl_int_unknown(&f->memory.swap_total_bytes, "GlobalMemoryStatusEx failed");
        dl_int_unknown(&f->memory.swap_free_bytes, "GlobalMemoryStatusEx failed");
        dl_int_unknown(&f->os.windows.commit_limit_bytes, "GlobalMemoryStatusEx failed");
        dl_probe_note(out, DL_PROBE_FAILED, "GlobalMemoryStatusEx failed");
        return;
    }
    dl_int_set(&f->memory.total_bytes, (long long)s.ullTotalPhys);
    dl_int_set(&f->memory.available_bytes, (long long)s.ullAvailPhys);
    /* the paging file's share of the commit limit is what swap is elsewhere */
    dl_int_set(&f->memory.swap_total_bytes,
               s.ullTotalPageFile > s.ullTotalPhys ? (long long)(s.ullTotalPageFile - s.ullTotalPhys)
                                                   : 0);
    dl_int_set(&f->memory.swap_free_bytes,
               s.ullAvailPageFile > s.ullAvailPhys ? (long long)(s.ullAvailPageFile - s.ullAvailPhys)
                                                   : 0);
    dl_int_set(&f->os.windows.commit_limit_bytes, (long long)s.ullTotalPageFile);
}
