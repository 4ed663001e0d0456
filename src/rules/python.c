/* Python: does the interpreter that runs the code have torch, and can it. */
#include "base/str.h"
#include "rules/fixes.h"
#include "rules/query.h"
#include "rules/rules.h"

#include <string.h>

/* A saved report may lack an interpreter's path (dl_text_or). */
#define UNKNOWN_PATH "(its path unknown)"

static bool import_says_missing(const dl_python *py)
{
    return py->runtime.error.value && strstr(py->runtime.error.value, "No module named 'torch'");
}

/* No torch for this interpreter: what the import said, or (without a runtime) the files. */
static bool lacks_torch(const dl_python *py)
{
    if (dl_q_text_is(&py->runtime.status, "import_failed"))
        return import_says_missing(py);
    if (dl_q_torch_imported(py))
        return false;
    /* Site-packages never read (a pasted text that only names the Python): unknown. */
    if (!py->site_packages.known || py->runtime.version.value)
        return false;
    return dl_q_static_torch(py) == NULL;
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

void dl_rule_pip_python_mismatch(const dl_rule_input *in, dl_findings *out)
{
    const dl_python *main_py = dl_q_main_python(in->facts), *other;
    const dl_torch_install *t;
    dl_finding *x;
    if (!main_py || !lacks_torch(main_py) || !(other = other_with_torch(in->facts)))
        return;
    t = dl_q_static_torch(other);
    x = dl_finding_add(out, "pip_python_mismatch", DL_LAYER_PYTHON, DL_SEV_FAILURE,
                       "torch is installed for %s, not for %s, which `python` runs",
                       dl_text_or(&other->path, UNKNOWN_PATH),
                       dl_text_or(&main_py->path, UNKNOWN_PATH));
    dl_finding_evidence(x, "pythons[0].path", "%s: no torch",
                        dl_text_or(&main_py->path, UNKNOWN_PATH));
    dl_finding_evidence(x, "pythons[].site_packages", "%s has torch %s at %s",
                        dl_text_or(&other->path, UNKNOWN_PATH),
                        t->version.value ? t->version.value : "?",
                        t->location.value ? t->location.value : "?");
    if (!main_py->pip.value && main_py->pip.why)
        dl_finding_evidence(x, "pythons[0].pip", "%s", main_py->pip.why);
    dl_fix_install_torch(x, in, main_py, NULL);
    dl_finding_fix(x, "# or run your code with %s", dl_text_or(&other->path, UNKNOWN_PATH));
}

void dl_rule_torch_not_installed(const dl_rule_input *in, dl_findings *out)
{
    const dl_python *py = dl_q_main_python(in->facts);
    dl_finding *x;
    if (!py || !lacks_torch(py) || other_with_torch(in->facts))
        return;
    x = dl_finding_add(out, "torch_not_installed", DL_LAYER_PYTHON, DL_SEV_FAILURE,
                       "The interpreter that `python` runs (%s) has no torch",
                       dl_text_or(&py->path, UNKNOWN_PATH));
    dl_finding_evidence(x, "pythons[0].runtime.error", "%s",
                        py->runtime.error.value ? py->runtime.error.value
                                                : "no torch in its site-packages");
    dl_fix_install_torch(x, in, py, NULL);
}

void dl_rule_python_32bit(const dl_rule_input *in, dl_findings *out)
{
    const dl_python *py = dl_q_main_python(in->facts);
    dl_finding *x;
    if (!py || !py->bits.known || py->bits.value != 32)
        return;
    x = dl_finding_add(out, "python_32bit", DL_LAYER_PYTHON, DL_SEV_FAILURE,
                       "%s is a 32-bit Python; torch publishes only 64-bit wheels",
                       dl_text_or(&py->path, UNKNOWN_PATH));
    dl_finding_evidence(x, "pythons[0].bits", "32");
    if (dl_q_is_windows(in->facts))
        dl_finding_fix(x, "winget install --id Python.Python.3.12 -e   (the 64-bit installer; "
                          "then create the environment with it: py -3.12 -m venv .venv)");
    else
        dl_finding_fix(x, "# install a 64-bit Python (python.org, or your distribution's "
                          "python3) and create the environment with it");
}
