#include "explain/explain.h"

#include "base/str.h"
#include "explain/extension_runtime.h"
#include "explain/quote.h"
#include "explain/readings.h"
#include "explain/user_site.h"
#include "explain/windows_text.h"
#include "facts/query.h"
#include "know/version.h"
#include "know/arch.h"
#include "parse/oom.h"
#include "parse/signatures.h"
#include "plan/driver_table.h"
#include "plan/gpu_names.h"
#include "rules/rules.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool has_id(const dl_findings *f, const char *id)
{
    size_t i;
    for (i = 0; i < f->items.count; i++)
        if (!strcmp(DL_LIST_AT(f->items, dl_finding, i).id.value, id))
            return true;
    return false;
}

/* A rule on the text's facts that decides between a signature and its alternatives
 * (the GPU's capability against the wheel's list) replaces the signature's guess. */
static bool rule_failed(const dl_findings *rules, const char *id)
{
    size_t i;
    for (i = 0; i < rules->items.count; i++) {
        const dl_finding *r = &DL_LIST_AT(rules->items, dl_finding, i);
        if (!strcmp(r->id.value, id) && !strcmp(r->severity.value, "failure"))
            return true;
    }
    return false;
}

static bool decided_by_rules(const dl_findings *rules, const char *alternatives)
{
    dl_strv alt = {0};
    size_t i;
    bool decided = false;
    dl_strv_split(&alt, alternatives, ';');
    for (i = 0; i < alt.n && !decided; i++)
        decided = rule_failed(rules, alt.v[i]);
    dl_strv_free(&alt);
    return decided;
}

/* One of the signature's alternatives was already decided from the text's numbers. */
static bool alternative_found(const dl_findings *f, const char *alternatives)
{
    dl_strv alt = {0};
    size_t i;
    bool found = false;
    dl_strv_split(&alt, alternatives, ';');
    for (i = 0; i < alt.n && !found; i++)
        found = has_id(f, alt.v[i]);
    dl_strv_free(&alt);
    return found;
}

/* The catalog row that describes finding `id` (its title, fix and question). */
static size_t row_of(const dl_table *cat, const char *id, size_t fallback)
{
    size_t r;
    for (r = 0; r < cat->rows; r++)
        if (!strcmp(dl_table_cell(cat, r, DL_COL_error_signatures_finding), id))
            return r;
    return fallback;
}

/* The row of finding `id` written right after row `from` for the same message (its first
 * words: "no kernel image is a..." read as code the user built is the next row's, the one
 * for the user's build), when row `from` names `id` as its alternative; else the first row
 * of `id`. */
static size_t row_of_same_message(const dl_table *cat, const char *id, size_t from)
{
    const char *mine = dl_table_cell(cat, from, DL_COL_error_signatures_all_of);
    dl_strv alt = {0};
    bool next;
    dl_strv_split(&alt, dl_table_cell(cat, from, DL_COL_error_signatures_alternatives), ';');
    next = dl_strv_has(&alt, id) && from + 1 < cat->rows && strlen(mine) >= 20 &&
           !strcmp(dl_table_cell(cat, from + 1, DL_COL_error_signatures_finding), id) &&
           !strncmp(dl_table_cell(cat, from + 1, DL_COL_error_signatures_all_of), mine, 20);
    dl_strv_free(&alt);
    return next ? from + 1 : row_of(cat, id, from);
}

static void add_signature(const dl_knowledge *k, const dl_table *cat, const dl_signature_hit *h,
                          dl_explanation *e, const dl_findings *rules)
{
    const char *id = dl_table_cell(cat, h->row, DL_COL_error_signatures_finding);
    size_t row = h->row;
    int layer;
    dl_finding *x;
    size_t i;
    bool settled = false;
    /* The text's facts may read the signature otherwise (unless a rule confirmed it). */
    if (!rule_failed(rules, id)) {
        const char *read = dl_reading_for(k, &e->paste, &e->facts, &e->gpu, id, &settled);
        /* a rule on the text's facts found the same: its finding says it better (the
         * capability against the wheel's list, and the install command) */
        if (!*read || (strcmp(read, id) != 0 && rule_failed(rules, read)))
            return;
        if (strcmp(read, id) != 0)
            row = row_of_same_message(cat, read, h->row);
        id = read;
    }
    layer = dl_layer_of_name(dl_table_cell(cat, row, DL_COL_error_signatures_layer));
    if (has_id(&e->findings, id) || layer < 0 ||
        decided_by_rules(rules, dl_table_cell(cat, row, DL_COL_error_signatures_alternatives)) ||
        alternative_found(&e->findings,
                          dl_table_cell(cat, row, DL_COL_error_signatures_alternatives)))
        return;
    x = dl_finding_add(&e->findings, id, DL_SEV_FAILURE, "%s",
                       dl_table_cell(cat, row, DL_COL_error_signatures_title));
    for (i = 0; i < h->n_lines; i++)
        dl_quote_line(x, &e->paste, h->lines[i]);
    dl_finding_fix(x, "# %s", dl_table_cell(cat, row, DL_COL_error_signatures_fix));
    if (rule_failed(rules, id) || settled) {
        /* The facts of the text confirm it (a capability against a list): the other
         * candidates are ruled out, and the facts' lines are evidence too. */
        for (i = 0; i < e->where.n; i++)
            dl_quote_line(x, &e->paste, e->where.where[i].line);
        return;
    }
    dl_strv_split(&e->alternatives, dl_table_cell(cat, row, DL_COL_error_signatures_alternatives),
                  ';');
    if (*dl_table_cell(cat, row, DL_COL_error_signatures_ask))
        dl_strv_add(&e->ask, dl_strdup(dl_table_cell(cat, row, DL_COL_error_signatures_ask)));
}

/* The text's torch as "X.Y.Z": the installed one, else the one the runtime reports
 * (collect_env's "PyTorch version"); false when the text gives none. */
static bool text_torch_release(const dl_facts *f, char *out, size_t n)
{
    const char *v = dl_q_first_torch_version(f);
    dl_torch_version tv;
    if (!v || !dl_torch_version_parse(v, &tv) || tv.pre != DL_PRE_NONE)
        return false;
    snprintf(out, n, "%lu.%lu.%lu", tv.release.part[0], tv.release.part[1],
             tv.release.part[2]);
    return true;
}

/* A release the known-bad table lists for the text's OS whose row names the error message
 * the text shows (condition "text:<message>"): the broken release is the cause, whatever
 * the message would read as alone. A row whose message no other release gives (condition
 * "message:<message>") names its release even where the text gives no version: the
 * message is that release's signature. Runs before the signatures so that it comes first in
 * its layer; one pass over the table's few rows, one search per matching row. */
