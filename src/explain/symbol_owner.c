#include "explain/symbol_owner.h"

#include "base/str.h"
#include "explain/quote.h"
#include "explain/text_cause.h"

#include <stdio.h>
#include <ctype.h>
#include <string.h>

/* The path a dyld line gives after `label` ("referenced from:"), past the image's UUID
 * ("<26B157A6-...> /Users/..."), in the lower-case copy; NULL when the line has none. */
static const char *dyld_path(const char *low, const char *label)
{
    const char *at = strstr(low, label);
    if (!at)
        return NULL;
    at += strlen(label);
    while (*at == ' ' || *at == '\t')
        at++;
    if (*at == '<' && (at = strchr(at, '>')) != NULL)
        for (at++; *at == ' ' || *at == '\t'; at++)
            ;
    return at && *at ? at : NULL;
}

/* The line at or after `from` (up to three on) that holds `label`; -1 when none. */
static long line_with(const dl_paste *p, size_t from, const char *label)
{
    size_t j;
    for (j = from; j < p->count && j <= from + 3; j++)
        if (strstr(p->lines[j].lower, label))
            return (long)j;
    return -1;
}

/* torch's own files: its package folder or its libraries by name */
static bool torch_own(const char *path)
{
    /* "libtorch_cpu.dylib", "libtorch.so": not libtorchtext or libtorchaudio */
    return strstr(path, "/torch/") || strstr(path, "libtorch_") || strstr(path, "libtorch.") ||
           strstr(path, "libc10");
}

/* The package folder a library path sits in ("site-packages/torchrl/_torchrl.so" ->
 * torchrl) into buf; false when the path is not under site-packages. */
static bool package_of(const char *path, char *buf, size_t n)
{
    const char *at = strstr(path, "-packages/");
    size_t len = 0;
    if (!at)
        return false;
    at += strlen("-packages/");
    while (at[len] && at[len] != '/' && at[len] != ' ' && len + 1 < n)
        len++;
    memcpy(buf, at, len);
    buf[len] = '\0';
    return len > 0;
}

/* torch's own library misses a symbol of torch's own: its files come from two installs */
static void torch_own_mismatch(dl_explanation *e, long miss, long from, long in)
{
    dl_finding *x;
    if (dl_findings_has(&e->findings, "torch_import_failed"))
        return;
    x = dl_finding_add(&e->findings, "torch_import_failed", DL_SEV_FAILURE,
                       "import torch fails: one of torch's libraries needs a symbol another "
                       "one lacks (its files come from two installs)");
    dl_quote_line(x, &e->paste, (size_t)miss);
    dl_quote_line(x, &e->paste, (size_t)from);
    dl_quote_line(x, &e->paste, (size_t)in);
    dl_finding_fix(x, "# uninstall torch (until pip finds none), then install it again in this "
                      "interpreter");
}

/* The package's library misses the symbol: built for another torch. False when a finding
 * of that id is there already. */
static bool package_mismatch(dl_explanation *e, const char *pkg, const char *what, long miss,
                             long from, long in)
{
    static const char *const companions[] = {"torchvision", "torchaudio", "torchtext"};
    const char *id = "extension_mismatch";
    size_t k;
    dl_finding *x;
    for (k = 0; k < sizeof companions / sizeof companions[0]; k++)
        if (!strcmp(pkg, companions[k]))
            id = "torchvision_mismatch";
    if (dl_findings_has(&e->findings, id))
        return false;
    x = dl_finding_add(&e->findings, id, DL_SEV_FAILURE, "%s's compiled library %s: it was built "
                       "for another torch (or CUDA) than the one here", pkg, what);
    dl_quote_line(x, &e->paste, (size_t)miss);
    if (from >= 0)
        dl_quote_line(x, &e->paste, (size_t)from);
    if (in >= 0)
        dl_quote_line(x, &e->paste, (size_t)in);
    dl_finding_fix(x, "# the %s build made for the installed torch (or the torch it was built "
                      "for): `python -m pip list` shows both", pkg);
    return true;
}

/* The mangled name after "symbol not found: " is in torch's namespaces (at::, c10::,
 * torch::, with or without a const method's K). */
static bool torch_symbol_after(const char *low)
{
    static const char *const spaces[] = {"__zn2at", "__zn3c10", "__zn5torch", "__znk2at",
                                         "__znk3c10", "__znk5torch"};
    const char *at = strstr(low, "symbol not found: ");
    size_t k;
    if (!at)
        return false;
    at += strlen("symbol not found: ");
    for (k = 0; k < sizeof spaces / sizeof spaces[0]; k++)
        if (!strncmp(at, spaces[k], strlen(spaces[k])))
            return true;
    return false;
}

