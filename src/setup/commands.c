#include "setup/commands.h"

#include <stdlib.h>
#include <string.h>

static void add(dl_strv *argv, const char *s)
{
    dl_strv_add(argv, dl_strdup(s));
}

void dl_setup_venv_argv(dl_setup_tool tool, const char *program, const char *base,
                        const char *dir, dl_strv *argv)
{
    if (tool == DL_TOOL_CONDA) {
        add(argv, program);
        add(argv, "create");
        add(argv, "--yes");
        add(argv, "--quiet");
        add(argv, "--prefix");
        add(argv, dir);
        dl_strv_add(argv, dl_fmt("python=%s", base));
        add(argv, "pip");
        return;
    }
    if (tool == DL_TOOL_UV) {
        /* relocatable: the scripts find their interpreter relative to themselves, so the
         * staged folder works once renamed */
        add(argv, program);
        add(argv, "venv");
        add(argv, "--relocatable");
        add(argv, "--seed"); /* pip inside too: restore and the person's own installs */
        add(argv, "--python");
        add(argv, base);
        add(argv, dir);
        return;
    }
    add(argv, base);
    add(argv, "-m");
    add(argv, "venv");
    add(argv, dir);
}

void dl_setup_conda_rename_argv(const char *conda, const char *from, const char *to,
                                dl_strv *argv)
{
    add(argv, conda);
    add(argv, "rename");
    add(argv, "--yes");
    add(argv, "--prefix");
    add(argv, from);
    add(argv, to);
}

void dl_setup_conda_remove_argv(const char *conda, const char *prefix, dl_strv *argv)
{
    add(argv, conda);
    add(argv, "env");
    add(argv, "remove");
    add(argv, "--yes");
    add(argv, "--prefix");
    add(argv, prefix);
}

void dl_setup_py_launcher_argv(const char *py, const char *version, dl_strv *argv)
{
    add(argv, py);
    dl_strv_add(argv, dl_fmt("-%s", version));
    add(argv, "-c");
    add(argv, "import sys; print(sys.executable)");
}

void dl_setup_uv_find_python_argv(const char *uv, const char *version, dl_strv *argv)
{
    add(argv, uv);
    add(argv, "python");
    add(argv, "find");
    add(argv, "--system");
    add(argv, version);
}

void dl_setup_uv_install_python_argv(const char *uv, const char *version, dl_strv *argv)
{
    add(argv, uv);
    add(argv, "python");
    add(argv, "install");
    add(argv, version);
}

char *dl_setup_python_install_hint(const char *os, const char *version, const char *uv_options)
{
    char *system, *uv, *hint;
    if (!strcmp(os, "windows"))
        system = dl_fmt("`winget install --exact --id Python.Python.%s` (python.org's "
                        "installer; `py -%s` finds it then)", version, version);
    else if (!strcmp(os, "macos"))
        system = dl_fmt("`brew install python@%s`", version);
    else
        system = dl_fmt("`sudo apt install python%s python%s-venv` (Ubuntu releases without "
                        "it: from the deadsnakes PPA, `sudo add-apt-repository "
                        "ppa:deadsnakes/ppa`), or your distribution's python%s package",
                        version, version, version);
    uv = uv_options ? dl_fmt("let uv fetch it: add %s (`uv python install %s`, then `uv venv`)",
                             uv_options, version)
                    : dl_fmt("with uv (https://docs.astral.sh/uv/): `uv python install %s`",
                             version);
    hint = dl_fmt("install it: %s; or %s; or give one with --python PATH", system, uv);
    free(system);
    free(uv);
    return hint;
}

/* What pip installs or downloads, and from where: the same for both. A wheelhouse
 * (find_links) replaces the index. */
static void add_sources(const dl_setup_install *in, dl_strv *argv)
{
    size_t i;
    if (in->no_deps)
        add(argv, "--no-deps");
    if (in->require_hashes)
        add(argv, "--require-hashes");
    if (in->find_links) {
        add(argv, "--no-index");
        add(argv, "--find-links");
        add(argv, in->find_links);
    }
    if (in->index_url && !in->find_links) {
        add(argv, "--index-url");
        add(argv, in->index_url);
    }
    if (in->extra_index_url && !in->find_links) {
        add(argv, "--extra-index-url");
        add(argv, in->extra_index_url);
    }
    if (in->requirements) {
        add(argv, "-r");
        add(argv, in->requirements);
    }
    for (i = 0; in->packages && i < in->packages->n; i++)
        add(argv, in->packages->v[i]);
}

