#include "cli/setup_proof.h"

#include "cli/exit_codes.h"
#include "cli/measure_cpu.h"
#include "cli/output.h"
#include "cli/snapshot.h"

#include "base/str.h"
#include "facts/query.h"
#include "plan/machine_facts.h"
#include "render/verify_view.h"
#include "rules/gpu_limits.h"
#include "rules/rules.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool dl_setup_torch_as_planned(const char *version, const char *torch, const char *variant)
{
    size_t n = strlen(torch);
    const char *tag;
    if (!version || strncmp(version, torch, n) || (version[n] && version[n] != '+'))
        return false;
    tag = version[n] == '+' ? version + n + 1 : "";
    return !variant || !strcmp(tag, variant) || (!*tag && !strcmp(variant, "macos"));
}

static bool layer_of_the_env(const char *layer)
{
    return layer && (!strcmp(layer, "python") || !strcmp(layer, "torch_build") ||
                     !strcmp(layer, "torch_runtime"));
}

static const dl_finding *finding_named(const dl_findings *fs, const char *id)
{
    size_t i;
    for (i = 0; i < fs->items.count; i++) {
        const dl_finding *f = (const dl_finding *)fs->items.items + i;
        if (dl_q_text_is(&f->id, id))
            return f;
    }
    return NULL;
}

static void print_evidence(const dl_finding *f)
{
    size_t i;
    const dl_pair *p = f->evidence.items;
    for (i = 0; i < f->evidence.count && i < 6; i++)
        fprintf(stderr, "    %s: %s\n", p[i].name, p[i].value);
}

static void print_fixes(const dl_finding *f)
{
    size_t i;
    for (i = 0; f->fix.known && i < f->fix.count; i++)
        fprintf(stderr, "    $ %s\n", DL_LIST_AT(f->fix, char *, i));
}

static bool cuda_planned(const dl_setup_job *job)
{
    return job->variant && !strncmp(job->variant, "cu", 2);
}

/* ---- devices -------------------------------------------------------------------------- */

/* The NVIDIA GPUs the planner targets on this machine: the same reduction of the facts
 * (dl_plan_machine_from_facts) that `dlenv plan` and setup's plan start from. */
static size_t planned_gpus(const dl_setup_job *job, const dl_facts *f, dl_plan_gpu *out)
{
    dl_plan_machine m;
    size_t i, n = 0;
    dl_plan_machine_from_facts(f, NULL, job->know, &m);
    for (i = 0; i < m.n_gpus; i++)
        if (m.gpus[i].vendor == DL_GPU_NVIDIA)
            out[n++] = m.gpus[i];
    return n;
}

/* NVML and the CUDA runtime name most GPUs alike; some drop the "NVIDIA " prefix. */
static bool same_name(const char *a, const char *b)
{
    if (!a || !b)
        return false;
    if (!strncmp(a, "NVIDIA ", 7))
        a += 7;
    if (!strncmp(b, "NVIDIA ", 7))
        b += 7;
    while (*a && *b && tolower((unsigned char)*a) == tolower((unsigned char)*b))
        a++, b++;
    return !*a && !*b;
}

/* By compute capability where both know it (names vary between NVML and the runtime for
 * a few boards), else by name. */
static bool same_gpu(const dl_torch_device *d, const dl_plan_gpu *g)
{
    char cc[24];
    if (g->cc_major && d->capability.value) {
        snprintf(cc, sizeof cc, "%u.%u", g->cc_major, g->cc_minor);
        return !strcmp(cc, d->capability.value);
    }
    return same_name(d->name.value, g->name);
}

static void print_planned(const dl_plan_gpu *want, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        if (want[i].cc_major)
            fprintf(stderr, "    planned GPU %zu: %s (compute capability %u.%u)\n", i,
                    want[i].name, want[i].cc_major, want[i].cc_minor);
        else
            fprintf(stderr, "    planned GPU %zu: %s\n", i, want[i].name);
    }
}

/* Each GPU the plan targets is one torch sees, and torch sees no other. Under a
 * CUDA_VISIBLE_DEVICES of the person's, torch sees the ones it names: only those are
 * matched. No planned GPU, or torch sees none (gpu_products_ok says so): nothing to match. */
