#include "probe/probe.h"

#include "base/str.h"
#include "probe/platform.h"

#include <stdlib.h>
#include <string.h>

const char *dl_probe_status_name(dl_probe_status s)
{
    switch (s) {
    case DL_PROBE_OK: return "ok";
    case DL_PROBE_NOT_PRESENT: return "not_present";
    case DL_PROBE_NO_PERMISSION: return "no_permission";
    case DL_PROBE_FAILED: return "failed";
    case DL_PROBE_TIMED_OUT: return "timed_out";
    case DL_PROBE_SKIPPED: return "skipped";
    }
    return "failed";
}

dl_probe_status dl_probe_status_from_name(const char *name)
{
    int s;
    for (s = DL_PROBE_OK; s <= DL_PROBE_SKIPPED; s++)
        if (name && strcmp(name, dl_probe_status_name((dl_probe_status)s)) == 0)
            return (dl_probe_status)s;
    return DL_PROBE_FAILED;
}

void dl_probe_note(dl_probe_outcome *out, dl_probe_status s, const char *detail)
{
    if (out->status != DL_PROBE_OK || s == DL_PROBE_OK)
        return;
    out->status = s;
    out->detail = dl_strdup(detail);
}

dl_probe_status dl_probe_status_of_io(dl_io_status s)
{
    switch (s) {
    case DL_IO_OK: return DL_PROBE_OK;
    case DL_IO_NOT_FOUND: return DL_PROBE_NOT_PRESENT;
    case DL_IO_NO_PERMISSION: return DL_PROBE_NO_PERMISSION;
    case DL_IO_FAILED: return DL_PROBE_FAILED;
    }
    return DL_PROBE_FAILED;
}

void dl_probe_all(const dl_probe_ctx *ctx, dl_facts *f)
{
    size_t i, count = 0;
    const dl_probe *probes = dl_probe_table(ctx->machine, &count);
    dl_list_known(&f->tool.probes);
    for (i = 0; i < count; i++) {
        dl_probe_outcome out = {DL_PROBE_OK, NULL};
        double start = dl_clock_ms();
        dl_probe_run *run;
        probes[i].run(ctx, f, &out);
        run = dl_list_push(&f->tool.probes, sizeof *run);
        dl_text_set(&run->name, probes[i].name);
        dl_text_set(&run->status, dl_probe_status_name(out.status));
        if (out.detail)
            dl_text_set(&run->detail, out.detail);
        dl_num_set(&run->duration_ms, dl_clock_ms() - start);
        free(out.detail);
    }
}
