/* The planner's search: every release times every
 * variant the release published for this OS, each checked against the machine; then the
 * choice. Checks record every reason a candidate fails, not only the first, so the
 * "after a driver update" and "a newer Python would unlock" answers fall out of the same
 * pass: a candidate that fails only on the driver is what a driver update unlocks. */
#include "plan/plan.h"

#include "base/str.h"
#include "know/version.h"
#include "plan/driver_table.h"
#include "plan/plan_checks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const reason_ids[DL_REJ_COUNT] = {
    "torch_constraint", "variant_constraint", "no_wheels_for_platform", "python_32bit",
    "no_wheel_for_python", "no_matching_gpu", "driver_too_old", "gpu_arch_dropped",
    "arch_not_in_wheel", "known_bad_release"};

const char *dl_plan_reason_id(dl_plan_reason r)
{
    return (unsigned)r < DL_REJ_COUNT ? reason_ids[r] : "none";
}

dl_plan_reason dl_plan_first_reason(const dl_plan_candidate *c)
{
    unsigned r;
    for (r = 0; r < DL_REJ_COUNT; r++)
        if (c->fails & (1u << r))
            return (dl_plan_reason)r;
    return DL_REJ_COUNT;
}

const char *dl_plan_os_name(dl_plan_os os)
{
    switch (os) {
    case DL_PLAN_OS_LINUX: return "linux";
    case DL_PLAN_OS_WINDOWS: return "windows";
    case DL_PLAN_OS_MACOS: return "macos";
    case DL_PLAN_OS_UNKNOWN: break;
    }
    return "unknown";
}

dl_plan_os dl_plan_os_parse(const char *s)
{
    if (!s)
        return DL_PLAN_OS_UNKNOWN;
    if (strcmp(s, "linux") == 0 || strcmp(s, "wsl") == 0)
        return DL_PLAN_OS_LINUX;
    if (strcmp(s, "windows") == 0 || strcmp(s, "win") == 0)
        return DL_PLAN_OS_WINDOWS;
    if (strcmp(s, "macos") == 0 || strcmp(s, "darwin") == 0 || strcmp(s, "mac") == 0)
        return DL_PLAN_OS_MACOS;
    return DL_PLAN_OS_UNKNOWN;
}

/* ---- which releases: every final release, newest first ---- */

/* Every patch is a candidate: an older patch can fit where the newest does not (2.12.0
 * has cp313t wheels, 2.12.1 has none). */

typedef struct release {
    size_t row;
    dl_torch_version v;
} release;

static int release_cmp_desc(const void *a, const void *b)
{
    return -dl_torch_version_cmp(&((const release *)a)->v, &((const release *)b)->v);
}

static size_t list_releases(const dl_table *t, release *out)
{
    size_t r, n = 0;
    for (r = 0; r < t->rows; r++) {
        const char *status = dl_table_cell(t, r, DL_COL_torch_releases_status);
        if (!status || strcmp(status, "released") != 0 ||
            !dl_torch_version_parse(dl_table_cell(t, r, DL_COL_torch_releases_torch_version),
                                    &out[n].v) ||
            out[n].v.pre != DL_PRE_NONE)
            continue;
        out[n++].row = r;
    }
    qsort(out, n, sizeof *out, release_cmp_desc);
    return n;
}

/* ---- the variants a release published for this OS ---- */

static bool machine_has(const dl_plan_machine *m, dl_gpu_vendor v)
{
    size_t i;
    for (i = 0; i < m->n_gpus; i++)
        if (m->gpus[i].vendor == v)
            return true;
    return false;
}

/* Linux arm64 has CUDA builds (sbsa: Grace, GH200, GB10) but no ROCm or XPU ones; Windows
 * has no ROCm builds, listed anyway when an AMD GPU is here so the plan can say why it is
 * CPU; Windows on Arm and other arm64 systems have CPU wheels only. */
static void release_variants(const dl_table *t, size_t row, const dl_plan_machine *m,
                             dl_strv *out)
{
    const char *xpu = dl_table_cell(t, row, DL_COL_torch_releases_xpu_wheels);
    bool arm64 = !strcmp(m->arch, "arm64") || !strcmp(m->arch, "aarch64") ||
                 !strcmp(m->arch, "ARM64");
    if (m->os == DL_PLAN_OS_MACOS) {
        dl_strv_add(out, dl_strdup("macos"));
        return;
    }
    dl_strv_add(out, dl_strdup("cpu"));
    if (arm64) {
        if (m->os == DL_PLAN_OS_LINUX)
            dl_strv_split(out, dl_table_cell(t, row, DL_COL_torch_releases_cuda_variants_linux_arm64),
                          ';');
        return;
    }
    dl_strv_split(out,
                  dl_table_cell(t, row,
                                m->os == DL_PLAN_OS_WINDOWS
                                    ? DL_COL_torch_releases_cuda_variants_windows
                                    : DL_COL_torch_releases_cuda_variants_linux),
                  ';');
    if (m->os != DL_PLAN_OS_WINDOWS || machine_has(m, DL_GPU_AMD))
        dl_strv_split(out, dl_table_cell(t, row, DL_COL_torch_releases_rocm_variants_linux), ';');
    if (xpu && strncmp(xpu, "yes", 3) == 0)
        dl_strv_add(out, dl_strdup("xpu"));
}

