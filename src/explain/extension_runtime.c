#include "explain/extension_runtime.h"

#include "base/str.h"
#include "explain/quote.h"
#include "facts/query.h"
#include "explain/text_cause.h"
#include "explain/text_marks.h"
#include "rules/know_query.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Packages that ship their own CUDA code linked against one CUDA runtime. */
static const char *const extensions[] = {"vllm", "flash_attn", "flash-attn", "xformers",
                                         "apex", "bitsandbytes", "deepspeed", "mmcv",
                                         "torch_scatter", "torch_sparse", "torch_cluster",
                                         "detectron2", "auto_gptq", "sglang", "torchvision",
                                         "torchaudio"};

/* The package named as a word in low ("from vllm import", "vllm/_C.abi3.so",
 * "torchaudio/lib/"), or NULL. */
static const char *package_in(const char *low)
{
    size_t k;
    for (k = 0; k < sizeof extensions / sizeof extensions[0]; k++) {
        const char *at;
        size_t n = strlen(extensions[k]);
        for (at = strstr(low, extensions[k]); at; at = strstr(at + 1, extensions[k]))
            if ((at == low || !(isalnum((unsigned char)at[-1]) || at[-1] == '_')) &&
                !(isalnum((unsigned char)at[n]) || at[n] == '_'))
                return extensions[k];
    }
    return NULL;
}

/* The package a "from foo_ops.bindings import x" line imports from ("foo_ops"); NULL when
 * the line has no such statement. */
static const char *from_package(const char *low, size_t *len)
{
    const char *at = strstr(low, "from ");
    for (; at; at = strstr(at + 1, "from ")) {
        const char *name = at + 5;
        size_t n = 0;
        if (at > low && (isalnum((unsigned char)at[-1]) || at[-1] == '_'))
            continue;
        while (isalnum((unsigned char)name[n]) || name[n] == '_')
            n++;
        if (n && (name[n] == '.' || name[n] == ' ') && strstr(name + n, " import ")) {
            *len = n;
            return name;
        }
    }
    return NULL;
}

/* A module the writer imports in low, when no known package is named: "import foo_ops",
 * "when I import the spatial_sampler", "from foo_ops.bindings import x" (the package, not
 * the name it imports); torch itself and the words of "import error" are not modules.
 * Copies the name into buf; false when none. */
static bool imported_module(const char *low, char *buf, size_t n)
{
    size_t from_len = 0;
    const char *at, *from = from_package(low, &from_len);
    for (at = strstr(low, "import "); at; at = strstr(at + 1, "import ")) {
        const char *name = at + 7;
        size_t len = 0;
        if (at > low && (isalnum((unsigned char)at[-1]) || at[-1] == '_'))
            continue;
        if (!strncmp(name, "the ", 4))
            name += 4;
        if (from && from < at) {
            name = from;
            len = from_len;
        } else
            while (isalnum((unsigned char)name[len]) || name[len] == '_' || name[len] == '.')
                len++;
        while (len && name[len - 1] == '.')
            len--;
        if (len < 3 || len >= n || !isalpha((unsigned char)name[0]) ||
            (!strncmp(name, "torch", 5) && (len == 5 || name[5] == '.')) ||
            !strncmp(name, "error", 5) || !strncmp(name, "fail", 4))
            continue;
        memcpy(buf, name, len);
        buf[len] = '\0';
        return true;
    }
    return false;
}

/* torch's own import fails in this line: its __init__ or its _C. */
static bool torch_frame(const char *low)
{
    return strstr(low, "torch/__init__.py") || strstr(low, "torch\\__init__.py") ||
           strstr(low, "torch/_c") || strstr(low, "torch/lib/");
}

/* A notebook's traceback with frames folded away ("12 frames", "[... skipping hidden 3
 * frame]"). */
static bool collapsed_frames(const dl_paste *p)
{
    size_t i;
    for (i = 0; i < p->count; i++) {
        const char *low = p->lines[i].lower;
        size_t n = strspn(low, " \t");
        if (isdigit((unsigned char)low[n])) {
            n += strspn(low + n, "0123456789");
            if (!strcmp(low + n, " frames") || !strcmp(low + n, " frame"))
                return true;
        }
        if (strstr(low, "skipping hidden"))
            return true;
    }
    return false;
}

