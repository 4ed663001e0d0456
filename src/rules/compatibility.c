/* Compatibility against the knowledge tables: the driver against the CUDA torch was built
 * with, the GPU against the architectures compiled into the wheel, Python against the
 * releases that have wheels for it. */
#include "base/str.h"
#include "facts/query.h"
#include "know/arch.h"
#include "know/version.h"
#include "plan/machine_facts.h"
#include "plan/plan_checks.h"
#include "rules/fixes.h"
#include "rules/know_query.h"
#include "rules/rule_memo.h"
#include "rules/rules.h"

#include <stdio.h>
#include <stdlib.h>
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

static const char *device_cc(const dl_facts *f);

/* The CUDA release that added compute capability `cc` ("8.9"), from cuda_arch_ceiling.csv's
 * `added` cells; NULL when the table does not say. */
static const char *cuda_that_added(const dl_knowledge *k, const char *cc)
{
    const dl_table *t = k ? dl_knowledge_at(k, DL_TABLE_cuda_arch_ceiling) : NULL;
    size_t r;
    for (r = 0; t && r < t->rows; r++)
        if (dl_semicolon_list_has(dl_table_cell(t, r, DL_COL_cuda_arch_ceiling_added), cc))
            return dl_table_cell(t, r, DL_COL_cuda_arch_ceiling_cuda_version);
    return NULL;
}

/* A driver older than the GPU: no driver before the CUDA release that added a GPU's
 * architecture knows that GPU (an RTX 5090, sm_120, needs CUDA 12.8's driver, 570.26), so it
 * runs no CUDA at all on it, whatever torch was built with. */
static void driver_predates_gpu(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    const char *cc = device_cc(f), *driver = f->nvml.driver_version.value, *cuda, *min;
    const dl_table *t = in->know ? dl_knowledge_at(in->know, DL_TABLE_cuda_driver) : NULL;
    bool windows = dl_q_is_windows(f);
    long row;
    int cmp;
    dl_finding *x;
    if (!cc || !driver || !t || dl_findings_has(out, "driver_too_old") ||
        (cuda = cuda_that_added(in->know, cc)) == NULL ||
        (row = dl_kq_find(t, DL_COL_cuda_driver_cuda_version, cuda)) < 0)
        return;
    min = dl_table_cell(t, (size_t)row, windows ? DL_COL_cuda_driver_min_driver_windows
                                                : DL_COL_cuda_driver_min_driver_linux);
    if (!min)
        return;
    min += strspn(min, ">=");
    if (!dl_driver_cmp(driver, min, &cmp) || cmp >= 0)
        return;
    x = dl_finding_add(out, "driver_too_old", DL_SEV_FAILURE,
                       "The driver %s is older than this GPU: compute capability %s came with "
                       "CUDA %s, whose drivers start at %s",
                       driver, cc, cuda, min);
    dl_finding_evidence(x, "nvml.gpus[0].compute_capability", "%s", cc);
    dl_finding_evidence(x, "nvml.driver_version", "%s", driver);
    dl_finding_evidence(x, "cuda_driver.csv", "CUDA %s: driver %s or newer (cuda_arch_ceiling.csv: "
                        "%s added there)", cuda, min, cc);
    dl_fix_note(x, "update the NVIDIA driver to %s or newer (the newest for this GPU is best)",
                min);
}

/* A CUDA version as the driver table keys it, its release ("10.1" of the "10.1.243" old
 * collect_env prints, "12.8" of a conda build string's "12.8.1"). */
static const char *cuda_release(const char *cuda, char *buf, size_t n)
{
    const char *dot = strchr(cuda, '.');
    size_t len = dot ? (size_t)(dot - cuda) + 1 + strspn(dot + 1, "0123456789") : strlen(cuda);
    if (len >= n)
        return cuda;
    memcpy(buf, cuda, len);
    buf[len] = '\0';
    return buf;
}