/* The four exact fields of a candidate must hold the table's values whole: a cut version
 * would name a wheel that does not exist. */
static bool fits(const char *what, const char *value, size_t size, char **error)
{
    if (!value || strlen(value) < size)
        return true;
    *error = dl_fmt("torch_releases: %s '%s' is longer than the %zu bytes the planner holds", what,
                    value, size - 1);
    return false;
}

static bool release_fits(const dl_table *t, size_t row, const dl_strv *variants, char **error)
{
    const dl_plan_candidate *c = NULL;
    size_t i;
    if (!fits("torch_version", dl_table_cell(t, row, DL_COL_torch_releases_torch_version),
              sizeof c->torch, error) ||
        !fits("torchvision", dl_table_cell(t, row, DL_COL_torch_releases_torchvision),
              sizeof c->torchvision, error) ||
        !fits("torchaudio", dl_table_cell(t, row, DL_COL_torch_releases_torchaudio),
              sizeof c->torchaudio, error))
        return false;
    for (i = 0; i < variants->n; i++)
        if (!fits("variant", variants->v[i], sizeof c->variant, error))
            return false;
    return true;
}

/* ---- the choice ---- */

static bool passes(const dl_plan_candidate *c)
{
    return c->fails == 0;
}

/* Better = uses the machine's accelerator; then a newer torch; then, among CUDA builds of
 * one release, one the driver runs outright; then the newer CUDA. */
static int better(const dl_plan_candidate *a, const dl_plan_candidate *b,
                  const dl_plan_machine *m)
{
    dl_torch_version va, vb;
    int ca = dl_plan_accelerated(a, m), cb = dl_plan_accelerated(b, m), cmp;
    if (ca != cb)
        return ca - cb;
    dl_torch_version_parse(a->torch, &va);
    dl_torch_version_parse(b->torch, &vb);
    cmp = dl_torch_version_cmp(&va, &vb);
    if (cmp)
        return cmp;
    if (a->minor_compat != b->minor_compat)
        return a->minor_compat ? -1 : 1;
    return dl_plan_variant_rank(a->variant) - dl_plan_variant_rank(b->variant);
}

/* The best candidate whose failures are all within `allowed`. One whose fit to the GPU
 * is unknown counts only with `unverified`: a plan never recommends what it cannot back. */
static long best_of(const dl_plan *p, const dl_plan_machine *m, unsigned allowed,
                    bool accelerated_only, bool unverified)
{
    long best = -1;
    size_t i;
    for (i = 0; i < p->n; i++) {
        const dl_plan_candidate *c = &p->c[i];
        if ((c->fails & ~allowed) != 0 || (accelerated_only && !dl_plan_accelerated(c, m)) ||
            (c->unverified[0] && !unverified))
            continue;
        /* never a driver update the card cannot have */
        if ((c->fails & (1u << DL_REJ_DRIVER)) && c->beyond_last_branch)
            continue;
        if (best < 0 || better(c, &p->c[best], m) > 0)
            best = (long)i;
    }
    return best;
}

static long best_within(const dl_plan *p, const dl_plan_machine *m, unsigned allowed,
                        bool accelerated_only)
{
    return best_of(p, m, allowed, accelerated_only, false);
}

static int torch_cmp(const dl_plan_candidate *a, const dl_plan_candidate *b)
{
    dl_torch_version va, vb;
    dl_torch_version_parse(a->torch, &va);
    dl_torch_version_parse(b->torch, &vb);
    return dl_torch_version_cmp(&va, &vb);
}

/* After a driver update: of one release, the build the smallest driver unlocks, then one
 * that driver runs outright (cu130 at 580 rather than cu132 through compatibility). */
static long best_after_update(const dl_plan *p, const dl_plan_machine *m)
{
    const unsigned driver = 1u << DL_REJ_DRIVER;
    long best = best_within(p, m, driver, false);
    size_t i;
    for (i = 0; best >= 0 && i < p->n; i++) {
        const dl_plan_candidate *c = &p->c[i], *b = &p->c[best];
        int cmp;
        if ((c->fails & ~driver) || c->unverified[0] || !(c->fails & driver) ||
            c->beyond_last_branch || torch_cmp(c, b) != 0 ||
            dl_plan_accelerated(c, m) != dl_plan_accelerated(b, m) ||
            !dl_driver_cmp(c->unlock_driver, b->unlock_driver, &cmp))
            continue;
        if (cmp < 0 || (cmp == 0 && b->unlock_mvc && !c->unlock_mvc))
            best = (long)i;
    }
    return best;
}

