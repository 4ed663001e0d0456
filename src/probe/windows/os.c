/* Which Windows this is: product, version, build and edition from the registry's
 * CurrentVersion key, the kernel's own version from RtlGetVersion (through the os layer),
 * and the native architecture. */
#include "probe/probe.h"

#include "base/str.h"
#include "os/registry.h"

#include <stdlib.h>
#include <string.h>

#define CURRENT_VERSION "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion"

static void set_reg_text(const dl_machine *m, dl_text *t, const char *value)
{
    char *v = NULL;
    if (dl_reg_text(m, CURRENT_VERSION, value, &v) && *v)
        dl_text_set(t, v);
    else
        dl_text_unknown(t, "%s has no %s value", CURRENT_VERSION, value);
    free(v);
}

/* Windows 11 kept "Windows 10" in ProductName; build 22000 is where 11 starts. */
static void fix_product_name(dl_windows_facts *w, unsigned long build)
{
    const char *name = w->product_name.value;
    if (name && build >= 22000 && dl_starts_with(name, "Windows 10")) {
        char *eleven = dl_fmt("Windows 11%s", name + strlen("Windows 10"));
        dl_text_set(&w->product_name, eleven);
        free(eleven);
    }
}

static void fill_build(const dl_machine *m, dl_os_facts *os, const dl_uname *u)
{
    dl_windows_facts *w = &os->windows;
    char *build = NULL;
    uint32_t ubr = 0;
    const char *dot = strrchr(u->release, '.');
    unsigned long number = dot ? strtoul(dot + 1, NULL, 10) : 0;
    if (!dl_reg_text(m, CURRENT_VERSION, "CurrentBuildNumber", &build) || !*build) {
        free(build);
        build = dl_fmt("%lu", number);
    }
    if (dl_reg_dword(m, CURRENT_VERSION, "UBR", &ubr)) {
        char *full = dl_fmt("%s.%lu", build, (unsigned long)ubr);
        dl_text_set(&w->build, full);
        free(full);
    } else {
        dl_text_set(&w->build, build);
    }
    fix_product_name(w, strtoul(build, NULL, 10));
    free(build);
}

static void fill_pretty_name(dl_os_facts *os)
{
    const dl_windows_facts *w = &os->windows;
    char *pretty = dl_fmt("%s%s%s (build %s)",
                          w->product_name.value ? w->product_name.value : "Windows",
                          w->display_version.value ? " " : "",
                          w->display_version.value ? w->display_version.value : "",
                          w->build.value ? w->build.value : "?");
    dl_text_set(&os->pretty_name, pretty);
    free(pretty);
}

void dl_probe_os_windows(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out)
{
    dl_os_facts *os = &f->os;
    dl_uname u;
    char *error = NULL;
    const dl_machine *m = ctx->machine;
    dl_text_set(&os->family, "windows");
    dl_text_set(&os->distro_id, "windows");
    set_reg_text(m, &os->windows.product_name, "ProductName");
    set_reg_text(m, &os->windows.display_version, "DisplayVersion");
    set_reg_text(m, &os->windows.edition, "EditionID");
    if (!dl_os_uname(&u, &error)) {
        dl_text_unknown(&os->kernel_release, "%s", error);
        dl_text_unknown(&os->kernel_version, "%s", error);
        dl_text_unknown(&os->arch, "%s", error);
        dl_text_unknown(&os->windows.build, "%s", error);
        dl_probe_note(out, DL_PROBE_FAILED, error);
        free(error);
    } else {
        dl_text_set(&os->kernel_release, u.release);
        fill_build(m, os, &u);
        dl_text_set(&os->kernel_version, os->windows.build.value);
        dl_text_set(&os->arch, u.machine);
        dl_uname_free(&u);
    }
    if (os->windows.product_name.value)
        dl_text_set(&os->distro_name, os->windows.product_name.value);
    else
        dl_text_unknown(&os->distro_name, "%s", os->windows.product_name.why);
    if (os->windows.display_version.value)
        dl_text_set(&os->distro_version, os->windows.display_version.value);
    else
        dl_text_unknown(&os->distro_version, "%s", os->windows.display_version.why);
    fill_pretty_name(os);
    dl_text_unknown(&os->libc_name, "Windows programs carry their C runtime: see the VC++ "
                                    "runtime below");
    dl_text_unknown(&os->libc_version, "Windows programs carry their C runtime");
}
