/* Compatibility against the knowledge tables: the driver against the CUDA torch was built
 * with, the GPU against the architectures compiled into the wheel, Python against the
 * releases that have wheels for it. */
#include "know/arch.h"
#include "know/version.h"
#include "rules/fixes.h"
#include "rules/know_query.h"
#include "rules/query.h"
#include "rules/rules.h"

#include <stdio.h>
#include <string.h>

/* The CUDA the main interpreter's torch was built with ("12.1"), or NULL. */
static const char *torch_cuda(const dl_python *py)
{
    const dl_torch_install *t = dl_q_static_torch(py);
    const char *c = dl_q_torch_imported(py) ? py->runtime.cuda.value : t ? t->cuda.value : NULL;
    return c && strcmp(c, "none") != 0 ? c : NULL;
}

static const char *torch_version(const dl_python *py)
{
    const dl_torch_install *t = dl_q_static_torch(py);
    return dl_q_torch_imported(py) ? py->runtime.version.value : t ? t->version.value : NULL;
}

void dl_rule_driver_too_old(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    const dl_python *py = dl_q_main_python(f);
    const char *cuda = torch_cuda(py), *mvc = NULL;
    long long driver_cuda = dl_fix_driver_cuda(f);
    const dl_table *t = in->know ? dl_knowledge_table(in->know, "cuda_driver") : NULL;
    long row = t && cuda ? dl_kq_find(t, "cuda_version", cuda) : -1;
    char have[16] = "?";
    dl_cuda_compat c;
    dl_finding *x;
    if (!cuda || !driver_cuda)
        return;
    if (row >= 0)
        mvc = dl_table_get(t, (size_t)row, "mvc_min_driver_linux");
    c = dl_cuda_compat_check((int)driver_cuda, cuda, f->nvml.driver_version.value, mvc);
    if (c != DL_CUDA_COMPAT_TOO_OLD)
        return;
    dl_cuda_version_from_int((int)driver_cuda, have, sizeof have);
    x = dl_finding_add(out, "driver_too_old", DL_LAYER_DRIVER, DL_SEV_FAILURE,
                       "The driver runs CUDA up to %s, but torch was built with CUDA %s", have,
                       cuda);
    dl_finding_evidence(x, "nvml.cuda_driver_version", "%lld (CUDA %s)", driver_cuda, have);
    dl_finding_evidence(x, "pythons[0].torch.cuda", "%s", cuda);
    if (f->nvml.driver_version.value)
        dl_finding_evidence(x, "nvml.driver_version", "%s", f->nvml.driver_version.value);
    if (row >= 0 && dl_table_get(t, (size_t)row, "min_driver_linux"))
        dl_finding_fix(x, "# update the driver to %s or newer for CUDA %s, or:",
                       dl_table_get(t, (size_t)row, "min_driver_linux"), cuda);
    dl_fix_install_torch(x, in, py, NULL);
}

/* The device's compute capability from NVML, else the CUDA driver. */
static const char *device_cc(const dl_facts *f)
{
    if (f->nvml.gpus.known && f->nvml.gpus.count)
        return DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, 0).compute_capability.value;
    if (f->cuda_driver.devices.known && f->cuda_driver.devices.count)
        return DL_LIST_AT(f->cuda_driver.devices, dl_cuda_device, 0).compute_capability.value;
    return NULL;
}

/* The wheel's targets: what torch itself says, else the table for its release. */
static bool wheel_targets(const dl_rule_input *in, const dl_python *py, dl_arch_list *list,
                          char *source, size_t n)
{
    dl_buf joined = {0};
    size_t i;
    const char *version = torch_version(py), *cuda = torch_cuda(py);
    char variant[16];
    long row;
    if (py->runtime.arch_list.known && py->runtime.arch_list.count) {
        for (i = 0; i < py->runtime.arch_list.count; i++)
            dl_buf_printf(&joined, "%s ", DL_LIST_AT(py->runtime.arch_list, char *, i));
        dl_arch_list_parse(joined.data, list);
        dl_buf_free(&joined);
        snprintf(source, n, "torch.cuda.get_arch_list()");
        return list->n > 0;
    }
    if (!version || !cuda || !dl_cuda_variant_name(cuda, variant, sizeof variant))
        return false;
    row = dl_kq_wheel_arches(in->know, version, variant, "linux");
    if (row < 0)
        return false;
    dl_arch_list_parse(dl_table_get(dl_knowledge_table(in->know, "wheel_arches"), (size_t)row,
                                    "torch_cuda_arch_list"), list);
    snprintf(source, n, "wheel_arches.csv (torch %s %s linux)", version, variant);
    return list->n > 0;
}

