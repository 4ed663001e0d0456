/* The libraries layer on Windows: the Visual C++ runtime torch's DLLs link against, the
 * DLLs torch imports, the paging file that backs what they commit, and OpenMP runtimes
 * that clash. Fixes are written for PowerShell, the default Windows terminal. */
#include "base/str.h"
#include "facts/query.h"
#include "know/version.h"
#include "rules/fixes.h"
#include "rules/rules.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Microsoft: a program needs a runtime at least as new as the toolset that built it;
 * torch's Windows wheels are built with Visual Studio 2022, whose runtime is 14.30+. */
#define VC_RUNTIME_MIN "14.30"
#define VC_REDIST_FIX "winget install --id Microsoft.VCRedist.2015+.x64 -e --source winget"
#define VC_REDIST_NOTE "or download and run https://aka.ms/vs/17/release/vc_redist.x64.exe"
/* Torch's CUDA DLLs commit several GiB per process, and every DataLoader worker is one. */
#define PAGEFILE_MIN_BYTES (16LL << 30)

static bool version_below(const char *v, const char *min)
{
    dl_version a, b;
    return dl_version_parse(v, &a) && dl_version_parse(min, &b) && dl_version_cmp(&a, &b) < 0;
}

static bool starts_ci(const char *s, const char *prefix)
{
    for (; *prefix; s++, prefix++)
        if (!*s || tolower((unsigned char)*s) != tolower((unsigned char)*prefix))
            return false;
    return true;
}

void dl_rule_vc_redist_missing(const dl_rule_input *in, dl_findings *out)
{
    const dl_windows_facts *w = &in->facts->os.windows;
    const char *reg = w->vc_runtime_version.value, *dll = w->msvcp140.value;
    bool missing = !reg && (!dll || version_below(dll, VC_RUNTIME_MIN));
    bool old = reg && version_below(reg, VC_RUNTIME_MIN);
    dl_finding *x;
    if (!dl_q_is_windows(in->facts) || (!missing && !old) ||
        (!reg && !w->vc_runtime_version.why))
        return;
    x = missing ? dl_finding_add(out, "vc_redist_missing", DL_SEV_FAILURE,
                                 "The Microsoft Visual C++ runtime is not installed: torch's "
                                 "c10.dll cannot load")
                : dl_finding_add(out, "vc_redist_missing", DL_SEV_WARNING,
                                 "The Microsoft Visual C++ runtime %s is older than the %s "
                                 "torch's DLLs are built for", reg, VC_RUNTIME_MIN);
    dl_finding_evidence(x, "os.windows.vc_runtime_version", "%s",
                        reg ? reg : w->vc_runtime_version.why);
    dl_finding_evidence(x, "os.windows.msvcp140", "%s",
                        dll ? dll : w->msvcp140.why ? w->msvcp140.why : "unknown");
    dl_finding_fix(x, "%s", VC_REDIST_FIX);
    dl_fix_note(x, "%s", VC_REDIST_NOTE);
}

/* Where a missing DLL comes from decides the fix. */
static const char *source_of(const char *dll)
{
    if (starts_ci(dll, "msvcp140") || starts_ci(dll, "vcruntime140") ||
        starts_ci(dll, "concrt140") || starts_ci(dll, "vcomp140"))
        return "vc";
    if (starts_ci(dll, "nvcuda") || starts_ci(dll, "nvml"))
        return "driver";
    return "torch";
}