static void add_known_bad_message(const dl_knowledge *k, dl_explanation *e)
{
    const dl_table *kb = dl_knowledge_at(k, DL_TABLE_known_bad_releases);
    const char *os = e->facts.os.family.value;
    char release[48];
    bool versioned;
    size_t r;
    if (!kb)
        return;
    versioned = text_torch_release(&e->facts, release, sizeof release);
    for (r = 0; r < kb->rows; r++) {
        const char *cond = dl_table_cell(kb, r, DL_COL_known_bad_releases_condition);
        const char *row_os = dl_table_cell(kb, r, DL_COL_known_bad_releases_os);
        const char *row_release = dl_table_cell(kb, r, DL_COL_known_bad_releases_torch_version);
        bool sole = !strncmp(cond, "message:", 8);
        long line;
        dl_finding *x;
        size_t j;
        if ((!sole && strncmp(cond, "text:", 5) != 0) || (!versioned && !sole) ||
            (versioned && strcmp(row_release, release) != 0) ||
            (strcmp(row_os, "any") != 0 && (!os || strcmp(row_os, os) != 0)) ||
            (line = dl_paste_find(&e->paste, 0, cond + (sole ? 8 : 5))) < 0 ||
            has_id(&e->findings, "known_bad_release"))
            continue;
        x = dl_finding_add(&e->findings, "known_bad_release", DL_SEV_FAILURE,
                           versioned ? "torch %s has a known problem here: %s"
                                     : "this error is torch %s's known problem: %s",
                           row_release, dl_table_cell(kb, r, DL_COL_known_bad_releases_symptom));
        dl_quote_line(x, &e->paste, (size_t)line);
        for (j = 0; j < e->where.n; j++)
            dl_quote_line(x, &e->paste, e->where.where[j].line);
        dl_finding_fix(x, "# reinstall torch (fixed in %s; %s)",
                       dl_table_cell(kb, r, DL_COL_known_bad_releases_fixed_in),
                       dl_table_cell(kb, r, DL_COL_known_bad_releases_source));
    }
}

/* A release the known-bad table names for the text's MKL error (libtorch 2.2.2 / 2.3.0 on
 * Windows without MKL's dispatched DLLs) explains "Cannot load mkl_...": the two-MKL reading
 * of the same line stays a candidate, not the cause. */
static void demote_mkl_beside_known_bad(dl_explanation *e)
{
    size_t i;
    bool release = false;
    for (i = 0; i < e->findings.items.count; i++) {
        const dl_finding *x = &DL_LIST_AT(e->findings.items, dl_finding, i);
        if (!strcmp(x->id.value, "known_bad_release") && dl_q_failure(x))
            release = true;
    }
    if (!release || dl_paste_find(&e->paste, 0, "cannot load mkl_") < 0)
        return;
    for (i = 0; i < e->findings.items.count; i++) {
        dl_finding *x = &DL_LIST_AT(e->findings.items, dl_finding, i);
        if (!strcmp(x->id.value, "mkl_incompatible") && dl_q_failure(x)) {
            dl_text_set(&x->severity, dl_severity_name(DL_SEV_WARNING));
            dl_strv_add(&e->alternatives, dl_strdup("mkl_incompatible"));
        }
    }
}

/* The rules' failures on the text's facts, with the lines those facts came from. */
static void add_rules(const dl_findings *rules, dl_explanation *e)
{
    size_t i, j;
    for (i = 0; i < rules->items.count; i++) {
        const dl_finding *r = &DL_LIST_AT(rules->items, dl_finding, i);
        dl_finding *x;
        int layer = dl_layer_of_name(r->layer.value);
        if (strcmp(r->severity.value, "failure") != 0 || has_id(&e->findings, r->id.value) ||
            layer < 0)
            continue;
        /* "No wheel for this Python" is a guess from tables: it never beats an error the
         * text shows; it stays a candidate. */
        if (!strcmp(r->id.value, "python_unsupported") && e->findings.items.count) {
            dl_strv_add(&e->alternatives, dl_strdup(r->id.value));
            continue;
        }
        x = dl_finding_add(&e->findings, r->id.value, DL_SEV_FAILURE, "%s",
                           r->title.value);
        for (j = 0; j < e->where.n; j++)
            dl_quote_line(x, &e->paste, e->where.where[j].line);
        for (j = 0; j < r->fix.count; j++)
            dl_finding_fix(x, "%s", DL_LIST_AT(r->fix, char *, j));
    }
}

/* Alternatives that are themselves findings, or the root, are not "other candidates". */
static void prune_alternatives(dl_explanation *e)
{
    dl_strv kept = {0};
    /* Conda's CPU-variant pick is a candidate only where the text shows conda at all. */
    bool conda = dl_paste_find(&e->paste, 0, "conda") >= 0;
    size_t i;
    for (i = 0; i < e->alternatives.n; i++) {
        const char *a = e->alternatives.v[i];
        if ((e->findings.root_cause.value && !strcmp(a, e->findings.root_cause.value)) ||
            dl_strv_has(&kept, a) || (!conda && !strcmp(a, "conda_cpu_build_selected")))
            continue;
        dl_strv_add(&kept, dl_strdup(a));
    }
    for (i = 0; i < e->findings.items.count; i++) {
        const char *id = DL_LIST_AT(e->findings.items, dl_finding, i).id.value;
        if ((!e->findings.root_cause.value || strcmp(id, e->findings.root_cause.value)) &&
            !dl_strv_has(&kept, id))
            dl_strv_add(&kept, dl_strdup(id));
    }
    dl_strv_free(&e->alternatives);
    e->alternatives = kept;
}

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
    dl_gpu_resolve_name(k, g->name.value, &m);
    span->lo = m.span_lo;
    span->hi = m.span_hi;
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

