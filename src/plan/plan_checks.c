#include "plan/plan_checks.h"

#include "base/str.h"
#include "know/arch.h"
#include "know/gpu_chip.h"
#include "know/gpu_target.h"
#include "know/version.h"
#include "plan/driver_table.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Stands for "a driver, too old for any CUDA in cuda_driver.csv" (a real CUDA is >= 1000). */
#define DL_DRIVER_CUDA_OLDER 1

static void fail(dl_plan_candidate *c, dl_plan_reason r, const char *fmt, ...)
    DL_PRINTF_LIKE(3, 4)
    ;

static void fail(dl_plan_candidate *c, dl_plan_reason r, const char *fmt, ...)
{
    va_list ap;
    c->fails |= 1u << r;
    va_start(ap, fmt);
    c->cut |= !dl_fixed_vfmt(c->detail[r], sizeof c->detail[r], fmt, ap);
    va_end(ap);
}

static bool has_vendor(const dl_plan_machine *m, dl_gpu_vendor v)
{
    size_t i;
    for (i = 0; i < m->n_gpus; i++)
        if (m->gpus[i].vendor == v)
            return true;
    return false;
}

static const char *arch_name(const char *arch)
{
    if (!strcmp(arch, "x86_64") || !strcmp(arch, "amd64") || !strcmp(arch, "AMD64"))
        return "x86_64";
    if (!strcmp(arch, "arm64") || !strcmp(arch, "aarch64") || !strcmp(arch, "ARM64"))
        return "arm64";
    if (!strcmp(arch, "x86") || !strcmp(arch, "i686") || !strcmp(arch, "i386"))
        return "x86";
    return arch;
}

/* ---- --torch: "2.3" (any 2.3.x), "2.3.1", or requirements ">=2.1,<2.4" ---- */

static bool torch_matches(const char *req, const dl_torch_version *v, bool *parsed)
{
    dl_version want;
    dl_strv parts = {0};
    size_t i;
    bool ok = true;
    *parsed = true;
    if (!req || !*req)
        return true;
    if (dl_version_parse(req, &want)) {
        for (i = 0; i < (size_t)want.n; i++)
            if (want.part[i] != v->release.part[i])
                return false;
        return true;
    }
    dl_strv_split(&parts, req, ',');
    for (i = 0; i < parts.n; i++) {
        dl_requirement r;
        if (!dl_requirement_parse(parts.v[i], &r) || r.op == DL_REQ_ANY) {
            *parsed = false;
            ok = false;
            break;
        }
        if (!dl_requirement_test(&r, &v->release))
            ok = false;
    }
    dl_strv_free(&parts);
    return ok;
}

/* The oldest GPU here bounds the drivers: Kepler ends at R470, Maxwell to Volta at R580. */
static void last_branch(dl_plan_checker *chk)
{
    size_t i;
    for (i = 0; i < chk->m->n_gpus; i++) {
        const dl_plan_gpu *g = &chk->m->gpus[i];
        int branch = g->vendor == DL_GPU_NVIDIA && g->cc_major
                         ? dl_gpu_last_driver_branch(chk->k, g->cc_major, g->cc_minor)
                         : 0;
        if (branch && (!chk->last_branch || branch < chk->last_branch)) {
            chk->last_branch = branch;
            chk->last_branch_gpu = g->name;
        }
    }
}

bool dl_plan_checker_init(dl_plan_checker *chk, const dl_knowledge *k, const dl_plan_machine *m,
                          const dl_plan_constraints *cons, char **error)
{
    dl_torch_version probe;
    bool parsed;
    memset(chk, 0, sizeof *chk);
    chk->k = k;
    chk->m = m;
    chk->cons = cons;
    /* fits by construction: the longest OS name (7) and arch (15, plan.h) and a dash */
    snprintf(chk->platform, sizeof chk->platform, "%s-%s", dl_plan_os_name(m->os),
             arch_name(m->arch));
    if (m->py_major && !dl_fixed_fmt(chk->python_tag, sizeof chk->python_tag, "cp%u%u%s",
                                     m->py_major, m->py_minor, m->py_free_threaded ? "t" : "")) {
        *error =
            dl_fmt("Python %u.%u: not a version the planner can hold", m->py_major, m->py_minor);
        return false;
    }
    chk->driver_cuda = m->driver_cuda ? m->driver_cuda
                       : m->driver[0] ? dl_driver_cuda_for_driver(k, m->driver, m->os)
                                      : 0;
    last_branch(chk);
    /* A driver older than every CUDA in the table is a driver, not an unknown one. */
    if (!chk->driver_cuda && m->driver[0])
        chk->driver_cuda = DL_DRIVER_CUDA_OLDER;
    dl_torch_version_parse("0.0.0", &probe);
    torch_matches(cons->torch, &probe, &parsed);
    if (!parsed) {
        *error = dl_fmt("--torch '%s': expected a version (2.3, 2.3.1) or requirements "
                        "(>=2.1,<2.4)", cons->torch);
        return false;
    }
    return true;
}

