#include "plan/machine_facts.h"

#include "base/str.h"
#include "facts/query.h"
#include "know/arch.h"
#include "know/version.h"
#include "plan/gpu_names.h"

#include <stdio.h>
#include <string.h>

static void add_gpu(dl_plan_machine *m, dl_gpu_vendor v, const char *name, const char *cc,
                    const dl_knowledge *k)
{
    dl_plan_gpu *g;
    if (m->n_gpus >= DL_PLAN_MAX_GPUS)
        return;
    g = &m->gpus[m->n_gpus++];
    memset(g, 0, sizeof *g);
    g->vendor = v;
    dl_fixed_fmt(g->name, sizeof g->name, "%s", name ? name : "unknown GPU"); /* "…" if cut */
    /* The driver's answer first; the name table only when the driver gave none. */
    if (!(cc && dl_cc_parse(cc, &g->cc_major, &g->cc_minor)) && v == DL_GPU_NVIDIA && name)
        dl_plan_gpu_resolve(k, name, g);
}

/* A GPU on the PCI bus: its id through the built-in table first (Windows has no pci.ids,
 * and the chip code decides the capability or target), its name for the prose. */
static void add_pci_gpu(dl_plan_machine *m, dl_gpu_vendor v, const dl_pci_gpu *p,
                        const dl_knowledge *k)
{
    dl_plan_gpu from_id;
    dl_plan_gpu *g;
    memset(&from_id, 0, sizeof from_id);
    if (!p->vendor_id.known || !p->device_id.known ||
        !dl_plan_gpu_from_pci_table(k, (long)p->vendor_id.value, (long)p->device_id.value,
                                    &from_id)) {
        add_gpu(m, v, p->device_name.value, NULL, k);
        if (v != DL_GPU_NVIDIA && p->device_name.value && m->n_gpus && p->device_id.known)
            dl_plan_gpu_target_from_pci_name(k, p->device_name.value,
                                             (long)p->device_id.value,
                                             &m->gpus[m->n_gpus - 1]);
        return;
    }
    if (m->n_gpus >= DL_PLAN_MAX_GPUS)
        return;
    g = &m->gpus[m->n_gpus++];
    *g = from_id;
    g->vendor = v;
    if (p->device_name.value) /* the driver's or pci.ids' name reads better than the id */
        dl_fixed_fmt(g->name, sizeof g->name, "%s", p->device_name.value);
}

static void add_gpus(const dl_facts *f, const dl_knowledge *k, dl_plan_machine *m)
{
    size_t i;
    if (f->nvml.gpus.known && f->nvml.gpus.count) {
        for (i = 0; i < f->nvml.gpus.count; i++) {
            const dl_nvml_gpu *g = &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, i);
            add_gpu(m, DL_GPU_NVIDIA, g->name.value, g->compute_capability.value, k);
        }
    } else if (f->cuda_driver.devices.known && f->cuda_driver.devices.count) {
        for (i = 0; i < f->cuda_driver.devices.count; i++) {
            const dl_cuda_device *d = &DL_LIST_AT(f->cuda_driver.devices, dl_cuda_device, i);
            add_gpu(m, DL_GPU_NVIDIA, d->name.value, d->compute_capability.value, k);
        }
    }
    /* PCI adds the other vendors, and NVIDIA cards the driver could not show. */
    for (i = 0; f->gpus.known && i < f->gpus.count; i++) {
        const dl_pci_gpu *g = &DL_LIST_AT(f->gpus, dl_pci_gpu, i);
        dl_gpu_vendor v = g->vendor_id.known ? dl_gpu_vendor_of_pci(g->vendor_id.value)
                                             : DL_GPU_OTHER;
        if (v == DL_GPU_NVIDIA && m->n_gpus && m->gpus[0].vendor == DL_GPU_NVIDIA &&
            (f->nvml.gpus.count || f->cuda_driver.devices.count))
            continue;
        add_pci_gpu(m, v, g, k);
    }
}

static void set_python(const dl_python *py, dl_plan_machine *m)
{
    dl_version v;
    if (!py || !py->version.value || !dl_version_parse(py->version.value, &v) || v.n < 2)
        return;
    m->py_major = (unsigned)v.part[0];
    m->py_minor = (unsigned)v.part[1];
    if (py->bits.known)
        m->py_bits = (int)py->bits.value;
}

void dl_plan_machine_from_facts(const dl_facts *f, const dl_python *py, const dl_knowledge *k,
                                dl_plan_machine *m)
{
    const char *family = f->os.family.value, *driver = f->nvml.driver_version.value;
    memset(m, 0, sizeof *m);
    m->os = dl_plan_os_parse(family);
    /* an arch that does not fit ends in "…": no wheel names it, so it plans as unknown */
    dl_fixed_fmt(m->arch, sizeof m->arch, "%s", f->os.arch.value ? f->os.arch.value : "x86_64");
    set_python(py ? py : dl_q_main_python(f), m);
    add_gpus(f, k, m);
    if (!driver)
        driver = f->nvidia_kernel.driver_version.value;
    if (driver)
        dl_driver_normalize(driver, m->driver, sizeof m->driver);
    m->driver_cuda = (int)dl_q_driver_cuda(f);
}
