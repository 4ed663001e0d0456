#include "facts/query.h"

#include "base/str.h"

#include <string.h>

size_t dl_q_pci_gpus(const dl_facts *f, long long vendor)
{
    size_t i, n = 0;
    for (i = 0; f->gpus.known && i < f->gpus.count; i++) {
        const dl_pci_gpu *g = &DL_LIST_AT(f->gpus, dl_pci_gpu, i);
        if (!vendor || (g->vendor_id.known && g->vendor_id.value == vendor))
            n++;
    }
    return n;
}

const dl_pci_gpu *dl_q_first_pci_gpu(const dl_facts *f, long long vendor)
{
    size_t i;
    for (i = 0; f->gpus.known && i < f->gpus.count; i++) {
        const dl_pci_gpu *g = &DL_LIST_AT(f->gpus, dl_pci_gpu, i);
        if (!vendor || (g->vendor_id.known && g->vendor_id.value == vendor))
            return g;
    }
    return NULL;
}

bool dl_q_is_wsl(const dl_facts *f)
{
    return f->os.wsl.detected.known && f->os.wsl.detected.value;
}

bool dl_q_in_container(const dl_facts *f)
{
    return f->os.container.detected.known && f->os.container.detected.value;
}

bool dl_q_module_loaded(const dl_facts *f, const char *name)
{
    return dl_textlist_has(&f->nvidia_kernel.loaded_modules, name);
}

bool dl_q_has_nvidia_gpu(const dl_facts *f)
{
    return dl_q_pci_gpus(f, DL_PCI_NVIDIA) > 0 ||
           (f->nvml.gpus.known && f->nvml.gpus.count > 0);
}

const dl_library_lookup *dl_q_library(const dl_facts *f, const char *name)
{
    size_t i;
    for (i = 0; f->libraries.known && i < f->libraries.count; i++) {
        const dl_library_lookup *l = &DL_LIST_AT(f->libraries, dl_library_lookup, i);
        if (dl_q_text_is(&l->name, name))
            return l;
    }
    return NULL;
}

bool dl_q_driver_libraries_present(const dl_facts *f)
{
    const dl_library_lookup *cuda = dl_q_library(f, "libcuda.so.1");
    const dl_library_lookup *nvml = dl_q_library(f, "libnvidia-ml.so.1");
    return f->nvml.library.value != NULL || (cuda && cuda->chosen.value) ||
           (nvml && nvml->chosen.value);
}

const dl_python *dl_q_main_python(const dl_facts *f)
{
    return f->pythons.known && f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
}

const dl_torch_install *dl_q_static_torch(const dl_python *py)
{
    size_t i;
    for (i = 0; py && i < py->site_packages.count; i++) {
        const dl_site_packages *s = &DL_LIST_AT(py->site_packages, dl_site_packages, i);
        if (s->torches.known && s->torches.count)
            return &DL_LIST_AT(s->torches, dl_torch_install, 0);
    }
    return NULL;
}

const dl_torch_install *dl_q_own_torch(const dl_python *py)
{
    bool env = py && (dl_q_text_is(&py->kind, "venv") || dl_q_text_is(&py->kind, "uv") ||
                      dl_q_text_is(&py->kind, "conda"));
    size_t i;
    for (i = 0; py && i < py->site_packages.count; i++) {
        const dl_site_packages *s = &DL_LIST_AT(py->site_packages, dl_site_packages, i);
        bool own = dl_q_text_is(&s->scope, "prefix") ||
                   (!env && dl_q_text_is(&s->scope, "system"));
        if (own && s->torches.known && s->torches.count)
            return &DL_LIST_AT(s->torches, dl_torch_install, 0);
    }
    return NULL;
}

