#include "render/doctor_view.h"

#include "base/str.h"
#include "rules/query.h"

#include <stdlib.h>
#include <string.h>

const char *dl_severity_word(dl_severity s)
{
    return dl_severity_name(s);
}

static char *hardware_seen(const dl_facts *f)
{
    const dl_pci_gpu *g = dl_q_first_pci_gpu(f, 0);
    if (f->nvml.gpus.known && f->nvml.gpus.count)
        return dl_fmt("%zu x %s", f->nvml.gpus.count,
                      DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, 0).name.value
                          ? DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, 0).name.value
                          : "NVIDIA GPU");
    if (g)
        return dl_fmt("%s%s%s", g->vendor_name.value ? g->vendor_name.value : "GPU",
                      g->device_name.value ? " " : "",
                      g->device_name.value ? g->device_name.value : "");
    return dl_strdup(f->gpus.known ? "no GPU: the CPU path" : "GPUs unknown");
}

static char *driver_seen(const dl_facts *f)
{
    long long cuda = f->nvml.cuda_driver_version.known ? f->nvml.cuda_driver_version.value : 0;
    const char *v = f->nvml.driver_version.value ? f->nvml.driver_version.value
                                                 : f->nvidia_kernel.driver_version.value;
    if (v && cuda)
        return dl_fmt("NVIDIA %s, runs CUDA up to %lld.%lld", v, cuda / 1000, (cuda % 1000) / 10);
    if (v)
        return dl_fmt("NVIDIA %s", v);
    return dl_strdup(dl_q_has_nvidia_gpu(f) ? "no NVIDIA driver answered"
                                            : "not needed without an NVIDIA GPU");
}

static char *container_seen(const dl_facts *f)
{
    if (dl_q_is_wsl(f))
        return dl_fmt("WSL %lld", f->os.wsl.version.known ? f->os.wsl.version.value : 2);
    if (dl_q_in_container(f))
        return dl_fmt("in a %s container", f->os.container.runtime.value
                                               ? f->os.container.runtime.value
                                               : "");
    return dl_strdup("not in a container or WSL");
}

static char *libraries_seen(const dl_facts *f)
{
    const dl_library_lookup *l = dl_q_library(f, "libcuda.so.1");
    if (l && l->chosen.value)
        return dl_fmt("libcuda.so.1 -> %s", l->chosen.value);
    return dl_strdup(dl_q_has_nvidia_gpu(f) ? "no libcuda.so.1 on the loader path"
                                            : "no CUDA libraries needed");
}

static char *python_seen(const dl_facts *f)
{
    const dl_python *py = dl_q_main_python(f);
    if (!py)
        return dl_strdup("no Python interpreter found");
    return dl_fmt("%s (Python %s)", py->path.value ? py->path.value : "?",
                  py->version.value ? py->version.value : "?");
}

static char *build_seen(const dl_facts *f)
{
    const dl_python *py = dl_q_main_python(f);
    const dl_torch_install *t = dl_q_static_torch(py);
    const char *v = dl_q_torch_imported(py) ? py->runtime.version.value : t ? t->version.value : NULL;
    const char *cuda = dl_q_torch_imported(py) ? py->runtime.cuda.value : t ? t->cuda.value : NULL;
    if (!v)
        return dl_strdup("no torch");
    if (cuda && strcmp(cuda, "none") != 0)
        return dl_fmt("torch %s, built for CUDA %s", v, cuda);
    return dl_fmt("torch %s, a CPU build", v);
}

static char *runtime_seen(const dl_facts *f)
{
    const dl_python *py = dl_q_main_python(f);
    if (!py || !dl_q_torch_imported(py))
        return dl_fmt("import torch: %s", py && py->runtime.status.value ? py->runtime.status.value
                                                                        : "not run");
    if (py->runtime.cuda_available.known && py->runtime.cuda_available.value)
        return dl_fmt("imported; CUDA available with %lld GPU(s)", py->runtime.device_count.value);
    return dl_strdup("imported; runs on the CPU");
}

static char *performance_seen(const dl_facts *f)
{
    const dl_python *py = dl_q_main_python(f);
    if (py && py->runtime.blas.value)
        return dl_fmt("no problem seen (BLAS: %s)", py->runtime.blas.value);
    return dl_strdup("no problem seen");
}

static char *seen(dl_layer l, const dl_facts *f)
{
    switch (l) {
    case DL_LAYER_HARDWARE: return hardware_seen(f);
    case DL_LAYER_DRIVER: return driver_seen(f);
    case DL_LAYER_CONTAINER: return container_seen(f);
    case DL_LAYER_LIBRARIES: return libraries_seen(f);
    case DL_LAYER_PYTHON: return python_seen(f);
    case DL_LAYER_TORCH_BUILD: return build_seen(f);
    case DL_LAYER_TORCH_RUNTIME: return runtime_seen(f);
    default: return performance_seen(f);
    }
}

static void add_notes(dl_doctor_view *v, const dl_facts *f)
{
    const dl_python *py = dl_q_main_python(f);
    if (f->nvml.driver_version.value)
        dl_strv_add(&v->notes, dl_strdup("nvidia-smi's \"CUDA Version\" is the newest CUDA the "
                                         "driver runs, not a CUDA that is installed."));
    if (f->cuda_toolkits.known && f->cuda_toolkits.count)
        dl_strv_add(&v->notes,
                    dl_fmt("The CUDA toolkit (%s) is not needed to run PyTorch wheels, which "
                           "bring their own CUDA libraries; it is for building extensions.",
                           dl_text_or(&DL_LIST_AT(f->cuda_toolkits, dl_cuda_toolkit, 0).path,
                                      "its folder unknown")));
    if (py && f->pythons.count > 1)
        dl_strv_add(&v->notes, dl_fmt("`python` runs %s: the first of %zu interpreters found "
                                      "(dlenv report lists them all).",
                                      dl_text_or(&py->path, "an interpreter"),
                                      f->pythons.count));
}

void dl_doctor_view_build(dl_doctor_view *v, const dl_facts *f, const dl_findings *fs)
{
    size_t i;
    memset(v, 0, sizeof *v);
    for (i = 0; i < DL_LAYER_COUNT; i++)
        v->layers[i].layer = (dl_layer)i;
    for (i = 0; i < fs->items.count; i++) {
        const dl_finding *x = &DL_LIST_AT(fs->items, dl_finding, i);
        int l = dl_layer_of_name(x->layer.value), s = dl_severity_of_name(x->severity.value);
        if (l < 0 || s < 0)
            continue;
        if ((dl_severity)s > v->layers[l].status || !v->layers[l].summary) {
            free(v->layers[l].summary);
            v->layers[l].summary = dl_strdup(x->title.value);
            v->layers[l].status = (dl_severity)s > v->layers[l].status ? (dl_severity)s
                                                                       : v->layers[l].status;
            v->layers[l].consequence = x->consequence.known && x->consequence.value;
        }
        if ((dl_severity)s > v->verdict)
            v->verdict = (dl_severity)s;
        if (fs->root_cause.value && x->id.value && strcmp(fs->root_cause.value, x->id.value) == 0)
            v->root = x;
    }
    for (i = 0; i < DL_LAYER_COUNT; i++)
        if (!v->layers[i].summary)
            v->layers[i].summary = seen((dl_layer)i, f);
    add_notes(v, f);
}

void dl_doctor_view_free(dl_doctor_view *v)
{
    size_t i;
    for (i = 0; i < DL_LAYER_COUNT; i++)
        free(v->layers[i].summary);
    dl_strv_free(&v->notes);
}