/* The statement is torch's own import ("import torch", "----> 1 import torch"). */
static bool imports_torch_alone(const char *low)
{
    const char *at = strstr(low, "import torch");
    return at && (at[12] == '\0' || at[12] == ' ' || at[12] == ';') &&
           (at == low || at[-1] == ' ' || at[-1] == '>');
}

/* The CUDA major torch was built with, from the text's facts; 0 when not given. */
static int torch_cuda_major(const dl_facts *f)
{
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    const char *cuda = NULL;
    if (py && py->runtime.cuda.value)
        cuda = py->runtime.cuda.value;
    else if (dl_q_listed_torch(f))
        cuda = dl_q_listed_torch(f)->cuda.value;
    return cuda && isdigit((unsigned char)cuda[0]) ? atoi(cuda) : 0;
}

/* No line before `line` is part of a traceback: `line` stands above the error it names (an
 * issue's title, a form's heading), not inside one. */
static bool above_traceback(const dl_paste *p, size_t line)
{
    static const char *const frames[] = {"traceback", "file \"", "---->", "importerror",
                                         "oserror", "error:"};
    size_t j, k;
    for (j = 0; j < line; j++)
        for (k = 0; k < sizeof frames / sizeof frames[0]; k++)
            if (strstr(p->lines[j].lower, frames[k]))
                return false;
    return true;
}

