/* Libraries and search paths: which libcuda loads, and what hides the GPUs. */
#include "base/str.h"
#include "rules/query.h"
#include "rules/rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How many GPUs the driver enumerates, when anything says. */
static long long gpu_count(const dl_facts *f)
{
    if (f->nvml.gpus.known)
        return (long long)f->nvml.gpus.count;
    return (long long)dl_q_pci_gpus(f, DL_PCI_NVIDIA);
}

static bool uuid_known(const dl_facts *f, const char *uuid, size_t len)
{
    size_t i;
    for (i = 0; f->nvml.gpus.known && i < f->nvml.gpus.count; i++) {
        const dl_nvml_gpu *g = &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, i);
        if (g->uuid.value && strncmp(g->uuid.value, uuid, len) == 0)
            return true;
    }
    return !f->nvml.gpus.known; /* cannot tell: give it the benefit of the doubt */
}

/* Why CUDA_VISIBLE_DEVICES hides GPUs, or NULL when it does not. Caller frees. */
static char *hiding_reason(const dl_facts *f, const char *v)
{
    long long count = gpu_count(f);
    const char *p = v;
    if (!*v)
        return dl_strdup("it is set but empty, which hides every GPU");
    if (strcmp(v, "-1") == 0 || strcmp(v, "none") == 0 || strcmp(v, "NoDevFiles") == 0)
        return dl_fmt("'%s' hides every GPU", v);
    while (*p) {
        size_t n = strcspn(p, ",");
        char *end;
        long long idx = strtoll(p, &end, 10);
        if (end != p && (size_t)(end - p) == n && count > 0 && (idx < 0 || idx >= count))
            return dl_fmt("index %lld, but this machine has %lld GPU%s", idx, count,
                          count == 1 ? "" : "s");
        if (n > 4 && strncmp(p, "GPU-", 4) == 0 && !uuid_known(f, p, n))
            return dl_fmt("'%.*s' is not the UUID of any GPU here", (int)n, p);
        p += n;
        if (*p)
            p++;
    }
    return NULL;
}

void dl_rule_cuda_visible_devices(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    const char *v = dl_dict_get(&f->environment, "CUDA_VISIBLE_DEVICES");
    char *why;
    dl_finding *x;
    if (!v || !dl_q_has_nvidia_gpu(f) || !(why = hiding_reason(f, v)))
        return;
    x = dl_finding_add(out, "cuda_visible_devices", DL_LAYER_LIBRARIES, DL_SEV_FAILURE,
                       "CUDA_VISIBLE_DEVICES hides the GPUs: %s", why);
    dl_finding_evidence(x, "environment.CUDA_VISIBLE_DEVICES", "'%s'", v);
    if (dl_q_is_windows(f))
        dl_finding_fix(x, "Remove-Item Env:CUDA_VISIBLE_DEVICES   (PowerShell; in cmd: set "
                          "CUDA_VISIBLE_DEVICES=; check the user and system variables too)");
    else
        dl_finding_fix(x, "unset CUDA_VISIBLE_DEVICES   (or list existing GPUs: 0,1 or their "
                          "UUIDs from nvidia-smi -L)");
    free(why);
}

/* LD_LIBRARY_PATH without the entries that hold the stub. */
static char *without_stub_dirs(const char *path)
{
    dl_buf b = {0};
    const char *p = path;
    while (p && *p) {
        size_t n = strcspn(p, ":");
        char *dir = dl_strndup(p, n);
        if (*dir && !strstr(dir, "/stubs"))
            dl_buf_printf(&b, "%s%s", b.len ? ":" : "", dir);
        free(dir);
        p += n;
        if (*p)
            p++;
    }
    return dl_buf_take(&b);
}

void dl_rule_libcuda_stub_on_path(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    const dl_library_lookup *l = dl_q_library(f, "libcuda.so.1");
    const dl_library_copy *chosen = NULL;
    bool code34 = f->cuda_driver.init_code.known && f->cuda_driver.init_code.value == 34;
    const char *ld = dl_dict_get(&f->environment, "LD_LIBRARY_PATH");
    dl_finding *x;
    size_t i;
    for (i = 0; l && l->copies.known && i < l->copies.count; i++)
        if (DL_LIST_AT(l->copies, dl_library_copy, i).chosen.value)
            chosen = &DL_LIST_AT(l->copies, dl_library_copy, i);
    if (!code34 && !(chosen && chosen->stub.value))
        return;
    x = dl_finding_add(out, "libcuda_stub_on_path", DL_LAYER_LIBRARIES, DL_SEV_FAILURE,
                       "The CUDA toolkit's stub libcuda is loaded instead of the driver's");
    if (chosen)
        dl_finding_evidence(x, "libraries[libcuda.so.1].chosen", "%s -> %s",
                            dl_text_or(&chosen->path, "?"),
                            chosen->real_path.value ? chosen->real_path.value : "?");
    if (code34)
        dl_finding_evidence(x, "cuda_driver.init_result", "34 CUDA_ERROR_STUB_LIBRARY");
    if (ld && strstr(ld, "/stubs")) {
        char *clean = without_stub_dirs(ld);
        dl_finding_fix(x, "export LD_LIBRARY_PATH=%s", clean);
        free(clean);
    } else if (chosen && chosen->path.value && !strstr(chosen->path.value, "/stubs/")) {
        dl_finding_fix(x, "rm %s   (a link to the stub; the driver's libcuda.so.1 must be found "
                          "instead) && ldconfig", chosen->path.value);
    } else {
        dl_finding_fix(x, "# take the CUDA toolkit's stubs directory out of the library path "
                          "(LD_LIBRARY_PATH, /etc/ld.so.conf.d) and run sudo ldconfig");
    }
}

