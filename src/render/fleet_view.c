/* What the fleet views share: the node's status in health-checker words, the few facts
 * every view names (driver, the newest CUDA it runs, torch, compute capability), and each
 * check's level. */
#include "render/fleet_view.h"

#include "base/str.h"

#include <stdlib.h>
#include <string.h>

const char *dl_fleet_status(const dl_fleet_input *in)
{
    switch (in->view->judged.verdict) {
    case DL_VERDICT_FAILURE: return "failure";
    case DL_VERDICT_WARNING: return "warning";
    case DL_VERDICT_CANNOT_JUDGE: return "cannot_judge";
    case DL_VERDICT_OK:
    case DL_VERDICT_INFO: break;
    }
    return "ok";
}

/* 12040 -> "12.4", as NVIDIA writes the CUDA version a driver runs. */
static char *cuda_version(const dl_int *v)
{
    if (!v->known || v->value <= 0)
        return NULL;
    return dl_fmt("%lld.%lld", v->value / 1000, (v->value % 1000) / 10);
}

static char *first_torch(const dl_facts *f)
{
    size_t p, s, t;
    for (p = 0; p < f->pythons.count; p++) {
        const dl_python *py = &DL_LIST_AT(f->pythons, dl_python, p);
        for (s = 0; s < py->site_packages.count; s++) {
            const dl_site_packages *sp = &DL_LIST_AT(py->site_packages, dl_site_packages, s);
            for (t = 0; t < sp->torches.count; t++) {
                const char *v = DL_LIST_AT(sp->torches, dl_torch_install, t).version.value;
                if (v)
                    return dl_strdup(v);
            }
        }
    }
    return NULL;
}

/* Every distinct capability NVML (else the CUDA driver) reports, comma-separated. */
static char *capabilities(const dl_facts *f)
{
    dl_strv seen = {0};
    dl_buf b = {0};
    size_t i;
    bool any;
    for (i = 0; i < f->nvml.gpus.count; i++)
        dl_strv_add_once(&seen, DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, i).compute_capability.value);
    if (!seen.n)
        for (i = 0; i < f->cuda_driver.devices.count; i++)
            dl_strv_add_once(&seen, DL_LIST_AT(f->cuda_driver.devices, dl_cuda_device, i)
                                        .compute_capability.value);
    for (i = 0; i < seen.n; i++)
        dl_buf_printf(&b, "%s%s", i ? "," : "", seen.v[i]);
    any = seen.n > 0;
    dl_strv_free(&seen);
    return any ? dl_buf_take(&b) : NULL;
}

void dl_fleet_info_build(const dl_facts *f, dl_fleet_info *out)
{
    const char *driver = f->nvml.driver_version.value;
    if (!driver)
        driver = f->nvidia_kernel.driver_version.value;
    out->driver = driver ? dl_strdup(driver) : NULL;
    out->max_cuda = cuda_version(&f->nvml.cuda_driver_version);
    if (!out->max_cuda)
        out->max_cuda = cuda_version(&f->cuda_driver.driver_version);
    out->torch = first_torch(f);
    out->capability = capabilities(f);
}

void dl_fleet_info_free(dl_fleet_info *info)
{
    free(info->driver);
    free(info->max_cuda);
    free(info->torch);
    free(info->capability);
    memset(info, 0, sizeof *info);
}

int dl_fleet_check_level(const dl_findings *fs, const char *id)
{
    size_t i;
    int level = 0;
    for (i = 0; i < fs->items.count; i++) {
        const dl_finding *x = &DL_LIST_AT(fs->items, dl_finding, i);
        int sev;
        if (!x->id.value || strcmp(x->id.value, id))
            continue;
        sev = dl_severity_of_name(x->severity.value ? x->severity.value : "");
        if (sev == DL_SEV_FAILURE)
            level = 2;
        else if (sev == DL_SEV_WARNING && level < 1)
            level = 1;
    }
    return level;
}
