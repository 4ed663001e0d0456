/* The static half of the Python layer: what one site-packages directory holds, read from
 * package metadata files alone. Nothing is imported, so a broken torch (or one for another
 * machine under --root) is described just the same. */
#ifndef DLENV_PROBE_PYTHON_SITE_H
#define DLENV_PROBE_PYTHON_SITE_H

#include "facts/facts.h"
#include "os/os.h"
#include "probe/probe.h"

/* Reads one site-packages directory (site->path, already set) without importing anything:
 * fills site->packages with torch and what goes with it, and site->torches with every
 * torch package directory found there. prefix: the interpreter's prefix, for conda-meta
 * (NULL when not a conda prefix). */
void dl_site_read(const dl_machine *m, const char *prefix, dl_site_packages *site,
                  dl_probe_outcome *out);

#endif
