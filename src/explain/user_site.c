#include "explain/user_site.h"

#include "base/str.h"
#include "explain/text_cause.h"
#include "rules/finding.h"

#include <ctype.h>
#include <string.h>

/* The first line naming torch's files in a user site; -1 when none. */
/* The user site's line holds torch's own files (the place in the line does not matter). */
static bool torch_in_site_line(const char *low, const char *at, size_t len)
{
    (void)at;
    (void)len;
    return strstr(low, "site-packages\\torch\\") || strstr(low, "site-packages/torch/");
}

static long user_site_torch_line(const dl_paste *p)
{
    static const char *const sites[] = {"\\roaming\\python\\python3", "/roaming/python/python3",
                                        "/.local/lib/python3"};
    return dl_paste_find_any_where(p, sites, sizeof sites / sizeof sites[0], torch_in_site_line);
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
    /* an app's own interpreter is an environment too: Krita AI Diffusion's .server,
     * ComfyUI portable's python_embeded, the one-click installers' installer_files */
    static const char *const marks[] = {"\\envs\\", "/envs/", "conda activate",
                                        "\\venv\\scripts\\", "/venv/bin/",
                                        "\\.server\\", "\\python_embeded\\",
                                        "\\installer_files\\env"};
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
    /* the user site's torch got past its import and failed at its work (a port taken in
     * torch/distributed): which torch runs is then no cause of that error, only a question;
     * unless that torch is a CPU build (krita-ai-diffusion#116: the plugin's own Python
     * imported the user site's CPU torch) */
    static const char *const import_trouble[] = {"importerror", "modulenotfounderror",
                                                 "attributeerror", "undefined symbol", "oserror",
                                                 ".dll", "cannot import", "no module named",
                                                 /* the user site's torch is a CPU build */
                                                 "not compiled with cuda enabled"};
    long line = user_site_torch_line(&e->paste);
    if (line < 0 || dl_findings_has(&e->findings, "torch_shadowed") || !env_active(&e->paste))
        return;
    if (!strstr(e->paste.lines[line].lower, "torch/__init__.py") &&
        !strstr(e->paste.lines[line].lower, "torch\\__init__.py") &&
        dl_paste_find_any(&e->paste, import_trouble,
                          sizeof import_trouble / sizeof import_trouble[0]) < 0) {
        dl_strv_add(&e->alternatives, dl_strdup("torch_shadowed"));
        return;
    }
    dl_text_cause_add(e, &cause, line, -1);
}

/* The user site's marks ("...\AppData\Roaming\Python\Python37\site-packages",
 * "~/.local/lib/python3.10/site-packages"). */
static bool user_site_path(const char *low)
{
    return strstr(low, "\\roaming\\python\\python3") || strstr(low, "/roaming/python/python3") ||
           strstr(low, "/.local/lib/python3");
}

/* A traceback line in a user site's copy of a package torch itself imports at start-up
 * (its dependencies on PyPI); -1 when none. Extensions built against torch (flash_attn,
 * torch_scatter) are another reading: theirs is a build mismatch. */
static long user_site_dependency_line(const dl_paste *p)
{
    static const char *const deps[] = {"numpy", "typing_extensions", "sympy", "filelock",
                                       "networkx", "jinja2", "fsspec", "mpmath"};
    long i;
    for (i = dl_paste_find(p, 0, "site-packages"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "site-packages")) {
        const char *low = p->lines[i].lower, *at = strstr(low, "site-packages") + 13;
        size_t k;
        if (!user_site_path(low) || (*at != '\\' && *at != '/'))
            continue;
        for (k = 0; k < sizeof deps / sizeof deps[0]; k++) {
            size_t n = strlen(deps[k]);
            if (!strncmp(at + 1, deps[k], n) && !isalnum((unsigned char)at[1 + n]) && at[1 + n] != '_')
                return i;
        }
    }
    return -1;
}

/* A traceback line in torch's own files outside the user site; -1 when none. */
static long env_torch_line(const dl_paste *p)
{
    long i;
    for (i = dl_paste_find(p, 0, "site-packages"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "site-packages")) {
        const char *low = p->lines[i].lower;
        if (!user_site_path(low) &&
            (strstr(low, "site-packages\\torch\\") || strstr(low, "site-packages/torch/")))
            return i;
    }
    return -1;
}