void dl_explain_extension_runtime(dl_explanation *e)
{
    const dl_paste *p = &e->paste;
    int torch_major = torch_cuda_major(&e->facts);
    const char *torch_cuda = dl_q_torch_cuda(&e->facts);
    bool torch_cpu = torch_cuda && !strcmp(torch_cuda, "none");
    long i;
    for (i = dl_paste_find(p, 0, "libcudart.so."); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "libcudart.so.")) {
        const char *at = strstr(p->lines[i].lower, "libcudart.so.") + 13;
        const char *pkg = NULL, *id;
        int major = atoi(at);
        size_t from = i >= 3 ? (size_t)i - 3 : 0, to = (size_t)i + 1 < p->count ? (size_t)i + 1
                                                                                  : (size_t)i, j;
        bool torch_fails = false;
        size_t pkg_line = 0;
        char module[64], soname[16];
        size_t n;
        dl_finding *x;
        if (!isdigit((unsigned char)*at) || major == torch_major)
            continue;
        /* an issue's title that repeats the message: the traceback's own copy below says
         * whose library it is, not the first frame under the title */
        if (above_traceback(p, (size_t)i) && dl_paste_find(p, (size_t)i + 1, "libcudart.so.") >= 0)
            continue;
        /* the soname's version as written: "12", or CUDA 10's "10.2" */
        n = strspn(at, "0123456789.");
        while (n && at[n - 1] == '.')
            n--;
        snprintf(soname, sizeof soname, "%.*s", (int)(n < 15 ? n : 15), at);
        /* the library the loader names just below ("Could not load this library:
         * .../torchaudio/lib/_torchaudio.abi3.so") says whose it is, before any prose */
        for (j = (size_t)i + 1; j < p->count && j <= (size_t)i + 3 && !pkg; j++)
            if (strstr(p->lines[j].lower, "could not load this library") &&
                (pkg = package_in(p->lines[j].lower)) != NULL)
                pkg_line = j;
        for (j = from; j <= to; j++) {
            torch_fails |= torch_frame(p->lines[j].lower);
            if (!pkg && (pkg = package_in(p->lines[j].lower)) != NULL)
                pkg_line = j;
        }
        for (j = from; !pkg && j <= to; j++)
            if (imported_module(p->lines[j].lower, module, sizeof module)) {
                pkg = module;
                pkg_line = j;
            }
        /* IPython marks a frame's statement with "---->" (ctypes' own frame with "-->"), a
         * few numbered source lines above the error: the last frame's import, when it is
         * not torch's */
        for (j = (size_t)i; !pkg && j > 0 && j + 10 > (size_t)i; j--) {
            const char *low = p->lines[j - 1].lower;
            if (!strstr(low, "-->"))
                continue;
            torch_fails |= torch_frame(low) || imports_torch_alone(low);
            if (!torch_fails && imported_module(low, module, sizeof module)) {
                pkg = module;
                pkg_line = j - 1;
            }
            break;
        }
        /* the message is the title (above any traceback): the traceback under it,
         * all of it, is what it stands over */
        for (j = 0; !pkg && above_traceback(p, (size_t)i) && j < p->count; j++) {
            torch_fails |= torch_frame(p->lines[j].lower);
            if ((pkg = package_in(p->lines[j].lower)) == NULL &&
                imported_module(p->lines[j].lower, module, sizeof module))
                pkg = module;
            if (pkg)
                pkg_line = j;
        }
        /* a traceback Colab or Jupyter collapsed ("12 frames") hides the frame that loads
         * the library: the package the writer names, else the one the cell imports,
         * where nothing shows torch's own import failing */
        if (!pkg && !torch_fails && collapsed_frames(p)) {
            for (j = 0; j < p->count; j++)
                torch_fails |= torch_frame(p->lines[j].lower) ||
                               imports_torch_alone(p->lines[j].lower);
            for (j = 0; !pkg && !torch_fails && j < p->count; j++)
                if ((pkg = package_in(p->lines[j].lower)) != NULL)
                    pkg_line = j;
            for (j = 0; !pkg && !torch_fails && j < p->count; j++)
                if (imported_module(p->lines[j].lower, module, sizeof module)) {
                    pkg = module;
                    pkg_line = j;
                }
        }
        if (!pkg || torch_fails)
            continue;
        id = !strncmp(pkg, "torchvision", 11) || !strncmp(pkg, "torchaudio", 10)
                 ? "torchvision_mismatch" : "extension_mismatch";
        if (dl_findings_has(&e->findings, id))
            return;
        if (torch_cpu) {
            /* a CPU torch needs no CUDA runtime: the package is the CUDA build beside it, and
             * the torch build named is not the fault unless the GPU was wanted; nor is a
             * machine without a GPU, where the CPU build is the plan */
            static const char *const torch_ids[] = {"cpu_only_build", "torch_import_failed",
                                                    "no_gpu"};
            dl_text_causes_step_back(e, torch_ids, sizeof torch_ids / sizeof torch_ids[0]);
            x = dl_finding_add(&e->findings, id, DL_SEV_FAILURE,
                               "%s needs the CUDA %s runtime (libcudart.so.%s): it is a CUDA "
                               "build, and the torch beside it is a CPU build",
                               pkg, soname, soname);
            dl_quote_line(x, p, (size_t)i);
            if (pkg_line != (size_t)i)
                dl_quote_line(x, p, pkg_line);
            dl_finding_fix(x, "# the CPU build of %s, made for the installed +cpu torch (its "
                              "project's CPU index or variant); or, if the GPU is wanted, "
                              "torch's CUDA build (dlenv plan)",
                           pkg);
            return;
        }
        x = dl_finding_add(&e->findings, id, DL_SEV_FAILURE,
                           "%s needs the CUDA %s runtime (libcudart.so.%s): it was built for "
                           "another CUDA than torch's%s",
                           pkg, soname, soname, torch_major ? "" : " (the text does not say torch's)");
        dl_quote_line(x, p, (size_t)i);
        if (pkg_line != (size_t)i) {
            dl_quote_line(x, p, pkg_line);
        }
        dl_finding_fix(x, "# the %s build for the installed torch and its CUDA (or the torch "
                          "it was built for): `python -m pip list` shows both",
                       pkg);
        return;
    }
}

/* "undefined symbol: " followed by a mangled name in torch's own namespaces (nested names
 * _ZN / _ZNK, vtables _ZTVN, typeinfo _ZTIN); the line, or -1. */
static long torch_api_symbol_line(const dl_paste *p)
{
    static const char *const spaces[] = {"2at", "3c10", "5torch", "6caffe2"};
    static const char *const kinds[] = {"_zn", "_znk", "_ztvn", "_ztin"};
    long i;
    for (i = dl_paste_find(p, 0, "undefined symbol: _z"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "undefined symbol: _z")) {
        const char *at;
        for (at = strstr(p->lines[i].lower, "undefined symbol: _z"); at;
             at = strstr(at + 1, "undefined symbol: _z")) {
            size_t k, s;
            for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
                for (s = 0; s < sizeof spaces / sizeof spaces[0]; s++) {
                    size_t n = strlen(kinds[k]);
                    if (!strncmp(at + 18, kinds[k], n) &&
                        !strncmp(at + 18 + n, spaces[s], strlen(spaces[s])))
                        return i;
                }
        }
    }
    return -1;
}

