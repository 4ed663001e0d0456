/* The one place that tells a live Windows machine from a Linux one (this machine, or any
 * tree under --root, on every system): which probes run, in which order, and which search
 * finds the interpreters and the display adapters. Only a live Windows machine is probed as
 * Windows: under --root the tree is Linux's. Everything else is written once. */
#include "probe/platform.h"

#include "facts/schema.h"
#include "probe/python/find.h"

/* A Linux machine: this one, or any tree under --root (on every system). */
static const dl_probe linux_probes[] = {
    {"os", dl_probe_os},
    {"wsl", dl_probe_wsl},
    {"container", dl_probe_container},
    {"virtualization", dl_probe_virtualization},
    {"user", dl_probe_user},
    {"cpu", dl_probe_cpu},
    {"cpufreq", dl_probe_cpufreq},
    {"memory", dl_probe_memory},
    {"shared_memory", dl_probe_shared_memory}, /* after memory: tmpfs's default is half */
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
static void not_wsl_or_container(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out)
{
    (void)ctx;
    (void)out;
    dl_flag_set(&f->os.wsl.detected, false);
    dl_int_unknown(&f->os.wsl.version, "this is Windows itself, not WSL");
    dl_flag_set(&f->os.wsl.dev_dxg, false);
    dl_flag_set(&f->os.wsl.lib_dir, false);
    dl_list_known(&f->os.wsl.evidence);
    dl_flag_set(&f->os.container.detected, false);
    dl_list_known(&f->os.container.evidence);
}

static void no_linux_kernel(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out)
{
    (void)ctx;
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
    {"windows_power", dl_probe_windows_power},
    {"environment", dl_probe_environment},
    {"nvidia_kernel", no_linux_kernel},
    {"nvml", dl_probe_nvml},
    {"cuda_driver", dl_probe_cuda_driver},
    {"cuda_toolkits", dl_probe_cuda_toolkits},
    {"libraries", dl_probe_libraries_windows},
    {"python", dl_probe_python},
};
#endif

const dl_probe *dl_probe_table(const dl_machine *m, size_t *count)
{
#ifdef _WIN32
    if (m->live) {
        *count = sizeof windows_probes / sizeof windows_probes[0];
        return windows_probes;
    }
#endif
    (void)m;
    *count = sizeof linux_probes / sizeof linux_probes[0];
    return linux_probes;
}

void dl_probe_find_pythons(const dl_machine *m, const char *chosen, dl_facts *f,
                           dl_probe_outcome *out)
{
#ifdef _WIN32
    if (m->live) {
        dl_python_discover_windows(m, chosen, &f->pythons, &f->os.windows, out);
        return;
    }
#endif
    dl_python_discover(m, chosen, &f->pythons, out);
}

void dl_probe_find_pip(const dl_machine *m, dl_pip_command *pip)
{
#ifdef _WIN32
    if (m->live) {
        dl_text_unknown(&pip->path, "which interpreter pip.exe runs is not read on Windows");
        return;
    }
#endif
    dl_pip_on_path(m, pip);
}

void dl_probe_python_dlls(const dl_machine *m, dl_python *py)
{
#ifdef _WIN32
    if (m->live)
        dl_torch_dlls_windows(m, py);
#else
    (void)m;
    (void)py;
#endif
}

void dl_probe_display_adapters(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out)
{
#ifdef _WIN32
    if (ctx->machine->live) {
        dl_probe_gpus_windows(ctx, f, out);
        return;
    }
#endif
    dl_probe_pci(ctx, f, out);
}