void dl_rule_driver_too_old(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    const dl_python *py = dl_q_main_python(f);
    const char *cuda = torch_cuda(py), *mvc = NULL, *minimum = NULL;
    long long driver_cuda = dl_q_driver_cuda(f);
    /* NVIDIA's table gives each OS its own minimum drivers */
    bool windows = dl_q_text_is(&f->os.family, "windows");
    const dl_table *t = in->know ? dl_knowledge_at(in->know, DL_TABLE_cuda_driver) : NULL;
    char release[16];
    long row = t && cuda ? dl_kq_find(t, DL_COL_cuda_driver_cuda_version,
                                      cuda_release(cuda, release, sizeof release))
                         : -1;
    char have[16] = "?";
    dl_cuda_compat c;
    dl_finding *x;
    if (!cuda || !driver_cuda) {
        driver_predates_gpu(in, out);
        return;
    }
    if (row >= 0)
        mvc = dl_table_cell(t, (size_t)row, windows ? DL_COL_cuda_driver_mvc_min_driver_windows
                                                    : DL_COL_cuda_driver_mvc_min_driver_linux);
    c = dl_cuda_compat_check((int)driver_cuda, cuda, f->nvml.driver_version.value, mvc);
    if (c != DL_CUDA_COMPAT_TOO_OLD) {
        driver_predates_gpu(in, out);
        return;
    }
    dl_cuda_version_from_int((int)driver_cuda, have, sizeof have);
    x = dl_finding_add(out, "driver_too_old", DL_SEV_FAILURE,
                       "The driver runs CUDA up to %s, but torch was built with CUDA %s", have,
                       cuda);
    dl_finding_evidence(x, "nvml.cuda_driver_version", "%lld (CUDA %s)", driver_cuda, have);
    dl_finding_evidence(x, "pythons[0].torch.cuda", "%s", cuda);
    if (f->nvml.driver_version.value)
        dl_finding_evidence(x, "nvml.driver_version", "%s", f->nvml.driver_version.value);
    if (row >= 0)
        minimum = dl_table_cell(t, (size_t)row, windows ? DL_COL_cuda_driver_min_driver_windows
                                                        : DL_COL_cuda_driver_min_driver_linux);
    if (minimum && *minimum)
        dl_fix_note(x, "update the driver to %s or newer for CUDA %s, or:",
                    minimum + (strncmp(minimum, ">=", 2) ? 0 : 2), cuda);
    dl_fix_install_torch(x, in, py, "gpu");
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

/* The wheel's targets: what torch itself says, else the table for its release. Of torch's
 * own list, the machine code: torch's check at start (_check_cubins) counts the sm_
 * entries only and calls the GPU not compatible whatever PTX the list ends with
 * ("sm_75 compute_37"), and the first kernel fails the same way. */
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
            if (strncmp(DL_LIST_AT(py->runtime.arch_list, char *, i), "compute_", 8) != 0)
                dl_buf_printf(&joined, "%s ", DL_LIST_AT(py->runtime.arch_list, char *, i));
        dl_arch_list_parse(joined.data ? joined.data : "", list);
        dl_buf_free(&joined);
        snprintf(source, n, "torch.cuda.get_arch_list()");
        return list->n > 0;
    }
    if (!version || !cuda || !dl_cuda_variant_name(cuda, variant, sizeof variant))
        return false;
    row = dl_kq_wheel_arches(in->know, version, variant, "linux");
    if (row < 0)
        return false;
    dl_arch_list_parse(dl_table_cell(dl_knowledge_at(in->know, DL_TABLE_wheel_arches), (size_t)row,
                                     DL_COL_wheel_arches_torch_cuda_arch_list),
                       list);
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
    x = dl_finding_add(out, id, DL_SEV_FAILURE,
                       r.verdict == DL_ARCH_NOT_COVERED
                           ? "This torch has no kernels for this GPU (sm_%u%u): the wheel was "
                             "built for older and newer architectures, but not this one"
                       : strcmp(id, "gpu_arch_dropped") == 0
                           ? "This torch no longer has kernels for this GPU (sm_%u%u): it is "
                             "older than every architecture the wheel was built for"
                           : "This torch has no kernels for this GPU (sm_%u%u): it is newer "
                             "than the architectures the wheel was built for",
                       major, minor);
    dl_finding_evidence(x, "nvml.gpus[0].compute_capability", "%s", cc);
    dl_finding_evidence(x, "wheel targets", "from %s", source);
    dl_fix_install_torch(x, in, py, NULL);
}

/* The newest major architecture the CUDA release `cuda` ("10.2") compiles for, from
 * cuda_arch_ceiling.csv; 0 when the table does not list it. */
static unsigned cuda_newest_major(const dl_knowledge *k, const char *cuda)
{
    const dl_table *t = k ? dl_knowledge_at(k, DL_TABLE_cuda_arch_ceiling) : NULL;
    char minor[16];
    const char *dot = cuda ? strchr(cuda, '.') : NULL;
    size_t r, n;
    if (!t || !dot)
        return 0;
    n = (size_t)(dot - cuda) + 1 + strspn(dot + 1, "0123456789");
    if (n >= sizeof minor)
        return 0;
    memcpy(minor, cuda, n);
    minor[n] = '\0';
    for (r = 0; r < t->rows; r++) {
        const char *v = dl_table_cell(t, r, DL_COL_cuda_arch_ceiling_cuda_version),
                   *newest = dl_table_cell(t, r, DL_COL_cuda_arch_ceiling_newest_major);
        if (v && newest && !strcmp(v, minor))
            return (unsigned)strtoul(newest, NULL, 10);
    }
    return 0;
}