void dl_explain_torch_symbol_unplaced(dl_explanation *e)
{
    /* torch's import or its own libraries in the text: torch is what fails to load */
    static const char *const torch_own[] = {"/torch/_c", "\\torch\\_c", "/torch/lib/",
                                            "\\torch\\lib\\", "libtorch", "torch/__init__.py",
                                            "torch\\__init__.py", "import torch"};
    static const char *const candidates[] = {"extension_mismatch", "torchvision_mismatch"};
    dl_finding *x;
    size_t i;
    if (!dl_findings_failures_all(&e->findings, "torch_import_failed", &x) || !x || torch_api_symbol_line(&e->paste) < 0 ||
        dl_paste_find_any(&e->paste, torch_own, sizeof torch_own / sizeof torch_own[0]) >= 0)
        return;
    dl_text_set(&x->severity, dl_severity_name(DL_SEV_WARNING));
    dl_strv_free(&e->alternatives);
    for (i = 0; i < sizeof candidates / sizeof candidates[0]; i++)
        dl_strv_add(&e->alternatives, dl_strdup(candidates[i]));
    dl_strv_add(&e->alternatives, dl_strdup("torch_import_failed"));
    /* the general row's question is about other CUDA libraries: not these symbols */
    dl_strv_free(&e->ask);
    dl_strv_add(&e->ask, dl_strdup("the whole traceback (which library lacks the symbol: an "
                                   "extension, torchvision / torchaudio / torchtext, or torch's "
                                   "own) and `python -m pip list | grep torch`"));
}

void dl_explain_extension_symbol_unplaced(dl_explanation *e)
{
    /* any sign of the library, the package or how it got there decides for the extension */
    static const char *const placed[] = {".so", ".pyd", ".dll", ".dylib", "import",
                                         "site-packages", "dist-packages", "install", "build",
                                         "setup.py", "compile", "pip ", "conda "};
    static const char *const candidates[] = {"torchvision_mismatch", "torch_import_failed"};
    dl_finding *x;
    size_t i;
    if (!dl_findings_failures_all(&e->findings, "extension_mismatch", &x) || !x || torch_api_symbol_line(&e->paste) < 0 ||
        dl_paste_find_any(&e->paste, placed, sizeof placed / sizeof placed[0]) >= 0)
        return;
    dl_text_set(&x->severity, dl_severity_name(DL_SEV_WARNING));
    for (i = 0; i < sizeof candidates / sizeof candidates[0]; i++)
        if (!dl_strv_has(&e->alternatives, candidates[i]))
            dl_strv_add(&e->alternatives, dl_strdup(candidates[i]));
    dl_strv_add(&e->ask, dl_strdup("the whole traceback: which library lacks the symbol (a "
                                   "package's own _C, torchvision / torchaudio / torchtext, or "
                                   "torch's own) and `python -m pip list | grep torch`"));
}

/* The last line before `line` that imports something; -1 when none. */
static long last_import_before(const dl_paste *p, long line)
{
    long i;
    for (i = line; i >= 0; i--)
        if (strstr(p->lines[i].lower, "import "))
            return i;
    return -1;
}

