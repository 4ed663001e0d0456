#include "explain/package_python_text.h"

#include "base/str.h"
#include "facts/value.h"
#include "rules/finding.h"

#include <stdlib.h>
#include <string.h>

#define REQUIREMENT "satisfies the requirement "
/* words of the torch rows' fix in error_signatures.csv, which this replaces */
#define TORCH_FIX "a supported Python, or a torch that has wheels for it"

/* The name of the requirement pip could not satisfy, lower case ("coqui-tts" from "...
 * satisfies the requirement coqui-tts (from versions: none)"); false when none is named. */
static bool requirement_named(const dl_paste *p, char *out, size_t n)
{
    long i = dl_paste_find(p, 0, REQUIREMENT);
    const char *at;
    size_t len;
    if (i < 0)
        return false;
    at = strstr(p->lines[i].lower, REQUIREMENT) + strlen(REQUIREMENT);
    len = strspn(at, "abcdefghijklmnopqrstuvwxyz0123456789._-");
    if (!len || len >= n)
        return false;
    memcpy(out, at, len);
    out[len] = '\0';
    return true;
}

/* torch's own packages, whose wheels the torch rows already speak of */
#define TORCH_FAMILY "torch;torchvision;torchaudio;pytorch;torchtext;torchdata"

void dl_explain_other_package_for_python(dl_explanation *e)
{
    dl_finding *x = dl_findings_get(&e->findings, "python_unsupported");
    char name[64], *title;
    if (!x || !dl_finding_fix_is_only(x, TORCH_FIX) ||
        !requirement_named(&e->paste, name, sizeof name) ||
        dl_semicolon_list_has(TORCH_FAMILY, name))
        return;
    title = dl_fmt("pip found no release of %s for this Python: its releases support other "
                   "Python versions (not a torch problem)",
                   name);
    dl_text_set(&x->title, title);
    free(title);
    dl_finding_fix_clear(x);
    dl_finding_fix(x, "# make an environment with a Python that %s supports (its page on PyPI "
                      "lists them) and install there; or a release of %s made for this Python, "
                      "if one exists",
                   name, name);
}