void dl_explain_dyld_torch_symbol(dl_explanation *e)
{
    const dl_paste *p = &e->paste;
    long i;
    for (i = dl_paste_find(p, 0, "symbol not found: __z"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "symbol not found: __z")) {
        long from = line_with(p, (size_t)i, "referenced from:");
        long in = from < 0 ? -1 : line_with(p, (size_t)from, "expected in:");
        const char *user = from < 0 ? NULL : dyld_path(p->lines[from].lower, "referenced from:");
        const char *lib = in < 0 ? NULL : dyld_path(p->lines[in].lower, "expected in:");
        char pkg[64];
        /* a paste cut after the symbol: dlopen's own path (the library being loaded) and a
         * symbol in torch's namespaces (at::, c10::, torch::) say the same */
        if (!user && torch_symbol_after(p->lines[i].lower) &&
            (user = dyld_path(p->lines[i].lower, "dlopen(")) != NULL && !torch_own(user) &&
            package_of(user, pkg, sizeof pkg)) {
            package_mismatch(e, pkg, "needs a symbol torch's libraries do not have", i, -1, -1);
            return;
        }
        if (!user || !lib || !torch_own(lib))
            continue;
        if (torch_own(user))
            torch_own_mismatch(e, i, from, in);
        else if (package_of(user, pkg, sizeof pkg))
            package_mismatch(e, pkg, "needs a symbol torch's libraries do not have", i, from,
                             in);
        else
            continue;
        return;
    }
}

/* A Python extension module's folder outside site-packages (a source checkout built in
 * place: "/home/me/detectron2/detectron2/_C.cpython-36m-x86_64-linux-gnu.so" ->
 * detectron2; a relative "torch_scatter/_version_cuda.so") into buf: the library just
 * before sym is an extension module (".cpython-" in its name, or a name starting with
 * '_'), and its folder's name is a Python identifier. False otherwise. */
static bool checkout_package_of(const char *low, const char *sym, char *buf, size_t n)
{
    const char *file, *dir;
    size_t len;
    for (file = sym; file > low && file[-1] != '/' && file[-1] != ' '; file--)
        ;
    if (file == low || file[-1] != '/' || file + 3 > sym || strncmp(sym - 3, ".so", 3) ||
        (*file != '_' && !strstr(file, ".cpython-")))
        return false;
    for (dir = file - 1; dir > low && dir[-1] != '/' && dir[-1] != ' ' && dir[-1] != '\'';
         dir--)
        ;
    len = (size_t)(file - 1 - dir);
    if (len == 0 || len + 1 > n || strspn(dir, "abcdefghijklmnopqrstuvwxyz0123456789_") != len ||
        isdigit((unsigned char)*dir))
        return false;
    memcpy(buf, dir, len);
    buf[len] = '\0';
    return true;
}

/* The package folder of the library a glibc message names before ": undefined symbol"
 * ("/env/lib/python3.6/site-packages/spconv/libspconv.so: undefined symbol:", or an
 * extension module of a source checkout, checkout_package_of): false when the path is
 * neither or is not a shared library. */
static bool glibc_owner(const char *low, char *pkg, size_t n)
{
    const char *sym = strstr(low, ": undefined symbol"), *pk, *so;
    for (pk = strstr(low, "-packages/"); pk && pk < sym; pk = strstr(pk + 1, "-packages/")) {
        so = strstr(pk, ".so");
        if (so && so < sym && package_of(pk - 1, pkg, n))
            return true;
    }
    return !strstr(low, "-packages/") && checkout_package_of(low, sym, pkg, n);
}

/* The name a glibc line ("...so: undefined symbol: NAME") says is missing; the line must
 * hold ": undefined symbol". */
static const char *missing_symbol(const char *low)
{
    const char *sym = strstr(low, ": undefined symbol") + strlen(": undefined symbol");
    return sym + strspn(sym, ": ");
}

/* The symbol a glibc message names is the package's own C++ function: a function at global
 * scope ("_Z22nms_rotated_cpu_kernelRKN2at6TensorES2_f": at::Tensor is only its parameter)
 * or in a namespace that is not torch's. The package's own build left it out, which no
 * torch or CUDA would mend. A C symbol (the CUDA runtime's) or a name in torch's namespaces
 * (_ZN2at, _ZN3c10, _ZN5torch, _ZN6caffe2) is what another torch or CUDA lacks. */
static bool own_cxx_symbol(const char *low)
{
    static const char *const torch_spaces[] = {"2at", "3c10", "5torch", "6caffe2"};
    const char *sym = missing_symbol(low);
    size_t k;
    if (strncmp(sym, "_z", 2) != 0)
        return false;
    sym += 2;
    if (*sym != 'n')
        return true;
    sym += sym[1] == 'k' ? 2 : 1;
    for (k = 0; k < sizeof torch_spaces / sizeof torch_spaces[0]; k++)
        if (!strncmp(sym, torch_spaces[k], strlen(torch_spaces[k])))
            return false;
    return true;
}