const dl_py_package *dl_q_package(const dl_python *py, const char *name)
{
    size_t i, j;
    for (i = 0; py && i < py->site_packages.count; i++) {
        const dl_site_packages *s = &DL_LIST_AT(py->site_packages, dl_site_packages, i);
        for (j = 0; s->packages.known && j < s->packages.count; j++) {
            const dl_py_package *p = &DL_LIST_AT(s->packages, dl_py_package, j);
            if (p->name.value && dl_contains_ci(p->name.value, name) &&
                strlen(p->name.value) == strlen(name))
                return p;
        }
    }
    return NULL;
}

char *dl_q_conda_spec(const dl_py_package *p)
{
    const char *v = p->version.value ? p->version.value : "", *open = strstr(v, " (");
    if (open && dl_ends_with(v, ")"))
        return dl_fmt("%s=%.*s=%.*s", p->name.value, (int)(open - v), v,
                      (int)(strlen(open) - 3), open + 2);
    return dl_fmt("%s=%s", p->name.value, v);
}

bool dl_q_conda_channels(const dl_py_package *p, dl_strv *channels)
{
    if (!p->channel.value)
        return false;
    dl_strv_add_once(channels, p->channel.value);
    if (!strcmp(p->channel.value, "pytorch") && p->version.value &&
        strstr(p->version.value, "cuda"))
        dl_strv_add_once(channels, "nvidia");
    return true;
}

bool dl_q_torch_imported(const dl_python *py)
{
    return py && dl_q_text_is(&py->runtime.status, "imported");
}

bool dl_q_says_no_torch(const char *error)
{
    const char *p = error ? strstr(error, "No module named ") : NULL;
    if (!p)
        return false;
    p += strlen("No module named ");
    if (*p == '\'')
        return strncmp(p, "'torch'", 7) == 0;
    return strncmp(p, "torch", 5) == 0 && (p[5] == '\0' || p[5] == ' ' || p[5] == '\n');
}

const char *dl_q_torch_version(const dl_python *py)
{
    const dl_torch_install *t = dl_q_static_torch(py);
    const dl_py_package *p = dl_q_package(py, "torch");
    if (t && t->version.value)
        return t->version.value;
    return p ? p->version.value : NULL;
}

const char *dl_q_first_torch_version(const dl_facts *f)
{
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    const char *v = dl_q_torch_version(py);
    return v || !py ? v : py->runtime.version.value;
}

const dl_torch_install *dl_q_listed_torch(const dl_facts *f)
{
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    const dl_site_packages *site =
        py && py->site_packages.count ? &DL_LIST_AT(py->site_packages, dl_site_packages, 0) : NULL;
    return site && site->torches.count ? &DL_LIST_AT(site->torches, dl_torch_install, 0) : NULL;
}

const char *dl_q_torch_cuda(const dl_facts *f)
{
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    const dl_torch_install *t = dl_q_listed_torch(f);
    if (py && py->runtime.version.value)
        return py->runtime.cuda.value;
    return t ? t->cuda.value : NULL;
}

/* The newest CUDA the driver runs (1000 x major + 10 x minor): NVML's answer, else the
 * driver API's; 0 when neither answered. */
long long dl_q_driver_cuda(const dl_facts *f)
{
    if (f->nvml.cuda_driver_version.known && f->nvml.cuda_driver_version.value > 0)
        return f->nvml.cuda_driver_version.value;
    if (f->cuda_driver.driver_version.known && f->cuda_driver.driver_version.value > 0)
        return f->cuda_driver.driver_version.value;
    return 0;
}

const dl_cuda_device *dl_q_cuda_device(const dl_facts *f, long long index)
{
    size_t i;
    for (i = 0; f->cuda_driver.devices.known && i < f->cuda_driver.devices.count; i++) {
        const dl_cuda_device *d = &DL_LIST_AT(f->cuda_driver.devices, dl_cuda_device, i);
        if (d->index.known && d->index.value == index)
            return d;
    }
    return NULL;
}

bool dl_q_is_windows(const dl_facts *f)
{
    return dl_q_text_is(&f->os.family, "windows");
}

bool dl_q_text_is(const dl_text *t, const char *value)
{
    return t->value && strcmp(t->value, value) == 0;
}
