#include "probe/probe.h"

#include "base/str.h"
#include "facts/schema.h"

#include <stdlib.h>
#include <string.h>

/* A Linux machine: this one, or any tree under --root (on every system). */
static const dl_probe linux_probes[] = {
    {"os", dl_probe_os},
    {"wsl", dl_probe_wsl},
    {"container", dl_probe_container},
    {"virtualization", dl_probe_virtualization},
    {"user", dl_probe_user},
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

#ifdef _WIN32
/* This Windows machine. WSL and containers are Linux matters: a Windows host says "no". */
static void not_wsl_or_container(const dl_machine *m, dl_facts *f, dl_probe_outcome *out)
{
    (void)m;
    (void)out;
    dl_flag_set(&f->os.wsl.detected, false);
    dl_int_unknown(&f->os.wsl.version, "this is Windows itself, not WSL");
    dl_flag_set(&f->os.wsl.dev_dxg, false);
    dl_flag_set(&f->os.wsl.lib_dir, false);
    dl_list_known(&f->os.wsl.evidence);
    dl_flag_set(&f->os.container.detected, false);
    dl_list_known(&f->os.container.evidence);
}

static void no_linux_kernel(const dl_machine *m, dl_facts *f, dl_probe_outcome *out)
{
    (void)m;
    (void)out;
    dl_schema_fill_unknown(&dl_nvidia_kernel_schema, &f->nvidia_kernel,
                           "Windows: the driver is the display driver, see gpus[]");
}

static const dl_probe windows_probes[] = {
    {"os", dl_probe_os_windows},
    {"wsl_container", not_wsl_or_container},
    {"virtualization", dl_probe_virtualization},
    {"user", dl_probe_user},
    {"windows_settings", dl_probe_windows_settings},
    {"cpu", dl_probe_cpu},
    {"memory", dl_probe_memory_windows},
    {"gpus", dl_probe_gpus_windows},
    {"environment", dl_probe_environment},
    {"nvidia_kernel", no_linux_kernel},
    {"nvml", dl_probe_nvml},
    {"cuda_driver", dl_probe_cuda_driver},
    {"cuda_toolkits", dl_probe_cuda_toolkits},
    {"libraries", dl_probe_libraries_windows},
    {"python", dl_probe_python},
};
#endif

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
    const dl_probe *probes = linux_probes;
    size_t i, count = sizeof linux_probes / sizeof linux_probes[0];
#ifdef _WIN32
    if (m->live) {
        probes = windows_probes;
        count = sizeof windows_probes / sizeof windows_probes[0];
    }
#endif
    dl_list_known(&f->tool.probes);
    for (i = 0; i < count; i++) {
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
