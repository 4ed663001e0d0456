/* Each layer's state: its worst finding, else what positively shows it works, else why it
 * cannot be judged. The machine's verdict follows from the layers. */
#include "rules/verdict.h"

#include "base/str.h"
#include "facts/query.h"
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>

typedef struct seen {
    dl_layer_state state;   /* OK, UNKNOWN or SKIPPED */
    char *summary;
} seen;

static seen ok(char *summary)
{
    seen s;
    s.state = DL_STATE_OK;
    s.summary = summary;
    return s;
}

static seen unknown(char *summary)
{
    seen s;
    s.state = DL_STATE_UNKNOWN;
    s.summary = summary;
    return s;
}

static seen skipped(char *summary)
{
    seen s;
    s.state = DL_STATE_SKIPPED;
    s.summary = summary;
    return s;
}

static const char *why_of(const char *why, const char *otherwise)
{
    return why ? why : otherwise;
}

/* The GPU list was read (an empty one says "no GPU"), or NVML listed some. */
static bool gpus_known(const dl_facts *f)
{
    return f->gpus.known || (f->nvml.gpus.known && f->nvml.gpus.count > 0);
}

static seen hardware(const dl_facts *f)
{
    const dl_pci_gpu *g = dl_q_first_pci_gpu(f, 0);
    if (f->nvml.gpus.known && f->nvml.gpus.count) {
        const dl_nvml_gpu *n = &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, 0);
        return ok(dl_fmt("%zu x %s", f->nvml.gpus.count,
                         n->name.value ? n->name.value : "NVIDIA GPU"));
    }
    if (g)
        return ok(dl_fmt("%s%s%s", g->vendor_name.value ? g->vendor_name.value : "GPU",
                         g->device_name.value ? " " : "",
                         g->device_name.value ? g->device_name.value : ""));
    if (f->gpus.known)
        return ok(dl_strdup("no GPU: the CPU path"));
    return unknown(dl_fmt("the GPUs are unknown: %s", why_of(f->gpus.why, "never looked for")));
}

/* The probe of that name hung or crashed (not "not present", not skipped). */
static bool probe_broke(const dl_facts *f, const char *name)
{
    size_t i;
    for (i = 0; f->tool.probes.known && i < f->tool.probes.count; i++) {
        const dl_probe_run *r = &DL_LIST_AT(f->tool.probes, dl_probe_run, i);
        if (dl_q_text_is(&r->name, name))
            return dl_q_text_is(&r->status, "timed_out") || dl_q_text_is(&r->status, "failed");
    }
    return false;
}

static seen driver(const dl_facts *f)
{
    const dl_nvml_facts *n = &f->nvml;
    const dl_cuda_driver_facts *c = &f->cuda_driver;
    long long cuda = n->cuda_driver_version.known ? n->cuda_driver_version.value : 0;
    /* NVML loaded but gave no answer (it hung, crashed): where the PCI bus shows no GPU
     * (WSL, a VM) that silence may hide one, so "not needed" would be a guess. */
    if (!dl_q_has_nvidia_gpu(f) && !n->driver_version.value &&
        (n->library.value || probe_broke(f, "nvml")))
        return unknown(dl_fmt("NVML is installed but did not answer: %s",
                              why_of(n->driver_version.why, "no reason given")));
    if (!dl_q_has_nvidia_gpu(f))
        return gpus_known(f) ? ok(dl_strdup("not needed without an NVIDIA GPU"))
                             : unknown(dl_strdup("needs the GPUs, which are unknown"));
    if (c->init_code.known && c->init_code.value != 0)
        return unknown(dl_fmt("cuInit failed with %lld (%s), which no check explains",
                              c->init_code.value, why_of(c->init_result.value, "?")));
    if (n->driver_version.value && cuda)
        return ok(dl_fmt("NVIDIA %s, runs CUDA up to %lld.%lld", n->driver_version.value,
                         cuda / 1000, (cuda % 1000) / 10));
    if (n->driver_version.value)
        return ok(dl_fmt("NVIDIA %s", n->driver_version.value));
    if (f->nvidia_kernel.driver_version.value)
        return unknown(dl_fmt("kernel module %s is loaded, but NVML did not answer: %s",
                              f->nvidia_kernel.driver_version.value,
                              why_of(n->driver_version.why, "unknown")));
    return unknown(dl_fmt("no NVIDIA driver answered: %s",
                          why_of(n->driver_version.why, "NVML was not asked")));
}