void dl_rule_win_dll_dependency_missing(const dl_rule_input *in, dl_findings *out)
{
    const dl_python *py = dl_q_main_python(in->facts);
    const dl_torch_install *t = py ? dl_q_static_torch(py) : NULL;
    bool vc = false, driver = false, torch = false;
    dl_finding *x;
    size_t i;
    if (!dl_q_is_windows(in->facts) || !t || !t->missing_dlls.known || !t->missing_dlls.count)
        return;
    x = dl_finding_add(out, "win_dll_dependency_missing", DL_SEV_FAILURE,
                       "%s, which torch's DLLs import, is not found: import torch fails with "
                       "WinError 126",
                       dl_text_or(&DL_LIST_AT(t->missing_dlls, dl_missing_dll, 0).name,
                                  "A DLL the report does not name"));
    for (i = 0; i < t->missing_dlls.count; i++) {
        const dl_missing_dll *d = &DL_LIST_AT(t->missing_dlls, dl_missing_dll, i);
        const char *name = dl_text_or(&d->name, "a DLL of unknown name");
        const char *src = source_of(name);
        if (i < 8)
            dl_finding_evidence(x, "pythons[0].site_packages[].torches[].missing_dlls",
                                "%s, needed by %s", name,
                                dl_text_or(&d->needed_by, "a DLL the report does not name"));
        vc |= !strcmp(src, "vc");
        driver |= !strcmp(src, "driver");
        torch |= !strcmp(src, "torch");
    }
    if (t->dll_search.count)
        dl_finding_evidence(x, "pythons[0].site_packages[].torches[].dll_search",
                            "searched %s first, then %zu more folders",
                            DL_LIST_AT(t->dll_search, char *, 0), t->dll_search.count - 1);
    if (vc) {
        dl_finding_fix(x, "%s", VC_REDIST_FIX);
        dl_fix_note(x, "%s", VC_REDIST_NOTE);
    }
    if (driver)
        dl_fix_note(x, "install NVIDIA's driver (https://www.nvidia.com/Download/index.aspx): it "
                       "puts nvcuda.dll in System32");
    if (torch) {
        dl_fix_note(x, "the torch install is incomplete: install it again");
        dl_fix_reinstall_torch(x, in, py, false);
    }
}

static bool has_cuda_torch(const dl_facts *f)
{
    const dl_python *py = dl_q_main_python(f);
    const dl_torch_install *t = py ? dl_q_static_torch(py) : NULL;
    return (t && t->local_tag.value && dl_starts_with(t->local_tag.value, "cu")) ||
           dl_q_has_nvidia_gpu(f);
}

void dl_rule_pagefile_too_small(const dl_rule_input *in, dl_findings *out)
{
    const dl_windows_facts *w = &in->facts->os.windows;
    bool none = w->pagefile.value && dl_starts_with(w->pagefile.value, "none");
    bool small = w->pagefile_max_bytes.known && w->pagefile_max_bytes.value < PAGEFILE_MIN_BYTES;
    dl_finding *x;
    if (!dl_q_is_windows(in->facts) || !has_cuda_torch(in->facts) || (!none && !small))
        return;
    x = dl_finding_add(out, "pagefile_too_small", DL_SEV_WARNING,
                       none ? "Windows has no paging file: loading torch's CUDA DLLs can fail "
                              "with WinError 1455"
                            : "The paging file may grow to %lld MiB only: torch's CUDA DLLs "
                              "and each DataLoader worker can exhaust it (WinError 1455)",
                       w->pagefile_max_bytes.value >> 20);
    dl_finding_evidence(x, "os.windows.pagefile", "%s",
                        dl_text_or(&w->pagefile, "unknown"));
    if (in->facts->memory.total_bytes.known)
        dl_finding_evidence(x, "memory.total_bytes", "%lld MiB of RAM",
                            in->facts->memory.total_bytes.value >> 20);
    dl_finding_fix(x, "# System Properties > Advanced > Performance Settings > Advanced > "
                      "Virtual memory: \"Automatically manage paging file size\" (or at least "
                      "16 GB), then restart; fewer DataLoader workers (num_workers) also help");
}

void dl_rule_omp_duplicate_runtime(const dl_rule_input *in, dl_findings *out)
{
    const dl_python *py = dl_q_main_python(in->facts);
    const dl_torch_install *t = py ? dl_q_static_torch(py) : NULL;
    dl_finding *x;
    size_t i;
    if (!t || !t->openmp_runtimes.known || t->openmp_runtimes.count < 2)
        return;
    x = dl_finding_add(out, "omp_duplicate_runtime", DL_SEV_WARNING,
                       "%zu copies of libiomp5md.dll can load into one process (OpenMP error "
                       "#15)", t->openmp_runtimes.count);
    for (i = 0; i < t->openmp_runtimes.count; i++)
        dl_finding_evidence(x, "pythons[0].site_packages[].torches[].openmp_runtimes", "%s",
                            DL_LIST_AT(t->openmp_runtimes, char *, i));
    dl_finding_fix(x, "# keep one: a conda env with pip's torch mixes conda's MKL/OpenMP with "
                      "torch's own; use a fresh venv with pip only, or conda packages only");
    dl_finding_fix(x, "# $env:KMP_DUPLICATE_LIB_OK=\"TRUE\" only hides the clash and can give "
                      "wrong results");
}