static void derive_windows_pypi_cpu(const dl_paste *p, dl_facts *f)
{
    dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    dl_torch_install *t;
    /* pip's "Collecting torch==2.1.2" then "Downloading .../torch-2.1.2%2Bcu121-...whl":
     * the version line is untagged, but the wheel it fetched is a CUDA build */
    /* libtorch's zips come from download.pytorch.org in CPU and CUDA builds, not from PyPI */
    if (!py || cuda_wheel_fetched(p) || dl_paste_find(p, 0, "libtorch") >= 0 ||
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

/* The report is about CUDA: a line that names it other than collect_env's own labels. */
static bool wants_cuda(const dl_paste *p)
{
    static const char *const labels[] = {"cuda used to build", "is cuda available",
                                         "cuda_module_loading", "cuda runtime version"};
    /* or asks whether torch still supports the GPU, in a few languages ("unterstützt",
     * "不支持", "не поддерживает") */
    static const char *const support[] = {"support", "unterst\xc3\xbctz",
                                          "\xe6\x94\xaf\xe6\x8c\x81",
                                          "\xd0\xbf\xd0\xbe\xd0\xb4\xd0\xb4\xd0\xb5\xd1\x80\xd0\xb6"};
    size_t i, k;
    for (k = 0; k < sizeof support / sizeof support[0]; k++)
        if (dl_paste_find(p, 0, support[k]) >= 0)
            return true;
    for (i = 0; i < p->count; i++) {
        const char *low = p->lines[i].lower;
        bool label = false;
        if (!strstr(low, "cuda"))
            continue;
        for (k = 0; k < sizeof labels / sizeof labels[0]; k++)
            label |= strstr(low, labels[k]) != NULL;
        if (!label)
            return true;
    }
    return false;
}

/* A CPU build of torch (a +cpu tag, "CUDA used to build: None", PyPI's untagged Windows
 * wheel) in a report that asks about CUDA: that build is why CUDA does not work, even when
 * the text does not show the GPU (the rule wants one). Not on macOS, not beside another
 * vendor's GPU: those have their own cause. */
static void add_cpu_build_wanted_cuda(dl_explanation *e)
{
    const dl_facts *f = &e->facts;
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    const dl_torch_install *t = NULL;
    const dl_nvml_gpu *g = f->nvml.gpus.count ? &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, 0) : NULL;
    const char *cuda;
    dl_finding *x;
    size_t i;
    if (!py || e->findings.items.count || has_id(&e->findings, "cpu_only_build") ||
        dl_plan_os_parse(f->os.family.value) == DL_PLAN_OS_MACOS ||
        (g && g->name.value && dl_gpu_vendor_of_name(g->name.value) != DL_GPU_NVIDIA))
        return;
    if (py->site_packages.count &&
        DL_LIST_AT(py->site_packages, dl_site_packages, 0).torches.count)
        t = &DL_LIST_AT(DL_LIST_AT(py->site_packages, dl_site_packages, 0).torches,
                        dl_torch_install, 0);
    cuda = py->runtime.version.value ? py->runtime.cuda.value : t ? t->cuda.value : NULL;
    if (!cuda || strcmp(cuda, "none") != 0 || !wants_cuda(&e->paste))
        return;
    x = dl_finding_add(&e->findings, "cpu_only_build", DL_SEV_FAILURE,
                       "torch %s is a CPU-only build, and the report is about CUDA",
                       py->runtime.version.value ? py->runtime.version.value
                                                 : dl_text_or(&t->version, ""));
    for (i = 0; i < e->where.n; i++)
        if (strstr(e->where.where[i].fact, "version") ||
            !strcmp(e->where.where[i].fact, "os.family"))
            dl_quote_line(x, &e->paste, e->where.where[i].line);
    dl_finding_fix(x, "# the CUDA build from download.pytorch.org (dlenv plan prints the "
                      "command for this machine)");
}

/* A conda list row of pytorch whose build string is a CPU build ("pytorch 2.1.0
 * py3.10_cpu_0 pytorch", "[conda] pytorch 2.1.0 cpu_generic_py310h... conda-forge"); -1 when
 * none. */
static long conda_cpu_row(const dl_paste *p)
{
    long i;
    for (i = dl_paste_find(p, 0, "pytorch"); i >= 0; i = dl_paste_find(p, (size_t)i + 1, "pytorch")) {
        const char *c = p->lines[i].lower, *build;
        bool cpu_package;
        c += strspn(c, " \t");
        if (!strncmp(c, "[conda]", 7))
            c += 7 + strspn(c + 7, " \t");
        cpu_package = !strncmp(c, "pytorch-cpu", 11) && (c[11] == ' ' || c[11] == '\t');
        if (strncmp(c, "pytorch", 7) != 0 || (c[7] != ' ' && c[7] != '\t' && !cpu_package))
            continue;
        c += strcspn(c, " \t");
        c += strspn(c, " \t");
        if (!isdigit((unsigned char)*c))
            continue;
        build = c + strcspn(c, " \t");
        build += strspn(build, " \t");
        /* "pytorch-cpu" is the CPU package asked for by name (cpu_only_build's reading);
         * "pytorch" with a CPU build string is the variant conda chose */
        if (!cpu_package && (!strncmp(build, "cpu_", 4) || strstr(build, "_cpu_") ||
                             strstr(build, "_cpu ") || strstr(build, "_cpu\t")))
            return i;
    }
    return -1;
}

/* conda list shows pytorch's CPU build (its build string says cpu) in a report about CUDA:
 * conda's solver picked the CPU variant (a cpuonly or pytorch-mutex pin, no CUDA build for
 * the cudatoolkit asked for, conda-forge's cpu build). Not on macOS, not beside another
 * vendor's GPU. */
static void add_conda_cpu_row(dl_explanation *e)
{
    const dl_nvml_gpu *g = e->facts.nvml.gpus.count
                               ? &DL_LIST_AT(e->facts.nvml.gpus, dl_nvml_gpu, 0) : NULL;
    dl_finding *x;
    long line;
    if (e->findings.items.count || dl_plan_os_parse(e->facts.os.family.value) == DL_PLAN_OS_MACOS ||
        (g && g->name.value && dl_gpu_vendor_of_name(g->name.value) != DL_GPU_NVIDIA) ||
        !wants_cuda(&e->paste) || (line = conda_cpu_row(&e->paste)) < 0)
        return;
    x = dl_finding_add(&e->findings, "conda_cpu_build_selected", DL_SEV_FAILURE,
                       "Conda picked the CPU variant: its pytorch's build string is a CPU build");
    dl_quote_line(x, &e->paste, (size_t)line);
    dl_finding_fix(x, "# pin the CUDA build (pytorch-cuda, or a build string with cuda) or "
                      "install torch with pip from download.pytorch.org");
}

/* A report about CUDA from a GPU older than every wheel dlenv knows (a Kepler GT 740M, a
 * Fermi): whatever torch was installed, it has no kernels for that GPU, even when the text
 * shows no error (the thread asks why torch does not use it). Only when nothing else was
 * found, and not when the text's torch is one the table does not reach (0.4 still had
 * sm_30). */
static void add_gpu_below_every_wheel(const dl_knowledge *k, dl_explanation *e)
{
    const dl_nvml_gpu *g = e->facts.nvml.gpus.count
                               ? &DL_LIST_AT(e->facts.nvml.gpus, dl_nvml_gpu, 0) : NULL;
    dl_finding *x;
    size_t i;
    /* "torch sees no GPU" (no_gpu_visible) is the symptom this cause explains */
    if ((e->findings.items.count &&
         !(e->findings.items.count == 1 && has_id(&e->findings, "no_gpu_visible"))) ||
        !g || !g->name.value ||
        dl_gpu_vendor_of_name(g->name.value) != DL_GPU_NVIDIA || !wants_cuda(&e->paste) ||
        !dl_gpu_below_every_wheel(k, &e->facts, &e->gpu))
        return;
    x = dl_finding_add(&e->findings, "gpu_arch_dropped", DL_SEV_FAILURE,
                       "%s (sm_%u%s) is older than every architecture in the torch wheels "
                       "%s",
                       g->name.value, e->gpu.hi, e->gpu.lo != e->gpu.hi ? " at most" : "",
                       e->gpu.hi < 20 ? "of any release (CUDA 7 and later build no code for "
                                        "capability 1.x)"
                                      : "dlenv knows (1.12 onward)");
    for (i = 0; i < e->where.n; i++)
        if (strstr(e->where.where[i].fact, "gpus[0]"))
            dl_quote_line(x, &e->paste, e->where.where[i].line);
    dl_finding_fix(x, "# an older torch that still has kernels for it (built from source, or "
                      "a release from before the architecture was dropped), or a newer GPU");
}

/* The text shows an error (a traceback, an "Error" line) but not which one. */
static bool shows_an_error(const dl_paste *p)
{
    return dl_paste_find(p, 0, "traceback (most recent call last)") >= 0 ||
           dl_paste_find(p, 0, "error:") >= 0;
}

/* A GPU that only the newest wheels have kernels for (an RTX 50xx, sm_120: cu128 and later)
 * failing with an error the text cuts off, and torch's version not given: a wheel without
 * its architecture is the likely cause, not the certain one; collect_env and the whole
 * error decide. Only when nothing else was found. */
static void add_gpu_newer_than_most_wheels(const dl_knowledge *k, dl_explanation *e)
{
    const dl_facts *f = &e->facts;
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    const dl_nvml_gpu *g = f->nvml.gpus.count ? &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, 0) : NULL;
    dl_finding *x;
    size_t i;
    if (e->findings.items.count || !g || !g->name.value ||
        dl_gpu_vendor_of_name(g->name.value) != DL_GPU_NVIDIA ||
        (py && (py->runtime.version.value || py->site_packages.count)) ||
        !shows_an_error(&e->paste) || !dl_gpu_newer_than_most_wheels(k, f, &e->gpu))
        return;
    x = dl_finding_add(&e->findings, "arch_not_in_wheel", DL_SEV_FAILURE,
                       "%s (sm_%u) has kernels only in the newest torch wheels; a torch "
                       "installed without asking for one lacks them",
                       g->name.value, e->gpu.lo);
    for (i = 0; i < e->where.n; i++)
        if (strstr(e->where.where[i].fact, "gpus[0]"))
            dl_quote_line(x, &e->paste, e->where.where[i].line);
    dl_finding_fix(x, "# a wheel whose list covers the GPU (dlenv plan --gpu \"%s\" prints "
                      "the command)", g->name.value);
    dl_strv_add(&e->ask, dl_strdup("`python -m torch.utils.collect_env` (torch's version and "
                                   "build) and the whole error, from the first line of the "
                                   "traceback"));
}

