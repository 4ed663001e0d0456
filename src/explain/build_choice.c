#include "explain/build_choice.h"

#include "base/str.h"
#include "know/arch.h"
#include "know/gpu_chip.h"
#include "know/version.h"
#include "rules/fixes.h"
#include "rules/know_query.h"

#include <stdio.h>
#include <string.h>

int dl_variant_cuda(const char *variant)
{
    dl_variant var = dl_torch_variant(variant);
    int cuda;
    return var.kind == DL_VARIANT_CUDA && dl_cuda_version_to_int(var.version, &cuda) ? cuda : 0;
}

/* A build for CUDA `cuda` runs on a driver that runs CUDA up to `driver`: outright, or by
 * minor-version compatibility within the major from CUDA 11 on (a CUDA 11 driver from 11.1
 * on, 455 and newer, is above 11's 450.80.02; every CUDA 12 and 13 driver is above its
 * major's minimum). */
static bool runs_on(int cuda, int driver)
{
    if (cuda <= driver)
        return true;
    return cuda / 1000 == driver / 1000 && cuda >= 11000 &&
           (cuda / 1000 > 11 || driver >= 11010);
}

/* The cuDNN the build bundles (cudnn.csv, by torch minor and variant) still has kernels for
 * the GPU's oldest possible capability: cuDNN 8.9 and newer carry none for Kepler, so torch
 * 2.4+ cu118 (cuDNN 9) does not fully run on a K80 though its own kernels list sm_37 (the
 * planner's check_cudnn). A build the table does not list is not held against it. */
static bool cudnn_runs(const dl_knowledge *k, const dl_gpu_span *gpu, const char *release,
                       const char *variant)
{
    const char *bundled, *without;
    return !dl_gpu_bundled_cudnn_lacks(k, release, variant, gpu->lo / 10, gpu->lo % 10,
                                       &bundled, &without);
}

/* The build (torch `release`, `variant`) has machine code for every capability the text's
 * GPU may have; true when the text names no GPU (the note says the build, the GPU decides
 * the rest). A build the arch table does not list is not taken for one that runs. */
static bool has_kernels(const dl_knowledge *k, const dl_gpu_span *gpu, const char *release,
                        const char *variant, bool windows)
{
    const dl_table *t = dl_knowledge_at(k, DL_TABLE_wheel_arches);
    dl_arch_list parsed;
    long row;
    if (!gpu->hi)
        return true;
    row = dl_kq_wheel_arches(k, release, variant, windows ? "windows" : "linux");
    if (row < 0 && windows)
        row = dl_kq_wheel_arches(k, release, variant, "linux");
    if (row < 0 ||
        !dl_arch_list_parse(dl_table_cell(t, (size_t)row, DL_COL_wheel_arches_torch_cuda_arch_list),
                            &parsed))
        return false;
    return dl_arch_check(gpu->lo / 10, gpu->lo % 10, &parsed).verdict == DL_ARCH_RUNS_SASS &&
           dl_arch_check(gpu->hi / 10, gpu->hi % 10, &parsed).verdict == DL_ARCH_RUNS_SASS &&
           cudnn_runs(k, gpu, release, variant);
}

/* The newest variant in a ";"-list of torch_releases that runs on the driver and the GPU,
 * and is in the list `also` too when that is given: its CUDA, and its name in tag; 0 when
 * none does. */
static int best_variant(const dl_knowledge *k, const dl_gpu_span *gpu, const char *release,
                        bool windows, const char *list, const char *also, int driver, char *tag,
                        size_t cap)
{
    const char *at;
    int best = 0;
    for (at = list; *at; at += strcspn(at, ";"), at += *at == ';') {
        size_t n = strcspn(at, ";");
        char variant[16];
        int c;
        if (n >= sizeof variant)
            continue;
        memcpy(variant, at, n);
        variant[n] = '\0';
        if ((c = dl_variant_cuda(variant)) && (!also || dl_semicolon_list_has(also, variant)) &&
            runs_on(c, driver) && c > best && n < cap &&
            has_kernels(k, gpu, release, variant, windows)) {
            best = c;
            memcpy(tag, at, n);
            tag[n] = '\0';
        }
    }
    return best;
}

long dl_newest_build_for(const dl_knowledge *k, const dl_gpu_span *gpu, int driver,
                         dl_plan_os os, const char *python, char *tag, size_t cap)
{
    bool windows = os == DL_PLAN_OS_WINDOWS;
    const dl_table *t = dl_knowledge_at(k, DL_TABLE_torch_releases);
    dl_torch_version best, v;
    long row = -1;
    size_t r;
    for (r = 0; t && r < t->rows; r++) {
        const char *status = dl_table_cell(t, r, DL_COL_torch_releases_status);
        const char *list = dl_table_cell(t, r, windows ? DL_COL_torch_releases_cuda_variants_windows
                                                       : DL_COL_torch_releases_cuda_variants_linux);
        const char *release = dl_table_cell(t, r, DL_COL_torch_releases_torch_version);
        /* an OS the text does not name: a build both Linux and Windows have */
        const char *also = os == DL_PLAN_OS_LINUX || windows
                               ? NULL
                               : dl_table_cell(t, r, DL_COL_torch_releases_cuda_variants_windows);
        char here[16];
        if (!status || strcmp(status, "released") != 0 || !list ||
            !dl_torch_version_parse(release, &v) ||
            !best_variant(k, gpu, release, windows, list, also, driver, here,
                          sizeof here) ||
            (python && !dl_kq_release_has_python(k, release, python)) ||
            (row >= 0 && dl_torch_version_cmp(&v, &best) <= 0))
            continue;
        best = v;
        row = (long)r;
        snprintf(tag, cap, "%s", here);
    }
    return row;
}

int dl_build_for_release(const dl_knowledge *k, const dl_gpu_span *gpu, const char *release,
                         dl_plan_os os, int driver, char *tag, size_t cap)
{
    const dl_table *t = dl_knowledge_at(k, DL_TABLE_torch_releases);
    bool windows = os == DL_PLAN_OS_WINDOWS;
    long row = t ? dl_kq_torch_release(k, release) : -1;
    if (row < 0)
        return 0;
    return best_variant(k, gpu, release, windows,
                        dl_table_cell(t, (size_t)row,
                                      windows ? DL_COL_torch_releases_cuda_variants_windows
                                              : DL_COL_torch_releases_cuda_variants_linux),
                        NULL, driver, tag, cap);
}

void dl_fix_install_build(dl_finding *x, const dl_table *t, long row, const char *tag)
{
    const char *vision = dl_table_cell(t, (size_t)row, DL_COL_torch_releases_torchvision);
    dl_finding_fix(x, "python -m pip install torch==%s%s%s --index-url "
                      "https://download.pytorch.org/whl/%s",
                   dl_table_cell(t, (size_t)row, DL_COL_torch_releases_torch_version),
                   vision && *vision ? " torchvision==" : "", vision && *vision ? vision : "",
                   tag);
}