static bool devices_as_expected(const dl_setup_job *job, const dl_facts *f,
                                const dl_torch_runtime *rt)
{
    dl_plan_gpu want[DL_PLAN_MAX_GPUS];
    bool used[DL_PLAN_MAX_GPUS];
    const dl_torch_device *d = (const dl_torch_device *)rt->devices.items;
    size_t n_want = planned_gpus(job, f, want), n = rt->devices.count, matched = 0, i, j;
    const char *visible = dl_dict_get(&f->environment, "CUDA_VISIBLE_DEVICES");
    memset(used, 0, sizeof used);
    if (!n_want || !rt->cuda_available.known || !rt->cuda_available.value)
        return true;
    for (i = 0; i < n; i++)
        for (j = 0; j < n_want; j++)
            if (!used[j] && same_gpu(&d[i], &want[j])) {
                used[j] = true;
                matched++;
                break;
            }
    if (matched == n && (visible || n == n_want)) {
        printf("  torch sees %s%zu planned GPU%s", n == n_want ? "the " : "", n,
               n == 1 ? "" : "s");
        for (i = 0; i < n; i++)
            printf("%s%s (%s)", i ? ", " : ": ", d[i].name.value ? d[i].name.value : "?",
                   d[i].capability.value ? d[i].capability.value : "?");
        printf("%s.\n", visible ? " (CUDA_VISIBLE_DEVICES chooses them)" : "");
        return true;
    }
    dl_cli_error("verification failed at the torch_runtime layer: the plan targets %zu GPU%s, "
                 "torch in the new environment sees %zu%s", n_want, n_want == 1 ? "" : "s", n,
                 matched < n ? ", not all of them planned ones" : "");
    print_planned(want, n_want);
    fprintf(stderr, "    pythons[0].runtime.device_count: %lld\n", rt->device_count.value);
    for (i = 0; i < n; i++) {
        bool planned = false;
        for (j = 0; j < n_want && !planned; j++)
            planned = same_gpu(&d[i], &want[j]);
        fprintf(stderr, "    pythons[0].runtime.devices[%zu]: %s (compute capability %s)%s\n", i,
                d[i].name.value ? d[i].name.value : "?",
                d[i].capability.value ? d[i].capability.value : "?",
                planned ? "" : ", not a planned GPU");
    }
    if (visible)
        fprintf(stderr, "    environment.CUDA_VISIBLE_DEVICES: %s\n", visible);
    else if (n < n_want)
        fprintf(stderr, "  A GPU the driver lists is hidden from torch (a container's --gpus, "
                        "a cgroup) or its CUDA runtime cannot use it: `dlenv doctor` says "
                        "which.\n");
    return false;
}

/* ---- the products --------------------------------------------------------------------- */

/* The product on the CPU: the probe checks one element against float64 and leaves the
 * rate unknown, with the reason, when the product is wrong or torch could not run it. */
static bool cpu_product_ok(const dl_torch_runtime *rt)
{
    if (rt->matmul_gflops.known) {
        printf("  a %lldx%lld fp32 matrix product on the CPU is right.\n",
               rt->matmul_size.value, rt->matmul_size.value);
        return true;
    }
    dl_cli_error("verification failed at the torch_runtime layer: torch's matrix product on "
                 "the CPU in the new environment did not give a right answer");
    fprintf(stderr, "    pythons[0].runtime.matmul_gflops: unknown, because %s\n",
            rt->matmul_gflops.why ? rt->matmul_gflops.why : "the probe gave no reason");
    return false;
}