/* The value a line assigns to CUDA_VISIBLE_DEVICES ("export CUDA_VISIBLE_DEVICES=1",
 * "os.environ['CUDA_VISIBLE_DEVICES'] = '7'", "set CUDA_VISIBLE_DEVICES=-1"): true when it
 * hides the first GPU (empty, -1, or a list that starts past index 0), the setting that
 * leaves a one-GPU machine with none. */
static bool hides_first_gpu(const char *low)
{
    const char *at = strstr(low, "cuda_visible_devices");
    if (!at)
        return false;
    at += strlen("cuda_visible_devices");
    at += strspn(at, "\"'] ");
    if (*at != '=')
        return false;
    at++;
    at += strspn(at, " \"'");
    if (*at == '\0' || *at == ' ' || *at == '`')
        return true;
    if (at[0] == '-' && at[1] == '1')
        return true;
    return *at >= '1' && *at <= '9';
}

/* torch.cuda.is_available() said False near that line (the call and the word within two
 * lines: "the following returns false" above a quoted call counts). */
static bool unavailable_near(const dl_paste *p, size_t line)
{
    size_t lo = line >= 2 ? line - 2 : 0, hi = line + 2 < p->count ? line + 2 : p->count - 1, i;
    for (i = lo; i <= hi; i++)
        if (strstr(p->lines[i].lower, "false"))
            return true;
    return false;
}

/* The text sets CUDA_VISIBLE_DEVICES to a value that hides the first GPU and says
 * is_available() is False: the variable is the reading (a launch script's index written for
 * the author's second GPU), even without an error message. */
static void add_gpus_hidden_by_variable(dl_explanation *e)
{
    const dl_paste *p = &e->paste;
    long set = -1, seen;
    dl_finding *x;
    for (seen = dl_paste_find(p, 0, "cuda_visible_devices"); seen >= 0 && set < 0;
         seen = dl_paste_find(p, (size_t)seen + 1, "cuda_visible_devices"))
        if (hides_first_gpu(p->lines[seen].lower))
            set = seen;
    if (e->findings.items.count || set < 0)
        return;
    for (seen = dl_paste_find(p, 0, "is_available"); seen >= 0;
         seen = dl_paste_find(p, (size_t)seen + 1, "is_available"))
        if (unavailable_near(p, (size_t)seen))
            break;
    if (seen < 0)
        return;
    x = dl_finding_add(&e->findings, "cuda_visible_devices", DL_SEV_FAILURE,
                       "CUDA_VISIBLE_DEVICES is set to a value that hides the first GPU, and "
                       "torch sees none");
    dl_quote_line(x, p, (size_t)set);
    dl_quote_line(x, p, (size_t)seen);
    dl_finding_fix(x, "# unset CUDA_VISIBLE_DEVICES or list GPUs that exist (nvidia-smi -L "
                      "numbers them from 0)");
    dl_strv_add(&e->ask, dl_strdup("`nvidia-smi -L` (how many GPUs, numbered from 0) and "
                                   "`echo $CUDA_VISIBLE_DEVICES` where the script runs"));
}

/* "OOM" said in words ("--medvram OOMs", "OOM at 512x512 on my 4 GB card") about a GPU,
 * with nothing else found: users write the allocator's "CUDA out of memory" so. Not where
 * the text speaks of the host's memory (the kernel's OOM killer, RAM, WSL's limit). Another
 * process on the GPU stays a candidate; torch's own message decides. */
static void add_oom_in_words(dl_explanation *e)
{
    static const char *const gpu[] = {"vram", "gpu", "cuda", "gtx", "rtx", "graphics card",
                                      "video card"};
    static const char *const host[] = {"killed process", "exit code 137", "host memory",
                                       "system memory", "system ram", "cpu memory", "cpu ram",
                                       "wsl"};
    long line;
    dl_finding *x;
    if (e->findings.items.count || (line = dl_oom_word_line(&e->paste)) < 0 ||
        dl_paste_find_any(&e->paste, gpu, sizeof gpu / sizeof gpu[0]) < 0 ||
        dl_paste_find_any(&e->paste, host, sizeof host / sizeof host[0]) >= 0)
        return;
    x = dl_finding_add(&e->findings, "cuda_oom", DL_SEV_FAILURE,
                       "Genuine out of memory (the GPU's memory is too small for the run)");
    dl_quote_line(x, &e->paste, (size_t)line);
    dl_finding_fix(x, "# a smaller batch, model or image size, mixed precision; a launcher's "
                      "low-memory options (--medvram, --lowvram)");
    dl_strv_add(&e->alternatives, dl_strdup("gpu_memory_held_by_other_process"));
    dl_strv_add(&e->ask, dl_strdup("the whole error (torch's \"CUDA out of memory\" line gives "
                                   "the GPU's total, free and PyTorch's share) and `nvidia-smi`"));
}

/* The version of the WSL2 kernel a line names ("5.10.16.3-microsoft-standard-WSL2", from
 * `uname -r` or /proc/version), as major*1000000 + minor*1000 + patch; -1 when none. */
static long wsl_kernel_version(const char *low)
{
    const char *tag = strstr(low, "-microsoft-standard"), *start = tag;
    long part[3] = {0, 0, 0};
    int n = 0;
    if (!tag)
        return -1;
    while (start > low && (isdigit((unsigned char)start[-1]) || start[-1] == '.'))
        start--;
    while (start < tag && n < 3) {
        if (!isdigit((unsigned char)*start))
            return -1;
        char *end;
        part[n++] = strtol(start, &end, 10);
        start = end;
        if (*start == '.')
            start++;
    }
    return n == 3 ? part[0] * 1000000L + part[1] * 1000L + part[2] : -1;
}

/* CUDA finds no driver or no device under a WSL2 kernel older than 5.10.43: that kernel
 * has no GPU paravirtualisation, so the Windows driver is never reached (it is not missing,
 * and installing a Linux driver inside WSL would break it). Runs before the signatures so
 * that "Found no NVIDIA driver" does not read as a driver to install. */
static void add_wsl_kernel_without_gpu(dl_explanation *e)
{
    static const char *const symptoms[] = {
        "found no nvidia driver", "no cuda-capable device is detected",
        "no cuda gpus are available", "cuda driver initialization failed"};
    const dl_paste *p = &e->paste;
    long at, symptom = -1;
    size_t k;
    dl_finding *x;
    for (k = 0; k < sizeof symptoms / sizeof symptoms[0] && symptom < 0; k++)
        symptom = dl_paste_find(p, 0, symptoms[k]);
    if (symptom < 0)
        return;
    for (at = dl_paste_find(p, 0, "-microsoft-standard"); at >= 0;
         at = dl_paste_find(p, (size_t)at + 1, "-microsoft-standard")) {
        long v = wsl_kernel_version(p->lines[at].lower);
        if (v >= 0 && v < 5010043L)
            break;
    }
    if (at < 0)
        return;
    x = dl_finding_add(&e->findings, "driver_not_loaded", DL_SEV_FAILURE,
                       "The WSL2 kernel is older than 5.10.43, which CUDA on WSL needs: the "
                       "Windows driver's GPU is not passed into Linux");
    dl_quote_line(x, p, (size_t)at);
    dl_quote_line(x, p, (size_t)symptom);
    dl_finding_fix(x, "# in Windows: wsl --update (then wsl --shutdown); keep the driver on "
                      "Windows, never install a Linux driver inside WSL");
}