/* ---- the variant's kind and what it needs ---- */

static dl_plan_want variant_want(const char *variant)
{
    if (!strcmp(variant, "cpu"))
        return DL_WANT_CPU;
    if (!strncmp(variant, "cu", 2))
        return DL_WANT_CUDA;
    if (!strncmp(variant, "rocm", 4))
        return DL_WANT_ROCM;
    if (!strcmp(variant, "xpu"))
        return DL_WANT_XPU;
    return DL_WANT_MPS; /* the macOS wheels: MPS on Apple silicon, CPU elsewhere */
}

int dl_plan_accelerated(const dl_plan_candidate *c, const dl_plan_machine *m)
{
    switch (variant_want(c->variant)) {
    case DL_WANT_CUDA: return has_vendor(m, DL_GPU_NVIDIA);
    case DL_WANT_ROCM: return has_vendor(m, DL_GPU_AMD);
    case DL_WANT_XPU: return has_vendor(m, DL_GPU_INTEL);
    case DL_WANT_MPS: return !strcmp(arch_name(m->arch), "arm64");
    default: return 0;
    }
}

/* cu126 -> 126; a dotted version (rocm6.2.4, rocm6.3) by its parts, so rocm6.3 ranks
 * above rocm6.2.4 (as digits alone, 63 < 624). */
int dl_plan_variant_rank(const char *variant)
{
    int rank = 0, part = 0, weight = 10000;
    const char *p;
    if (!strchr(variant, '.')) {
        for (p = variant; *p; p++)
            if (*p >= '0' && *p <= '9')
                rank = rank * 10 + (*p - '0');
        return rank;
    }
    for (p = variant; *p; p++) {
        if (*p >= '0' && *p <= '9')
            part = part * 10 + (*p - '0');
        else if (*p == '.') {
            rank += part * weight;
            weight /= 100;
            part = 0;
        }
    }
    return rank + part * weight;
}

static bool want_ok(const dl_plan_checker *chk, dl_plan_want kind)
{
    dl_plan_want want = chk->cons->want;
    if (want == DL_WANT_ANY || want == kind)
        return true;
    /* The macOS wheels are the CPU build there too. */
    return want == DL_WANT_CPU && kind == DL_WANT_MPS;
}

/* ---- checks ---- */

static const dl_table *table(const dl_plan_checker *chk, dl_table_id id)
{
    return dl_knowledge_at(chk->k, id);
}

static long wheels_row(const dl_plan_checker *chk, const char *torch, bool *any_for_version)
{
    const dl_table *t = table(chk, DL_TABLE_torch_wheels);
    size_t r;
    *any_for_version = false;
    for (r = 0; t && r < t->rows; r++) {
        const char *v = dl_table_cell(t, r, DL_COL_torch_wheels_torch_version);
        if (!v || strcmp(v, torch) != 0)
            continue;
        *any_for_version = true;
        if (!strcmp(dl_table_cell(t, r, DL_COL_torch_wheels_platform), chk->platform))
            return (long)r;
    }
    return -1;
}


