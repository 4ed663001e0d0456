/* The torch build: is it a CUDA build, and do its companions match it. */
#include "base/str.h"
#include "facts/query.h"
#include "know/version.h"
#include "rules/ext_runtime.h"
#include "rules/fixes.h"
#include "rules/rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A GPU CUDA could use, with a driver that answers. */
static bool usable_nvidia(const dl_facts *f)
{
    return dl_q_has_nvidia_gpu(f) &&
           (f->nvidia_kernel.driver_version.value || f->nvml.driver_version.value);
}

static bool cpu_build(const dl_python *py, const char **how)
{
    const dl_torch_install *t = dl_q_static_torch(py);
    if (dl_q_torch_imported(py) && dl_q_text_is(&py->runtime.cuda, "none") &&
        dl_q_text_is(&py->runtime.hip, "none")) {
        *how = "torch.version.cuda is None";
        return true;
    }
    if (!dl_q_torch_imported(py) && t && dl_q_text_is(&t->cuda, "none") &&
        dl_q_text_is(&t->hip, "none")) {
        *how = "torch/version.py says cuda = None";
        return true;
    }
    return false;
}

/* An AMD GPU among the named ones: a report's GPU names land in nvml.gpus whatever their
 * vendor (the doctor's NVML lists only NVIDIA's, and PCI says the rest). */
static bool amd_gpu_named(const dl_facts *f)
{
    static const char *const amd[] = {"AMD", "Radeon", "Instinct"};
    size_t i, k;
    for (i = 0; f->nvml.gpus.known && i < f->nvml.gpus.count; i++) {
        const char *name = DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, i).name.value;
        for (k = 0; name && k < sizeof amd / sizeof amd[0]; k++)
            if (strstr(name, amd[k]))
                return true;
    }
    return false;
}

/* A ROCm build (AMD's: a HIP version, no CUDA) where the PCI bus shows no AMD GPU for it:
 * for the NVIDIA GPU it is as good as a CPU build (webui.sh picks it where lspci lists a
 * Ryzen's integrated graphics, a ROCm index URL copied from a guide). */
static bool rocm_build_without_amd(const dl_facts *f, const dl_python *py, const char **how)
{
    const dl_torch_install *t = dl_q_static_torch(py);
    const dl_text *cuda = dl_q_torch_imported(py) ? &py->runtime.cuda : t ? &t->cuda : NULL;
    const dl_text *hip = dl_q_torch_imported(py) ? &py->runtime.hip : t ? &t->hip : NULL;
    if (!cuda || !dl_q_text_is(cuda, "none") || !hip->value || dl_q_text_is(hip, "none") ||
        dl_q_pci_gpus(f, DL_PCI_AMD) > 0 || amd_gpu_named(f))
        return false;
    *how = "torch.version.hip is set and torch.version.cuda is None: a ROCm build";
    return true;
}

void dl_rule_cpu_only_build(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    const dl_python *py = dl_q_main_python(f);
    const char *how = NULL;
    dl_finding *x;
    const char *version;
    bool rocm = false;
    if (!py || !usable_nvidia(f) ||
        (!cpu_build(py, &how) && !(rocm = rocm_build_without_amd(f, py, &how))))
        return;
    version = py->runtime.version.value ? py->runtime.version.value
              : dl_q_static_torch(py)   ? dl_text_or(&dl_q_static_torch(py)->version, "")
                                        : "";
    x = rocm ? dl_finding_add(out, "cpu_only_build", DL_SEV_FAILURE,
                              "torch %s is a ROCm build (for AMD GPUs, without CUDA) on a "
                              "machine with an NVIDIA GPU", version)
             : dl_finding_add(out, "cpu_only_build", DL_SEV_FAILURE,
                              "torch %s is a CPU-only build on a machine with an NVIDIA GPU",
                              version);
    dl_finding_evidence(x, "pythons[0].torch", "%s", how);
    dl_fix_install_torch(x, in, py, "gpu");
}