/* "pip install torch" with no other index (no download.pytorch.org, no +cuXYZ) */
static long plain_pip_install(const dl_paste *p)
{
    static const char *const pips[] = {"pip install torch", "pip3 install torch",
                                       "pip install -u torch", "pip install --upgrade torch"};
    size_t k;
    for (k = 0; k < sizeof pips / sizeof pips[0]; k++) {
        long i;
        for (i = dl_paste_find(p, 0, pips[k]); i >= 0;
             i = dl_paste_find(p, (size_t)i + 1, pips[k])) {
            const char *low = p->lines[i].lower;
            const char *after = strstr(low, pips[k]) + strlen(pips[k]);
            if ((*after == ' ' || *after == '\0' || *after == '`') &&
                !strstr(low, "download.pytorch.org") &&
                !strstr(low, "+cu") && !strstr(low, "find-links") && !strstr(low, " -f "))
                return i;
        }
    }
    return -1;
}

/* PyPI's Windows wheels are CPU builds: a plain "pip install torch" on Windows in a report
 * about CUDA installed one, even when the text gives no version. */
static void add_plain_pip_on_windows(dl_explanation *e)
{
    const dl_nvml_gpu *g = e->facts.nvml.gpus.count
                               ? &DL_LIST_AT(e->facts.nvml.gpus, dl_nvml_gpu, 0) : NULL;
    long line;
    dl_finding *x;
    if (e->findings.items.count ||
        dl_plan_os_parse(e->facts.os.family.value) != DL_PLAN_OS_WINDOWS ||
        (g && g->name.value && dl_gpu_vendor_of_name(g->name.value) != DL_GPU_NVIDIA) ||
        !wants_cuda(&e->paste) || (line = plain_pip_install(&e->paste)) < 0)
        return;
    x = dl_finding_add(&e->findings, "cpu_only_build", DL_SEV_FAILURE,
                       "\"pip install torch\" on Windows installs PyPI's CPU-only build");
    dl_quote_line(x, &e->paste, (size_t)line);
    dl_finding_fix(x, "# the CUDA build from download.pytorch.org (dlenv plan prints the "
                      "command for this machine)");
}

/* The text names a Linux ARM server ("aarch64", NVIDIA's "sbsa" builds, a Grace board) */
static bool linux_arm(const dl_paste *p)
{
    static const char *const marks[] = {"aarch64", "sbsa", "gh200", "gb200", "grace hopper",
                                        "grace blackwell"};
    return dl_paste_find_any(p, marks, sizeof marks / sizeof marks[0]) >= 0;
}

/* PyPI's Linux aarch64 torch wheels have been CPU builds (the CUDA ones come from
 * download.pytorch.org's cuXYZ index): a plain "pip install torch" on an ARM Linux server in
 * a report about CUDA or the CPU build installed one. Not on a Mac (arm64 there has no CUDA
 * at all). */
static void add_plain_pip_on_aarch64(dl_explanation *e)
{
    long line;
    dl_finding *x;
    if (e->findings.items.count ||
        dl_plan_os_parse(e->facts.os.family.value) == DL_PLAN_OS_MACOS ||
        dl_plan_os_parse(e->facts.os.family.value) == DL_PLAN_OS_WINDOWS || !linux_arm(&e->paste) ||
        !(wants_cuda(&e->paste) || dl_paste_find(&e->paste, 0, "cpu version") >= 0 ||
          dl_paste_find(&e->paste, 0, "cpu-only") >= 0 || dl_paste_find(&e->paste, 0, "cpu only") >= 0) ||
        (line = plain_pip_install(&e->paste)) < 0)
        return;
    x = dl_finding_add(&e->findings, "cpu_only_build", DL_SEV_FAILURE,
                       "\"pip install torch\" on Linux aarch64 installs PyPI's wheel, a CPU-only "
                       "build");
    dl_quote_line(x, &e->paste, (size_t)line);
    dl_finding_fix(x, "# the CUDA build from download.pytorch.org (e.g. pip install torch "
                      "--index-url https://download.pytorch.org/whl/cu128)");
    dl_strv_add(&e->ask, dl_strdup("`python -c \"import torch; print(torch.__version__, "
                                   "torch.version.cuda)\"` (a CPU build says None)"));
}

/* A line that is the word False alone (the REPL's answer). */
static bool only_false(const char *low)
{
    low += strspn(low, " \t");
    if (strncmp(low, "false", 5) != 0)
        return false;
    low += 5;
    return low[strspn(low, " \t\r")] == '\0';
}

/* A script's "assert torch.cuda.is_available(), ..." whose AssertionError the text shows
 * within the next few lines: the assertion failing is is_available() returning False, said
 * in the form a traceback writes it. -1 when none. */
static long failed_availability_assert(const dl_paste *p)
{
    long i;
    for (i = dl_paste_find(p, 0, "is_available"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "is_available")) {
        const char *low = p->lines[i].lower;
        long err = dl_paste_find(p, (size_t)i, "assertionerror");
        low += strspn(low, " \t>");
        if (strncmp(low, "assert ", 7) == 0 && err >= i && err <= i + 3)
            return i;
    }
    return -1;
}

/* The line where the text says torch.cuda.is_available() is False: on that line
 * ("is_available() returns False") or as the REPL's answer on the next; -1 when none. */
static long unavailable_line(const dl_paste *p)
{
    long i;
    for (i = dl_paste_find(p, 0, "is_available"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "is_available")) {
        const char *after = strstr(p->lines[i].lower, "is_available");
        if (strstr(after, "false"))
            return i;
        if ((size_t)i + 1 < p->count && only_false(p->lines[i + 1].lower))
            return i + 1;
    }
    /* autocast's warning says the same: "User provided device_type of 'cuda', but CUDA is
     * not available. Disabling" */
    i = dl_paste_find(p, 0, "but cuda is not available");
    return i >= 0 ? i : failed_availability_assert(p);
}

/* The text's driver leaves no room for the "old driver" reading: with torch's CUDA known the
 * doctor's rule has judged the pair, and a driver that runs CUDA 12 runs every wheel but the
 * newest. A driver for CUDA 11 or older with torch's CUDA unknown keeps the reading. */
static bool driver_rules_it_out(const dl_facts *f, const char *cuda)
{
    if (!f->nvml.driver_version.value)
        return false;
    return cuda || !f->nvml.cuda_driver_version.known ||
           f->nvml.cuda_driver_version.value >= 12000;
}

static bool cuda_build_named(const dl_paste *p);

/* A site-packages inside a conda environment ("/opt/mamba/envs/NAME/lib/python3.10/
 * site-packages", "~/miniconda3/lib/python3.9/site-packages"): torch came with conda's
 * environment. */
static long conda_site_packages(const dl_paste *p)
{
    static const char *const roots[] = {"/envs/", "anaconda3/lib/", "miniconda3/lib/",
                                        "miniforge3/lib/", "mambaforge/lib/"};
    long i;
    for (i = dl_paste_find(p, 0, "site-packages"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "site-packages")) {
        size_t k;
        for (k = 0; k < sizeof roots / sizeof roots[0]; k++)
            if (strstr(p->lines[i].lower, roots[k]))
                return i;
    }
    return -1;
}

/* torch in a conda environment sees no CUDA (is_available() False, autocast's "CUDA is not
 * available") on Linux, with nothing else found and no CUDA build named: conda's solver
 * picked the CPU variant of pytorch (cpuonly, pytorch-mutex, conda-forge's cpu build) far
 * more often than the driver failed. Not on Windows (a pip torch in a conda env there is
 * PyPI's CPU wheel, add_gpu_unused_on_windows), not on a Mac, not in a container. */