void dl_explain_domain_library_just_installed(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "torchvision_mismatch",
        "pip just installed a torchvision / torchaudio / torchtext built for another torch "
        "(or another CUDA variant) than the torch already there, and it fails to load",
        "# install it from the index of the installed torch, at the release paired with that "
        "torch (dlenv plan gives the command)",
        {"extension_mismatch"},
        "`python -m pip list | grep torch` (their versions and +cuXYZ tags) and the whole error"};
    static const char *const packages[] = {"torchvision", "torchaudio", "torchtext"};
    static const char *const load[] = {"_dlopen(", "undefined symbol", "dll load failed",
                                       "winerror 127", "winerror 126", "cannot open shared object"};
    size_t k;
    long installed = -1, load_line, imported;
    char mark[40];
    if (dl_text_cause_read(e) || dl_paste_find(&e->paste, 0, "successfully installed") < 0 ||
        (load_line = dl_paste_find_any(&e->paste, load, sizeof load / sizeof load[0])) < 0 ||
        (imported = last_import_before(&e->paste, load_line)) < 0)
        return;
    for (k = 0; k < sizeof packages / sizeof packages[0] && installed < 0; k++) {
        long i;
        snprintf(mark, sizeof mark, "import %s", packages[k]);
        /* the import that fails is this package's: the last import before the failure */
        if (!strstr(e->paste.lines[imported].lower, mark))
            continue;
        snprintf(mark, sizeof mark, "%s-", packages[k]);
        for (i = dl_paste_find(&e->paste, 0, "successfully installed"); i >= 0 && installed < 0;
             i = dl_paste_find(&e->paste, (size_t)i + 1, "successfully installed"))
            if (strstr(e->paste.lines[i].lower, mark) && (size_t)i < (size_t)load_line)
                installed = i;
    }
    if (installed >= 0)
        dl_text_cause_add(e, &cause, installed, load_line);
}

/* "-lcuda" as a word at `at`, with a word of trouble within a few words around it
 * ("problem with -lcuda", "cannot find -lcuda"; not a link command beside another error). */
static bool lcuda_in_trouble(const char *low, const char *at, size_t len)
{
    static const char *const trouble[] = {"problem", "error", "issue", "fail", "cannot",
                                          "can't", "not found", "unable"};
    char near[96];
    size_t k, before = (size_t)(at - low) < 40 ? (size_t)(at - low) : 40;
    if (isalnum((unsigned char)at[len]) || at[len] == '_')
        return false;
    snprintf(near, sizeof near, "%.*s", (int)(before + len + 40), at - before);
    for (k = 0; k < sizeof trouble / sizeof trouble[0]; k++)
        if (strstr(near, trouble[k]))
            return true;
    return false;
}

/* The first line naming "-lcuda" in trouble; -1 when none. */
static long lcuda_trouble_line(const dl_paste *p)
{
    return dl_paste_find_where(p, 0, "-lcuda", lcuda_in_trouble);
}

void dl_explain_lcuda_flag_named(dl_explanation *e)
{
    static const dl_text_cause unsure = {
        "libcuda_not_found",
        "Linking -lcuda fails (the text names the flag, not the linker's message): the linker "
        "finds no libcuda.so, which WSL2 keeps only in /usr/lib/wsl/lib and many driver "
        "installs leave without its unversioned name",
        "# find the driver's libcuda (`ldconfig -p | grep libcuda.so`; on WSL2 /usr/lib/wsl/lib) "
        "and put its folder on the link path (LIBRARY_PATH or -L)",
        {"libcuda_not_found", "wsl_libcuda_path"},
        "the linker's whole message and `uname -r` (a -microsoft-standard kernel is WSL2), "
        "with `ldconfig -p | grep libcuda.so`"};
    static const dl_text_cause wsl = {
        "wsl_libcuda_path",
        "WSL2: linking -lcuda fails: WSL keeps the driver's libcuda only in /usr/lib/wsl/lib, "
        "which the link path lacks",
        "# add /usr/lib/wsl/lib to the link path (LIBRARY_PATH=/usr/lib/wsl/lib or "
        "-L/usr/lib/wsl/lib); never install a Linux driver in WSL",
        {"libcuda_not_found"},
        "`ls -l /usr/lib/wsl/lib/libcuda*` and the linker's whole message"};
    static const char *const wsl_marks[] = {"wsl", "microsoft-standard"};
    long line;
    dl_finding *x;
    if (dl_text_cause_read(e) || (line = lcuda_trouble_line(&e->paste)) < 0)
        return;
    if (dl_paste_find_any(&e->paste, wsl_marks, sizeof wsl_marks / sizeof wsl_marks[0]) >= 0) {
        dl_text_cause_add(e, &wsl, line, -1);
        return;
    }
    /* a candidate, not a root: the text cannot tell the two apart */
    x = dl_text_cause_add(e, &unsure, line, -1);
    dl_text_set(&x->severity, dl_severity_name(DL_SEV_WARNING));
}

