/* WSL: the kernel's name for itself, the GPU paravirtualisation device /dev/dxg, and the
 * folder where Windows' driver puts libcuda for the Linux guest. */
#include "probe/probe.h"

#include "base/str.h"

#include <stdlib.h>

static bool exists(const dl_machine *m, const char *path, dl_fs_kind kind)
{
    dl_fs_kind k = dl_fs_kind_of(m, path, NULL);
    return kind == DL_FS_OTHER ? k != DL_FS_NONE : k == kind;
}

/* 1 or 2 from the kernel release, 0 when the kernel is not a WSL kernel. */
static int wsl_kernel_generation(const char *release)
{
    if (dl_contains_ci(release, "wsl2") || dl_contains_ci(release, "microsoft-standard"))
        return 2;
    if (dl_contains_ci(release, "microsoft"))
        return 1; /* WSL1 reports e.g. 4.4.0-19041-Microsoft */
    return 0;
}

void dl_probe_wsl(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out)
{
    const dl_machine *m = ctx->machine;
    dl_wsl_facts *w = &f->os.wsl;
    const char *release = f->os.kernel_release.value;
    int gen = release ? wsl_kernel_generation(release) : 0;
    bool dxg = exists(m, "/dev/dxg", DL_FS_OTHER); /* any node: a character device */
    bool lib = exists(m, "/usr/lib/wsl/lib", DL_FS_DIR);
    (void)out;
    dl_list_known(&w->evidence);
    dl_flag_set(&w->dev_dxg, dxg);
    dl_flag_set(&w->lib_dir, lib);
    if (gen) {
        char *e = dl_fmt("kernel release %s", release);
        dl_textlist_add(&w->evidence, e);
        free(e);
    }
    if (dxg)
        dl_textlist_add(&w->evidence, "/dev/dxg exists");
    if (lib)
        dl_textlist_add(&w->evidence, "/usr/lib/wsl/lib exists");
    if (exists(m, "/proc/sys/fs/binfmt_misc/WSLInterop", DL_FS_FILE))
        dl_textlist_add(&w->evidence, "WSLInterop is registered");
    if (gen || dxg) {
        dl_flag_set(&w->detected, true);
        dl_int_set(&w->version, gen == 1 && !dxg ? 1 : 2);
    } else if (release || w->evidence.count) {
        dl_flag_set(&w->detected, w->evidence.count > 0);
        if (w->evidence.count)
            dl_int_unknown(&w->version, "WSL traces found, but neither a WSL kernel nor "
                                        "/dev/dxg");
    } else {
        dl_flag_unknown(&w->detected, "the kernel release is unknown and no WSL device or "
                                      "folder exists");
    }
}
