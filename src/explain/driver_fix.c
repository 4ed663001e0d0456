#include "explain/driver_fix.h"

#include "base/str.h"
#include "explain/build_choice.h"
#include "explain/text_marks.h"
#include "facts/query.h"
#include "know/gpu_chip.h"
#include "know/version.h"
#include "plan/driver_table.h"
#include "plan/plan.h"
#include "rules/fixes.h"
#include "rules/know_query.h"

#include <stdio.h>
#include <string.h>

/* The pip command for row `row` of torch_releases.csv in build `tag`, with the torchvision
 * the table pairs with it. */
/* The GPU's drivers end with a branch too old for every CUDA 12 build (Kepler: R470, CUDA
 * 11.4; gpu_chips.csv): that branch, and in *cuda the CUDA its newest release runs; 0 when
 * the GPU is unknown or its drivers run CUDA 12 (then "update the driver" holds as said). */
static int legacy_branch(const dl_knowledge *k, const dl_explanation *e, int *cuda)
{
    char top[16];
    int branch = e->gpu.hi ? dl_gpu_last_driver_branch(k, e->gpu.hi / 10, e->gpu.hi % 10) : 0;
    if (!branch)
        return 0;
    snprintf(top, sizeof top, "%d.999.99", branch);
    /* a branch's CUDA is the same on both systems; Linux's table names the branch itself
     * (Windows numbers R470 as 47x) */
    *cuda = dl_driver_cuda_for_driver(k, top, DL_PLAN_OS_LINUX);
    return *cuda && *cuda < 12000 ? branch : 0;
}

/* No build runs on the driver, and the GPU's drivers end with a legacy branch: that
 * branch, then the newest build that runs on it with kernels for the GPU. */
static void legacy_branch_fix(const dl_knowledge *k, dl_explanation *e, dl_finding *x,
                              const char *have, int branch, int cuda)
{
    const dl_table *t = dl_knowledge_at(k, DL_TABLE_torch_releases);
    char tag[16] = "", runs[16];
    long row = dl_newest_build_for(k, &e->gpu, cuda, dl_plan_os_parse(e->facts.os.family.value),
                                   NULL, tag, sizeof tag);
    dl_cuda_version_from_int(cuda, runs, sizeof runs);
    dl_fix_note(x, "the driver runs CUDA up to %s; this GPU gets drivers only up to the %d "
                   "branch, which runs CUDA %s: update the driver to the newest %d",
                have, branch, runs, branch);
    if (row < 0) {
        dl_fix_note(x, "then an older torch built for CUDA %s or older (pytorch.org's "
                       "previous versions)", runs);
        return;
    }
    dl_fix_note(x, "then torch %s's %s build, the newest with kernels for this GPU:",
                dl_table_cell(t, (size_t)row, DL_COL_torch_releases_torch_version), tag);
    dl_fix_install_build(x, t, row, tag);
}

/* The rules' fix (rules/fixes.c) leads with the driver's update; on a rented or hosted
 * machine the platform owns the driver, so the other way is the user's. */
static void hosted_driver_note(const dl_explanation *e, dl_finding *x)
{
    if (!x->fix.count || !strstr(DL_LIST_AT(x->fix, char *, 0), "update the driver to") ||
        !dl_text_hosted_or_remote(&e->paste))
        return;
    dl_fix_note(x, "on a hosted or rented machine (a notebook service, a cluster, a cloud pod) "
                   "the driver is the platform's, which a user inside it cannot update: take "
                   "the torch built for the CUDA it runs, or a machine whose driver runs this "
                   "build (rental sites let you filter hosts by CUDA version)");
}

