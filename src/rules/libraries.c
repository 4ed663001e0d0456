/* Libraries and search paths: which libcuda loads, and what hides the GPUs. */
#include "base/str.h"
#include "facts/query.h"
#include "know/version.h"
#include "rules/fixes.h"
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

/* The GPUs that exist, by index and UUID, for a CUDA_VISIBLE_DEVICES that hides them. */
static void fix_note_existing_gpus(dl_finding *x, const dl_facts *f)
{
    dl_buf b = {0};
    size_t i;
    for (i = 0; f->nvml.gpus.known && i < f->nvml.gpus.count && i < 8; i++) {
        const dl_nvml_gpu *g = &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, i);
        dl_buf_printf(&b, "%s%zu", i ? ", " : "", i);
        if (g->uuid.value)
            dl_buf_printf(&b, " (%s)", g->uuid.value);
    }
    if (b.len)
        dl_fix_note(x, "or list only GPUs that exist here: %s", b.data);
    dl_buf_free(&b);
}

void dl_rule_cuda_visible_devices(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    const char *v = dl_dict_get(&f->environment, "CUDA_VISIBLE_DEVICES");
    char *why;
    dl_finding *x;
    if (!v || !dl_q_has_nvidia_gpu(f) || !(why = hiding_reason(f, v)))
        return;
    x = dl_finding_add(out, "cuda_visible_devices", DL_SEV_FAILURE,
                       "CUDA_VISIBLE_DEVICES hides the GPUs: %s", why);
    dl_finding_evidence(x, "environment.CUDA_VISIBLE_DEVICES", "'%s'", v);
    dl_fix_set_env(x, f, "CUDA_VISIBLE_DEVICES", "");
    fix_note_existing_gpus(x, f);
    if (dl_q_is_windows(f))
        dl_fix_note(x, "it may also be set among the user or system environment variables "
                       "(System Properties > Environment Variables)");
    free(why);
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
    /* Without an NVIDIA GPU nothing needs the real libcuda: the stub only misleads tools. */
    x = dl_finding_add(out, "libcuda_stub_on_path",
                       dl_q_has_nvidia_gpu(f) ? DL_SEV_FAILURE : DL_SEV_WARNING,
                       dl_q_has_nvidia_gpu(f)
                           ? "The CUDA toolkit's stub libcuda is loaded instead of the driver's"
                           : "The CUDA toolkit's stub libcuda is on the loader's path (harmless "
                             "without an NVIDIA GPU)");
    if (chosen)
        dl_finding_evidence(x, "libraries[libcuda.so.1].chosen", "%s -> %s",
                            dl_text_or(&chosen->path, "?"),
                            chosen->real_path.value ? chosen->real_path.value : "?");
    if (code34)
        dl_finding_evidence(x, "cuda_driver.init_result", "34 CUDA_ERROR_STUB_LIBRARY");
    if (ld && strstr(ld, "/stubs")) {
        char *clean = dl_fix_list_without(ld, ':', NULL, "/stubs");
        dl_fix_set_env(x, f, "LD_LIBRARY_PATH", clean);
        free(clean);
    } else if (chosen && chosen->path.value && !strstr(chosen->path.value, "/stubs/")) {
        char *quoted = dl_shell_quote(DL_SHELL_POSIX, chosen->path.value);
        dl_fix_note(x, "%s is a link to the stub: the driver's libcuda.so.1 must be found "
                       "instead", chosen->path.value);
        dl_fix_as_root(x, f, "rm -- %s", quoted);
        dl_fix_as_root(x, f, "ldconfig");
        free(quoted);
    } else {
        dl_fix_note(x, "take the CUDA toolkit's stubs directory out of the library path "
                       "(LD_LIBRARY_PATH, /etc/ld.so.conf.d), then run ldconfig as root");
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
    x = dl_finding_add(out, "libcuda_not_found", DL_SEV_FAILURE,
                       "The driver's kernel module runs, but no libcuda.so.1 is on the "
                       "loader's path");
    dl_finding_evidence(x, "nvidia_kernel.driver_version", "%s",
                        f->nvidia_kernel.driver_version.value);
    dl_finding_evidence(x, "libraries[libcuda.so.1].chosen", "%s",
                        l->chosen.why ? l->chosen.why : "not found");
    if (!strcmp(dl_fix_distro(f), "ubuntu"))
        dl_fix_as_root(x, f, "apt-get install -y --reinstall libnvidia-compute-%.*s",
                       (int)strcspn(f->nvidia_kernel.driver_version.value, "."),
                       f->nvidia_kernel.driver_version.value);
    else if (!strcmp(dl_fix_distro(f), "debian"))
        dl_fix_as_root(x, f, "apt-get install -y --reinstall libcuda1");
    else
        dl_fix_note(x, "reinstall the user-space libraries of driver %s (they hold "
                       "libcuda.so.1), the same version as the kernel module",
                    f->nvidia_kernel.driver_version.value);
    dl_fix_as_root(x, f, "ldconfig");
}

/* torch releases before 2.3 were built against NumPy 1.x, whose C API NumPy 2 changed: with
 * NumPy 2 their import warns "A module that was compiled using NumPy 1.x cannot be run in
 * NumPy 2" and tensor.numpy() raises "Numpy is not available". 2.3 is the first built against
 * NumPy 2.0 (pytorch/pytorch#107302: 2.3.0 validated with numpy 2.0.0rc1 and 1.26.4); its
 * Windows wheels still failed with it (pytorch/pytorch#128860), so there it is a warning. */
void dl_rule_numpy_incompatible(const dl_rule_input *in, dl_findings *out)
{
    const dl_python *py = dl_q_main_python(in->facts);
    const dl_py_package *np = dl_q_package(py, "numpy");
    const char *torch = dl_q_first_torch_version(in->facts);
    static const dl_version first_numpy2 = {{2, 3, 0, 0}, 3}, after = {{2, 4, 0, 0}, 3};
    dl_torch_version tv;
    unsigned long major;
    bool windows = dl_q_is_windows(in->facts);
    dl_finding *x;
    char *python, *spec;
    if (!np || !np->version.value || !torch || !dl_torch_version_parse(torch, &tv) ||
        sscanf(np->version.value, "%lu.", &major) != 1 || major < 2 ||
        dl_version_cmp(&tv.release, windows ? &after : &first_numpy2) >= 0)
        return;
    if (dl_version_cmp(&tv.release, &first_numpy2) < 0)
        x = dl_finding_add(out, "numpy_incompatible", DL_SEV_FAILURE,
                           "torch %s was built against NumPy 1.x, and NumPy %s is installed",
                           torch, np->version.value);
    else
        x = dl_finding_add(out, "numpy_incompatible", DL_SEV_WARNING,
                           "torch %s's Windows wheels fail with NumPy 2 (\"Failed to initialize "
                           "NumPy\"), and NumPy %s is installed",
                           torch, np->version.value);
    dl_finding_evidence(x, "packages[numpy]", "%s%s%s", np->version.value,
                        np->source.value ? " at " : "", np->source.value ? np->source.value : "");
    python = dl_fix_python(in->facts, py);
    spec = dl_shell_quote(dl_fix_shell(in->facts), "numpy<2");
    dl_finding_fix(x, "%s -m pip install %s", python, spec);
    dl_fix_note(x, "or a torch that runs with NumPy 2 (%s or newer; `dlenv plan`)",
                windows ? "2.4" : "2.3");
    free(spec);
    free(python);
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
        *x = dl_finding_add(out, "ld_library_path_conflict",
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
    dl_strv dirs = {0};
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
                torch_bundles(py, base_name(c->path.value))) {
                conflict_copy(&x, out, py, c);
                const char *slash = strrchr(c->path.value, '/');
                if (slash)
                    dl_strv_add(&dirs, dl_strndup(c->path.value,
                                                  (size_t)(slash - c->path.value)));
            }
        }
    }
    if (x) {
        char *kept = dl_fix_list_without(ld, ':', &dirs, NULL);
        dl_fix_note(x, "torch wheels bring the libraries they were built with: keep other CUDA "
                    "library folders out of LD_LIBRARY_PATH when running torch");
        dl_fix_set_env(x, f, "LD_LIBRARY_PATH", kept);
        free(kept);
    }
    dl_strv_free(&dirs);
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
    x = dl_finding_add(out, "mkl_incompatible", DL_SEV_FAILURE,
                       "conda's MKL %s lacks symbols this conda pytorch needs "
                       "(undefined symbol: iJIT_NotifyEvent)", mkl->version.value);
    dl_finding_evidence(x, "conda-meta", "mkl %s, pytorch %s", mkl->version.value,
                        pytorch->version.value ? pytorch->version.value : "?");
    {
        char *spec = dl_shell_quote(dl_fix_shell(in->facts), "mkl<2024.1");
        dl_finding_fix(x, "conda install -y %s", spec);
        dl_fix_note(x, "or install torch with pip in this environment");
        free(spec);
    }
}
