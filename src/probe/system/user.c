/* Who runs dlenv: the fixes it writes say `sudo` only to a user who is not an
 * administrator and has sudo. Only the live machine has a user; a --root tree has none. */
#include "probe/probe.h"

#include <stdlib.h>

void dl_probe_user(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out)
{
    const dl_machine *m = ctx->machine;
    char *sudo;
    (void)out;
    if (!m->live) {
        dl_flag_unknown(&f->user.admin, "a --root tree has no user running dlenv");
        dl_flag_unknown(&f->user.sudo, "PATH describes the machine dlenv runs on, not the "
                                       "--root tree");
        return;
    }
    dl_flag_set(&f->user.admin, dl_os_is_admin());
    sudo = dl_proc_find("sudo", dl_env_get("PATH"));
    dl_flag_set(&f->user.sudo, sudo != NULL);
    free(sudo);
}
