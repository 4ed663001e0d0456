#include "rules/fixes.h"

#include "base/str.h"
#include "know/version.h"
#include "rules/know_query.h"
#include "rules/query.h"

#include <stdlib.h>
#include <string.h>

long long dl_fix_driver_cuda(const dl_facts *f)
{
    if (f->nvml.cuda_driver_version.known && f->nvml.cuda_driver_version.value > 0)
        return f->nvml.cuda_driver_version.value;
    if (f->cuda_driver.driver_version.known && f->cuda_driver.driver_version.value > 0)
        return f->cuda_driver.driver_version.value;
    return 0;
}

/* The variants of one release, newest CUDA first that the driver runs. */
static char *best_variant(const char *list, long long driver_cuda)
{
    char *copy = dl_strdup(list), *save = NULL, *tok, *best = NULL;
    int best_int = 0;
    for (tok = strtok_r(copy, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
        dl_variant v = dl_torch_variant(dl_trim(tok));
        int need;
        if (v.kind != DL_VARIANT_CUDA || !dl_cuda_version_to_int(v.version, &need))
            continue;
        if (need <= driver_cuda && need > best_int) {
            best_int = need;
            free(best);
            best = dl_strdup(dl_trim(tok));
        }
    }
    free(copy);
    return best;
}

char *dl_fix_cuda_variant(const dl_rule_input *in)
{
    long long driver_cuda = dl_fix_driver_cuda(in->facts);
    long row = dl_kq_newest_torch(in->know);
    const char *list;
    if (!driver_cuda || row < 0)
        return NULL;
    list = dl_table_get(dl_knowledge_table(in->know, "torch_releases"), (size_t)row,
                        "cuda_variants_linux");
    return list ? best_variant(list, driver_cuda) : NULL;
}

void dl_fix_install_torch(dl_finding *x, const dl_rule_input *in, const dl_python *py,
                          const char *variant)
{
    char *chosen = variant                          ? dl_strdup(variant)
                   : !dl_q_has_nvidia_gpu(in->facts) ? dl_strdup("cpu")
                                                     : dl_fix_cuda_variant(in);
    const char *python = dl_q_python_cmd(py);
    /* A distribution's own Python refuses pip (PEP 668): work in a venv made from it. */
    if (py && dl_q_text_is(&py->kind, "system") && py->prefix.value &&
        strcmp(py->prefix.value, "/usr") == 0) {
        dl_finding_fix(x, "%s -m venv ~/.venvs/torch   (%s is the system's; keep torch in a "
                          "venv)", python, python);
        python = "~/.venvs/torch/bin/python";
    }
    if (chosen)
        dl_finding_fix(x, "%s -m pip install --upgrade --force-reinstall torch torchvision "
                          "torchaudio --index-url " DL_TORCH_INDEX "%s",
                       python, chosen);
    else
        dl_finding_fix(x, "%s -m pip install --upgrade --force-reinstall torch torchvision "
                          "torchaudio --index-url " DL_TORCH_INDEX "cuXYZ   (cuXYZ: a CUDA "
                          "version this driver runs; see nvidia-smi's \"CUDA Version\")",
                       python);
    free(chosen);
}

const char *dl_fix_distro(const dl_facts *f)
{
    const char *id = f->os.distro_id.value;
    if (!id)
        return "other";
    if (strcmp(id, "ubuntu") == 0 || strcmp(id, "pop") == 0 || strcmp(id, "linuxmint") == 0)
        return "ubuntu";
    if (strcmp(id, "debian") == 0)
        return "debian";
    if (strcmp(id, "fedora") == 0 || strcmp(id, "rhel") == 0 || strcmp(id, "rocky") == 0 ||
        strcmp(id, "almalinux") == 0 || strcmp(id, "centos") == 0)
        return "fedora";
    if (strcmp(id, "arch") == 0 || strcmp(id, "manjaro") == 0 || strcmp(id, "endeavouros") == 0)
        return "arch";
    return "other";
}
