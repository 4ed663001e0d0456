#include "explain/derive.h"

#include "know/arch.h"
#include "know/geforce_series.h"
#include "know/gpu_arch.h"
#include "know/version.h"
#include "plan/driver_table.h"
#include "plan/gpu_names.h"

#include <stdio.h>
#include <string.h>

/* A driver version without nvidia-smi's "CUDA Version" (collect_env gives only the
 * former): the newest CUDA it runs, from cuda_driver.csv. */
static void derive_driver_cuda(const dl_knowledge *k, dl_facts *f)
{
    int cuda;
    if (!f->nvml.driver_version.value || f->nvml.cuda_driver_version.known)
        return;
    cuda = dl_driver_cuda_for_driver(k, f->nvml.driver_version.value,
                                     dl_plan_os_parse(f->os.family.value) == DL_PLAN_OS_WINDOWS
                                         ? DL_PLAN_OS_WINDOWS : DL_PLAN_OS_LINUX);
    if (cuda)
        dl_int_set(&f->nvml.cuda_driver_version, cuda);
}

/* A driver named only by its branch ("driver 470"): the CUDA the branch's newest release
 * runs. That bounds it from above, so a CUDA beyond even that is too new for the driver,
 * and a CUDA the branch's first releases may lack is not called too new. */
static void derive_branch_cuda(const dl_knowledge *k, dl_explanation *e)
{
    dl_facts *f = &e->facts;
    dl_text_facts *w = &e->where;
    char top[16];
    int cuda;
    if (!w->driver_branch || f->nvml.driver_version.value || f->nvml.cuda_driver_version.known)
        return;
    snprintf(top, sizeof top, "%d.999.99", w->driver_branch);
    cuda = dl_driver_cuda_for_driver(k, top,
                                     dl_plan_os_parse(f->os.family.value) == DL_PLAN_OS_WINDOWS
                                         ? DL_PLAN_OS_WINDOWS : DL_PLAN_OS_LINUX);
    if (!cuda)
        return;
    dl_int_set(&f->nvml.cuda_driver_version, cuda);
    dl_text_facts_note(w, "nvml.cuda_driver_version", w->driver_branch_line);
}

/* A GPU named without its capability (nvidia-smi -L, collect_env): from the name table,
 * once per report. A name sold on two chips leaves the capability unknown, but its span
 * (both chips) may still decide a reading (readings.c). */
static void derive_gpu_cc(const dl_knowledge *k, dl_facts *f, dl_gpu_span *span)
{
    dl_nvml_gpu *g;
    dl_gpu_match m;
    unsigned major, minor;
    char cc[16];
    memset(span, 0, sizeof *span);
    if (!f->nvml.gpus.count)
        return;
    g = &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, 0);
    if (g->compute_capability.value) {
        if (dl_cc_parse(g->compute_capability.value, &major, &minor) && minor < 10)
            span->lo = span->hi = major * 10 + minor;
        return;
    }
    if (!g->name.value || dl_gpu_vendor_of_name(g->name.value) != DL_GPU_NVIDIA)
        return;
    /* a whole line of cards ("RTX 50 series"): every model of it in the table */
    if (dl_geforce_line_span(k, g->name.value, &span->lo, &span->hi))
        return;
    dl_gpu_resolve_name(k, g->name.value, &m);
    span->lo = m.span_lo;
    span->hi = m.span_hi;
    /* a three-digit GeForce the name table lacks ("GT 720M"): its series' span; a GPU named
     * by its architecture ("Pascal"): the architecture's */
    if (!m.found && !span->hi && !dl_geforce_series_span(k, g->name.value, &span->lo, &span->hi) &&
        !dl_gpu_arch_span_of_name(k, g->name.value, &span->lo, &span->hi) &&
        !dl_gpu_pro_model_span(k, g->name.value, &span->lo, &span->hi))
        span->lo = span->hi = 0;
    if (!m.found)
        return;
    snprintf(cc, sizeof cc, "%u.%u", m.major, m.minor);
    dl_text_set(&g->compute_capability, cc);
}

/* PyPI's Windows wheels are CPU builds (the CUDA ones come from download.pytorch.org with
 * a +cuXYZ tag): an untagged torch 1.x or newer on Windows whose CUDA the text does not give
 * ("Could not collect", or only a pip row) is a CPU build. Conda's CUDA builds say their
 * CUDA there (the build string). */
static bool pypi_windows_version(const char *v)
{
    return v && !strchr(v, '+') && v[0] != '0';
}

