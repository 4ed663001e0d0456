/* The NVIDIA kernel driver, from files only: which version is loaded, which modules, the
 * device nodes and whether this user may use them, a module for the running kernel,
 * Secure Boot, and the daemons a data-centre GPU needs. No vendor library is loaded here:
 * this is what tells "no driver" from "driver not loaded" from "driver blocked". */
#include "probe/probe.h"

#include "base/str.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define EFI_SECURE_BOOT "/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-e98c0efbde97"

static const char *const watched_modules[] = {"nvidia", "nvidia_uvm", "nvidia_drm",
                                              "nvidia_modeset", "nvidia_peermem", "nouveau"};

/* The first dotted number in a line: "... Kernel Module  535.104.05  Sat Aug ..." */
static char *first_version(const char *line)
{
    const char *p;
    for (p = line; *p; p++) {
        if (isdigit((unsigned char)*p) && (p == line || p[-1] == ' ')) {
            size_t n = strspn(p, "0123456789.");
            if (n > 2 && memchr(p, '.', n) && (p[n] == ' ' || p[n] == '\0' || p[n] == '\n'))
                return dl_strndup(p, n);
        }
    }
    return NULL;
}

static void fill_version(const dl_machine *m, dl_nvidia_kernel_facts *k)
{
    char *text, *version = NULL;
    dl_io_error err = {0};
    if (dl_fs_read(m, "/proc/driver/nvidia/version", 4096, &text, NULL, NULL, &err)) {
        char *nl = strchr(text, '\n');
        if (nl)
            *nl = '\0';
        dl_text_set(&k->proc_version, dl_trim(text));
        version = first_version(text);
        free(text);
    } else {
        dl_text_unknown(&k->proc_version, "%s", err.message);
    }
    dl_io_error_clear(&err);
    if (!version && dl_fs_read(m, "/sys/module/nvidia/version", 256, &text, NULL, NULL, NULL)) {
        version = dl_strdup(dl_trim(text));
        free(text);
    }
    if (version && *version)
        dl_text_set(&k->driver_version, version);
    else
        dl_text_unknown(&k->driver_version, "the nvidia kernel module is not loaded (no "
                                            "/proc/driver/nvidia/version or /sys/module/nvidia)");
    free(version);
}

static bool is_watched(const char *name, size_t len)
{
    size_t i;
    for (i = 0; i < sizeof watched_modules / sizeof watched_modules[0]; i++)
        if (strlen(watched_modules[i]) == len && strncmp(watched_modules[i], name, len) == 0)
            return true;
    return false;
}

/* /proc/modules lists loaded modules, one a line, name first. Without it (a restricted
 * container), /sys/module/NAME says the same for each module we care about. */
static void fill_modules(const dl_machine *m, dl_nvidia_kernel_facts *k)
{
    char *text;
    size_t i;
    dl_io_error err = {0};
    if (dl_fs_read(m, "/proc/modules", 1u << 20, &text, NULL, NULL, &err)) {
        const char *line = text;
        dl_list_known(&k->loaded_modules);
        while (line && *line) {
            size_t n = strcspn(line, " \n");
            if (is_watched(line, n)) {
                char *name = dl_strndup(line, n);
                dl_textlist_add(&k->loaded_modules, name);
                free(name);
            }
            line = strchr(line, '\n');
            line = line ? line + 1 : NULL;
        }
        free(text);
        return;
    }
    if (dl_fs_kind_of(m, "/sys/module", NULL) != DL_FS_DIR) {
        dl_list_unknown(&k->loaded_modules, "%s, and /sys/module does not exist", err.message);
        dl_io_error_clear(&err);
        return;
    }
    dl_io_error_clear(&err);
    dl_list_known(&k->loaded_modules);
    for (i = 0; i < sizeof watched_modules / sizeof watched_modules[0]; i++) {
        char *path = dl_fmt("/sys/module/%s", watched_modules[i]);
        if (dl_fs_kind_of(m, path, NULL) == DL_FS_DIR)
            dl_textlist_add(&k->loaded_modules, watched_modules[i]);
        free(path);
    }
}

static void fill_nodes(const dl_machine *m, dl_nvidia_kernel_facts *k, dl_probe_outcome *out)
{
    char **names;
    size_t n, i;
    dl_io_error err = {0};
    if (!dl_fs_list(m, "/dev", &names, &n, &err)) {
        dl_list_unknown(&k->device_nodes, "%s", err.message);
        dl_io_error_clear(&err);
        return;
    }
    dl_list_known(&k->device_nodes);
    for (i = 0; i < n; i++) {
        dl_device_node *node;
        char *path;
        if (!dl_starts_with(names[i], "nvidia") || strcmp(names[i], "nvidia-caps") == 0)
            continue;
        path = dl_fmt("/dev/%s", names[i]);
        node = dl_list_push(&k->device_nodes, sizeof *node);
        dl_text_set(&node->path, path);
        if (dl_fs_can_read_write(m, path, &err)) {
            dl_flag_set(&node->accessible, true);
        } else {
            dl_flag_set(&node->accessible, false);
            if (err.status == DL_IO_NO_PERMISSION)
                dl_probe_note(out, DL_PROBE_NO_PERMISSION, err.message);
        }
        dl_io_error_clear(&err);
        free(path);
    }
    dl_fs_list_free(names, n);
}

