#include "explain/torch_pulled.h"

#include "base/str.h"
#include "explain/text_cause.h"
#include "know/version.h"
#include "rules/finding.h"
#include "rules/fixes.h"

#include <stdio.h>
#include <string.h>

#define REQUIRES "requires torch=="
#define HAVE "but you have torch "

/* pip's conflict lines that agree: `least` or more packages (torchvision, torchaudio,
 * torchtext...) "require torch==X, but you have torch Y" with the same X and Y, X not Y.
 * Fills want (X) and have (Y); returns the first such line, -1 when fewer agree. */
static long companions_left_behind(const dl_paste *p, int least, char *want, size_t wn,
                                   char *have, size_t hn, dl_buf *names)
{
    long i, first = -1;
    int agree = 0;
    for (i = dl_paste_find(p, 0, REQUIRES); i >= 0; i = dl_paste_find(p, (size_t)i + 1, REQUIRES)) {
        char w[32], h[32];
        if (!dl_torch_version_after(p->lines[i].lower, REQUIRES, w, sizeof w) ||
            !dl_torch_version_after(p->lines[i].lower, HAVE, h, sizeof h) || !strcmp(w, h))
            continue;
        if (first < 0) {
            snprintf(want, wn, "%s", w);
            snprintf(have, hn, "%s", h);
            first = i;
        }
        if (!strcmp(w, want) && !strcmp(h, have)) {
            agree++;
            if (names)
                dl_buf_printf(names, "%s%.*s", names->len ? ", " : "",
                              (int)strcspn(p->lines[i].text + strspn(p->lines[i].text, " "), " "),
                              p->lines[i].text + strspn(p->lines[i].text, " "));
        }
    }
    return agree >= least ? first : -1;
}

/* The line where xformers' install brought the other torch (each xformers release pins one
 * torch): pip's log collecting xformers before it collects a pinned torch (*logged set), or
 * xformers named with an install ("When installing deps with xformers"). -1 when none. */
static long xformers_pulled_torch(const dl_paste *p, bool *logged)
{
    long i;
    *logged = false;
    for (i = dl_paste_find(p, 0, "collecting xformers"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "collecting xformers"))
        if (dl_paste_find(p, (size_t)i + 1, "collecting torch==") >= 0) {
            *logged = true;
            return i;
        }
    for (i = dl_paste_find(p, 0, "xformers"); i >= 0; i = dl_paste_find(p, (size_t)i + 1, "xformers"))
        if (strstr(p->lines[i].lower, "install") && !strstr(p->lines[i].lower, "requires torch"))
            return i;
    return -1;
}

void dl_explain_torch_pulled_by_xformers(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "extension_mismatch",
        "Installing xformers replaced torch: each xformers release pins one torch release, and "
        "pip installed that torch over the one torchvision, torchaudio and the rest were "
        "installed for",
        "# put the torch the companions were installed for back, with an xformers built for "
        "it, in one command (pip then picks the xformers release that accepts that torch; add "
        "the --index-url of the CUDA build torch came from); or keep the new torch and move "
        "torchvision, torchaudio and the rest to its releases; or leave xformers out (most "
        "programs run without it)",
        {"torchvision_mismatch", NULL},
        "`python -m pip list` (torch, torchvision, torchaudio, xformers with their +cuXYZ "
        "tags)"};
    static const char *const step_back[] = {"torchvision_mismatch"};
    char want[32], have[32];
    bool logged;
    long pulled = xformers_pulled_torch(&e->paste, &logged);
    /* a log that shows the pinned torch coming in needs one companion's complaint; words
     * alone need two that agree */
    long conflict = pulled < 0 ? -1
                               : companions_left_behind(&e->paste, logged ? 1 : 2, want,
                                                        sizeof want, have, sizeof have, NULL);
    dl_finding *x;
    if (conflict < 0)
        return;
    dl_text_causes_step_back(e, step_back, 1);
    /* an xformers row that already read the pin is told in these terms */
    if (dl_findings_has_failure(&e->findings, "extension_mismatch"))
        x = dl_text_cause_restate(e, &cause, conflict);
    else
        x = dl_text_cause_add(e, &cause, conflict, pulled);
    dl_finding_fix(x, "python -m pip install torch==%s xformers", want);
}

void dl_explain_companions_left_behind_note(dl_explanation *e)
{
    dl_finding *x = dl_findings_get(&e->findings, "torchvision_mismatch");
    char want[32], have[32];
    dl_buf names = {0};
    if (!x || !dl_findings_has_failure(&e->findings, "torchvision_mismatch") ||
        companions_left_behind(&e->paste, 2, want, sizeof want, have, sizeof have, &names) < 0) {
        dl_buf_free(&names);
        return;
    }
    dl_fix_note(x, "%s were all installed for torch %s, and torch %s replaced it (a requirements "
                   "file or a notebook cell pinned it): either put torch %s back (python -m pip "
                   "install torch==%s, from the index of its build), or install the release of "
                   "each of them made for torch %s, together in one command",
                names.data, want, have, want, want, have);
    dl_buf_free(&names);
}