void dl_explain_torchvision_c_fails_to_load(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "torchvision_mismatch",
        "torchvision's compiled ops (_C) fail to load while torch itself imported: that "
        "torchvision was built for another torch or another CUDA variant",
        "# uninstall torchvision and install the release paired with the installed torch "
        "from torch's own index (dlenv plan gives the command)",
        {NULL},
        "`python -m pip list | grep torch` (torch's and torchvision's versions and +cuXYZ "
        "tags)"};
    static const char *const load[] = {"dll load failed", "winerror 126", "winerror 127",
                                       "procedure could not be found",
                                       "cannot open shared object file"};
    dl_finding *dll;
    const char *read = "win_dll_dependency_missing";
    long c_import = dl_paste_find(&e->paste, 0, "from torchvision import _c"), failed;
    /* the loader's failure read as a DLL of torch's own, or (Linux) as torch's import */
    if (!dl_findings_failures_all(&e->findings, read, &dll) &&
        !dl_findings_failures_all(&e->findings, read = "torch_import_failed", &dll))
        return; /* another cause was read */
    /* the DLL that fails is torchvision's _C: the failure comes right after that import, with
     * no other import between them */
    if (c_import < 0 ||
        (failed = dl_paste_find_any(&e->paste, load, sizeof load / sizeof load[0])) < c_import ||
        last_import_before(&e->paste, failed) != c_import)
        return;
    if (dll) {
        dl_text_set(&dll->severity, dl_severity_name(DL_SEV_WARNING));
        dl_strv_add(&e->alternatives, dl_strdup(read));
    }
    dl_text_cause_add(e, &cause, c_import, failed);
}

void dl_explain_torchvision_image_warning_beside_error(dl_explanation *e)
{
    static const char *const pair[] = {"torchvision::", "torchvision/_c", "torchvision\\_c",
                                       "from torchvision import _c", "different cuda",
                                       "no attribute 'extension'", "requires torch=="};
    /* what the warning's own line is read as: torchvision's image library, or the DLL
     * the warning says it could not find */
    static const char *const ids[] = {"torchvision_mismatch", "win_dll_dependency_missing"};
    const size_t n_ids = sizeof ids / sizeof ids[0];
    size_t i, k;
    if ((!dl_findings_has_failure(&e->findings, ids[0]) &&
         !dl_findings_has_failure(&e->findings, ids[1])) ||
        dl_paste_find(&e->paste, 0, "failed to load image python extension") < 0 ||
        dl_paste_find_any(&e->paste, pair, sizeof pair / sizeof pair[0]) >= 0)
        return;
    for (i = 0; i < e->findings.items.count; i++) {
        const dl_finding *x = &DL_LIST_AT(e->findings.items, dl_finding, i);
        bool own = false;
        for (k = 0; k < n_ids; k++)
            own = own || strcmp(x->id.value, ids[k]) == 0;
        if (dl_q_failure(x) && !own) {
            dl_text_causes_step_back(e, ids, n_ids);
            return;
        }
    }
}

/* "0.16.0+cu121" -> major 0, minor 16; false when it is no version. */
static bool major_minor(const char *v, unsigned *major, unsigned *minor)
{
    return v && sscanf(v, "%u.%u", major, minor) == 2;
}

/* The torchvision release torch_releases.csv pairs with torch `torch` ("2.3.0+cu121": the
 * row of 2.3.0), or NULL. */
static const char *paired_torchvision(const dl_knowledge *k, const char *torch)
{
    long r = dl_kq_torch_release(k, torch);
    return r < 0 ? NULL
                 : dl_table_cell(dl_knowledge_at(k, DL_TABLE_torch_releases), (size_t)r,
                                 DL_COL_torch_releases_torchvision);
}

/* The line that names torchvision at `version`; -1 when none. */
static long torchvision_line(const dl_paste *p, const char *version)
{
    char low[48];
    size_t i;
    long at;
    for (i = 0; version[i] && i + 1 < sizeof low; i++)
        low[i] = (char)tolower((unsigned char)version[i]);
    low[i] = '\0';
    for (at = dl_paste_find(p, 0, "torchvision"); at >= 0;
         at = dl_paste_find(p, (size_t)at + 1, "torchvision"))
        if (strstr(p->lines[at].lower, low))
            return at;
    return -1;
}

