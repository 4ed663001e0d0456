/* Python: is there an interpreter that runs, does the one `python` means have torch, and
 * is the torch it imports its own. */
#include "base/str.h"
#include "facts/query.h"
#include "rules/fixes.h"
#include "rules/rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A saved report may lack an interpreter's path. */
#define PATH_OF(py) dl_text_or(&(py)->path, "(its path unknown)")

/* ---- no_python -------------------------------------------------------------------------- */

/* Why there is no Python that runs, or NULL when `python` runs. Caller frees. */
static char *no_python_reason(const dl_facts *f, const dl_python *py)
{
    if (!py)
        return dl_strdup("No Python interpreter on this machine");
    if (dl_q_text_is(&py->kind, "store_stub"))
        return dl_fmt("`python` (%s) is the Microsoft Store's alias, not an installed Python",
                      PATH_OF(py));
    if (dl_q_text_is(&py->runtime.status, "not_runnable"))
        return dl_fmt("`python` (%s) does not run", PATH_OF(py));
    (void)f;
    return NULL;
}

static void fix_get_python(dl_finding *x, const dl_facts *f, bool store_alias)
{
    const char *distro = f->os.distro_id.value ? f->os.distro_id.value : "";
    const char *family = dl_fix_distro(f);
    if (dl_q_is_windows(f)) {
        if (store_alias)
            dl_fix_note(x, "turn the alias off: Settings > Apps > Advanced app settings > App "
                           "execution aliases > python.exe and python3.exe");
        dl_finding_fix(x, "winget install --id Python.Python.3.12 -e --source winget");
        dl_fix_note(x, "then open a new terminal: `py -3.12` runs it");
    } else if (dl_q_text_is(&f->os.family, "macos")) {
        dl_fix_note(x, "install Python 3.12 from https://www.python.org/downloads/macos/ "
                       "(or with Homebrew: brew install python@3.12)");
    } else if (!strcmp(family, "ubuntu") || !strcmp(family, "debian")) {
        dl_fix_as_root(x, f, "apt-get install -y python3 python3-venv python3-pip");
    } else if (!strcmp(family, "fedora")) {
        dl_fix_as_root(x, f, "dnf install -y python3 python3-pip");
    } else if (!strcmp(family, "arch")) {
        dl_fix_as_root(x, f, "pacman -S --noconfirm python python-pip");
    } else if (!strcmp(distro, "alpine")) {
        dl_fix_as_root(x, f, "apk add python3 py3-pip");
    } else {
        dl_finding_fix(x, "curl -LsSf https://astral.sh/uv/install.sh | sh");
        dl_finding_fix(x, "~/.local/bin/uv python install 3.12");
    }
}

void dl_rule_no_python(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    const dl_python *py = dl_q_main_python(f);
    char *why;
    dl_finding *x;
    if (!f->pythons.known || !(why = no_python_reason(f, py)))
        return;
    x = dl_finding_add(out, "no_python", DL_SEV_FAILURE, "%s", why);
    if (!py)
        dl_finding_evidence(x, "pythons", "none found on PATH, in the registry or the usual "
                                          "places (conda, pyenv, uv)");
    else
        dl_finding_evidence(x, "pythons[0].runtime.error", "%s",
                            py->runtime.error.value ? py->runtime.error.value
                                                    : "the Store alias opens the Store");
    fix_get_python(x, f, py && dl_q_text_is(&py->kind, "store_stub"));
    free(why);
}

/* ---- torch for `python` ------------------------------------------------------------------- */

static bool python_runs(const dl_python *py)
{
    return py && !dl_q_text_is(&py->kind, "store_stub") &&
           !dl_q_text_is(&py->runtime.status, "not_runnable");
}

/* No torch for this interpreter: what the import said, or (without a runtime) the files.
 * A torch that pip records but whose folder is gone is a broken install
 * (torch_not_pytorch), not a missing one. */
static bool lacks_torch(const dl_python *py)
{
    if (!python_runs(py) || dl_q_package(py, "torch"))
        return false;
    if (dl_q_text_is(&py->runtime.status, "import_failed"))
        return dl_q_says_no_torch(py->runtime.error.value);
    if (dl_q_torch_imported(py) || dl_q_text_is(&py->runtime.status, "incomplete"))
        return false;
    /* Site-packages never read (a pasted text that only names the Python): unknown. */
    if (!py->site_packages.known || py->runtime.version.value)
        return false;
    return dl_q_static_torch(py) == NULL;
}

static const dl_python *with_prefix(const dl_facts *f, const char *prefix)
{
    size_t i;
    for (i = 0; prefix && f->pythons.known && i < f->pythons.count; i++) {
        const dl_python *py = &DL_LIST_AT(f->pythons, dl_python, i);
        if (py->prefix.value && !strcmp(py->prefix.value, prefix))
            return py;
    }
    return NULL;
}

/* A torch that pip or uv put there (not a distribution's python3-torch). */
static bool installed_by_pip(const dl_python *py)
{
    const dl_py_package *t = dl_q_package(py, "torch");
    return t && (dl_q_text_is(&t->installer, "pip") || dl_q_text_is(&t->installer, "uv"));
}

static const dl_python *other_with_pip_torch(const dl_facts *f)
{
    size_t i;
    for (i = 1; f->pythons.known && i < f->pythons.count; i++) {
        const dl_python *py = &DL_LIST_AT(f->pythons, dl_python, i);
        if (dl_q_static_torch(py) && installed_by_pip(py))
            return py;
    }
    return NULL;
}