static void choose(dl_plan *p, const dl_plan_machine *m)
{
    const unsigned python = 1u << DL_REJ_PYTHON;
    long cpu = -1, up, gpu_py, newer;
    size_t i;
    p->best = best_within(p, m, 0, false);
    p->unverified_gpu = best_of(p, m, 0, true, true);
    if (p->unverified_gpu >= 0 && !p->c[p->unverified_gpu].unverified[0])
        p->unverified_gpu = -1;
    up = best_after_update(p, m);
    p->after_driver_update =
        up >= 0 && !passes(&p->c[up]) && (p->best < 0 || better(&p->c[up], &p->c[p->best], m) > 0)
            ? up : -1;
    for (i = 0; i < p->n; i++)
        if (passes(&p->c[i]) && strcmp(p->c[i].variant, "cpu") == 0 &&
            (cpu < 0 || torch_cmp(&p->c[i], &p->c[cpu]) > 0))
            cpu = (long)i;
    p->cpu_alternative = p->best >= 0 && cpu >= 0 && cpu != p->best &&
                                 torch_cmp(&p->c[cpu], &p->c[p->best]) > 0
                             ? cpu : -1;
    gpu_py = best_within(p, m, python, true);
    p->gpu_blocked_by_python =
        gpu_py >= 0 && !passes(&p->c[gpu_py]) &&
                (p->best < 0 || !dl_plan_accelerated(&p->c[p->best], m) ||
                 torch_cmp(&p->c[gpu_py], &p->c[p->best]) > 0)
            ? gpu_py : -1;
    newer = best_within(p, m, python, false);
    p->newer_python = newer >= 0 && !passes(&p->c[newer]) &&
                              (p->best < 0 || torch_cmp(&p->c[newer], &p->c[p->best]) > 0)
                          ? newer : -1;
}

bool dl_plan_make(const dl_knowledge *k, const dl_plan_machine *m,
                  const dl_plan_constraints *cons, dl_plan *out, char **error)
{
    const dl_table *t = dl_knowledge_at(k, DL_TABLE_torch_releases);
    dl_plan_checker chk;
    release *rel;
    size_t nrel, i, j, cap = 0;
    memset(out, 0, sizeof *out);
    out->best = out->after_driver_update = out->cpu_alternative = -1;
    out->gpu_blocked_by_python = out->newer_python = out->unverified_gpu = -1;
    if (!t || !t->rows) {
        *error = dl_strdup("the torch_releases table is empty");
        return false;
    }
    if (!dl_plan_checker_init(&chk, k, m, cons, error))
        return false;
    memcpy(out->python_tag, chk.python_tag, sizeof out->python_tag); /* the same size */
    out->last_branch = chk.last_branch;
    if (chk.last_branch && dl_driver_branch(m->driver) > chk.last_branch)
        out->cut |=
            !dl_fixed_fmt(out->driver_warning, sizeof out->driver_warning,
                          "driver %s does not exist for %s: R%d is its last driver branch, so this "
                          "driver cannot run it",
                          m->driver, chk.last_branch_gpu, chk.last_branch);
    memcpy(out->platform, chk.platform, sizeof out->platform); /* the same size */
    rel = malloc(t->rows * sizeof *rel);
    if (!rel) {
        *error = dl_strdup("out of memory");
        return false;
    }
    nrel = list_releases(t, rel);
    for (i = 0; i < nrel; i++) {
        dl_strv variants = {0};
        release_variants(t, rel[i].row, m, &variants);
        if (!release_fits(t, rel[i].row, &variants, error)) {
            dl_strv_free(&variants);
            free(rel);
            dl_plan_free(out);
            return false;
        }
        for (j = 0; j < variants.n; j++) {
            dl_plan_candidate *c;
            /* a candidate is 1.6 KB and there are hundreds: grow by doubling, not by one
             * (which copied some 70 MB per plan) */
            if (out->n == cap) {
                cap = cap ? cap * 2 : 64;
                out->c = dl_xrealloc(out->c, cap * sizeof *out->c);
            }
            c = &out->c[out->n++];
            dl_plan_check(&chk, rel[i].row, variants.v[j], c);
            out->cut |= c->cut;
        }
        dl_strv_free(&variants);
    }
    free(rel);
    choose(out, m);
    return true;
}

bool dl_plan_driver_unchecked(const dl_plan_machine *m, const dl_plan_candidate *c)
{
    return !m->driver[0] && !m->driver_cuda && c->min_driver[0] != '\0';
}

void dl_plan_free(dl_plan *p)
{
    free(p->c);
    memset(p, 0, sizeof *p);
}