void dl_explain_driver_too_old_fix(const dl_knowledge *k, dl_explanation *e)
{
    dl_finding *x = dl_findings_get(&e->findings, "driver_too_old");
    const dl_facts *f = &e->facts;
    bool windows = dl_q_is_windows(f);
    const char *torch_cuda = dl_q_torch_cuda(f);
    const char *python = f->pythons.count ? DL_LIST_AT(f->pythons, dl_python, 0).version.value
                                          : NULL;
    const dl_table *t = dl_knowledge_at(k, DL_TABLE_torch_releases);
    char have[16], tag[16] = "", unlock[32];
    bool through_mvc;
    long driver, row;
    int branch, branch_cuda = 0;
    if (x)
        hosted_driver_note(e, x);
    if (!x || !dl_finding_fix_is_only(x, "the number after 'found version'") ||
        !f->nvml.cuda_driver_version.known || (driver = f->nvml.cuda_driver_version.value) <= 0)
        return;
    dl_cuda_version_from_int((int)driver, have, sizeof have);
    /* the newest build for the text's Python, where it names one: a release without wheels
     * for that Python would not install (Python 3.8 ends at torch 2.4.1) */
    row = dl_newest_build_for(k, &e->gpu, (int)driver, dl_plan_os_parse(f->os.family.value),
                              python, tag, sizeof tag);
    if (row < 0 && python)
        row = dl_newest_build_for(k, &e->gpu, (int)driver, dl_plan_os_parse(f->os.family.value),
                                  NULL, tag, sizeof tag);
    dl_finding_fix_clear(x);
    if (dl_text_hosted_or_remote(&e->paste))
        dl_fix_note(x, "the driver belongs to the platform (a hosted notebook, a cluster, a "
                       "cloud image), which the user seldom can update: install the torch "
                       "built for the CUDA it runs");
    if (row >= 0) {
        const char *release = dl_table_cell(t, (size_t)row, DL_COL_torch_releases_torch_version);
        dl_fix_note(x, "the driver runs CUDA up to %s: torch %s's %s build runs on it", have,
                    release, tag);
        dl_fix_install_build(x, t, row, tag);
    } else if (driver < 7050) {
        /* PyTorch's first binaries were built with CUDA 7.5 */
        dl_fix_note(x, "the driver runs CUDA up to %s, older than any CUDA PyTorch was ever "
                       "built with: update the driver (%s or newer runs every CUDA 12 build, on "
                       "a GPU that driver still supports)", have, windows ? "527.41" : "525.60.13");
        return;
    } else if ((branch = legacy_branch(k, e, &branch_cuda)) && branch_cuda > driver) {
        legacy_branch_fix(k, e, x, have, branch, branch_cuda);
        return;
    } else {
        dl_fix_note(x, "the driver runs CUDA up to %s, and no CUDA build of the torch releases "
                       "dlenv knows (1.12 onward) runs on it%s: update the driver (%s or newer "
                       "runs every CUDA 12 build), or an older torch built for CUDA %s "
                       "(pytorch.org's previous versions)",
                    have, e->gpu.hi ? " with kernels for this GPU" : "",
                    windows ? "527.41" : "525.60.13", have);
        return;
    }
    if ((branch = legacy_branch(k, e, &branch_cuda)) != 0)
        dl_fix_note(x, "this GPU gets drivers only up to the %d branch", branch);
    else if (torch_cuda && strcmp(torch_cuda, "none") != 0 &&
        dl_driver_unlock_for_cuda(k, torch_cuda, windows ? DL_PLAN_OS_WINDOWS : DL_PLAN_OS_LINUX,
                                  unlock, sizeof unlock, &through_mvc))
        dl_fix_note(x, "or update the driver to %s or newer, which runs the CUDA %s build "
                       "installed now", unlock, torch_cuda);
    else if (driver >= 13000)
        dl_fix_note(x, "or update the driver until nvidia-smi's \"CUDA Version\" reaches the "
                       "CUDA torch was built with");
    else if (driver >= 12000)
        dl_fix_note(x, "or update the driver to 580 or newer, which runs the CUDA 13 builds");
    else
        dl_fix_note(x, "or update the driver: %s or newer runs every CUDA 12 build, 580 or "
                       "newer CUDA 13", windows ? "527.41" : "525.60.13");
}