/* A torch older than the releases wheel_arches lists ("1.7.1+cu102" on an RTX 3090): its
 * targets are unknown, but no build made with a CUDA can hold machine code for a later
 * major architecture than that CUDA knows, and SASS runs only within its major. */
static void arch_above_cuda(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    const dl_python *py = dl_q_main_python(f);
    const char *cc = device_cc(f), *cuda = py ? torch_cuda(py) : NULL;
    unsigned major, minor, newest;
    dl_arch_list list;
    char source[96];
    dl_finding *x;
    if (!py || !cc || !cuda || !dl_cc_parse(cc, &major, &minor) ||
        wheel_targets(in, py, &list, source, sizeof source))
        return;
    newest = cuda_newest_major(in->know, cuda);
    if (!newest || major <= newest)
        return;
    x = dl_finding_add(out, "arch_not_in_wheel", DL_SEV_FAILURE,
                       "This torch was built with CUDA %s, which has no code for this GPU "
                       "(sm_%u%u): CUDA %s compiles for compute capability %u.x at most",
                       cuda, major, minor, cuda, newest);
    dl_finding_evidence(x, "nvml.gpus[0].compute_capability", "%s", cc);
    dl_finding_evidence(x, "torch's CUDA", "%s (cuda_arch_ceiling.csv)", cuda);
    dl_fix_install_torch(x, in, py, NULL);
}

void dl_rule_arch_not_in_wheel(const dl_rule_input *in, dl_findings *out)
{
    arch_rule(in, out, "arch_not_in_wheel");
    arch_above_cuda(in, out);
}

void dl_rule_gpu_arch_dropped(const dl_rule_input *in, dl_findings *out)
{
    arch_rule(in, out, "gpu_arch_dropped");
}

/* The newest release with a wheel for this Python on this platform, from the planner's
 * CPU candidates (one per release): wheels, not the official support range, decide. */
static long newest_with_wheel(const dl_plan *p, long *newest_release)
{
    size_t i;
    const unsigned py_fail = (1u << DL_REJ_PYTHON) | (1u << DL_REJ_PLATFORM);
    *newest_release = -1;
    for (i = 0; i < p->n; i++) {
        const dl_plan_candidate *c = &p->c[i];
        if (strcmp(c->variant, "cpu") != 0 && strcmp(c->variant, "macos") != 0)
            continue;
        if (*newest_release < 0)
            *newest_release = (long)i;
        if (!(c->fails & py_fail))
            return (long)i;
    }
    return -1;
}

/* The newest release that torch_wheels (older releases than the planner's candidates
 * included) lists with a wheel for this Python tag on this platform; NULL when none. */
static const char *newest_published(const dl_knowledge *k, const char *platform,
                                    unsigned major, unsigned minor)
{
    const dl_table *t = dl_knowledge_at(k, DL_TABLE_torch_wheels);
    const char *best = NULL;
    dl_version bv, v;
    char tag[16];
    size_t r;
    snprintf(tag, sizeof tag, "cp%u%u", major, minor);
    for (r = 0; t && r < t->rows; r++) {
        if (strcmp(dl_table_cell(t, r, DL_COL_torch_wheels_platform), platform) != 0)
            continue;
        if (dl_semicolon_list_has(dl_table_cell(t, r, DL_COL_torch_wheels_python_tags), tag) &&
            dl_version_parse(dl_table_cell(t, r, DL_COL_torch_wheels_torch_version), &v) &&
            (!best || dl_version_cmp(&v, &bv) > 0)) {
            best = dl_table_cell(t, r, DL_COL_torch_wheels_torch_version);
            bv = v;
        }
    }
    return best;
}

/* The wheels for a machine's OS, architecture and Python: the planner's CPU candidates,
 * which nothing else decides (not the GPUs, not the driver). So the machine is planned
 * without them, which skips the CUDA checks that are most of a plan's work, and the
 * answer is the same for every machine with the same key (rules/rule_memo.h). */