void dl_rule_conda_cpu_build_selected(const dl_rule_input *in, dl_findings *out)
{
    const dl_python *py = dl_q_main_python(in->facts);
    const dl_py_package *cpuonly = dl_q_package(py, "cpuonly");
    const dl_py_package *mutex = dl_q_package(py, "pytorch-mutex");
    bool mutex_cpu = mutex && mutex->version.value && strstr(mutex->version.value, "cpu");
    dl_finding *x;
    if (!cpuonly && !mutex_cpu)
        return;
    x = dl_finding_add(out, "conda_cpu_build_selected",
                       usable_nvidia(in->facts) ? DL_SEV_FAILURE : DL_SEV_INFO,
                       "conda installed the CPU variant of pytorch in this environment");
    if (cpuonly)
        dl_finding_evidence(x, "conda-meta", "cpuonly %s", dl_text_or(&cpuonly->version, "?"));
    if (mutex_cpu)
        dl_finding_evidence(x, "conda-meta", "pytorch-mutex %s", mutex->version.value);
    dl_finding_fix(x, "conda remove -y cpuonly pytorch-mutex");
    dl_fix_note(x, "then the CUDA build with pip, inside the environment (PyTorch no longer "
                   "publishes conda packages):");
    dl_fix_install_torch(x, in, py, usable_nvidia(in->facts) ? "gpu" : NULL);
}

/* "torch (==2.3.1)", "torch==2.3.1", "torch (==2.3.1) ; extra" -> "2.3.1". Caller frees. */
static char *pinned_version(const char *req)
{
    const char *eq = req ? strstr(req, "==") : NULL;
    size_t n;
    if (!eq)
        return NULL;
    eq += 2;
    n = strspn(eq, "0123456789.+abcdefghijklmnopqrstuvwxyz");
    return n ? dl_strndup(eq, n) : NULL;
}

/* A minimum the companion asks for ("torch>=2.11", "torch (>=2.11)") that the installed
 * torch is below; false without one or when either does not read. */
static bool below_minimum(const char *req, const char *torch)
{
    const char *ge = req ? strstr(req, ">=") : NULL;
    char min[32];
    dl_torch_version have;
    dl_requirement r;
    if (!ge || !torch || !dl_torch_version_parse(torch, &have))
        return false;
    snprintf(min, sizeof min, ">=%.*s", (int)strspn(ge + 2, "0123456789."), ge + 2);
    return dl_requirement_parse(min, &r) && !dl_requirement_test(&r, &have.release);
}

/* "2.3.1+cu121" and "2.3.1" name the same release. */
static bool same_release(const char *a, const char *b)
{
    size_t la = strcspn(a, "+"), lb = strcspn(b, "+");
    return la == lb && strncmp(a, b, la) == 0;
}

static const char *local_tag(const char *v)
{
    const char *plus = v ? strchr(v, '+') : NULL;
    return plus ? plus + 1 : "";
}

/* One companion (torchvision, torchaudio) against torch: its exact torch pin and its
 * variant tag. */
static void check_companion(const dl_rule_input *in, dl_findings *out, const char *name)
{
    const dl_python *py = dl_q_main_python(in->facts);
    const dl_py_package *torch = dl_q_package(py, "torch"), *tv = dl_q_package(py, name);
    char *pin;
    bool release_differs, tag_differs;
    dl_finding *x;
    if (!torch || !tv || !torch->version.value || !tv->version.value)
        return;
    pin = pinned_version(tv->requires_torch.value);
    release_differs = (pin && !same_release(pin, torch->version.value)) ||
                      below_minimum(tv->requires_torch.value, torch->version.value);
    tag_differs = *local_tag(tv->version.value) && *local_tag(torch->version.value) &&
                  strcmp(local_tag(tv->version.value), local_tag(torch->version.value)) != 0;
    /* PyPI's Linux torchvision is a CUDA build: beside a +cpu torch the variants differ. */
    tag_differs |= !strcmp(local_tag(torch->version.value), "cpu") &&
                   !*local_tag(tv->version.value) && in->facts->os.family.value &&
                   !strcmp(in->facts->os.family.value, "linux");
    if (release_differs || tag_differs) {
        x = dl_finding_add(out, "torchvision_mismatch", DL_SEV_FAILURE,
                           "%s %s does not match torch %s", name, tv->version.value,
                           torch->version.value);
        if (release_differs)
            dl_finding_evidence(x, !strcmp(name, "torchvision") ? "torchvision.requires"
                                                                : "torchaudio.requires",
                                "%s", tv->requires_torch.value);
        if (tag_differs)
            dl_finding_evidence(x, "local tags", "torch +%s, %s +%s",
                                local_tag(torch->version.value), name,
                                *local_tag(tv->version.value) ? local_tag(tv->version.value)
                                                              : "(none: PyPI's CUDA build)");
        if (!dl_fix_match_companion(x, in, py, name))
            dl_fix_install_torch(x, in, py, NULL);
    }
    free(pin);
}