static void add_conda_env_without_cuda(dl_explanation *e)
{
    const dl_nvml_gpu *g = e->facts.nvml.gpus.count
                               ? &DL_LIST_AT(e->facts.nvml.gpus, dl_nvml_gpu, 0) : NULL;
    dl_plan_os os = dl_plan_os_parse(e->facts.os.family.value);
    dl_finding *x;
    long line, env;
    if (e->findings.items.count || os == DL_PLAN_OS_WINDOWS || os == DL_PLAN_OS_MACOS ||
        (g && g->name.value && dl_gpu_vendor_of_name(g->name.value) != DL_GPU_NVIDIA) ||
        dl_paste_find(&e->paste, 0, "docker") >= 0 || dl_paste_find(&e->paste, 0, "container") >= 0 ||
        cuda_build_named(&e->paste) || (env = conda_site_packages(&e->paste)) < 0 ||
        (line = unavailable_line(&e->paste)) < 0)
        return;
    x = dl_finding_add(&e->findings, "conda_cpu_build_selected", DL_SEV_FAILURE,
                       "torch in a conda environment sees no CUDA and gives no error: conda "
                       "most often picked pytorch's CPU variant");
    dl_quote_line(x, &e->paste, (size_t)line);
    dl_quote_line(x, &e->paste, (size_t)env);
    dl_finding_fix(x, "# pin the CUDA build (pytorch-cuda, or a build string with cuda) or "
                      "install torch with pip from download.pytorch.org");
    dl_strv_add(&e->alternatives, dl_strdup("driver_too_old"));
    dl_strv_add(&e->alternatives, dl_strdup("cpu_only_build"));
    dl_strv_add(&e->ask, dl_strdup("`conda list pytorch` (does the build string say cpu or "
                                   "cuda?) and `nvidia-smi`"));
}

/* torch.cuda.is_available() is False in a Colab notebook, with nothing else found (no old
 * driver's warning, no CPU build shown): Colab's runtimes bring a CUDA torch and the
 * driver, and a GPU only on a GPU runtime type, so the runtime has none. A torch the user
 * installed over Colab's stays a candidate. */
static void add_colab_runtime_without_gpu(dl_explanation *e)
{
    dl_finding *x;
    long line;
    if (e->findings.items.count || !dl_text_colab(&e->paste) ||
        ((line = unavailable_line(&e->paste)) < 0 &&
         (line = dl_paste_find(&e->paste, 0, "cuda is not available")) < 0))
        return;
    x = dl_finding_add(&e->findings, "no_gpu", DL_SEV_FAILURE,
                       "A Colab runtime without a GPU (the CPU runtime type): torch there sees "
                       "no CUDA device");
    dl_quote_line(x, &e->paste, (size_t)line);
    dl_finding_fix(x, "# in Colab: Runtime > Change runtime type > a GPU accelerator, then run "
                      "the notebook again");
    dl_strv_add(&e->alternatives, dl_strdup("cpu_only_build"));
    dl_strv_add(&e->ask, dl_strdup("the Colab runtime type (Runtime > Change runtime type) and "
                                   "`!nvidia-smi` in the notebook"));
}

/* torch.cuda.is_available() is False, and the text says nothing else: no error, no driver
 * version, no CPU build, no other vendor's GPU, not a Mac, not Windows (whose PyPI wheel
 * is a CPU build), not a container (whose runtime is another cause). A CUDA build returns
 * False without an error when the driver cannot run its CUDA (old torch printed nothing;
 * newer prints a warning that pastes often leave out), the usual cause on Linux; no
 * driver at all and a CPU build stay candidates, and `nvidia-smi` with collect_env
 * decides. */
static void add_silent_unavailable(dl_explanation *e)
{
    const dl_facts *f = &e->facts;
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    const dl_nvml_gpu *g = f->nvml.gpus.count ? &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, 0) : NULL;
    const dl_torch_install *t = py && py->site_packages.count &&
                                        DL_LIST_AT(py->site_packages, dl_site_packages, 0).torches.count
                                    ? &DL_LIST_AT(DL_LIST_AT(py->site_packages, dl_site_packages, 0).torches,
                                                  dl_torch_install, 0)
                                    : NULL;
    const char *cuda = py && py->runtime.version.value ? py->runtime.cuda.value
                                                       : t ? t->cuda.value : NULL;
    dl_plan_os os = dl_plan_os_parse(f->os.family.value);
    dl_finding *x;
    long line;
    if (e->findings.items.count || driver_rules_it_out(f, cuda) || os == DL_PLAN_OS_MACOS ||
        os == DL_PLAN_OS_WINDOWS || (cuda && !strcmp(cuda, "none")) ||
        (g && g->name.value && dl_gpu_vendor_of_name(g->name.value) != DL_GPU_NVIDIA) ||
        dl_paste_find(&e->paste, 0, "docker") >= 0 || dl_paste_find(&e->paste, 0, "container") >= 0 ||
        (line = unavailable_line(&e->paste)) < 0)
        return;
    x = dl_finding_add(&e->findings, "driver_too_old", DL_SEV_FAILURE,
                       "torch sees no GPU and gives no error: most often the driver cannot run "
                       "the CUDA torch was built with");
    dl_quote_line(x, &e->paste, (size_t)line);
    dl_finding_fix(x, "# update the driver (nvidia-smi's \"CUDA Version\" must be at least "
                      "torch's), or install a wheel for an older CUDA");
    dl_strv_add(&e->alternatives, dl_strdup("no_driver_installed"));
    dl_strv_add(&e->alternatives, dl_strdup("cpu_only_build"));
    dl_strv_add(&e->ask, dl_strdup("`nvidia-smi` (the driver and the newest CUDA it runs) and "
                                   "`python -m torch.utils.collect_env` (the CUDA torch was "
                                   "built with)"));
}

/* The text asks why torch does not use the GPU, in words ("how do I run it on my GPU",
 * "can't run on cuda", "does not recognize my gpu"); -1 when it does not. */
static long gpu_unused_line(const dl_paste *p)
{
    static const char *const words[] = {"run it on my gpu", "run it on the gpu", "run on my gpu",
                                        "run on the gpu", "runs on the gpu", "run on gpu",
                                        "run on cuda", "use my gpu", "use the gpu",
                                        "using my gpu", "using the gpu", "recognize my gpu",
                                        "recognise my gpu", "detect my gpu", "only uses the cpu",
                                        "only uses cpu", "runs on the cpu", "running on cpu",
                                        "running on the cpu", "not using gpu",
                                        "not using the gpu", "not using my gpu",
                                        "but not for gpu", "but not on gpu",
                                        "not touching my vram", "instead of gpu",
                                        "instead of the gpu", "instead of my gpu",
                                        "on cpu instead of", "on the cpu instead of"};
    return dl_paste_find_any(p, words, sizeof words / sizeof words[0]);
}

/* The text shows a CUDA build was asked for: its index, a +cuXYZ tag, conda's CUDA
 * packages. Then the CPU build is not the likely reading. */
static bool cuda_build_named(const dl_paste *p)
{
    static const char *const marks[] = {"download.pytorch.org/whl/cu", "+cu", "cudatoolkit",
                                        "pytorch-cuda"};
    return dl_paste_find_any(p, marks, sizeof marks / sizeof marks[0]) >= 0;
}

/* On Windows, torch that does not use the GPU and shows no error (is_available() False, or
 * the question in words) is most often PyPI's default wheel, a CPU build: the Linux
 * reading (add_silent_unavailable, an old driver) does not hold where pip's torch has no
 * CUDA at all. Not where the text shows a CUDA build asked for. The driver stays a
 * candidate and collect_env decides. */