static void wheel_answer(const dl_knowledge *k, const dl_wheel_key *key, dl_wheel_answer *a)
{
    dl_plan_constraints cons = {DL_WANT_ANY, NULL};
    dl_plan_machine m;
    dl_plan p;
    char *error = NULL;
    memset(a, 0, sizeof *a);
    a->ok = a->newest = -1;
    memset(&m, 0, sizeof m);
    m.os = key->os;
    memcpy(m.arch, key->arch, sizeof m.arch); /* the same size */
    m.py_major = key->py_major;
    m.py_minor = key->py_minor;
    m.py_free_threaded = key->py_free_threaded;
    m.py_bits = key->py_bits;
    if (!dl_plan_make(k, &m, &cons, &p, &error)) {
        free(error);
        return;
    }
    a->planned = true;
    a->ok = newest_with_wheel(&p, &a->newest);
    memcpy(a->platform, p.platform, sizeof a->platform); /* the same sizes (rule_memo.h) */
    if (a->ok >= 0)
        memcpy(a->ok_torch, p.c[a->ok].torch, sizeof a->ok_torch);
    if (a->newest >= 0) {
        memcpy(a->newest_torch, p.c[a->newest].torch, sizeof a->newest_torch);
        memcpy(a->newest_why, p.c[a->newest].detail[DL_REJ_PYTHON], sizeof a->newest_why);
    }
    /* A torch that this Python runs, or has installed, proves a wheel existed for it: the
     * tables are the ones that fall short. Without the OS the wheels cannot be told at all
     * (every Python would look unsupported). */
    a->published = a->ok < 0 ? newest_published(k, p.platform, m.py_major, m.py_minor) : NULL;
    dl_plan_free(&p);
}

void dl_rule_python_unsupported(const dl_rule_input *in, dl_findings *out)
{
    const dl_python *py = dl_q_main_python(in->facts);
    const dl_wheel_answer *a;
    dl_wheel_answer fresh;
    dl_wheel_key key;
    dl_plan_machine m;
    dl_finding *x;
    if (!py || !in->know || !py->version.value)
        return;
    dl_plan_machine_from_facts(in->facts, py, in->know, &m);
    if (!m.py_major || m.py_bits == 32 || m.os == DL_PLAN_OS_UNKNOWN)
        return;
    memset(&key, 0, sizeof key);
    key.os = m.os;
    memcpy(key.arch, m.arch, sizeof key.arch); /* the same size */
    key.py_major = m.py_major;
    key.py_minor = m.py_minor;
    key.py_free_threaded = m.py_free_threaded;
    key.py_bits = m.py_bits;
    a = dl_rule_memo_wheels(in->memo, &key);
    if (!a) {
        wheel_answer(in->know, &key, &fresh);
        dl_rule_memo_keep_wheels(in->memo, &key, &fresh);
        a = &fresh;
    }
    if (!a->planned)
        return;
    if (a->newest >= 0 && a->ok < 0 && a->published) {
        /* Older releases than the planner's had wheels for it: said, not failed. */
        x = dl_finding_add(out, "python_unsupported", DL_SEV_INFO,
                           "Python %u.%u gets torch %s at most: newer releases have no wheel "
                           "for it", m.py_major, m.py_minor, a->published);
        dl_finding_evidence(x, "torch_wheels.csv", "%s", a->newest_why);
        dl_fix_note(x, "a newer Python unlocks torch %s (dlenv plan --why)", a->newest_torch);
    } else if (a->newest >= 0 && a->ok < 0 && !py->runtime.version.value &&
               !dl_q_static_torch(py)) {
        x = dl_finding_add(out, "python_unsupported", DL_SEV_FAILURE,
                           "No torch release has a wheel for Python %u.%u on %s", m.py_major,
                           m.py_minor, a->platform);
        dl_finding_evidence(x, "pythons[0].version", "%s", dl_text_or(&py->version, "?"));
        dl_finding_evidence(x, "torch_wheels.csv", "%s", a->newest_why);
        dl_fix_note(x, "install a Python torch has wheels for and make a venv with it "
                       "(`dlenv plan --python 3.12 --why` shows which), for example with "
                       "python3.12 -m venv ~/.venvs/torch");
    } else if (a->ok > a->newest) {
        x = dl_finding_add(out, "python_unsupported", DL_SEV_INFO,
                           "Python %u.%u gets torch %s at most: newer releases have no wheel "
                           "for it", m.py_major, m.py_minor, a->ok_torch);
        dl_finding_evidence(x, "torch_wheels.csv", "%s", a->newest_why);
        dl_fix_note(x, "a newer Python unlocks torch %s (dlenv plan --why)", a->newest_torch);
    }
}

/* ---- known bad releases ---- */

static bool cell_is(const char *cell, const char *value)
{
    return !cell || !*cell || !strcmp(cell, "any") || (value && !strcmp(cell, value));
}

/* An aarch64 CPU without the feature ("atomics": an ARMv8.0 core): 0 on another
 * architecture or where /proc/cpuinfo lists it, -1 where the ARM CPU's features are not
 * known. */
