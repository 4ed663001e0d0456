/* torch_shadowed: the torch that `import torch` finds comes from outside the interpreter's
 * own packages (PYTHONPATH, a .pth file, the user site, a folder named torch in the
 * current directory), so the environment runs a torch it did not install. */
#include "base/str.h"
#include "facts/query.h"
#include "rules/fixes.h"
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>

static bool is_env(const dl_python *py)
{
    return dl_q_text_is(&py->kind, "venv") || dl_q_text_is(&py->kind, "uv") ||
           dl_q_text_is(&py->kind, "conda");
}

/* The origins that mean a leak, and when: a folder in the current directory always; the
 * others when they reach into an environment or hide the interpreter's own torch. */
static bool leaks(const dl_python *py, const char *origin)
{
    if (!strcmp(origin, "current_directory"))
        return true;
    if (strcmp(origin, "pythonpath") && strcmp(origin, "pth_file") && strcmp(origin, "user_site"))
        return false;
    return is_env(py) || dl_q_own_torch(py) != NULL;
}

static char *title_of(const char *origin, const char *detail)
{
    if (!strcmp(origin, "pythonpath"))
        return dl_fmt("torch is imported from PYTHONPATH (%s), not from this interpreter's "
                      "packages", detail);
    if (!strcmp(origin, "pth_file"))
        return dl_fmt("A .pth file (%s) puts another torch on this interpreter's path", detail);
    if (!strcmp(origin, "user_site"))
        return dl_fmt("torch is imported from the user site (%s), outside this environment",
                      detail);
    return dl_fmt("A folder named torch in the current directory (%s) is imported instead of "
                  "the installed torch", detail);
}

/* PYTHONPATH without the entry that holds torch. Caller frees. */
static char *pythonpath_without(const char *value, const char *entry, char sep)
{
    dl_buf b = {0};
    const char *p = value;
    while (p && *p) {
        size_t n = strcspn(p, sep == ';' ? ";" : ":");
        char *item = dl_strndup(p, n);
        if (*item && strcmp(item, entry) != 0)
            dl_buf_printf(&b, "%s%s", b.len ? (sep == ';' ? ";" : ":") : "", item);
        free(item);
        p += n;
        if (*p)
            p++;
    }
    return dl_buf_take(&b);
}

static void fix_origin(dl_finding *x, const dl_facts *f, const char *origin, const char *detail)
{
    dl_shell sh = dl_fix_shell(f);
    char *cmd = NULL, *rest, *quoted;
    if (!strcmp(origin, "pythonpath")) {
        rest = pythonpath_without(dl_dict_get(&f->environment, "PYTHONPATH"), detail,
                                  dl_shell_list_separator(sh));
        cmd = *rest ? dl_shell_set_env(sh, "PYTHONPATH", rest)
                    : dl_shell_unset_env(sh, "PYTHONPATH");
        free(rest);
    } else if (!strcmp(origin, "pth_file")) {
        quoted = dl_shell_quote(sh, detail);
        cmd = sh == DL_SHELL_POWERSHELL ? dl_fmt("Remove-Item -LiteralPath %s", quoted)
                                        : dl_fmt("rm -- %s", quoted);
        free(quoted);
    } else if (!strcmp(origin, "user_site")) {
        cmd = dl_shell_set_env(sh, "PYTHONNOUSERSITE", "1");
    } else {
        dl_fix_note(x, "rename that folder, or run your code from another directory");
    }
    if (cmd)
        dl_finding_fix(x, "%s", cmd);
    free(cmd);
}

void dl_rule_torch_shadowed(const dl_rule_input *in, dl_findings *out)
{
    const dl_python *py = dl_q_main_python(in->facts);
    const dl_torch_runtime *r = py ? &py->runtime : NULL;
    const dl_torch_install *own;
    const char *origin, *detail;
    bool broken, same;
    char *title;
    dl_finding *x;
    if (!r || !(origin = r->origin.value) || !leaks(py, origin))
        return;
    own = dl_q_own_torch(py);
    detail = r->origin_detail.value ? r->origin_detail.value : "?";
    broken = !dl_q_torch_imported(py);
    same = own && own->version.value && r->version.value &&
           strcmp(own->version.value, r->version.value) == 0;
    title = title_of(origin, detail);
    /* Only a copy of the interpreter's own torch is harmless; anything else runs a torch the
     * environment did not install, which breaks where that variable or file is absent. */
    x = dl_finding_add(out, "torch_shadowed",
                       !broken && same ? DL_SEV_WARNING : DL_SEV_FAILURE, "%s", title);
    free(title);
    dl_finding_evidence(x, "pythons[0].runtime.file", "%s%s%s",
                        r->file.value ? r->file.value : "?", r->version.value ? ", torch " : "",
                        r->version.value ? r->version.value : "");
    if (!strcmp(origin, "pythonpath"))
        dl_finding_evidence(x, "environment.PYTHONPATH", "%s",
                            dl_dict_get(&in->facts->environment, "PYTHONPATH")
                                ? dl_dict_get(&in->facts->environment, "PYTHONPATH") : "?");
    if (own)
        dl_finding_evidence(x, "pythons[0].site_packages", "its own torch %s at %s is hidden",
                            own->version.value ? own->version.value : "?",
                            own->location.value ? own->location.value : "?");
    else if (is_env(py))
        dl_finding_evidence(x, "pythons[0].site_packages", "the environment %s has no torch "
                                                           "of its own",
                            py->prefix.value ? py->prefix.value : "?");
    fix_origin(x, in->facts, origin, detail);
    if (!own)
        dl_fix_install_torch(x, in, py, NULL);
}