/* A CUDA plan: torch must see a GPU, and its products there must match float64. */
static bool gpu_products_ok(const dl_torch_runtime *rt)
{
    const dl_torch_gpu_matmul *m = (const dl_torch_gpu_matmul *)rt->gpu_matmul.items;
    size_t i;
    if (!rt->cuda_available.known || !rt->cuda_available.value || rt->gpu_matmul.count == 0) {
        dl_cli_error("verification failed at the torch_runtime layer: the plan is a CUDA build, "
                     "and torch in the new environment %s",
                     rt->cuda_available.known && !rt->cuda_available.value
                         ? "sees no GPU" : "ran no matrix product on a GPU");
        fprintf(stderr, "    pythons[0].runtime.cuda_available: %s\n",
                rt->cuda_available.known ? (rt->cuda_available.value ? "true" : "false")
                                         : (rt->cuda_available.why ? rt->cuda_available.why
                                                                   : "unknown"));
        if (rt->cuda_warning.value)
            fprintf(stderr, "    pythons[0].runtime.cuda_warning: %s\n", rt->cuda_warning.value);
        if (rt->gpu_matmul.why)
            fprintf(stderr, "    pythons[0].runtime.gpu_matmul: unknown, because %s\n",
                    rt->gpu_matmul.why);
        return false;
    }
    for (i = 0; i < rt->gpu_matmul.count; i++) {
        if (m[i].check.value && !strcmp(m[i].check.value, "passed"))
            continue;
        dl_cli_error("verification failed at the torch_runtime layer: torch's %s matrix "
                     "product on GPU %lld is wrong", m[i].dtype.value ? m[i].dtype.value : "",
                     m[i].device.value);
        fprintf(stderr, "    pythons[0].runtime.gpu_matmul[%zu].check: %s\n", i,
                m[i].check.value ? m[i].check.value : "unknown");
        return false;
    }
    for (i = 0; i < rt->gpu_matmul.count; i++)
        printf("  a %lldx%lld %s matrix product on GPU %lld is right.\n", m[i].size.value,
               m[i].size.value, m[i].dtype.value ? m[i].dtype.value : "", m[i].device.value);
    return true;
}

/* ---- their rates ---------------------------------------------------------------------- */

/* Why a torch line of verify's view has no limit to be compared with. */
static const char *no_peak_why(const dl_verify_line *l, const dl_facts *f)
{
    if (!strcmp(l->group, "torch_cpu"))
        return f->cpu_measure.fp32_gflops_all.why ? f->cpu_measure.fp32_gflops_all.why
                                                  : "this CPU's peak was not measured";
    return "dlenv's table has no peak for this GPU's architecture, or the driver gave no SM "
           "count or clock";
}

/* One torch product's rate against the hardware's, as `dlenv verify` shows it; under
 * verify's own floor (rules: cpu_matmul_slow, gpu_matmul_slow) it fails. */
static bool rate_ok(const dl_verify_line *l, const dl_snapshot *snap)
{
    bool cpu = !strcmp(l->group, "torch_cpu");
    double floor = cpu ? DL_VERIFY_CPU_MATMUL_MIN_PCT : DL_VERIFY_MATMUL_MIN_PCT;
    double pct = dl_verify_line_pct(l);
    const dl_finding *why;
    if (pct < 0) {
        printf("  warning: %s%s: %.1f %s, not compared with the hardware: its peak is "
               "unknown, because %s\n", l->what, cpu ? " on the CPU" : "", l->value, l->unit,
               no_peak_why(l, &snap->facts));
        return true;
    }
    if (pct >= floor) {
        printf("  %s%s: %.1f %s, %.0f%% of %.1f (%s).\n", l->what, cpu ? " on the CPU" : "",
               l->value, l->unit, pct, l->limit, l->limit_what ? l->limit_what : "the peak");
        return true;
    }
    dl_cli_error("verification failed at the performance layer: %s%s runs at %.1f %s, %.1f%% "
                 "of the %.1f %s the hardware does (%s); dlenv verify calls under %.0f%% too "
                 "slow", l->what, cpu ? " on the CPU" : "", l->value, l->unit, pct, l->limit,
                 l->unit, l->limit_what ? l->limit_what : "its peak", floor);
    why = finding_named(&snap->findings, cpu ? "cpu_matmul_slow" : "gpu_matmul_slow");
    if (why) {
        print_evidence(why);
        print_fixes(why);
    }
    return false;
}

static bool rates_ok(const dl_setup_job *job, const dl_snapshot *snap)
{
    dl_verify_view v;
    size_t i;
    bool ok = true;
    dl_verify_view_build(&v, &snap->facts, &snap->findings, job->know);
    for (i = 0; i < v.count && ok; i++) {
        const dl_verify_line *l = &v.lines[i];
        /* wrong or not run: the product checks above said so */
        if (l->known && (!strcmp(l->group, "torch_cpu") || dl_starts_with(l->group, "torch_gpu")))
            ok = rate_ok(l, snap);
    }
    dl_verify_view_free(&v);
    return ok;
}