void dl_rule_libcuda_not_found(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    const dl_library_lookup *l = dl_q_library(f, "libcuda.so.1");
    dl_finding *x;
    if (!dl_q_has_nvidia_gpu(f) || dl_q_is_wsl(f) || !l || l->chosen.value ||
        f->cuda_driver.library.value || !f->nvidia_kernel.driver_version.value)
        return;
    x = dl_finding_add(out, "libcuda_not_found", DL_LAYER_LIBRARIES, DL_SEV_FAILURE,
                       "The driver's kernel module runs, but no libcuda.so.1 is on the "
                       "loader's path");
    dl_finding_evidence(x, "nvidia_kernel.driver_version", "%s",
                        f->nvidia_kernel.driver_version.value);
    dl_finding_evidence(x, "libraries[libcuda.so.1].chosen", "%s",
                        l->chosen.why ? l->chosen.why : "not found");
    dl_finding_fix(x, "# reinstall the driver's user-space libraries for %s (Ubuntu: sudo apt "
                      "install --reinstall libnvidia-compute-<branch>), then sudo ldconfig",
                   f->nvidia_kernel.driver_version.value);
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* The torch of the main interpreter bundles a library of this exact file name. */
static bool torch_bundles(const dl_python *py, const char *soname)
{
    const dl_torch_install *t = dl_q_static_torch(py);
    size_t i;
    for (i = 0; t && t->bundled_libraries.known && i < t->bundled_libraries.count; i++)
        if (strcmp(base_name(DL_LIST_AT(t->bundled_libraries, char *, i)), soname) == 0)
            return true;
    return false;
}

static bool was_loaded(const dl_python *py, const dl_library_copy *c)
{
    const char *real = c->real_path.value ? c->real_path.value : c->path.value;
    return real && dl_textlist_has(&py->runtime.loaded_libraries, real);
}

static void conflict_copy(dl_finding **x, dl_findings *out, const dl_python *py,
                          const dl_library_copy *c)
{
    bool loaded = was_loaded(py, c);
    if (!*x)
        *x = dl_finding_add(out, "ld_library_path_conflict", DL_LAYER_LIBRARIES,
                            loaded ? DL_SEV_FAILURE : DL_SEV_WARNING,
                            "LD_LIBRARY_PATH puts other copies of libraries that torch bundles "
                            "ahead of torch's own");
    else if (loaded)
        dl_text_set(&(*x)->severity, "failure");
    dl_finding_evidence(*x, c->path.value, "%s%s", c->version.value ? c->version.value : "",
                        loaded ? ", and torch loaded this copy" : "");
}

void dl_rule_ld_library_path_conflict(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    const dl_python *py = dl_q_main_python(f);
    const char *ld = dl_dict_get(&f->environment, "LD_LIBRARY_PATH");
    dl_finding *x = NULL;
    size_t i, j;
    if (!py || !ld)
        return;
    for (i = 0; f->libraries.known && i < f->libraries.count; i++) {
        const dl_library_lookup *l = &DL_LIST_AT(f->libraries, dl_library_lookup, i);
        if (dl_q_text_is(&l->name, "libcuda.so.1") || dl_q_text_is(&l->name, "libnvidia-ml.so.1"))
            continue; /* the driver's own: torch never bundles them */
        for (j = 0; l->copies.known && j < l->copies.count; j++) {
            const dl_library_copy *c = &DL_LIST_AT(l->copies, dl_library_copy, j);
            if (dl_q_text_is(&c->directory_kind, "LD_LIBRARY_PATH") && c->path.value &&
                torch_bundles(py, base_name(c->path.value)))
                conflict_copy(&x, out, py, c);
        }
    }
    if (x)
        dl_finding_fix(x, "# drop the CUDA library directories from LD_LIBRARY_PATH when running "
                          "torch (unset LD_LIBRARY_PATH, or remove those entries): torch wheels "
                          "bring the libraries they were built with");
}

/* conda's pytorch (2.2 and older builds) needs symbols that MKL 2024.1 dropped. */
void dl_rule_mkl_incompatible(const dl_rule_input *in, dl_findings *out)
{
    const dl_python *py = dl_q_main_python(in->facts);
    const dl_py_package *mkl = dl_q_package(py, "mkl"), *pytorch = dl_q_package(py, "pytorch");
    dl_finding *x;
    int major = 0, minor = 0;
    if (!mkl || !pytorch || !mkl->version.value || !dl_q_text_is(&mkl->installer, "conda") ||
        sscanf(mkl->version.value, "%d.%d", &major, &minor) < 1 ||
        (major < 2024 || (major == 2024 && minor < 1)))
        return;
    x = dl_finding_add(out, "mkl_incompatible", DL_LAYER_LIBRARIES, DL_SEV_FAILURE,
                       "conda's MKL %s lacks symbols this conda pytorch needs "
                       "(undefined symbol: iJIT_NotifyEvent)", mkl->version.value);
    dl_finding_evidence(x, "conda-meta", "mkl %s, pytorch %s", mkl->version.value,
                        pytorch->version.value ? pytorch->version.value : "?");
    dl_finding_fix(x, "conda install \"mkl<2024.1\"   # or install torch with pip in this env");
}