static const dl_python *other_with_torch(const dl_facts *f)
{
    size_t i;
    for (i = 1; f->pythons.known && i < f->pythons.count; i++) {
        const dl_python *py = &DL_LIST_AT(f->pythons, dl_python, i);
        if (dl_q_static_torch(py))
            return py;
    }
    return NULL;
}

/* The user chose this environment: activated venv or conda env. */
static bool activated(const dl_python *py)
{
    return dl_textlist_has(&py->found_by, "VIRTUAL_ENV") ||
           dl_textlist_has(&py->found_by, "CONDA_PREFIX");
}

/* Where torch went instead of `python`'s interpreter: the interpreter `pip` installs into,
 * when that one has torch; else, unless the user activated `python`'s environment,
 * another interpreter's pip-installed torch. NULL when torch is simply not installed. */
static const dl_python *torch_went_to(const dl_facts *f, const dl_python *main_py,
                                      bool *by_pip)
{
    const dl_python *pip_py = with_prefix(f, f->pip.prefix.value);
    *by_pip = false;
    if (pip_py && pip_py != main_py && dl_q_static_torch(pip_py)) {
        *by_pip = true;
        return pip_py;
    }
    return activated(main_py) ? NULL : other_with_pip_torch(f);
}

void dl_rule_pip_python_mismatch(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    const dl_python *main_py = dl_q_main_python(f), *other;
    const dl_torch_install *t;
    bool by_pip;
    dl_finding *x;
    if (!main_py || !lacks_torch(main_py) || !(other = torch_went_to(f, main_py, &by_pip)))
        return;
    t = dl_q_static_torch(other);
    if (by_pip)
        x = dl_finding_add(out, "pip_python_mismatch", DL_SEV_FAILURE,
                           "`pip` installs into %s (which has torch %s); `python` runs %s, "
                           "which has none", dl_text_or(&other->prefix, "(its folder unknown)"),
                           t->version.value ? t->version.value : "?", PATH_OF(main_py));
    else
        x = dl_finding_add(out, "pip_python_mismatch", DL_SEV_FAILURE,
                           "torch is installed for %s, not for %s, which `python` runs",
                           PATH_OF(other), PATH_OF(main_py));
    dl_finding_evidence(x, "pythons[0].path", "%s: no torch", PATH_OF(main_py));
    if (by_pip)
        dl_finding_evidence(x, "pip.path", "%s runs %s", dl_text_or(&f->pip.path, "pip"),
                            f->pip.python.value ? f->pip.python.value : "?");
    dl_finding_evidence(x, "pythons[].site_packages", "%s has torch %s at %s", PATH_OF(other),
                        t->version.value ? t->version.value : "?",
                        t->location.value ? t->location.value : "?");
    dl_fix_note(x, "install torch for the interpreter that runs your code (`python -m pip`, "
                   "never a bare `pip`):");
    dl_fix_install_torch(x, in, main_py, NULL);
    dl_fix_note(x, "or run your code with %s", PATH_OF(other));
}

void dl_rule_torch_not_installed(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    const dl_python *py = dl_q_main_python(f), *other;
    bool by_pip;
    dl_finding *x;
    if (!py || !lacks_torch(py) || torch_went_to(f, py, &by_pip))
        return;
    x = dl_finding_add(out, "torch_not_installed", DL_SEV_FAILURE,
                       activated(py) ? "The active environment (%s) has no torch"
                                     : "The interpreter that `python` runs (%s) has no torch",
                       activated(py) && py->prefix.value ? py->prefix.value : PATH_OF(py));
    dl_finding_evidence(x, "pythons[0].runtime.error", "%s",
                        py->runtime.error.value ? py->runtime.error.value
                                                : "no torch in its site-packages");
    dl_fix_install_torch(x, in, py, NULL);
    if ((other = other_with_torch(f)) != NULL)
        dl_fix_note(x, "%s has torch %s, if you meant to use that one", PATH_OF(other),
                    dl_q_static_torch(other)->version.value
                        ? dl_q_static_torch(other)->version.value : "");
}

/* The Python's "3.10" when winget publishes that release line (3.8 to 3.14); false when the
 * version is unknown or outside it. */
static bool same_python_minor(const dl_python *py, char *out, size_t n)
{
    unsigned major = 0, minor = 0;
    if (!py->version.value || sscanf(py->version.value, "%u.%u", &major, &minor) != 2 ||
        major != 3 || minor < 8 || minor > 14)
        return false;
    snprintf(out, n, "%u.%u", major, minor);
    return true;
}

void dl_rule_python_32bit(const dl_rule_input *in, dl_findings *out)
{
    const dl_python *py = dl_q_main_python(in->facts);
    dl_finding *x;
    if (!py || !py->bits.known || py->bits.value != 32)
        return;
    x = dl_finding_add(out, "python_32bit", DL_SEV_FAILURE,
                       "%s is a 32-bit Python; torch publishes only 64-bit wheels",
                       PATH_OF(py));
    dl_finding_evidence(x, "pythons[0].bits", "32");
    if (dl_q_is_windows(in->facts)) {
        char minor[8];
        /* the same Python in 64 bits: a program that pins its torch (a web UI's 1.13.1)
         * has wheels for the Python it was set up with, not always for the newest */
        if (!same_python_minor(py, minor, sizeof minor))
            snprintf(minor, sizeof minor, "3.12");
        dl_finding_fix(x, "winget install --id Python.Python.%s -e --source winget", minor);
        dl_fix_note(x, "that is the 64-bit installer; make the environment with it (py -%s -m "
                       "venv .venv), after deleting any venv the 32-bit Python made (a web "
                       "UI's venv folder)", minor);
    } else {
        dl_fix_note(x, "install a 64-bit Python (python.org, or your distribution's python3) "
                       "and create the environment with it");
    }
}
