/* Where a live Windows machine and a Linux one (live, or a tree under --root) part ways
 * (platform.c): callers ask here and never test _WIN32 themselves. */
#ifndef DLENV_PROBE_PLATFORM_H
#define DLENV_PROBE_PLATFORM_H

#include "probe/probe.h"

/* Every probe for this machine, in the order they run. */
const dl_probe *dl_probe_table(const dl_machine *m, size_t *count);
/* Every interpreter a user might run (chosen, from --python, first) and what pip means. */
void dl_probe_find_pythons(const dl_machine *m, const char *chosen, dl_facts *f,
                           dl_probe_outcome *out);
/* What `pip` on PATH installs into. */
void dl_probe_find_pip(const dl_machine *m, dl_pip_command *pip);
/* On live Windows, where py's torch DLLs load from (torch_dlls_win.c); elsewhere nothing. */
void dl_probe_python_dlls(const dl_machine *m, dl_python *py);
/* The display adapters the system lists: PCI on Linux, the registry on Windows. */
void dl_probe_display_adapters(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out);

#endif