static seen container(const dl_facts *f)
{
    const dl_virtualization_facts *v = &f->os.virtualization;
    const dl_container_facts *c = &f->os.container;
    char *vm = v->detected.known && v->detected.value
                   ? dl_fmt(", in a %s virtual machine",
                            v->hypervisor.value ? v->hypervisor.value : "")
                   : dl_strdup("");
    seen s;
    if (dl_q_is_wsl(f))
        s = ok(dl_fmt("WSL %lld", f->os.wsl.version.known ? f->os.wsl.version.value : 2));
    else if (c->detected.known && c->detected.value)
        s = ok(dl_fmt("in a %s container%s", c->runtime.value ? c->runtime.value : "", vm));
    else if (c->detected.known && *vm)
        s = ok(dl_fmt("%s, not in a container", vm + 5)); /* past ", in " */
    else if (c->detected.known)
        s = ok(dl_strdup("not in a container or WSL"));
    else
        s = unknown(dl_fmt("whether this is a container is unknown: %s",
                           why_of(c->detected.why, "never looked")));
    free(vm);
    return s;
}

static seen libraries(const dl_facts *f)
{
    const dl_library_lookup *l = dl_q_library(f, "libcuda.so.1");
    if (!l)
        l = dl_q_library(f, "nvcuda.dll");
    if (!dl_q_has_nvidia_gpu(f))
        return gpus_known(f) ? ok(dl_strdup("no CUDA libraries needed"))
                             : unknown(dl_strdup("needs the GPUs, which are unknown"));
    if (l && l->chosen.value)
        return ok(dl_fmt("%s -> %s", l->name.value, l->chosen.value));
    return unknown(dl_fmt("where the loader finds libcuda is unknown: %s",
                          l ? why_of(l->chosen.why, "not looked up")
                            : why_of(f->libraries.why, "not looked up")));
}

/* torch is there for this interpreter by some evidence: it ran, or its files say so. */
static bool torch_evidence(const dl_python *py)
{
    return dl_q_torch_imported(py) || dl_q_text_is(&py->runtime.status, "incomplete") ||
           dl_q_static_torch(py) || dl_q_package(py, "torch");
}

static seen python(const dl_facts *f)
{
    const dl_python *py = dl_q_main_python(f);
    if (!py)
        return unknown(dl_fmt("the interpreters are unknown: %s",
                              why_of(f->pythons.why, "never looked for")));
    if (torch_evidence(py))
        return ok(dl_fmt("%s (Python %s)", py->path.value ? py->path.value : "?",
                         py->version.value ? py->version.value : "?"));
    return unknown(dl_fmt("whether %s has torch is unknown: %s",
                          dl_text_or(&py->path, "the interpreter"),
                          why_of(py->site_packages.why, "its packages were not read")));
}

static seen torch_build(const dl_facts *f)
{
    const dl_python *py = dl_q_main_python(f);
    const dl_torch_install *t = dl_q_static_torch(py);
    const dl_py_package *pkg = dl_q_package(py, "torch");
    bool ran = dl_q_torch_imported(py);
    const char *v = ran ? py->runtime.version.value : t ? t->version.value : NULL;
    const char *cuda = ran ? py->runtime.cuda.value : t ? t->cuda.value : NULL;
    if (!v && pkg && pkg->version.value)
        return unknown(dl_fmt("torch %s is recorded (%s), but its files were not read",
                              pkg->version.value, why_of(pkg->source.value, "dist-info")));
    if (!v)
        return unknown(dl_strdup("no torch to judge"));
    if (cuda && strcmp(cuda, "none") != 0)
        return ok(dl_fmt("torch %s, built for CUDA %s", v, cuda));
    if (cuda)
        return ok(dl_fmt("torch %s, a CPU build", v));
    return unknown(dl_fmt("torch %s, built for a CUDA that is unknown", v));
}

static seen torch_runtime(const dl_facts *f)
{
    const dl_python *py = dl_q_main_python(f);
    const dl_torch_runtime *r = py ? &py->runtime : NULL;
    if (!r || !r->status.value)
        return unknown(dl_strdup("import torch was not run"));
    if (dl_q_text_is(&r->status, "skipped"))
        return skipped(dl_strdup("not run (--no-runtime)"));
    if (dl_q_text_is(&r->status, "imported")) {
        if (r->cuda_available.known && r->cuda_available.value)
            return ok(dl_fmt("imported; CUDA available with %lld GPU(s)",
                             r->device_count.known ? r->device_count.value : 0));
        return ok(dl_strdup("imported; runs on the CPU"));
    }
    if (dl_q_text_is(&r->status, "import_failed") && dl_q_says_no_torch(r->error.value))
        return unknown(dl_strdup("no torch to import"));
    if (dl_q_text_is(&r->status, "not_run"))
        return unknown(dl_fmt("import torch was not run: %s",
                              why_of(r->version.why, "no reason given")));
    return unknown(dl_fmt("import torch: %s", r->status.value));
}