static int arm_cpu_lacks(const dl_facts *f, const char *feature)
{
    const char *arch = f->os.arch.value;
    size_t i;
    if (!arch)
        return -1;
    if (strcmp(arch, "aarch64") != 0 && strcmp(arch, "arm64") != 0 && strcmp(arch, "ARM64") != 0)
        return 0;
    if (!f->cpu.isa.known)
        return -1;
    for (i = 0; i < f->cpu.isa.count; i++)
        if (!strcmp(DL_LIST_AT(f->cpu.isa, char *, i), feature))
            return 0;
    return 1;
}

/* A row's condition, decided on the facts where they can decide it: true (it holds),
 * false (it cannot), or -1 (unknown: the row is said as a warning). */
static int condition_holds(const dl_facts *f, const char *cond)
{
    if (!cond || !*cond)
        return 1;
    if (!strncmp(cond, "cpu_lacks:", 10)) {
        size_t i;
        if (!f->cpu.isa.known)
            return -1;
        for (i = 0; i < f->cpu.isa.count; i++)
            if (!strcmp(DL_LIST_AT(f->cpu.isa, char *, i), cond + 10))
                return 0;
        return 1;
    }
    if (!strcmp(cond, "wsl"))
        return dl_q_is_wsl(f) ? 1 : 0;
    if (!strncmp(cond, "aarch64_lacks:", 14))
        return arm_cpu_lacks(f, cond + 14);
    return -1;
}

static const char *os_of(const dl_facts *f)
{
    return f->os.family.value;
}

void dl_rule_known_bad_release(const dl_rule_input *in, dl_findings *out)
{
    const dl_python *py = dl_q_main_python(in->facts);
    const dl_torch_install *t = dl_q_static_torch(py);
    const dl_table *kb = in->know ? dl_knowledge_at(in->know, DL_TABLE_known_bad_releases) : NULL;
    dl_torch_version v;
    char release[48], variant[64];
    size_t r;
    /* The table describes published wheels: a pre-release or a source build ("1.13.0a0",
     * "+git1234") is another build, whatever its number. */
    if (!t || !t->version.value || !kb || !dl_torch_version_parse(t->version.value, &v) ||
        v.pre != DL_PRE_NONE || dl_torch_variant(v.local).kind == DL_VARIANT_UNKNOWN)
        return;
    snprintf(release, sizeof release, "%lu.%lu.%lu", v.release.part[0], v.release.part[1],
             v.release.part[2]);
    snprintf(variant, sizeof variant, "%s", v.local[0] ? v.local : "");
    for (r = 0; r < kb->rows; r++) {
        const char *scope = dl_table_cell(kb, r, DL_COL_known_bad_releases_scope);
        int holds;
        dl_finding *x;
        if (strcmp(dl_table_cell(kb, r, DL_COL_known_bad_releases_torch_version), release) != 0 ||
            !cell_is(dl_table_cell(kb, r, DL_COL_known_bad_releases_os), os_of(in->facts)) ||
            !cell_is(dl_table_cell(kb, r, DL_COL_known_bad_releases_variant),
                     variant[0] ? variant : NULL))
            continue;
        holds =
            condition_holds(in->facts, dl_table_cell(kb, r, DL_COL_known_bad_releases_condition));
        if (holds == 0)
            continue;
        x = dl_finding_add(out, "known_bad_release",
                           holds == 1 && !strcmp(scope, "all") ? DL_SEV_FAILURE : DL_SEV_WARNING,
                           "torch %s has a known problem here: %s", t->version.value,
                           dl_table_cell(kb, r, DL_COL_known_bad_releases_symptom));
        dl_finding_evidence(x, "torch", "%s at %s", t->version.value,
                            t->location.value ? t->location.value : "?");
        dl_finding_evidence(x, "known_bad_releases.csv", "fixed in %s; %s",
                            dl_table_cell(kb, r, DL_COL_known_bad_releases_fixed_in),
                            dl_table_cell(kb, r, DL_COL_known_bad_releases_source));
        if (*dl_table_cell(kb, r, DL_COL_known_bad_releases_condition))
            dl_finding_evidence(x, "condition", "%s%s",
                                dl_table_cell(kb, r, DL_COL_known_bad_releases_condition),
                                holds == 1 ? " (holds here)" : " (not decidable here)");
        if (!dl_fix_install_fixed_release(x, in, py,
                                          dl_table_cell(kb, r, DL_COL_known_bad_releases_fixed_in)))
            dl_fix_install_torch(x, in, py, NULL);
    }
}