/* An MPI symbol (Open MPI's ompi_ and opal_, the standard's MPI_ and PMPI_): the package
 * was linked against another MPI than the one loaded, which no torch build changes
 * (horovod_mpi_symbol's and mpi_extension_symbol's reading) */
static bool mpi_symbol(const char *low)
{
    return strstr(low, "undefined symbol: ompi_") || strstr(low, "undefined symbol: opal_") ||
           strstr(low, "undefined symbol: mpi_") || strstr(low, "undefined symbol: pmpi_");
}

/* The missing symbol is Python's own C API (PyFPE_jbuf, _Py_ZeroStruct, PyUnicode_*): the
 * library was built for another Python (or a stale build of it), which no torch or CUDA
 * mends. */
static bool python_c_symbol(const char *low)
{
    const char *sym = missing_symbol(low);
    return !strncmp(sym, "py", 2) || !strncmp(sym, "_py", 3);
}

/* The library's package is one built on torch: one under site-packages (what the text
 * shows of it is a Python package's folder), or a source checkout's module in a text that
 * names torch or a package built on it (detectron2, mmcv, a deformable convolution's op).
 * A build folder's name ("bindings/build/pyflex.so") is no package's. */
static bool owner_is_torch_extension(const dl_paste *p, const char *low, const char *pkg)
{
    static const char *const folders[] = {"build", "lib", "src", "bin", "dist", "tmp", "release"};
    static const char *const on_torch[] = {"torch",      "detectron2", "mmcv",   "mmdet",
                                           "maskrcnn",   "pytorch3d",  "apex",   "deform_conv",
                                           "dcn",        "spconv",     "pointnet2"};
    size_t k;
    if (strstr(low, "-packages/"))
        return true;
    for (k = 0; k < sizeof folders / sizeof folders[0]; k++)
        if (!strcmp(pkg, folders[k]))
            return false;
    return dl_paste_find_any(p, on_torch, sizeof on_torch / sizeof on_torch[0]) >= 0;
}

void dl_explain_package_library_symbol(dl_explanation *e)
{
    static const char *const not_packages[] = {"torch", "nvidia"};
    static const char *const import_fails[] = {"torch_import_failed"};
    const dl_paste *p = &e->paste;
    long i;
    if (dl_findings_has(&e->findings, "extension_mismatch") ||
        dl_findings_has(&e->findings, "torchvision_mismatch"))
        return;
    for (i = dl_paste_find(p, 0, ": undefined symbol"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, ": undefined symbol")) {
        char pkg[64];
        size_t k;
        bool other = true;
        if (!glibc_owner(p->lines[i].lower, pkg, sizeof pkg) || own_cxx_symbol(p->lines[i].lower) ||
            mpi_symbol(p->lines[i].lower) || python_c_symbol(p->lines[i].lower) ||
            !owner_is_torch_extension(p, p->lines[i].lower, pkg))
            continue;
        for (k = 0; k < sizeof not_packages / sizeof not_packages[0]; k++)
            other = other && strcmp(pkg, not_packages[k]) != 0;
        if (!other)
            continue;
        if (package_mismatch(e, pkg, "misses a symbol", i, -1, -1))
            dl_text_causes_step_back(e, import_fails, 1);
        return;
    }
}

void dl_explain_cuda_runtime_symbol_fix(dl_explanation *e)
{
    const dl_paste *p = &e->paste;
    dl_finding *x = dl_findings_get(&e->findings, "extension_mismatch");
    long i;
    size_t k;
    if (!x || !dl_q_failure(x))
        return;
    for (i = dl_paste_find(p, 0, ": undefined symbol: cuda"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, ": undefined symbol: cuda")) {
        const char *low = p->lines[i].lower, *sym = missing_symbol(low);
        char pkg[64];
        if (strncmp(sym, "cuda", 4) || !isalpha((unsigned char)sym[4]) ||
            !glibc_owner(low, pkg, sizeof pkg) || !strcmp(pkg, "torch") || !strcmp(pkg, "nvidia"))
            continue;
        dl_finding_fix(x, "# it misses a function of CUDA's runtime: it was compiled by an nvcc "
                          "of another CUDA than torch's; compare nvcc --version with python -c "
                          "\"import torch; print(torch.version.cuda)\", put the matching toolkit "
                          "first (CUDA_HOME and PATH), delete the package's build/ folder and "
                          "build it again");
        /* the step that names the cause goes first */
        for (k = x->fix.count - 1; k > 0; k--) {
            char *t = DL_LIST_AT(x->fix, char *, k);
            DL_LIST_AT(x->fix, char *, k) = DL_LIST_AT(x->fix, char *, k - 1);
            DL_LIST_AT(x->fix, char *, k - 1) = t;
        }
        return;
    }
}