void dl_explain_user_site_dependency(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "torch_shadowed",
        "torch imports its dependencies from the user site (pip install --user), "
        "which comes before the environment's own site-packages: two installs mix",
        "# remove the user-site copies (pip uninstall PACKAGE run outside the env), or "
        "set PYTHONNOUSERSITE=1 in the environment",
        {"pip_python_mismatch"},
        "`python -s -c \"import torch\"` (-s skips the user site: does it import then?)"};
    long torch_line, dep;
    if (dl_text_cause_read(e) || (torch_line = env_torch_line(&e->paste)) < 0 ||
        (dep = user_site_dependency_line(&e->paste)) < 0)
        return;
    dl_text_cause_add(e, &cause, dep, torch_line);
}

/* A traceback line in a torch.py of the user's own (not a package's file under site-packages
 * or dist-packages: safetensors\torch.py, d2l/torch.py), or the writer saying their file is
 * named torch.py; -1 when none. */
static long own_torch_py_line(const dl_paste *p)
{
    static const char *const named[] = {"named torch.py", "called torch.py", "file torch.py"};
    long i;
    for (i = dl_paste_find(p, 0, "torch.py\""); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "torch.py\"")) {
        const char *low = p->lines[i].lower, *at = strstr(low, "torch.py\"");
        if (at > low && (at[-1] == '/' || at[-1] == '\\') && strstr(low, "file \"") &&
            !strstr(low, "-packages"))
            return i;
    }
    return dl_paste_find_any(p, named, sizeof named / sizeof named[0]);
}

/* The line of the message a half-imported module named torch gives; -1 when none. */
static long torch_half_imported_line(const dl_paste *p)
{
    static const char *const forms[] = {"partially initialized module 'torch'",
                                        "module 'torch' has no attribute"};
    return dl_paste_find_any(p, forms, sizeof forms / sizeof forms[0]);
}

void dl_explain_own_torch_py(dl_explanation *e)
{
    static const char *const not_pytorch[] = {"torch_not_pytorch"};
    static const dl_text_cause cause = {
        "torch_shadowed", "A file of the user's named torch.py is imported instead of PyTorch",
        "# rename the file (e.g. torch_test.py) and delete torch.pyc and __pycache__ beside it",
        {NULL},
        NULL};
    long own, message;
    size_t i;
    if ((own = own_torch_py_line(&e->paste)) < 0 ||
        (message = torch_half_imported_line(&e->paste)) < 0)
        return;
    for (i = 0; i < e->findings.items.count; i++) {
        const dl_finding *x = &DL_LIST_AT(e->findings.items, dl_finding, i);
        if (dl_q_failure(x) && strcmp(x->id.value, "torch_not_pytorch") != 0 &&
            strcmp(x->id.value, "cpu_only_build") != 0)
            return; /* another cause the text shows (a CPU build stays beside it) */
    }
    dl_text_causes_step_back(e, not_pytorch, 1);
    dl_text_cause_add(e, &cause, own, message);
}

/* The failure, or with warnings_too the warning, that names a torch.py of the user's. */
static dl_finding *own_torch_py(dl_explanation *e, bool warnings_too)
{
    size_t i;
    for (i = 0; i < e->findings.items.count; i++) {
        dl_finding *x = &DL_LIST_AT(e->findings.items, dl_finding, i);
        if (!strcmp(x->id.value, "torch_shadowed") && x->title.value &&
            strstr(x->title.value, "torch.py") && (dl_q_failure(x) || warnings_too))
            return x;
    }
    return NULL;
}

void dl_explain_own_torch_py_beside_running_torch(dl_explanation *e)
{
    static const char *const shadowed[] = {"torch_shadowed"};
    size_t i, failures = 0;
    if (!own_torch_py(e, false))
        return;
    for (i = 0; i < e->findings.items.count; i++)
        failures += dl_q_failure(&DL_LIST_AT(e->findings.items, dl_finding, i));
    if (failures > 1 || dl_text_torch_ran(e))
        dl_text_causes_step_back(e, shadowed, 1);
}

void dl_explain_own_torch_py_when_alone(dl_explanation *e)
{
    dl_finding *x = own_torch_py(e, true);
    if (x && !dl_q_failure(x) && !dl_text_cause_read(e))
        dl_text_set(&x->severity, dl_severity_name(DL_SEV_FAILURE));
}