void dl_setup_install_argv(const dl_setup_install *in, dl_strv *argv)
{
    if (in->tool == DL_TOOL_UV) {
        add(argv, in->uv);
        add(argv, "pip");
        add(argv, "install");
        add(argv, "--python");
        add(argv, in->python);
    } else {
        add(argv, in->python);
        add(argv, "-m");
        add(argv, "pip");
        add(argv, "install");
        add(argv, "--no-input");
        add(argv, "--disable-pip-version-check");
    }
    if (in->dry_run) {
        add(argv, "--dry-run");
        if (in->tool != DL_TOOL_UV)
            add(argv, "--ignore-installed");
    }
    if (in->report && in->tool != DL_TOOL_UV) {
        add(argv, "--report");
        add(argv, in->report);
        if (!strcmp(in->report, "-"))
            add(argv, "--quiet"); /* stdout holds only the report */
    }
    add_sources(in, argv);
}

void dl_setup_download_argv(const dl_setup_install *in, const char *dest, dl_strv *argv)
{
    add(argv, in->python);
    add(argv, "-m");
    add(argv, "pip");
    add(argv, "download");
    add(argv, "--no-input");
    add(argv, "--disable-pip-version-check");
    add(argv, "--dest");
    add(argv, dest);
    add_sources(in, argv);
}

char *dl_setup_argv_line(dl_shell sh, const dl_strv *argv)
{
    dl_buf b = {0};
    size_t i;
    for (i = 0; i < argv->n; i++) {
        if (i)
            dl_buf_puts(&b, " ");
        if (i == 0) {
            char *p = dl_shell_program(sh, argv->v[0]);
            dl_buf_puts(&b, p);
            free(p);
        } else {
            dl_shell_quote_to(sh, &b, argv->v[i]);
        }
    }
    return dl_buf_take(&b);
}

dl_install_failure dl_setup_install_failure(const char *err)
{
    if (!err)
        return DL_INSTALL_FAILED;
    /* first: a full disk breaks whatever pip was doing, and it says so last */
    if (dl_contains_ci(err, "No space left on device") || dl_contains_ci(err, "[Errno 28]"))
        return DL_INSTALL_DISK_FULL;
    if (dl_contains_ci(err, "do not match the hashes") ||
        dl_contains_ci(err, "hash mismatch"))
        return DL_INSTALL_HASH_MISMATCH;
    if (dl_contains_ci(err, "ResolutionImpossible") ||
        dl_contains_ci(err, "conflicting dependencies") ||
        dl_contains_ci(err, "requirements are unsatisfiable"))
        return DL_INSTALL_CONFLICT;
    if (dl_contains_ci(err, "NewConnectionError") || dl_contains_ci(err, "Connection refused") ||
        dl_contains_ci(err, "Failed to establish a new connection") ||
        dl_contains_ci(err, "Failed to fetch") || dl_contains_ci(err, "Name or service not known"))
        return DL_INSTALL_UNREACHABLE;
    if (dl_contains_ci(err, "No matching distribution found") ||
        dl_contains_ci(err, "Could not find a version that satisfies") ||
        dl_contains_ci(err, "not found in the package registry") ||
        dl_contains_ci(err, "was not found in the package"))
        return DL_INSTALL_NOT_FOUND;
    return DL_INSTALL_FAILED;
}

const char *dl_install_failure_text(dl_install_failure f)
{
    switch (f) {
    case DL_INSTALL_UNREACHABLE: return "the package index did not answer";
    case DL_INSTALL_NOT_FOUND: return "a package or version is not on the index";
    case DL_INSTALL_HASH_MISMATCH: return "a downloaded file's sha256 is not the one the lock holds";
    case DL_INSTALL_CONFLICT: return "the packages cannot be installed together";
    case DL_INSTALL_DISK_FULL: return "the disk is full (no space left on a device)";
    case DL_INSTALL_FAILED: break;
    }
    return "the installer failed";
}