/* pip fetched a CUDA wheel of torch ("Downloading .../torch-2.1.2%2Bcu121-cp310-...whl"). */
static bool cuda_wheel_fetched(const dl_paste *p)
{
    long i;
    for (i = dl_paste_find(p, 0, ".whl"); i >= 0; i = dl_paste_find(p, (size_t)i + 1, ".whl")) {
        const char *at = strstr(p->lines[i].lower, "torch-");
        if (at && (strstr(at, "%2bcu") || strstr(at, "+cu")))
            return true;
    }
    return false;
}

/* The line that gave torch's version names a CUDA release beside it ("PyTorch 2.6.0 and
 * CUDA 12.6", "torch 2.1 (cuda 11.8)"): the text says which build it means. */
static bool version_said_with_cuda(const dl_paste *p, const dl_text_facts *w)
{
    size_t i;
    for (i = 0; i < w->n; i++) {
        const char *fact = w->where[i].fact, *at;
        size_t n = strlen(fact);
        if (w->where[i].line >= p->count ||
            (strcmp(fact, "pythons[0].runtime.version") != 0 &&
             (n < 9 || strcmp(fact + n - 9, "].version") != 0 || !strstr(fact, "torches["))))
            continue;
        for (at = strstr(p->lines[w->where[i].line].lower, "cuda"); at;
             at = strstr(at + 4, "cuda")) {
            const char *d = at + 4;
            d += strspn(d, " :=v");
            if (*d >= '1' && *d <= '9')
                return true;
        }
    }
    return false;
}

/* The text says conda installed torch: conda's command for pytorch, or a field whose value
 * is conda ("How you installed PyTorch (`conda`, `pip`, source): conda", "env: conda"), and
 * no pip command installs torch. conda's Windows builds of pytorch are CUDA builds unless
 * cpuonly is asked for, and their version carries no tag. */
static bool conda_installed_torch(const dl_paste *p)
{
    static const char *const pip[] = {"pip install torch", "pip3 install torch",
                                      "pip install --upgrade torch", "pip install -u torch"};
    size_t i;
    if (dl_paste_find_any(p, pip, sizeof pip / sizeof pip[0]) >= 0)
        return false;
    for (i = 0; i < p->count; i++) {
        const char *low = p->lines[i].lower, *colon = strchr(low, ':'), *v;
        if (strstr(low, "conda install") && strstr(low, "pytorch") && !strstr(low, "cpuonly"))
            return true;
        if (!colon || colon - low > 60)
            continue;
        for (v = colon + 1; *v == ' ' || *v == '*' || *v == '`'; v++)
            ;
        if (!*v && i + 1 < p->count) /* "env:" and the value under it */
            v = p->lines[i + 1].lower;
        if ((!strncmp(v, "conda", 5) || !strncmp(v, "anaconda", 8) ||
             !strncmp(v, "miniconda", 9)) &&
            (strstr(low, "install") || strstr(low, "env") || strstr(low, "package manager")))
            return true;
    }
    return false;
}

static void derive_windows_pypi_cpu(const dl_paste *p, const dl_text_facts *w, dl_facts *f)
{
    dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    dl_torch_install *t;
    /* pip's "Collecting torch==2.1.2" then "Downloading .../torch-2.1.2%2Bcu121-...whl":
     * the version line is untagged, but the wheel it fetched is a CUDA build */
    /* libtorch's zips come from download.pytorch.org in CPU and CUDA builds, not from PyPI */
    /* "CUDA error: unknown error" from torch.cuda's init comes only from a CUDA build (a CPU
     * build says "not compiled with CUDA"): conda's Windows builds carry no tag either */
    if (!py || cuda_wheel_fetched(p) || dl_paste_find(p, 0, "libtorch") >= 0 ||
        dl_paste_find(p, 0, "cuda error: ") >= 0 ||
        version_said_with_cuda(p, w) || conda_installed_torch(p) ||
        dl_plan_os_parse(f->os.family.value) != DL_PLAN_OS_WINDOWS ||
        (py->runtime.cuda_available.known && py->runtime.cuda_available.value))
        return;
    if (pypi_windows_version(py->runtime.version.value) && !py->runtime.cuda.value)
        dl_text_set(&py->runtime.cuda, "none");
    if (py->runtime.version.value || !py->site_packages.count ||
        !DL_LIST_AT(py->site_packages, dl_site_packages, 0).torches.count)
        return;
    t = &DL_LIST_AT(DL_LIST_AT(py->site_packages, dl_site_packages, 0).torches, dl_torch_install,
                    0);
    if (pypi_windows_version(t->version.value) && !t->cuda.value) {
        dl_text_set(&t->cuda, "none");
        dl_text_set(&t->hip, "none");
    }
}