/* Its import after torch failed the way a build for another torch does ("operator
 * torchvision::nms does not exist", an undefined C++ symbol): the runtime's word, where the
 * versions said nothing, or as more evidence where they did. */
static void check_companion_import(const dl_rule_input *in, dl_findings *out, const char *name,
                                   size_t before)
{
    const dl_python *py = dl_q_main_python(in->facts);
    const dl_py_package *tv = dl_q_package(py, name);
    const char *torch = dl_q_torch_version(py);
    size_t i;
    const dl_ext_import *r = dl_ext_record(py, name, &i);
    dl_finding *x;
    if (!r || !torch || !dl_ext_says_mismatch(in, r))
        return;
    if (out->items.count > before) {
        dl_ext_evidence(&DL_LIST_AT(out->items, dl_finding, out->items.count - 1), r, i);
        return;
    }
    x = dl_finding_add(out, "torchvision_mismatch", DL_SEV_FAILURE,
                       "%s %s fails to import: it was built for another torch than %s", name,
                       tv ? dl_text_or(&tv->version, "?") : "?", torch);
    dl_ext_evidence(x, r, i);
    dl_fix_install_torch(x, in, py, NULL);
}

/* torchaudio is held to torch the same way: one finding each, since the fix (the matching
 * set from one index) is the same command. */
void dl_rule_torchvision_mismatch(const dl_rule_input *in, dl_findings *out)
{
    size_t before = out->items.count;
    check_companion(in, out, "torchvision");
    check_companion_import(in, out, "torchvision", before);
    if (out->items.count == before)
        check_companion(in, out, "torchaudio");
    /* a finding already: torchaudio's failed import is more evidence for it */
    check_companion_import(in, out, "torchaudio", before);
}

/* A module named torch that is not PyTorch: it imports but lacks PyTorch's API (a stub, a
 * typo-squat, a folder named torch), or pip records a torch whose folder is gone (a broken
 * partial install). */
void dl_rule_torch_not_pytorch(const dl_rule_input *in, dl_findings *out)
{
    const dl_python *py = dl_q_main_python(in->facts);
    const dl_py_package *pkg = dl_q_package(py, "torch");
    bool incomplete = py && dl_q_text_is(&py->runtime.status, "incomplete");
    bool folder_gone = pkg && !dl_q_static_torch(py) &&
                       (dl_q_says_no_torch(py->runtime.error.value) ||
                        !py->runtime.status.value || dl_q_text_is(&py->runtime.status, "skipped") ||
                        dl_q_text_is(&py->runtime.status, "not_run"));
    dl_finding *x;
    if (!py || (!incomplete && !folder_gone))
        return;
    if (incomplete) {
        x = dl_finding_add(out, "torch_not_pytorch", DL_SEV_FAILURE,
                           "The module named torch that imports is not PyTorch");
        dl_finding_evidence(x, "pythons[0].runtime.file", "%s",
                            py->runtime.file.value ? py->runtime.file.value : "?");
        dl_finding_evidence(x, "pythons[0].runtime.error", "%s",
                            py->runtime.error.value ? py->runtime.error.value : "?");
    } else {
        x = dl_finding_add(out, "torch_not_pytorch", DL_SEV_FAILURE,
                           "torch %s is recorded as installed, but its package folder is "
                           "missing: a broken install",
                           pkg->version.value ? pkg->version.value : "");
        dl_finding_evidence(x, "pythons[0].site_packages", "%s records torch %s; no torch/ "
                                                           "beside it",
                            pkg->source.value ? pkg->source.value : "its metadata",
                            pkg->version.value ? pkg->version.value : "?");
        if (py->runtime.error.value)
            dl_finding_evidence(x, "pythons[0].runtime.error", "%s", py->runtime.error.value);
    }
    if (!incomplete) {
        dl_fix_reinstall_torch(x, in, py, false);
        return;
    }
    if (!pkg)
        dl_fix_note(x, "that folder is no installed package: rename or remove it (%s)",
                    py->runtime.file.value ? py->runtime.file.value : "torch");
    dl_fix_install_torch(x, in, py, NULL);
}