/* Looks for nvidia.ko, nvidia.ko.xz, nvidia.ko.zst ... below dir, a few levels deep
 * (updates/dkms/, kernel/drivers/video/, extra/). */
static char *find_module(const dl_machine *m, const char *dir, int depth)
{
    char **names, *found = NULL;
    size_t n, i;
    if (depth > 4 || !dl_fs_list(m, dir, &names, &n, NULL))
        return NULL;
    for (i = 0; i < n && !found; i++) {
        char *path = dl_fmt("%s/%s", dir, names[i]);
        dl_fs_kind kind = dl_fs_kind_of(m, path, NULL);
        if (kind == DL_FS_FILE && dl_starts_with(names[i], "nvidia.ko"))
            found = dl_strdup(path);
        else if (kind == DL_FS_DIR && strcmp(names[i], "build") != 0 &&
                 strcmp(names[i], "source") != 0)
            found = find_module(m, path, depth + 1);
        free(path);
    }
    dl_fs_list_free(names, n);
    return found;
}

static void fill_module_file(const dl_machine *m, const dl_facts *f, dl_nvidia_kernel_facts *k)
{
    const char *release = f->os.kernel_release.value;
    char *dir, *found;
    if (!release) {
        dl_flag_unknown(&k->module_file, "the kernel release is unknown");
        return;
    }
    dir = dl_fmt("/lib/modules/%s", release);
    if (dl_fs_kind_of(m, dir, NULL) != DL_FS_DIR) {
        dl_flag_unknown(&k->module_file, "%s does not exist (a container or a minimal image "
                                         "has no kernel modules)", dir);
        free(dir);
        return;
    }
    found = find_module(m, dir, 0);
    dl_flag_set(&k->module_file, found != NULL);
    if (found)
        dl_text_set(&k->module_path, found);
    free(found);
    free(dir);
}

/* The EFI variable is 4 bytes of attributes, then one byte: 1 when Secure Boot is on. */
static void fill_secure_boot(const dl_machine *m, dl_nvidia_kernel_facts *k)
{
    char *data;
    size_t len;
    dl_io_error err = {0};
    if (dl_fs_kind_of(m, "/sys/firmware/efi", NULL) != DL_FS_DIR) {
        if (dl_fs_kind_of(m, "/sys/firmware", NULL) == DL_FS_DIR)
            dl_flag_set(&k->secure_boot, false); /* booted without EFI: no Secure Boot */
        else
            dl_flag_unknown(&k->secure_boot, "/sys/firmware is not visible");
        return;
    }
    if (!dl_fs_read(m, EFI_SECURE_BOOT, 64, &data, &len, NULL, &err)) {
        dl_flag_unknown(&k->secure_boot, "%s", err.message);
        dl_io_error_clear(&err);
        return;
    }
    if (len >= 5)
        dl_flag_set(&k->secure_boot, data[4] == 1);
    else
        dl_flag_unknown(&k->secure_boot, "the SecureBoot EFI variable holds %zu bytes, not 5",
                        len);
    free(data);
}

/* nvidia-persistenced writes its pid file; the process must still be alive. */
static void fill_daemons(const dl_machine *m, dl_nvidia_kernel_facts *k)
{
    char *pid;
    bool running = false;
    if (dl_fs_read(m, "/run/nvidia-persistenced/nvidia-persistenced.pid", 64, &pid, NULL, NULL,
                   NULL)) {
        char *comm_path = dl_fmt("/proc/%s/comm", dl_trim(pid)), *comm;
        if (dl_fs_read(m, comm_path, 64, &comm, NULL, NULL, NULL)) {
            running = dl_starts_with(comm, "nvidia-persiste");
            free(comm);
        }
        free(comm_path);
        free(pid);
    }
    dl_flag_set(&k->persistenced, running);
    dl_flag_set(&k->fabricmanager,
                dl_fs_kind_of(m, "/usr/bin/nv-fabricmanager", NULL) == DL_FS_FILE ||
                    dl_fs_kind_of(m, "/usr/share/nvidia/nvswitch/fabricmanager.cfg", NULL) ==
                        DL_FS_FILE);
}

void dl_probe_nvidia_kernel(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out)
{
    const dl_machine *m = ctx->machine;
    dl_nvidia_kernel_facts *k = &f->nvidia_kernel;
    fill_version(m, k);
    fill_modules(m, k);
    fill_nodes(m, k, out);
    fill_module_file(m, f, k);
    fill_secure_boot(m, k);
    fill_daemons(m, k);
}