static seen performance(const dl_facts *f)
{
    const dl_python *py = dl_q_main_python(f);
    const dl_torch_runtime *r = py ? &py->runtime : NULL;
    if (r && dl_q_text_is(&r->status, "skipped"))
        return skipped(dl_strdup("needs import torch (--no-runtime)"));
    if (!r || !dl_q_torch_imported(py))
        return unknown(dl_strdup("needs a torch that imports"));
    if (!r->blas.value)
        return unknown(dl_fmt("torch's BLAS is unknown: %s", why_of(r->blas.why, "not read")));
    if (r->matmul_gflops.known && f->cpu_measure.fp32_gflops_all.known &&
        f->cpu_measure.fp32_gflops_all.value > 0)
        return ok(dl_fmt("torch's fp32 product at %.0f%% of the CPU's peak (BLAS: %s)",
                         100.0 * r->matmul_gflops.value / f->cpu_measure.fp32_gflops_all.value,
                         r->blas.value));
    return ok(dl_fmt("no problem seen (BLAS: %s)", r->blas.value));
}

static seen seen_in(dl_layer l, const dl_facts *f)
{
    switch (l) {
    case DL_LAYER_HARDWARE: return hardware(f);
    case DL_LAYER_DRIVER: return driver(f);
    case DL_LAYER_CONTAINER: return container(f);
    case DL_LAYER_LIBRARIES: return libraries(f);
    case DL_LAYER_PYTHON: return python(f);
    case DL_LAYER_TORCH_BUILD: return torch_build(f);
    case DL_LAYER_TORCH_RUNTIME: return torch_runtime(f);
    default: return performance(f);
    }
}

/* The worst finding of each layer sets its state and summary. */
static void from_findings(const dl_findings *fs, dl_judgement *out)
{
    size_t i;
    for (i = 0; fs->items.known && i < fs->items.count; i++) {
        const dl_finding *x = &DL_LIST_AT(fs->items, dl_finding, i);
        int l = dl_layer_of_name(x->layer.value), s = dl_severity_of_name(x->severity.value);
        dl_layer_judgement *j;
        if (l < 0 || s <= DL_SEV_OK)
            continue;
        j = &out->layers[l];
        if (j->summary && (int)j->state >= s)
            continue;
        free(j->summary);
        j->summary = dl_strdup(x->title.value ? x->title.value : "?");
        j->state = (dl_layer_state)s; /* INFO, WARNING, FAILURE share severity's order */
        j->consequence = x->consequence.known && x->consequence.value;
    }
}

static void verdict_of(dl_judgement *out)
{
    dl_layer_state worst = DL_STATE_OK;
    bool unknown_layer = false;
    size_t i;
    for (i = 0; i < DL_LAYER_COUNT; i++) {
        dl_layer_state s = out->layers[i].state;
        if (s == DL_STATE_UNKNOWN)
            unknown_layer = true;
        else if (s == DL_STATE_SKIPPED)
            out->skipped = true;
        else if (s > worst)
            worst = s;
    }
    out->verdict = worst == DL_STATE_FAILURE ? DL_VERDICT_FAILURE
                   : unknown_layer           ? DL_VERDICT_CANNOT_JUDGE
                   : worst == DL_STATE_WARNING ? DL_VERDICT_WARNING
                   : worst == DL_STATE_INFO    ? DL_VERDICT_INFO
                                               : DL_VERDICT_OK;
}

void dl_judge(const dl_facts *f, const dl_findings *fs, const char *only, dl_judgement *out)
{
    const dl_rule *checked = only ? dl_rule_find(only) : NULL;
    size_t i;
    memset(out, 0, sizeof *out);
    for (i = 0; i < DL_LAYER_COUNT; i++)
        out->layers[i].layer = (dl_layer)i;
    from_findings(fs, out);
    for (i = 0; i < DL_LAYER_COUNT; i++) {
        dl_layer_judgement *j = &out->layers[i];
        seen s;
        if (j->summary)
            continue;
        if (checked && dl_rule_layer(checked) != (dl_layer)i) {
            j->state = DL_STATE_SKIPPED;
            j->summary = dl_fmt("not checked (--check %s)", only);
            continue;
        }
        s = seen_in((dl_layer)i, f);
        j->state = s.state;
        j->summary = s.summary;
    }
    verdict_of(out);
}

void dl_judgement_free(dl_judgement *j)
{
    size_t i;
    for (i = 0; i < DL_LAYER_COUNT; i++)
        free(j->layers[i].summary);
    memset(j, 0, sizeof *j);
}

const char *dl_layer_state_name(dl_layer_state s)
{
    static const char *const names[] = {"ok", "info", "warning", "failure", "unknown",
                                        "skipped"};
    return (size_t)s < sizeof names / sizeof names[0] ? names[s] : "unknown";
}

const char *dl_verdict_name(dl_verdict v)
{
    static const char *const names[] = {"ok", "info", "warning", "failure", "cannot_judge"};
    return (size_t)v < sizeof names / sizeof names[0] ? names[v] : "cannot_judge";
}
