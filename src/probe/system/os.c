/* The operating system: distribution (os-release), kernel, architecture, C library. */
#include "probe/probe.h"

#include "base/str.h"
#include "probe/system/os_release.h"

#include <stdlib.h>
#include <string.h>

/* Reads a small text file whole and trims it; false with err set when it cannot. */
static bool read_small(const dl_machine *m, const char *path, char **text, dl_io_error *err)
{
    char *data;
    size_t len;
    if (!dl_fs_read(m, path, 64 * 1024, &data, &len, NULL, err))
        return false;
    *text = data;
    memmove(data, dl_trim(data), strlen(dl_trim(data)) + 1);
    return true;
}

static void fill_distro(const dl_machine *m, dl_os_facts *os, dl_probe_outcome *out)
{
    dl_os_release rel;
    dl_io_error err = {0};
    const char *used = "/etc/os-release";
    if (!dl_os_release_read(m, used, &rel, &err)) {
        dl_io_error err2 = {0};
        used = "/usr/lib/os-release";
        if (!dl_os_release_read(m, used, &rel, &err2)) {
            const char *why = err.message;
            dl_text_unknown(&os->distro_id, "%s", why);
            dl_text_unknown(&os->distro_name, "%s", why);
            dl_text_unknown(&os->distro_version, "%s", why);
            dl_text_unknown(&os->pretty_name, "%s", why);
            dl_probe_note(out, dl_probe_status_of_io(err.status), why);
            dl_io_error_clear(&err);
            dl_io_error_clear(&err2);
            return;
        }
    }
    dl_io_error_clear(&err);
    dl_os_release_field(&rel, "ID", used, &os->distro_id);
    dl_os_release_field(&rel, "NAME", used, &os->distro_name);
    dl_os_release_field(&rel, "VERSION_ID", used, &os->distro_version);
    dl_os_release_field(&rel, "PRETTY_NAME", used, &os->pretty_name);
    dl_os_release_free(&rel);
}

static void fill_kernel(const dl_machine *m, dl_os_facts *os, dl_probe_outcome *out)
{
    char *text;
    dl_io_error err = {0};
    if (read_small(m, "/proc/sys/kernel/osrelease", &text, &err)) {
        dl_text_set(&os->kernel_release, text);
        free(text);
    } else {
        dl_text_unknown(&os->kernel_release, "%s", err.message);
        dl_probe_note(out, dl_probe_status_of_io(err.status), err.message);
    }
    dl_io_error_clear(&err);
    if (read_small(m, "/proc/sys/kernel/version", &text, &err)) {
        dl_text_set(&os->kernel_version, text);
        free(text);
    } else {
        dl_text_unknown(&os->kernel_version, "%s", err.message);
    }
    dl_io_error_clear(&err);
}

/* e_machine of an ELF header, for a root that is not this machine. */
static const char *elf_machine_name(const unsigned char *h, size_t len)
{
    unsigned em;
    if (len < 20 || memcmp(h, "\177ELF", 4) != 0)
        return NULL;
    em = h[5] == 2 ? (unsigned)(h[18] << 8 | h[19]) : (unsigned)(h[19] << 8 | h[18]);
    switch (em) {
    case 3: return "i686";
    case 40: return "arm";
    case 62: return "x86_64";
    case 183: return "aarch64";
    case 21: return h[4] == 2 ? "ppc64le" : "ppc";
    case 22: return "s390x";
    case 243: return "riscv64";
    default: return NULL;
    }
}

static void fill_arch_from_root(const dl_machine *m, dl_os_facts *os)
{
    static const char *const binaries[] = {"/bin/sh", "/usr/bin/env", "/bin/busybox"};
    size_t i;
    for (i = 0; i < sizeof binaries / sizeof binaries[0]; i++) {
        char *data;
        size_t len;
        const char *name;
        if (!dl_fs_read(m, binaries[i], 64, &data, &len, NULL, NULL))
            continue;
        name = elf_machine_name((const unsigned char *)data, len);
        free(data);
        if (name) {
            dl_text_set(&os->arch, name);
            return;
        }
    }
    dl_text_unknown(&os->arch, "no ELF program (/bin/sh, /usr/bin/env) under the root to "
                               "read the architecture from");
}

static void fill_arch(const dl_machine *m, dl_os_facts *os)
{
    dl_uname u;
    char *error = NULL;
    if (!m->live) {
        fill_arch_from_root(m, os);
        return;
    }
    if (dl_os_uname(&u, &error)) {
        dl_text_set(&os->arch, u.machine);
        dl_uname_free(&u);
    } else {
        dl_text_unknown(&os->arch, "%s", error);
        free(error);
    }
}

static void fill_libc(const dl_machine *m, dl_os_facts *os)
{
    char *name = NULL, *version = NULL, *error = NULL;
    bool ok = m->live ? dl_os_libc(&name, &version, &error)
                      : dl_libc_from_root(m, &name, &version, &error);
    if (ok) {
        dl_text_set(&os->libc_name, name);
        if (version)
            dl_text_set(&os->libc_version, version);
        else
            dl_text_unknown(&os->libc_version, "the %s library does not state its version",
                            name);
    } else {
        dl_text_unknown(&os->libc_name, "%s", error);
        dl_text_unknown(&os->libc_version, "%s", error);
    }
    free(name);
    free(version);
    free(error);
}

void dl_probe_os(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out)
{
    const dl_machine *m = ctx->machine;
    dl_text_set(&f->os.family, "linux");
    fill_distro(m, &f->os, out);
    fill_kernel(m, &f->os, out);
    fill_arch(m, &f->os);
    fill_libc(m, &f->os);
}
