#include "explain/ipex_text.h"

#include "explain/text_cause.h"
#include "facts/query.h"
#include "rules/fixes.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* The IPEX release a line names after its package name ("intel-extension-for-pytorch
 * 2.2.0", "intel_extension_for_pytorch==2.3.110+xpu", "ipex 2.8"): major and minor; false
 * when the line names none. */
static bool ipex_release_on(const char *low, unsigned *major, unsigned *minor)
{
    static const char *const names[] = {"intel-extension-for-pytorch",
                                        "intel_extension_for_pytorch", "ipex"};
    size_t k;
    for (k = 0; k < sizeof names / sizeof names[0]; k++) {
        const char *at = strstr(low, names[k]);
        size_t n = strlen(names[k]);
        if (!at || (at > low && isalnum((unsigned char)at[-1])) ||
            isalnum((unsigned char)at[n]) || at[n] == '-' || at[n] == '_')
            continue;
        at += n + strspn(at + n, " \t=:v");
        if (isdigit((unsigned char)*at) && sscanf(at, "%u.%u", major, minor) == 2)
            return true;
    }
    return false;
}

/* Some line gives a torch of IPEX's own release ("ipex 2.5.10 with pytorch 2.5", a printed
 * torch.__version__ "2.5.1+cxx11.abi" after "torch"): the text shows the pair that works, and
 * the torch read first may be one its prose quotes. */
static bool torch_of_release_named(const dl_paste *p, unsigned major, unsigned minor)
{
    long i;
    for (i = dl_paste_find(p, 0, "torch"); i >= 0; i = dl_paste_find(p, (size_t)i + 1, "torch")) {
        const char *at;
        for (at = strstr(p->lines[i].lower, "torch"); at; at = strstr(at + 5, "torch")) {
            const char *v = at + 5 + strspn(at + 5, " \t=:v_-`'\"");
            unsigned a, b;
            /* IPEX's own name ("intel-extension-for-pytorch==2.5.0") is no torch */
            if (at - p->lines[i].lower >= 6 &&
                (!strncmp(at - 6, "for-py", 6) || !strncmp(at - 6, "for_py", 6)))
                continue;
            if (isdigit((unsigned char)*v) && sscanf(v, "%u.%u", &a, &b) == 2 && a == major &&
                b == minor)
                return true;
        }
    }
    return false;
}

void dl_explain_ipex_beside_other_torch(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "extension_mismatch",
        "Intel Extension for PyTorch is built for one torch release (IPEX X.Y for torch X.Y), "
        "and this torch is another",
        "# install the IPEX release made for this torch, or the torch it was made for",
        {NULL},
        "`python -m pip list | grep -i -e torch -e intel` (the two releases)"};
    const char *v = dl_q_first_torch_version(&e->facts);
    unsigned tmajor, tminor, imajor = 0, iminor = 0;
    long i, line = -1;
    dl_finding *x;
    if (!v || sscanf(v, "%u.%u", &tmajor, &tminor) != 2 || dl_text_cause_read(e))
        return;
    for (i = 0; i < (long)e->paste.count && line < 0; i++)
        if (ipex_release_on(e->paste.lines[i].lower, &imajor, &iminor))
            line = i;
    if (line < 0 || (imajor == tmajor && iminor == tminor) ||
        torch_of_release_named(&e->paste, imajor, iminor))
        return;
    x = dl_text_cause_add(e, &cause, line, dl_text_line_of_fact(e, "pythons[0].site_packages[0]"
                                                                   ".torches[0].version"));
    dl_finding_fix_clear(x);
    dl_finding_fix(x, "python -m pip install \"intel-extension-for-pytorch==%u.%u.*\"", tmajor,
                   tminor);
    dl_fix_note(x, "the IPEX release made for torch %u.%u (for an Intel GPU, from Intel's XPU "
                   "index with the torch it names); or install torch %u.%u, which IPEX %u.%u "
                   "was made for",
                tmajor, tminor, imajor, iminor, imajor, iminor);
}
