#include "explain/library_path_fix.h"

#include "base/str.h"
#include "rules/finding.h"
#include "rules/fixes.h"

#include <stdio.h>
#include <string.h>

typedef enum { OTHER_FOLDER, DISTRIBUTION, CONDA_ENV } folder_kind;

/* The folders the loader searches by itself (ld.so.cache): a distribution's packages put
 * their libraries there, and LD_LIBRARY_PATH never names them. */
static bool distribution_folder(const char *dir)
{
    static const char *const dirs[] = {"/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu",
                                       "/usr/lib/aarch64-linux-gnu", "/lib/aarch64-linux-gnu",
                                       "/usr/lib64", "/lib64", "/usr/lib", "/lib"};
    size_t k;
    for (k = 0; k < sizeof dirs / sizeof dirs[0]; k++)
        if (!strcmp(dir, dirs[k]))
            return true;
    return false;
}

/* The first absolute path to a shared library in `line` that is not one torch brings
 * (site-packages/nvidia/, torch/lib/ itself): its folder and file name. */
static bool other_library(const char *line, char *dir, size_t dn, char *lib, size_t ln)
{
    const char *so;
    for (so = strstr(line, ".so"); so; so = strstr(so + 3, ".so")) {
        const char *start = so, *slash;
        size_t len;
        while (start > line && !strchr(" \t'\"(`:=", start[-1]))
            start--;
        /* an absolute path, or one from a variable or home ("$ENV_PATH/torch/lib/...") */
        if ((*start != '/' && *start != '$' && *start != '~') ||
            (strstr(start, "/nvidia/") && strstr(start, "/nvidia/") < so))
            continue;
        if (strstr(start, "/torch/lib/lib") && strstr(start, "/torch/lib/lib") < so)
            continue;
        len = (size_t)(so - start) + 3 + strspn(so + 3, ".0123456789");
        while (len && start[len - 1] == '.')
            len--;
        for (slash = start + len; slash > start && slash[-1] != '/'; slash--)
            ;
        if (slash <= start + 1 || (size_t)(slash - start) >= dn || len >= ln)
            continue;
        snprintf(dir, dn, "%.*s", (int)(slash - start - 1), start);
        snprintf(lib, ln, "%.*s", (int)(start + len - slash), slash);
        return true;
    }
    return false;
}

static folder_kind kind_of(const char *dir)
{
    const char *envs = strstr(dir, "/envs/");
    if (strstr(dir, "/torch/lib/../../../..") ||
        (envs && !strstr(dir, "site-packages") && dl_ends_with(dir, "/lib")))
        return CONDA_ENV;
    return distribution_folder(dir) ? DISTRIBUTION : OTHER_FOLDER;
}

static void distribution_fix(dl_finding *x, const char *dir, const char *lib)
{
    unsigned major = 0;
    const char *v = strstr(lib, ".so.");
    dl_fix_note(x, "%s is the loader's own folder (ld.so.cache), not LD_LIBRARY_PATH's: the "
                   "copy there comes from a package of the distribution",
                dir);
    /* the file name alone: on a merged /usr, dpkg knows /lib/... and not /usr/lib/... */
    dl_finding_fix(x, "dpkg -S %s", lib);
    if (!strncmp(lib, "libcudnn", 8) && v && sscanf(v + 4, "%u", &major) == 1) {
        dl_fix_note(x, "where nothing else needs it, remove it (rpm -e on RHEL and Fedora):");
        dl_finding_fix(x, "sudo apt-get remove --allow-change-held-packages 'libcudnn%u*'", major);
        if (major == 8)
            dl_fix_note(x, "or keep it and move to a torch with cuDNN 9 (2.4 or later), whose "
                           "cuDNN loads its own libraries first");
    } else {
        dl_fix_note(x, "remove that package where nothing else needs it, or keep the program "
                       "from loading it (a torch whose own copy it prefers)");
    }
}

static void conda_fix(dl_finding *x)
{
    dl_fix_note(x, "the library comes from the conda environment's own lib folder (its "
                   "cudatoolkit), which torch reaches through its RPATH, not LD_LIBRARY_PATH: "
                   "with torch from pip (which brings its own CUDA libraries) remove it; with "
                   "torch from conda, install the cudatoolkit of torch's own CUDA instead");
    dl_finding_fix(x, "conda remove cudatoolkit");
}

static void folder_fix(dl_finding *x, const char *dir)
{
    dl_fix_note(x, "take %s out of LD_LIBRARY_PATH for this shell, run the program again, "
                   "then remove it where it is set (~/.bashrc, the module or job script):",
                dir);
    dl_finding_fix(x, "export LD_LIBRARY_PATH=$(printf '%%s' \"$LD_LIBRARY_PATH\" | tr ':' "
                      "'\\n' | grep -vx '%s' | paste -sd: -)",
                   dir);
}

/* the words every general fix of the signature rows holds */
#define GENERAL_FIX "drop its folder from LD_LIBRARY_PATH"

void dl_explain_library_path_fix(dl_explanation *e)
{
    dl_finding *x = dl_findings_get(&e->findings, "ld_library_path_conflict");
    char dir[512], lib[128];
    size_t i;
    bool found = false;
    /* only the general fixes: a folder read from the text says more */
    if (!x || !dl_finding_fix_is_only(x, GENERAL_FIX))
        return;
    for (i = 0; i < x->evidence.count && !found; i++) {
        const dl_pair *ev = &DL_LIST_AT(x->evidence, dl_pair, i);
        /* "A.so: symbol S version V not defined in file L with link time reference": A is
         * the library that asks, L the one found first (named without its folder); A in a
         * package's own folder (site-packages/lmdeploy/lib) is not what shadows anything,
         * while a system cuDNN asking its sibling is */
        const char *from = ev->value ? strstr(ev->value, "not defined in file ") : NULL;
        if (from && !strstr(ev->value, "-packages/"))
            from = NULL;
        found = ev->value &&
                other_library(from ? from : ev->value, dir, sizeof dir, lib, sizeof lib);
    }
    if (!found)
        return;
    dl_finding_fix_clear(x);
    switch (kind_of(dir)) {
    case DISTRIBUTION:
        distribution_fix(x, dir, lib);
        break;
    case CONDA_ENV:
        conda_fix(x);
        break;
    default:
        folder_fix(x, dir);
    }
}