static void add_gpu_unused_on_windows(dl_explanation *e)
{
    const dl_nvml_gpu *g = e->facts.nvml.gpus.count
                               ? &DL_LIST_AT(e->facts.nvml.gpus, dl_nvml_gpu, 0) : NULL;
    dl_finding *x;
    long line;
    if (e->findings.items.count ||
        dl_plan_os_parse(e->facts.os.family.value) != DL_PLAN_OS_WINDOWS ||
        (g && g->name.value && dl_gpu_vendor_of_name(g->name.value) != DL_GPU_NVIDIA) ||
        dl_paste_find(&e->paste, 0, "docker") >= 0 || cuda_build_named(&e->paste) ||
        ((line = unavailable_line(&e->paste)) < 0 && (line = gpu_unused_line(&e->paste)) < 0))
        return;
    x = dl_finding_add(&e->findings, "cpu_only_build", DL_SEV_FAILURE,
                       "torch does not use the GPU and gives no error: on Windows, PyPI's torch "
                       "is a CPU-only build");
    dl_quote_line(x, &e->paste, (size_t)line);
    dl_finding_fix(x, "# the CUDA build from download.pytorch.org (dlenv plan prints the "
                      "command for this machine)");
    dl_strv_add(&e->alternatives, dl_strdup("driver_too_old"));
    dl_strv_add(&e->ask, dl_strdup("`python -m torch.utils.collect_env` (a +cpu torch or "
                                   "\"CUDA used to build PyTorch: None\")"));
}

/* The text says torch does not see the GPU or cannot run on it (not a feeling that training
 * is slow, "I am not sure it uses the GPU"), in English, Chinese ("识别显卡": recognise the
 * graphics card, "用显卡": use the graphics card) or Russian ("использовать видеокарту":
 * use the video card, "видеокарту не видит": does not see the video card). */
static long gpu_not_seen_line(const dl_paste *p)
{
    static const char *const words[] = {
        "can't run on cuda", "cannot run on cuda", "can not run on cuda", "recognize my gpu",
        "recognise my gpu", "recognize the gpu", "recognise the gpu", "detect my gpu",
        "detect the gpu", "doesn't see my gpu", "does not see my gpu",
        "\xe8\xaf\x86\xe5\x88\xab\xe6\x98\xbe\xe5\x8d\xa1",
        "\xe7\x94\xa8\xe6\x98\xbe\xe5\x8d\xa1",
        /* one phrase over several lines: parenthesised, so no compiler takes it for a
         * missing comma */
        ("\xd0\xb8\xd1\x81\xd0\xbf\xd0\xbe\xd0\xbb\xd1\x8c\xd0\xb7\xd0\xbe\xd0\xb2\xd0"
         "\xb0\xd1\x82\xd1\x8c\x20\xd0\xb2\xd0\xb8\xd0\xb4\xd0\xb5\xd0\xbe\xd0\xba\xd0"
         "\xb0\xd1\x80\xd1\x82\xd1\x83"),
        ("\xd0\xb2\xd0\xb8\xd0\xb4\xd0\xb5\xd0\xbe\xd0\xba\xd0\xb0\xd1\x80\xd1\x82\xd1"
         "\x83\x20\xd0\xbd\xd0\xb5\x20\xd0\xb2\xd0\xb8\xd0\xb4\xd0\xb8\xd1\x82")};
    return dl_paste_find_any(p, words, sizeof words / sizeof words[0]);
}

/* The GPU-not-seen question ("can't run on cuda", "how to make it recognize my GPU") with
 * nothing else: no OS, no error, no driver, no torch build, no other vendor's GPU. The
 * usual answer is that torch was installed without its CUDA build (PyPI's default on
 * Windows and macOS, or a requirements file that pinned plain "torch"); the driver stays a
 * candidate and collect_env decides. */
static void add_gpu_unused_os_unknown(dl_explanation *e)
{
    const dl_facts *f = &e->facts;
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    const dl_nvml_gpu *g = f->nvml.gpus.count ? &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, 0) : NULL;
    dl_finding *x;
    long line;
    if (e->findings.items.count || f->os.family.value || f->nvml.driver_version.value ||
        (py && (py->runtime.version.value || py->site_packages.count)) ||
        (g && g->name.value && dl_gpu_vendor_of_name(g->name.value) != DL_GPU_NVIDIA) ||
        dl_paste_find(&e->paste, 0, "docker") >= 0 || shows_an_error(&e->paste) ||
        cuda_build_named(&e->paste) ||
        (line = gpu_not_seen_line(&e->paste)) < 0)
        return;
    x = dl_finding_add(&e->findings, "cpu_only_build", DL_SEV_FAILURE,
                       "torch does not see the GPU and the text shows no error: most often "
                       "torch was installed without its CUDA build");
    dl_quote_line(x, &e->paste, (size_t)line);
    dl_finding_fix(x, "# the CUDA build from download.pytorch.org (dlenv plan prints the "
                      "command for this machine)");
    dl_strv_add(&e->alternatives, dl_strdup("driver_too_old"));
    dl_strv_add(&e->alternatives, dl_strdup("no_driver_installed"));
    dl_strv_add(&e->ask, dl_strdup("`python -m torch.utils.collect_env` (a +cpu torch or "
                                   "\"CUDA used to build PyTorch: None\") and `nvidia-smi`"));
}

/* Torch that cannot use the GPU on a freshly installed Windows ("Torch is not able to use
 * GPU", is_available() False), with nothing else found: such a Windows lacks the Visual C++
 * runtime that torch's DLLs load, and launchers report the failed import as "cannot use
 * the GPU". The driver and a CPU build stay candidates. */
static void add_gpu_unused_on_fresh_windows(dl_explanation *e)
{
    long line;
    dl_finding *x;
    if (e->findings.items.count ||
        dl_plan_os_parse(e->facts.os.family.value) != DL_PLAN_OS_WINDOWS ||
        !dl_text_fresh_windows(&e->paste) ||
        ((line = dl_paste_find(&e->paste, 0, "not able to use gpu")) < 0 &&
         (line = unavailable_line(&e->paste)) < 0 && (line = gpu_unused_line(&e->paste)) < 0))
        return;
    x = dl_finding_add(&e->findings, "vc_redist_missing", DL_SEV_FAILURE,
                       "torch cannot use the GPU on a freshly installed Windows: the Visual C++ "
                       "runtime its DLLs need comes with no fresh Windows");
    dl_quote_line(x, &e->paste, (size_t)line);
    dl_finding_fix(x, "# install the latest VC++ 2015-2022 x64 redistributable "
                      "(https://aka.ms/vs/17/release/vc_redist.x64.exe)");
    dl_strv_add(&e->alternatives, dl_strdup("no_driver_installed"));
    dl_strv_add(&e->alternatives, dl_strdup("cpu_only_build"));
    dl_strv_add(&e->ask, dl_strdup("`python -c \"import torch\"` in the environment (its error "
                                   "names the DLL) and `nvidia-smi`"));
}

/* The version right after a "torch" that is the package itself ("torch 2.8.0.dev20250321+xpu",
 * "torch-2.1.0", "torch==1.13.1+cu117", "PyTorch 0.4.0", "torch version: 2.0.1"), not
 * torchvision's or torchaudio's; its length, 0 when none. */
static size_t version_after_torch(const char *at, const char **version)
{
    const char *c = at + 5;
    unsigned a, b, d;
    int used = 0;
    size_t len;
    if (isalpha((unsigned char)*c) || *c == '_' || *c == '.')
        return 0;
    c += strspn(c, " -=:'\"");
    if (!strncmp(c, "version", 7))
        c += 7 + strspn(c + 7, " -=:'\"");
    if (*c == 'v')
        c++;
    /* "2.1.0", or a minor alone ("PyTorch 2.1 works, 2.2 fails") */
    if ((sscanf(c, "%u.%u.%u%n", &a, &b, &d, &used) != 3 &&
         sscanf(c, "%u.%u%n", &a, &b, &used) != 2) || used <= 0)
        return 0;
    len = (size_t)used;
    while (c[len] && (isalnum((unsigned char)c[len]) || c[len] == '+' ||
                      (c[len] == '.' && isalnum((unsigned char)c[len + 1]))))
        len++;
    *version = c;
    return len;
}