static void check_platform_python(const dl_plan_checker *chk, size_t row,
                                  dl_plan_candidate *c, dl_plan_want kind)
{
    const dl_table *rel = table(chk, DL_TABLE_torch_releases);
    const dl_plan_machine *m = chk->m;
    bool any;
    long w = wheels_row(chk, c->torch, &any);
    const char *arch = arch_name(m->arch);
    if (m->py_bits == 32 || !strcmp(arch, "x86"))
        fail(c, DL_REJ_PYTHON_32BIT, "torch publishes 64-bit wheels only; this Python is "
                                     "32-bit");
    else if (any && w < 0)
        fail(c, DL_REJ_PLATFORM, "torch %s has no wheels for %s", c->torch, chk->platform);
    else if (kind == DL_WANT_ROCM && m->os == DL_PLAN_OS_WINDOWS)
        fail(c, DL_REJ_PLATFORM, "PyTorch publishes ROCm wheels (%s) for Linux only; none "
             "for Windows", c->variant);
    if (w >= 0 && chk->python_tag[0]) {
        const char *tags = dl_table_cell(table(chk, DL_TABLE_torch_wheels), (size_t)w,
                                         DL_COL_torch_wheels_python_tags);
        dl_version py, lo, hi;
        if (!dl_semicolon_list_has(tags, chk->python_tag))
            fail(c, DL_REJ_PYTHON, "torch %s has wheels for %s on %s, not %s", c->torch, tags,
                 chk->platform, chk->python_tag);
        dl_version_parse("0", &py);
        py.part[0] = m->py_major;
        py.part[1] = m->py_minor;
        py.n = 2;
        if (dl_version_parse(dl_table_cell(rel, row, DL_COL_torch_releases_python_min), &lo) &&
            dl_version_parse(dl_table_cell(rel, row, DL_COL_torch_releases_python_max), &hi) &&
            (dl_version_cmp(&py, &lo) < 0 || dl_version_cmp(&py, &hi) > 0))
            c->python_unofficial = true;
    }
}

static void check_gpu_present(const dl_plan_checker *chk, dl_plan_candidate *c,
                              dl_plan_want kind)
{
    static const struct { dl_plan_want kind; dl_gpu_vendor vendor; const char *what; } need[] = {
        {DL_WANT_CUDA, DL_GPU_NVIDIA, "an NVIDIA GPU"},
        {DL_WANT_ROCM, DL_GPU_AMD, "an AMD GPU supported by ROCm"},
        {DL_WANT_XPU, DL_GPU_INTEL, "an Intel GPU"},
    };
    size_t i;
    for (i = 0; i < sizeof need / sizeof need[0]; i++)
        if (need[i].kind == kind && !has_vendor(chk->m, need[i].vendor))
            fail(c, DL_REJ_NO_GPU, "%s needs %s; none here", c->variant, need[i].what);
    if (kind == DL_WANT_MPS && chk->cons->want == DL_WANT_MPS &&
        strcmp(arch_name(chk->m->arch), "arm64") != 0)
        fail(c, DL_REJ_NO_GPU, "MPS needs Apple silicon (arm64); this Mac is %s",
             chk->m->arch);
}

static void check_driver(const dl_plan_checker *chk, dl_plan_candidate *c, const char *cuda)
{
    const dl_plan_machine *m = chk->m;
    bool from_linux = false;
    char have[80];
    dl_cuda_compat compat;
    int need;
    if (!dl_driver_min_for_cuda(chk->k, cuda, m->os, c->min_driver, sizeof c->min_driver,
                                &from_linux))
        c->min_driver[0] = '\0';
    c->min_driver_from_linux = from_linux && c->min_driver[0];
    if (!chk->driver_cuda || !dl_cuda_version_to_int(cuda, &need))
        return; /* no driver yet: the plan says which to install */
    compat = dl_cuda_compat_check(chk->driver_cuda, cuda, m->driver[0] ? m->driver : NULL,
                                  dl_driver_mvc_min(chk->k, cuda, m->os));
    if (compat == DL_CUDA_COMPAT_OK)
        return;
    if (compat == DL_CUDA_COMPAT_OK_MINOR_COMPAT) {
        c->minor_compat = true;
        return;
    }
    if (chk->driver_cuda == DL_DRIVER_CUDA_OLDER)
        snprintf(have, sizeof have, "driver %s (older than every CUDA dlenv knows)",
                 m->driver);
    else if (m->driver[0])
        snprintf(have, sizeof have, "driver %s (CUDA %d.%d)", m->driver,
                 chk->driver_cuda / 1000, chk->driver_cuda % 1000 / 10);
    else
        snprintf(have, sizeof have, "a driver for CUDA %d.%d", chk->driver_cuda / 1000,
                 chk->driver_cuda % 1000 / 10);
    fail(c, DL_REJ_DRIVER, "%s needs driver >= %s%s; this machine has %s", c->variant,
         c->min_driver[0] ? c->min_driver : "(unknown)",
         from_linux ? DL_PLAN_LINUX_FIGURE_NOTE : "", have);
}

