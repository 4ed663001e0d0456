#include "explain/user_site.h"

#include "explain/text_cause.h"

#include <ctype.h>
#include <string.h>

/* The first line naming torch's files in a user site; -1 when none. */
static long user_site_torch_line(const dl_paste *p)
{
    static const char *const sites[] = {"\\roaming\\python\\python3", "/roaming/python/python3",
                                        "/.local/lib/python3"};
    size_t k;
    for (k = 0; k < sizeof sites / sizeof sites[0]; k++) {
        long i;
        for (i = dl_paste_find(p, 0, sites[k]); i >= 0;
             i = dl_paste_find(p, (size_t)i + 1, sites[k])) {
            const char *low = p->lines[i].lower;
            if (strstr(low, "site-packages\\torch\\") || strstr(low, "site-packages/torch/"))
                return i;
        }
    }
    return -1;
}

/* A shell prompt of an active environment: "(name) " at the line's start, then PowerShell's
 * "PS ", a drive ("C:\"), or a user@host prompt. */
static bool env_prompt(const char *low)
{
    const char *close;
    if (low[0] != '(' || !(close = strchr(low, ')')) || close == low + 1 || close[1] != ' ')
        return false;
    close += 2;
    return !strncmp(close, "ps ", 3) || (isalpha((unsigned char)close[0]) && close[1] == ':') ||
           strchr(close, '@') != NULL;
}

static bool env_active(const dl_paste *p)
{
    static const char *const marks[] = {"\\envs\\", "/envs/", "conda activate",
                                        "\\venv\\scripts\\", "/venv/bin/"};
    size_t i;
    if (dl_paste_find_any(p, marks, sizeof marks / sizeof marks[0]) >= 0)
        return true;
    for (i = 0; i < p->count; i++)
        if (env_prompt(p->lines[i].lower))
            return true;
    return false;
}

void dl_explain_user_site_torch(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "torch_shadowed",
        "torch is imported from the user site (pip install --user), which comes "
        "before the active environment's own site-packages",
        "# remove the user-site torch (python -s -m pip list shows the env's own; "
        "pip uninstall torch run outside the env), or set PYTHONNOUSERSITE=1 in "
        "the environment",
        {"pip_python_mismatch"},
        "`python -c \"import torch, sys; print(torch.__file__, "
        "sys.prefix)\"` in the environment"};
    long line = user_site_torch_line(&e->paste);
    if (line < 0 || dl_findings_has(&e->findings, "torch_shadowed") || !env_active(&e->paste))
        return;
    dl_text_cause_add(e, &cause, line, -1);
}