/* The one torch release torch_releases.csv pairs with companion `name` at `version` (the
 * "torchvision" column's 0.15.2: torch 2.0.1); NULL when no row, or more than one, has it. */
static const char *torch_paired_with(const dl_knowledge *k, const char *name,
                                     const char *version)
{
    const dl_table *t = dl_knowledge_at(k, DL_TABLE_torch_releases);
    size_t col = !strcmp(name, "torchvision") ? DL_COL_torch_releases_torchvision
                                              : DL_COL_torch_releases_torchaudio;
    size_t len = strcspn(version, "+ "), r;
    const char *found = NULL;
    for (r = 0; t && r < t->rows; r++) {
        const char *cell = dl_table_cell(t, r, col);
        if (strlen(cell) != len || strncmp(cell, version, len) != 0)
            continue;
        if (found)
            return NULL;
        found = dl_table_cell(t, r, DL_COL_torch_releases_torch_version);
    }
    return found;
}

/* A companion that stopped being released (torchaudio after 2.11: the table's later torch
 * releases have no torchaudio) goes on with every torch from its own on: its last release
 * is a minimum, not an exact pair. */
static bool last_release_of_companion(const dl_knowledge *k, const char *name,
                                      const char *version, const char *torch)
{
    const dl_table *t = dl_knowledge_at(k, DL_TABLE_torch_releases);
    size_t col = !strcmp(name, "torchvision") ? DL_COL_torch_releases_torchvision
                                              : DL_COL_torch_releases_torchaudio;
    dl_version paired, own, v;
    char release[32];
    size_t r;
    bool later_without = false;
    snprintf(release, sizeof release, "%.*s", (int)strcspn(version, "+ "), version);
    if (!t || !dl_version_parse(torch, &paired) || !dl_version_parse(release, &own))
        return false;
    own.part[2] = own.part[3] = 0;
    for (r = 0; r < t->rows; r++) {
        /* a newer release line of the companion: this one is not its last */
        if (dl_version_parse(dl_table_cell(t, r, col), &v) &&
            (v.part[0] > own.part[0] || (v.part[0] == own.part[0] && v.part[1] > own.part[1])))
            return false;
        if (dl_version_parse(dl_table_cell(t, r, DL_COL_torch_releases_torch_version), &v) &&
            dl_version_cmp(&v, &paired) > 0 && !*dl_table_cell(t, r, col))
            later_without = true;
    }
    return later_without;
}

/* A pasted package list says each companion's release, not the torch it requires (doctor
 * reads that from its metadata): the release it was made with stands for its pin, so that
 * torchvision 0.15.2 beside torch 1.10.1 is the mismatch it is. */
static void derive_companion_pins(const dl_knowledge *k, dl_facts *f)
{
    static const char *const companions[] = {"torchvision", "torchaudio"};
    dl_site_packages *site;
    size_t i, j;
    if (!f->pythons.count || !DL_LIST_AT(f->pythons, dl_python, 0).site_packages.count)
        return;
    site = &DL_LIST_AT(DL_LIST_AT(f->pythons, dl_python, 0).site_packages, dl_site_packages, 0);
    for (i = 0; i < site->packages.count; i++) {
        dl_py_package *pkg = &DL_LIST_AT(site->packages, dl_py_package, i);
        const char *torch;
        char pin[64];
        for (j = 0; j < sizeof companions / sizeof companions[0]; j++)
            if (pkg->name.value && !strcmp(pkg->name.value, companions[j]))
                break;
        if (j == sizeof companions / sizeof companions[0] || !pkg->version.value ||
            pkg->requires_torch.value ||
            !(torch = torch_paired_with(k, companions[j], pkg->version.value)))
            continue;
        snprintf(pin, sizeof pin, "torch%s%s",
                 last_release_of_companion(k, companions[j], pkg->version.value, torch) ? ">="
                                                                                       : "==",
                 torch);
        dl_text_set(&pkg->requires_torch, pin);
    }
}

void dl_explain_derive_facts(const dl_knowledge *k, dl_explanation *e)
{
    derive_companion_pins(k, &e->facts);
    derive_driver_cuda(k, &e->facts);
    derive_branch_cuda(k, e);
    derive_gpu_cc(k, &e->facts, &e->gpu);
    derive_windows_pypi_cpu(&e->paste, &e->where, &e->facts);
}