/* ---- the whole proof ------------------------------------------------------------------ */

/* This CPU's peak measured as verify measures it (quick), then the rules run again on the
 * facts with it, so cpu_matmul_slow judges torch's product against it. */
static void measure_and_judge(const dl_cli *vcli, const dl_knowledge *know, dl_snapshot *snap)
{
    dl_cli_measure_cpu(vcli, false, NULL, &snap->facts.cpu_measure);
    dl_findings_free(&snap->findings);
    memset(&snap->findings, 0, sizeof snap->findings);
    snap->has_findings = false;
    dl_cli_snapshot_judge(snap, know);
}

static const dl_finding *env_failure(const dl_findings *fs)
{
    size_t i;
    for (i = 0; i < fs->items.count; i++) {
        const dl_finding *f = (const dl_finding *)fs->items.items + i;
        if (dl_q_failure(f) && layer_of_the_env(f->layer.value))
            return f;
    }
    return NULL;
}

int dl_setup_prove_python(const dl_setup_job *job, const char *python, dl_snapshot *snap)
{
    dl_cli vcli = *job->cli;
    const dl_python *py;
    const dl_finding *f;
    const char *status, *version;
    bool cuda;
    vcli.python = python;
    memset(&vcli.python_version, 0, sizeof vcli.python_version);
    vcli.no_runtime = false;
    vcli.root = NULL;
    vcli.from = NULL;
    vcli.quick = true;
    vcli.full = false;
    printf("\nProving it: the doctor's probes, verify's quick matrix products and this CPU's "
           "peak, on %s ...\n", python);
    fflush(stdout);
    if (dl_cli_take_snapshot_measured(&vcli, job->know, "quick", snap) != DL_EXIT_OK)
        return DL_EXIT_VERIFY_FAILED;
    measure_and_judge(&vcli, job->know, snap);
    py = dl_q_main_python(&snap->facts);
    status = py ? py->runtime.status.value : NULL;
    version = py ? py->runtime.version.value : NULL;
    if (!status || strcmp(status, "imported")) {
        dl_cli_error("verification failed at the torch_runtime layer: `import torch` in the "
                     "new environment: %s", status ? status : "not run");
        if (py && py->runtime.error.value)
            fprintf(stderr, "    python.runtime.error: %s\n", py->runtime.error.value);
        return DL_EXIT_VERIFY_FAILED;
    }
    if (job->torch && !dl_setup_torch_as_planned(version, job->torch, job->variant)) {
        dl_cli_error("verification failed at the torch_build layer: the new environment "
                     "imports torch %s, the plan is %s (%s)", version ? version : "(unknown)",
                     job->torch, job->variant ? job->variant : "any variant");
        return DL_EXIT_VERIFY_FAILED;
    }
    /* no plan (--prove): the devices its own build is for */
    cuda = job->variant ? cuda_planned(job)
                        : (!job->cli->cpu && py->runtime.cuda.value &&
                           isdigit((unsigned char)py->runtime.cuda.value[0]));
    if ((cuda && !devices_as_expected(job, &snap->facts, &py->runtime)) ||
        !cpu_product_ok(&py->runtime) || (cuda && !gpu_products_ok(&py->runtime)))
        return DL_EXIT_VERIFY_FAILED;
    if ((f = env_failure(&snap->findings)) != NULL) {
        dl_cli_error("verification failed at the %s layer: %s (%s)", f->layer.value,
                     f->title.value ? f->title.value : "", f->id.value ? f->id.value : "");
        print_evidence(f);
        return DL_EXIT_VERIFY_FAILED;
    }
    if (!rates_ok(job, snap))
        return DL_EXIT_VERIFY_FAILED;
    printf("  torch %s imports in it (%s), and the doctor finds no failure in the python "
           "and torch layers.\n", version, py->runtime.file.value ? py->runtime.file.value : "");
    return DL_EXIT_OK;
}
