#include "probe/probe.h"

#include "base/str.h"

#include <stdlib.h>
#include <string.h>

static const dl_probe probes[] = {
    {"os", dl_probe_os},
    {"wsl", dl_probe_wsl},
    {"container", dl_probe_container},
    {"cpu", dl_probe_cpu},
    {"memory", dl_probe_memory},
    {"pci", dl_probe_pci},
    {"environment", dl_probe_environment},
    {"nvidia_kernel", dl_probe_nvidia_kernel},
    {"nvml", dl_probe_nvml},
    {"cuda_driver", dl_probe_cuda_driver},
    {"cuda_toolkits", dl_probe_cuda_toolkits},
    {"libraries", dl_probe_libraries},
    {"python", dl_probe_python},
};

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

void dl_probe_all(const dl_machine *m, dl_facts *f)
{
    size_t i;
    dl_list_known(&f->tool.probes);
    for (i = 0; i < sizeof probes / sizeof probes[0]; i++) {
        dl_probe_outcome out = {DL_PROBE_OK, NULL};
        double start = dl_clock_ms();
        dl_probe_run *run;
        probes[i].run(m, f, &out);
        run = dl_list_push(&f->tool.probes, sizeof *run);
        dl_text_set(&run->name, probes[i].name);
        dl_text_set(&run->status, dl_probe_status_name(out.status));
        if (out.detail)
            dl_text_set(&run->detail, out.detail);
        dl_num_set(&run->duration_ms, dl_clock_ms() - start);
        free(out.detail);
    }
}
