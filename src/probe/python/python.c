/* The Python layer: every interpreter a user might run (find.c, find_windows.c), what
 * each one's site-packages hold, read from files (site.c), and what `import torch` really
 * does in it (runtime.c). */
#include "probe/probe.h"

#include "base/str.h"
#include "facts/schema.h"
#include "probe/platform.h"
#include "probe/python/ext_runtime.h"
#include "probe/python/find.h"
#include "probe/python/runtime.h"
#include "probe/python/site.h"

#include <stdlib.h>
#include <string.h>

static bool has_torch(const dl_python *py)
{
    size_t i;
    for (i = 0; i < py->site_packages.count; i++) {
        const dl_site_packages *s = &DL_LIST_AT(py->site_packages, dl_site_packages, i);
        if (s->torches.known && s->torches.count)
            return true;
    }
    return false;
}

/* conda-meta lives in the prefix, so only the site inside a conda prefix reads it. */
static void read_sites(const dl_machine *m, dl_python *py, dl_probe_outcome *out)
{
    size_t i;
    bool conda = py->kind.value && strcmp(py->kind.value, "conda") == 0;
    for (i = 0; i < py->site_packages.count; i++) {
        dl_site_packages *s = &DL_LIST_AT(py->site_packages, dl_site_packages, i);
        const char *prefix = conda && py->prefix.value && s->path.value &&
                                     dl_starts_with(s->path.value, py->prefix.value)
                                 ? py->prefix.value
                                 : NULL;
        dl_site_read(m, prefix, s, out);
    }
}

/* Importing torch takes seconds, so it runs where it tells something: in the interpreter
 * that `python` means (the first found) and in every one that has a torch. */
static void run_runtime(const dl_probe_ctx *ctx, dl_python *py, bool first)
{
    const dl_probe_settings *settings = &ctx->settings;
    const char *skip = NULL, *status = "not_run";
    int timeout_ms;
    if (settings->no_runtime) {
        skip = "--no-runtime was given";
        status = "skipped"; /* as asked: not a gap in what dlenv knows */
    } else if (!ctx->machine->live) {
        skip = "interpreters are run only on the live machine, not under --root";
    } else if (!first && !has_torch(py)) {
        skip = "no torch in its site-packages";
    } else if (!py->path.value) {
        skip = "its path is unknown";
    }
    if (skip) {
        dl_text_set(&py->runtime.status, status);
        dl_schema_fill_unknown(&dl_torch_runtime_schema, &py->runtime, skip);
        return;
    }
    timeout_ms = settings->import_timeout_ms > 0 ? settings->import_timeout_ms : 60000;
    dl_python_runtime(py, timeout_ms, first ? settings->measure : NULL);
    /* the extension packages get a timeout of their own: torch's facts are in already;
     * only in the interpreter `python` means, the one the rules judge (each import costs
     * a torch import) */
    if (first)
        dl_python_ext_imports(py, timeout_ms, settings->no_ext_import,
                              settings->skip_ext_import);
}

void dl_probe_python(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out)
{
    const dl_machine *m = ctx->machine;
    size_t i;
    dl_probe_find_pythons(m, ctx->settings.python, f, out);
    dl_probe_find_pip(m, &f->pip);
    for (i = 0; i < f->pythons.count; i++) {
        dl_python *py = &DL_LIST_AT(f->pythons, dl_python, i);
        read_sites(m, py, out);
        dl_probe_python_dlls(m, py);
        run_runtime(ctx, py, i == 0);
    }
}