/* The architecture list of torch minor X.Y, variant, OS; else the nearest minor's for the
 * same variant and OS (lists change rarely within a variant), said in arch_note. */
static bool arch_list_for(const dl_plan_checker *chk, const dl_torch_version *v,
                          const char *variant, dl_arch_list *list, dl_plan_candidate *c)
{
    const dl_table *t = table(chk, DL_TABLE_wheel_arches);
    /* Linux arm64 (sbsa) builds have their own lists: rows "linux-arm64" */
    const char *os = !strcmp(chk->platform, "linux-arm64") ? chk->platform
                                                           : dl_plan_os_name(chk->m->os);
    long best = -1, best_dist = 0;
    size_t r;
    for (r = 0; t && r < t->rows; r++) {
        const char *minor = dl_table_cell(t, r, DL_COL_wheel_arches_torch_minor), *cell;
        dl_version mv;
        long dist;
        if (strcmp(dl_table_cell(t, r, DL_COL_wheel_arches_cuda_variant), variant) ||
            strcmp(dl_table_cell(t, r, DL_COL_wheel_arches_os), os) ||
            !dl_version_parse(minor, &mv))
            continue;
        cell = dl_table_cell(t, r, DL_COL_wheel_arches_torch_cuda_arch_list);
        if (!cell || !*cell)
            continue;
        dist = labs((long)(mv.part[0] * 100 + mv.part[1]) -
                    (long)(v->release.part[0] * 100 + v->release.part[1]));
        if (best < 0 || dist < best_dist) {
            best = (long)r;
            best_dist = dist;
        }
    }
    if (best < 0) {
        c->cut |= !dl_fixed_fmt(c->arch_note, sizeof c->arch_note,
                                "architecture list of %s %s on %s not "
                                "known to dlenv",
                                c->torch, variant, os);
        return false;
    }
    dl_arch_list_parse(dl_table_cell(t, (size_t)best, DL_COL_wheel_arches_torch_cuda_arch_list),
                       list);
    if (best_dist)
        c->cut |= !dl_fixed_fmt(c->arch_note, sizeof c->arch_note,
                                "architectures of torch %s %s on %s "
                                "assumed as in %s",
                                c->torch, variant, os,
                                dl_table_cell(t, (size_t)best, DL_COL_wheel_arches_torch_minor));
    return list->n > 0;
}

static void check_arch(const dl_plan_checker *chk, dl_plan_candidate *c)
{
    dl_torch_version v;
    dl_arch_list list;
    size_t i;
    if (!dl_torch_version_parse(c->torch, &v) || !arch_list_for(chk, &v, c->variant, &list, c))
        return;
    for (i = 0; i < chk->m->n_gpus; i++) {
        const dl_plan_gpu *g = &chk->m->gpus[i];
        dl_arch_result r;
        if (g->vendor != DL_GPU_NVIDIA)
            continue;
        /* Unknown is not "fits": the plan may still name the build, never as verified. */
        if (!g->cc_major) {
            c->cut |=
                !dl_fixed_fmt(c->unverified, sizeof c->unverified,
                              "the compute capability of %s is "
                              "unknown%s%s%s, so whether torch %s %s has kernels for it is unknown",
                              g->name, g->unknown_why[0] ? " (" : "", g->unknown_why,
                              g->unknown_why[0] ? ")" : "", c->torch, c->variant);
            continue;
        }
        r = dl_arch_check(g->cc_major, g->cc_minor, &list);
        if (r.verdict == DL_ARCH_RUNS_PTX_JIT)
            c->needs_ptx_jit = true;
        if (r.verdict == DL_ARCH_TOO_OLD)
            fail(c, DL_REJ_ARCH_DROPPED, "torch %s %s has no kernels for sm_%u%u (%s): its "
                 "oldest target is newer", c->torch, c->variant, g->cc_major, g->cc_minor,
                 g->name);
        else if (r.verdict == DL_ARCH_TOO_NEW || r.verdict == DL_ARCH_NOT_COVERED)
            fail(c, DL_REJ_ARCH_TOO_NEW, "torch %s %s has no kernels for sm_%u%u (%s)",
                 c->torch, c->variant, g->cc_major, g->cc_minor, g->name);
        else if (r.verdict == DL_ARCH_RUNS_PTX_JIT && c->minor_compat)
            fail(c, DL_REJ_ARCH_TOO_NEW, "sm_%u%u (%s) would need the driver to JIT PTX, "
                 "which a driver older than %s cannot do for this CUDA", g->cc_major,
                 g->cc_minor, g->name, c->min_driver[0] ? c->min_driver : "the minimum");
    }
}

