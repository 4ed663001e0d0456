/* Discovery of the Python interpreters a user might run, read from files alone: no
 * interpreter is ever started, so a broken one, one for another architecture, or one in a
 * --root image is described just the same. */
#ifndef DLENV_PROBE_PYTHON_FIND_H
#define DLENV_PROBE_PYTHON_FIND_H

#include "facts/facts.h"
#include "os/os.h"
#include "probe/probe.h"

/* Finds the Python interpreters a user might run and fills, for each, path, real_path,
 * found_by, version, implementation, bits, kind, prefix, pip, and site_packages (path and
 * scope only, in import order). Never runs an interpreter: everything is read from files.
 * chosen: an interpreter named with --python (NULL when none); it comes first. */
void dl_python_discover(const dl_machine *m, const char *chosen, dl_list *pythons,
                        dl_probe_outcome *out);

/* What `pip` on PATH installs into (live only; under --root, unknown with why). */
void dl_pip_on_path(const dl_machine *m, dl_pip_command *pip);

/* The same on a Windows machine (find_windows.c): PATH, the active venv or conda env, the
 * PEP 514 registry of m (recorded in win->python_registry) and conda's lists. Portable:
 * the tests run it on a fixture root and registry. */
void dl_python_discover_windows(const dl_machine *m, const char *chosen, dl_list *pythons,
                                dl_windows_facts *win, dl_probe_outcome *out);

/* For each torch install of py on this Windows machine: where its DLLs load from, which
 * of their imports Windows would not find, and the OpenMP runtimes beside them
 * (torch_dlls_win.c; Windows only). */
void dl_torch_dlls_windows(const dl_machine *m, dl_python *py);

#endif