void dl_explain_torchvision_pair_from_table(const dl_knowledge *k, dl_explanation *e)
{
    const dl_python *py = dl_q_main_python(&e->facts);
    const dl_py_package *torch = dl_q_package(py, "torch"), *tv = dl_q_package(py, "torchvision");
    const char *paired;
    unsigned a, b, c, d;
    long line;
    dl_finding *x;
    if (dl_text_cause_read(e) || !torch || !tv || !torch->version.value ||
        !tv->version.value || !dl_text_shows_error(&e->paste) ||
        !(paired = paired_torchvision(k, torch->version.value)) ||
        !major_minor(paired, &a, &b) || !major_minor(tv->version.value, &c, &d) ||
        (a == c && b == d) || (line = torchvision_line(&e->paste, tv->version.value)) < 0)
        return;
    x = dl_finding_add(&e->findings, "torchvision_mismatch", DL_SEV_FAILURE,
                       "torchvision %s is not the release built for torch %s (that is "
                       "torchvision %s), and the text shows an error",
                       tv->version.value, torch->version.value, paired);
    dl_quote_line(x, &e->paste, (size_t)line);
    if ((line = dl_paste_find(&e->paste, 0, "error")) >= 0)
        dl_quote_line(x, &e->paste, (size_t)line);
    dl_finding_fix(x, "# torchvision %s from the index torch came from (the same CUDA tag), in "
                      "one command with torch %.*s (dlenv plan gives it)",
                   paired, (int)strcspn(torch->version.value, "+"), torch->version.value);
    dl_strv_add(&e->alternatives, dl_strdup("extension_mismatch"));
    dl_strv_add(&e->ask, dl_strdup("the whole error, and `python -m pip list | grep torch`"));
}

/* The torch release a prebuilt wheel's name says it was built for, as Dao-AILab's builds
 * name it ("flash_attn-2.3.2+cu118torch2.2cxx11abiFALSE-cp310-cp310-linux_x86_64.whl", and
 * likewise mamba_ssm, causal_conv1d): "2.2" copied into buf; the line, or -1. */
static long wheel_torch_line(const dl_paste *p, char *buf, size_t n)
{
    long i;
    for (i = dl_paste_find(p, 0, "cxx11abi"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "cxx11abi")) {
        const char *at;
        for (at = strstr(p->lines[i].lower, "+cu"); at; at = strstr(at + 1, "+cu")) {
            const char *t = at + 3;
            size_t len = 0;
            while (isdigit((unsigned char)*t))
                t++;
            if (t == at + 3 || strncmp(t, "torch", 5) != 0)
                continue;
            t += 5;
            while (isdigit((unsigned char)t[len]) || t[len] == '.')
                len++;
            if (!len || len >= n || strncmp(t + len, "cxx11abi", 8) != 0)
                continue;
            memcpy(buf, t, len);
            buf[len] = '\0';
            return i;
        }
    }
    return -1;
}

/* A line at or after `from` that says an import fails ("when I import flash_attn_2_cuda,
 * another error occurred", "ImportError: ..."); -1 when none. */
static long import_fails_line(const dl_paste *p, long from)
{
    static const char *const fails[] = {"error", "fail", "occur", "exception",
                                        "\xe6\x8a\xa5\xe9\x94\x99" /* 报错 */};
    long i;
    for (i = dl_paste_find(p, (size_t)from, "import"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "import")) {
        const char *low = p->lines[i].lower;
        if (strstr(low, "no error") || strstr(low, "without error") ||
            strstr(low, "without any error"))
            continue; /* "the import works with no error" */
        if (dl_line_has_any(low, fails, sizeof fails / sizeof fails[0]))
            return i;
    }
    return -1;
}

/* "2.2" against "2.1.0+cu121": whether the release's major.minor differ; false when either
 * is no version. */
static bool other_minor(const char *wheel, const char *torch)
{
    unsigned a, b, c, d;
    return major_minor(wheel, &a, &b) && major_minor(torch, &c, &d) && (a != c || b != d);
}