/* ROCm and XPU builds carry kernels for a list of targets (gfx ids; Xe families): the
 * build fits when one GPU of its vendor is a target (an Intel machine often has an
 * unsupported iGPU beside a supported Arc card). A GPU or a wheel the tables do not know
 * leaves the fit unknown, never assumed. */
static void check_targets(const dl_plan_checker *chk, dl_plan_candidate *c, dl_plan_want kind)
{
    dl_gpu_vendor vendor = kind == DL_WANT_ROCM ? DL_GPU_AMD : DL_GPU_INTEL;
    const char *vname = kind == DL_WANT_ROCM ? "amd" : "intel";
    const char *what = kind == DL_WANT_ROCM ? "gfx target" : "Xe family";
    const char *list = dl_wheel_targets(chk->k, c->torch, c->variant);
    const char *unknown = NULL;
    char target[32], misses[160] = "";
    size_t i, used = 0;
    for (i = 0; i < chk->m->n_gpus; i++) {
        const dl_plan_gpu *g = &chk->m->gpus[i];
        if (g->vendor != vendor)
            continue;
        if (g->target[0])
            snprintf(target, sizeof target, "%s", g->target); /* from the chip: a PCI id */
        else if (!dl_gpu_target_of_name(chk->k, vname, g->name, target, sizeof target)) {
            if (!unknown)
                unknown = g->name;
            continue;
        }
        if (list && dl_target_in_list(list, target))
            return;
        if (used < sizeof misses)
            used += (size_t)snprintf(misses + used, sizeof misses - used, "%s%s (%s)",
                                     used ? ", " : "", g->name, target);
    }
    if (unknown)
        snprintf(c->unverified, sizeof c->unverified, "the %s of %s is unknown to dlenv, so "
                 "whether torch %s %s has kernels for it is unknown", what, unknown, c->torch,
                 c->variant);
    else if (!list)
        snprintf(c->unverified, sizeof c->unverified, "the %ss torch %s %s is built for are "
                 "not known to dlenv, so whether it has kernels for %s is unknown", what,
                 c->torch, c->variant, misses);
    else
        fail(c, DL_REJ_ARCH_TOO_NEW, "torch %s %s has no kernels for %s; it is built for %s",
             c->torch, c->variant, misses, list);
}

/* The cuDNN a CUDA build bundles (cudnn.csv, by torch minor and variant), against the
 * GPUs: cuDNN 8.9 and newer carry no Kepler kernels, so torch 2.4+ cu118 (cuDNN 9.1) does
 * not fully work on a K80 though its own kernels list sm_37. */
static void check_cudnn(const dl_plan_checker *chk, dl_plan_candidate *c)
{
    size_t i;
    if (c->fails & ((1u << DL_REJ_ARCH_DROPPED) | (1u << DL_REJ_ARCH_TOO_NEW)))
        return;
    for (i = 0; i < chk->m->n_gpus; i++) {
        const dl_plan_gpu *g = &chk->m->gpus[i];
        const char *cudnn, *without;
        if (g->vendor == DL_GPU_NVIDIA && g->cc_major &&
            dl_gpu_bundled_cudnn_lacks(chk->k, c->torch, c->variant, g->cc_major, g->cc_minor,
                                       &cudnn, &without)) {
            fail(c, DL_REJ_ARCH_DROPPED, "torch %s %s bundles cuDNN %s, which has no kernels "
                 "for sm_%u%u (%s): cuDNN %s and newer do not support it", c->torch,
                 c->variant, cudnn, g->cc_major, g->cc_minor, g->name, without);
            return;
        }
    }
}

static bool cell_matches(const char *cell, const char *value)
{
    return !cell || !*cell || !strcmp(cell, "any") || (value && !strcmp(cell, value));
}