static void arch_rule(const dl_rule_input *in, dl_findings *out, const char *id)
{
    const dl_facts *f = in->facts;
    const dl_python *py = dl_q_main_python(f);
    const char *cc = device_cc(f);
    unsigned major, minor;
    dl_arch_list list;
    dl_arch_result r;
    char source[96];
    dl_finding *x;
    if (!py || !cc || !dl_cc_parse(cc, &major, &minor) ||
        !wheel_targets(in, py, &list, source, sizeof source))
        return;
    r = dl_arch_check(major, minor, &list);
    if (!r.diagnosis || strcmp(r.diagnosis, id) != 0)
        return;
    x = dl_finding_add(out, id, DL_LAYER_TORCH_BUILD, DL_SEV_FAILURE,
                       strcmp(id, "gpu_arch_dropped") == 0
                           ? "This torch no longer has kernels for this GPU (sm_%u%u): it is "
                             "older than every architecture the wheel was built for"
                           : "This torch has no kernels for this GPU (sm_%u%u): it is newer "
                             "than the architectures the wheel was built for",
                       major, minor);
    dl_finding_evidence(x, "nvml.gpus[0].compute_capability", "%s", cc);
    dl_finding_evidence(x, "wheel targets", "from %s", source);
    dl_fix_install_torch(x, in, py, NULL);
}

void dl_rule_arch_not_in_wheel(const dl_rule_input *in, dl_findings *out)
{
    arch_rule(in, out, "arch_not_in_wheel");
}

void dl_rule_gpu_arch_dropped(const dl_rule_input *in, dl_findings *out)
{
    arch_rule(in, out, "gpu_arch_dropped");
}

/* Has torch ever published wheels for this Python (X.Y)? Newest release that does. */
static long newest_for_python(const dl_table *t, const dl_version *py)
{
    long best = -1;
    size_t r;
    dl_torch_version v, bv;
    for (r = 0; r < t->rows; r++) {
        dl_version lo, hi;
        if (!dl_version_parse(dl_table_get(t, r, "python_min"), &lo) ||
            !dl_version_parse(dl_table_get(t, r, "python_max"), &hi) ||
            dl_version_cmp(py, &lo) < 0 || dl_version_cmp(py, &hi) > 0 ||
            !dl_torch_version_parse(dl_table_get(t, r, "torch_version"), &v))
            continue;
        if (best < 0 || dl_torch_version_cmp(&v, &bv) > 0) {
            best = (long)r;
            bv = v;
        }
    }
    return best;
}

void dl_rule_python_unsupported(const dl_rule_input *in, dl_findings *out)
{
    const dl_python *py = dl_q_main_python(in->facts);
    const dl_table *t = in->know ? dl_knowledge_table(in->know, "torch_releases") : NULL;
    dl_version pv;
    char xy[16];
    dl_finding *x;
    if (!py || !t || !py->version.value || !dl_version_parse(py->version.value, &pv) || pv.n < 2)
        return;
    pv.part[2] = pv.part[3] = 0; /* compare X.Y only */
    pv.n = 2;
    if (newest_for_python(t, &pv) >= 0)
        return;
    snprintf(xy, sizeof xy, "%lu.%lu", pv.part[0], pv.part[1]);
    x = dl_finding_add(out, "python_unsupported", DL_LAYER_PYTHON, DL_SEV_FAILURE,
                       "No torch release in dlenv's table supports Python %s", xy);
    dl_finding_evidence(x, "pythons[0].version", "%s", py->version.value);
    dl_finding_fix(x, "# use a Python that torch supports (see `dlenv data`: torch_releases "
                      "python_min..python_max), e.g. python3.12 -m venv ~/.venvs/torch");
}