void dl_explain_wheel_for_other_torch(dl_explanation *e)
{
    const char *torch = dl_q_first_torch_version(&e->facts);
    char wheel[16];
    long line, failed;
    dl_finding *x;
    if (dl_text_cause_read(e) || (line = wheel_torch_line(&e->paste, wheel, sizeof wheel)) < 0 ||
        (failed = import_fails_line(&e->paste, line)) < 0 ||
        dl_paste_find(&e->paste, 0, "no module named") >= 0 ||
        (torch && !other_minor(wheel, torch)))
        return;
    x = dl_finding_add(&e->findings, "extension_mismatch", DL_SEV_FAILURE,
                       torch ? "the wheel installed by hand is built for torch %s, the text's "
                               "torch is %s: its compiled module fails to import"
                             : "the wheel installed by hand is built for torch %s (and one C++ "
                               "ABI and CUDA), and its compiled module fails to import%s",
                       wheel, torch ? torch : "");
    dl_quote_line(x, &e->paste, (size_t)line);
    if (failed != line)
        dl_quote_line(x, &e->paste, (size_t)failed);
    dl_finding_fix(x, "# the wheel whose name carries the installed torch's release, CUDA and "
                      "C++ ABI (torch.__version__, torch.version.cuda, "
                      "torch._C._GLIBCXX_USE_CXX11_ABI), or build it against that torch");
    dl_strv_add(&e->ask, dl_strdup("`python -c \"import torch; print(torch.__version__, "
                                   "torch.version.cuda, torch._C._GLIBCXX_USE_CXX11_ABI)\"` and "
                                   "the import's whole error"));
}

/* The release after `name` at `at` ("torchvision 0.4.2 has", "torchvision-0.4.0-cp36",
 * "torchvision==0.4.0"), copied into buf; false when no version follows. */
static bool release_after(const char *at, size_t name_len, char *buf, size_t n)
{
    const char *v = at + name_len;
    size_t len = 0;
    if (*v != ' ' && *v != '-' && strncmp(v, "==", 2) != 0)
        return false;
    v += *v == '=' ? 2 : 1;
    while (isdigit((unsigned char)v[len]) || v[len] == '.')
        len++;
    while (len && v[len - 1] == '.')
        len--;
    if (!len || len >= n || !isdigit((unsigned char)v[0]))
        return false;
    memcpy(buf, v, len);
    buf[len] = '\0';
    return true;
}

/* Whether the text installs `name` at another release than `version` anywhere (a wheel
 * "torchvision-0.4.0-cp36...", a pin "torchvision==0.4.0"): the pair is being set right. */
static bool other_release_installed(const dl_paste *p, const char *name, const char *version)
{
    size_t len = strlen(name);
    long i;
    for (i = dl_paste_find(p, 0, name); i >= 0; i = dl_paste_find(p, (size_t)i + 1, name)) {
        const char *at;
        for (at = strstr(p->lines[i].lower, name); at; at = strstr(at + 1, name)) {
            char other[32];
            if ((at[len] == '-' || at[len] == '=') &&
                release_after(at, len, other, sizeof other) && strcmp(other, version) != 0)
                return true;
        }
    }
    return false;
}

void dl_explain_domain_requirement_warning(dl_explanation *e)
{
    static const char *const names[] = {"torchvision", "torchaudio", "torchtext"};
    size_t k;
    if (e->findings.items.count)
        return;
    for (k = 0; k < sizeof names / sizeof names[0]; k++) {
        long i;
        for (i = dl_paste_find(&e->paste, 0, "has requirement torch"); i >= 0;
             i = dl_paste_find(&e->paste, (size_t)i + 1, "has requirement torch")) {
            const char *at = strstr(e->paste.lines[i].lower, names[k]);
            char version[32];
            dl_finding *x;
            if (!at || !release_after(at, strlen(names[k]), version, sizeof version) ||
                other_release_installed(&e->paste, names[k], version))
                continue;
            x = dl_finding_add(&e->findings, "torchvision_mismatch", DL_SEV_FAILURE,
                               "pip says %s %s was built for another torch than the one it "
                               "installs",
                               names[k], version);
            dl_quote_line(x, &e->paste, (size_t)i);
            dl_finding_fix(x, "# install torch and %s together, at a pair from one index "
                              "(the release table in the package's README; dlenv plan gives "
                              "torch's)",
                           names[k]);
            dl_strv_add(&e->ask, dl_strdup("`python -m pip list | grep torch` after the install "
                                           "(a later command may have set the pair right)"));
            return;
        }
    }
}