static void check_known_bad(const dl_plan_checker *chk, dl_plan_candidate *c)
{
    const dl_table *t = table(chk, DL_TABLE_known_bad_releases);
    const char *os = dl_plan_os_name(chk->m->os);
    size_t r;
    for (r = 0; t && r < t->rows; r++) {
        const char *scope = dl_table_cell(t, r, DL_COL_known_bad_releases_scope);
        /* Only releases broken for everybody on the platform are excluded; the narrow
         * ones (one operation, one setup) are doctor's warnings. */
        if (!scope || strcmp(scope, "all") != 0 ||
            strcmp(dl_table_cell(t, r, DL_COL_known_bad_releases_torch_version), c->torch) != 0 ||
            !cell_matches(dl_table_cell(t, r, DL_COL_known_bad_releases_os), os) ||
            !cell_matches(dl_table_cell(t, r, DL_COL_known_bad_releases_variant), c->variant))
            continue;
        fail(c, DL_REJ_KNOWN_BAD, "torch %s is known broken on %s (fixed in %s)", c->torch, os,
             dl_table_cell(t, r, DL_COL_known_bad_releases_fixed_in));
    }
}

/* The smallest driver that runs the candidate, and whether the GPUs can have it. */
static void unlock_driver(const dl_plan_checker *chk, dl_plan_candidate *c, const char *cuda)
{
    if (!dl_driver_unlock_for_cuda(chk->k, cuda, chk->m->os, c->unlock_driver,
                                   sizeof c->unlock_driver, &c->unlock_mvc))
        return;
    /* a GPU that needs PTX JIT gets no minor-version compatibility */
    if (c->needs_ptx_jit && c->unlock_mvc) {
        memcpy(c->unlock_driver, c->min_driver, sizeof c->unlock_driver); /* same size */
        c->unlock_mvc = false;
    }
    c->beyond_last_branch =
        chk->last_branch && dl_driver_branch(c->unlock_driver) > chk->last_branch;
    if (c->beyond_last_branch && (c->fails & (1u << DL_REJ_DRIVER))) {
        size_t used = strlen(c->detail[DL_REJ_DRIVER]), left = sizeof c->detail[0] - used;
        /* dl_fixed_fmt needs room for its ellipsis; a full detail was cut already */
        c->cut |= left < 4 || !dl_fixed_fmt(c->detail[DL_REJ_DRIVER] + used, left,
                                            "; R%d is the last branch for %s", chk->last_branch,
                                            chk->last_branch_gpu);
    }
}

void dl_plan_check(const dl_plan_checker *chk, size_t row, const char *variant,
                   dl_plan_candidate *c)
{
    const dl_table *rel = table(chk, DL_TABLE_torch_releases);
    dl_plan_want kind = variant_want(variant);
    dl_torch_version v;
    bool parsed;
    memset(c, 0, sizeof *c);
    snprintf(c->torch, sizeof c->torch, "%s",
             dl_table_cell(rel, row, DL_COL_torch_releases_torch_version));
    snprintf(c->variant, sizeof c->variant, "%s", variant);
    snprintf(c->torchvision, sizeof c->torchvision, "%s",
             dl_table_cell(rel, row, DL_COL_torch_releases_torchvision));
    snprintf(c->torchaudio, sizeof c->torchaudio, "%s",
             dl_table_cell(rel, row, DL_COL_torch_releases_torchaudio));
    dl_torch_version_parse(c->torch, &v);
    if (!torch_matches(chk->cons->torch, &v, &parsed))
        fail(c, DL_REJ_TORCH_CONSTRAINT, "outside --torch %s", chk->cons->torch);
    if (!want_ok(chk, kind))
        fail(c, DL_REJ_VARIANT_CONSTRAINT, "not the build --for asked for");
    check_platform_python(chk, row, c, kind);
    check_gpu_present(chk, c, kind);
    if (kind == DL_WANT_CUDA && !(c->fails & (1u << DL_REJ_NO_GPU))) {
        dl_variant cv = dl_torch_variant(variant);
        check_driver(chk, c, cv.version);
        check_arch(chk, c);
        check_cudnn(chk, c);
        unlock_driver(chk, c, cv.version);
    }
    if ((kind == DL_WANT_ROCM || kind == DL_WANT_XPU) && !(c->fails & (1u << DL_REJ_NO_GPU)) &&
        !(c->fails & (1u << DL_REJ_PLATFORM)))
        check_targets(chk, c, kind);
    check_known_bad(chk, c);
}