/* How many distinct torch versions the text names (2.8.0.dev20250321+xpu and
 * 2.8.0.dev20250325+xpu are two), up to `most` (at most 4). */
static size_t torch_versions_named(const dl_paste *p, size_t most)
{
    char seen[4][48];
    size_t n = 0;
    long i;
    for (i = dl_paste_find(p, 0, "torch"); i >= 0 && n < most && n < 4;
         i = dl_paste_find(p, (size_t)i + 1, "torch")) {
        const char *at;
        for (at = strstr(p->lines[i].lower, "torch"); at && n < most && n < 4;
             at = strstr(at + 5, "torch")) {
            const char *v = NULL;
            size_t len = version_after_torch(at, &v), k;
            bool dup = false;
            if (!len)
                continue;
            if (len >= sizeof seen[0])
                len = sizeof seen[0] - 1;
            for (k = 0; k < n; k++)
                dup |= strlen(seen[k]) == len && !strncmp(seen[k], v, len);
            if (!dup) {
                memcpy(seen[n], v, len);
                seen[n++][len] = '\0';
            }
        }
    }
    return n;
}

/* The text says one torch build works and another does not ("worked with 0.4.0", "the first
 * build where it broke", "downgraded to 2.0.1 and it works") and names both, with nothing else
 * found: a regression in the newer build, which its release notes or issue tracker know,
 * not the machine (the same machine ran the other build). */
static void add_regression_between_builds(dl_explanation *e)
{
    static const char *const words[] = {
        "regression", "first build where", "where it broke", "it broke", "broke in",
        "broken in", "stopped working", "no longer works", "worked fine", "worked well",
        "worked with", "worked on", "works fine on", "works well on", "works fine with",
        "works well with", "downgrad", "rolled back", "roll back", "reverting to",
        "reverted to", "went back to", "used to work", "was working", "worked before",
        "but not with", "but not on", "but not in"};
    /* a companion package that fails after torch changed is built for the other torch (a
     * mismatch of the pair), not a broken torch */
    static const char *const companions[] = {"import torchaudio", "import torchvision",
                                             "import torchtext", "torchvision::",
                                             "torchaudio::"};
    dl_finding *x;
    long line;
    if (e->findings.items.count ||
        (line = dl_paste_find_any(&e->paste, words, sizeof words / sizeof words[0])) < 0 ||
        torch_versions_named(&e->paste, 2) < 2 ||
        dl_paste_find_any(&e->paste, companions, sizeof companions / sizeof companions[0]) >= 0)
        return;
    x = dl_finding_add(&e->findings, "known_bad_release", DL_SEV_FAILURE,
                       "One torch build works here and another does not: the failing build "
                       "has a problem of its own (a regression), not the machine");
    dl_quote_line(x, &e->paste, (size_t)line);
    dl_finding_fix(x, "# keep the build that works; look for the failing release in torch's "
                      "issue tracker and take the release that fixes it");
    dl_strv_add(&e->ask, dl_strdup("the exact torch versions that work and fail, and "
                                   "`python -m torch.utils.collect_env` under the failing one"));
}

/* A signature's question already asks for that command. */
static bool asked(const dl_explanation *e, const char *command)
{
    size_t i;
    for (i = 0; i < e->ask.n; i++)
        if (strstr(e->ask.v[i], command))
            return true;
    return false;
}

/* What would tell the candidates apart, from what the text did not say. */
static void ask_for_missing(dl_explanation *e)
{
    const dl_facts *f = &e->facts;
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    bool torch_known = py && (py->runtime.version.value || py->site_packages.count);
    if (!e->alternatives.n && e->findings.root_cause.value)
        return;
    if (!f->nvml.driver_version.value && !asked(e, "`nvidia-smi"))
        dl_strv_add(&e->ask, dl_strdup("`nvidia-smi`: the driver version and the GPU decide "
                                       "between driver, build and hardware causes"));
    if (!torch_known && !asked(e, "collect_env"))
        dl_strv_add(&e->ask, dl_strdup("`python -m torch.utils.collect_env`: torch's version, "
                                       "its CUDA and whether it sees the GPU"));
}

void dl_explain(const dl_knowledge *k, const char *text, size_t len, dl_explanation *out)
{
    const dl_table *cat = dl_knowledge_at(k, DL_TABLE_error_signatures);
    dl_signature_hits hits;
    dl_findings rules;
    dl_rule_input in;
    size_t i;
    memset(out, 0, sizeof *out);
    dl_paste_read(text, len, &out->paste);
    dl_facts_init(&out->facts);
    dl_text_facts_read(&out->paste, &out->facts, &out->where);
    derive_driver_cuda(k, &out->facts);
    derive_gpu_cc(k, &out->facts, &out->gpu);
    derive_windows_pypi_cpu(&out->paste, &out->facts);
    memset(&rules, 0, sizeof rules);
    in.facts = &out->facts;
    in.know = k;
    dl_rules_run(&in, NULL, &rules);
    dl_explain_directml_rules(&out->paste, &rules);
    dl_rule_oom_message(&out->paste, &out->findings);
    add_known_bad_message(k, out);
    dl_explain_shm_dll_release(k, out);
    dl_explain_directml_python(out);
    dl_explain_user_site_torch(out);
    add_wsl_kernel_without_gpu(out);
    dl_signatures_match(cat, &out->paste, &hits);
    out->signatures = hits.n;
    for (i = 0; i < hits.n; i++)
        if (!dl_signature_yields(cat, &hits, i))
            add_signature(k, cat, &hits.v[i], out, &rules);
    add_rules(&rules, out);
    demote_mkl_beside_known_bad(out);
    dl_explain_extension_runtime(out);
    add_oom_in_words(out);
    add_conda_cpu_row(out);
    add_cpu_build_wanted_cuda(out);
    add_gpu_below_every_wheel(k, out);
    add_gpu_newer_than_most_wheels(k, out);
    add_gpus_hidden_by_variable(out);
    add_plain_pip_on_windows(out);
    add_plain_pip_on_aarch64(out);
    add_colab_runtime_without_gpu(out);
    add_conda_env_without_cuda(out);
    add_silent_unavailable(out);
    add_gpu_unused_on_windows(out);
    add_gpu_unused_on_fresh_windows(out);
    dl_explain_portable_bare_pip(out);
    add_gpu_unused_os_unknown(out);
    add_regression_between_builds(out);
    dl_signature_hits_free(&hits);
    dl_findings_free(&rules);
    dl_findings_mark_root(&out->findings);
    prune_alternatives(out);
    ask_for_missing(out);
}

void dl_explanation_free(dl_explanation *e)
{
    dl_paste_free(&e->paste);
    dl_facts_free(&e->facts);
    dl_findings_free(&e->findings);
    dl_strv_free(&e->alternatives);
    dl_strv_free(&e->ask);
    memset(e, 0, sizeof *e);
}

const dl_finding *dl_explanation_root(const dl_explanation *e, size_t *index)
{
    size_t i;
    for (i = 0; e->findings.root_cause.value && i < e->findings.items.count; i++)
        if (!strcmp(DL_LIST_AT(e->findings.items, dl_finding, i).id.value,
                    e->findings.root_cause.value)) {
            if (index)
                *index = i;
            return &DL_LIST_AT(e->findings.items, dl_finding, i);
        }
    return NULL;
}
