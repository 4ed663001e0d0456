/* cpu_matmul_slow: torch's CPU matrix product runs far below what this CPU does. Three
 * causes, each with its own fix: a reference BLAS (Debian's torch before libblas.so.3 points
 * at OpenBLAS), an OpenBLAS that chose a kernel narrower than the CPU (a model it does not
 * know, as virtual machines show), and a single thread. */
#include "facts/query.h"
#include "know/blas_kernel.h"
#include "rules/fixes.h"
#include "rules/power_settings.h"
#include "rules/rules.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* An optimised BLAS the process really mapped: Debian's torch says BLAS_INFO=generic and
 * still runs OpenBLAS once libblas.so.3 points to it. */
static bool optimised_blas_loaded(const dl_torch_runtime *r)
{
    static const char *const names[] = {"openblas", "libmkl", "blis", "Accelerate"};
    size_t i, j;
    for (i = 0; r->loaded_libraries.known && i < r->loaded_libraries.count; i++)
        for (j = 0; j < sizeof names / sizeof names[0]; j++)
            if (strstr(DL_LIST_AT(r->loaded_libraries, char *, i), names[j]))
                return true;
    return false;
}

/* The widest vector instructions this CPU and its OS both support (the ISA probe checks
 * XCR0), as OpenBLAS's kernels are graded. Unknown on other architectures. */
static dl_x86_level cpu_level(const dl_facts *f)
{
    const dl_list *isa = &f->cpu.isa;
    if (!isa->known)
        return DL_X86_UNKNOWN;
    if (dl_textlist_has(isa, "avx512f"))
        return DL_X86_AVX512;
    if (dl_textlist_has(isa, "avx2") && dl_textlist_has(isa, "fma"))
        return DL_X86_AVX2;
    if (dl_textlist_has(isa, "avx"))
        return DL_X86_AVX;
    return dl_textlist_has(isa, "sse4_2") ? DL_X86_SSE : DL_X86_UNKNOWN;
}

/* OpenBLAS runs a kernel for older instructions than this CPU has. */
static bool kernel_too_narrow(const dl_facts *f, const dl_torch_runtime *r)
{
    dl_x86_level kernel = dl_openblas_core_level(r->blas_core.value);
    dl_x86_level cpu = cpu_level(f);
    return kernel != DL_X86_UNKNOWN && cpu != DL_X86_UNKNOWN && kernel < cpu;
}


static dl_finding *measured_slow(const dl_facts *f, const dl_torch_runtime *r, dl_findings *out)
{
    const dl_cpu_measure *c = &f->cpu_measure;
    double pct = r->matmul_gflops.value / c->fp32_gflops_all.value * 100.0;
    dl_finding *x;
    if (pct >= DL_VERIFY_CPU_MATMUL_MIN_PCT)
        return NULL;
    x = dl_finding_add(out, "cpu_matmul_slow", DL_SEV_WARNING,
                       "torch's fp32 matrix product runs at %.1f GFLOPS, %.1f%% of the "
                       "%.0f GFLOPS this CPU reaches", r->matmul_gflops.value, pct,
                       c->fp32_gflops_all.value);
    dl_finding_evidence(x, "pythons[0].runtime.matmul_gflops", "%.1f (n = %lld)",
                        r->matmul_gflops.value, r->matmul_size.value);
    dl_finding_evidence(x, "cpu_measure.fp32_gflops_all", "%.1f (%s, %lld threads)",
                        c->fp32_gflops_all.value, c->isa.value ? c->isa.value : "?",
                        c->threads.value);
    return x;
}

static dl_finding *slow_finding(const dl_facts *f, const dl_torch_runtime *r, dl_findings *out)
{
    dl_finding *x = NULL;
    if (r->matmul_gflops.known && f->cpu_measure.fp32_gflops_all.known &&
        f->cpu_measure.fp32_gflops_all.value > 0)
        x = measured_slow(f, r, out);
    if (x)
        return x;
    if (kernel_too_narrow(f, r)) {
        /* One level down (AVX2 on AVX-512) costs about a third; SSE on AVX-512 nine
         * tenths (25 against 230 GFLOPS on this project's VMs). */
        dl_x86_level kernel = dl_openblas_core_level(r->blas_core.value), cpu = cpu_level(f);
        return dl_finding_add(out, "cpu_matmul_slow", DL_SEV_WARNING,
                              "OpenBLAS runs its %s kernel (%s) on a CPU with %s: matrix "
                              "products run %s slower than this CPU can", r->blas_core.value,
                              dl_x86_level_name(kernel), dl_x86_level_name(cpu),
                              cpu - kernel >= 2 ? "several times" : "markedly");
    }
    if (r->matmul_gflops.known || !dl_q_text_is(&r->blas, "generic") || optimised_blas_loaded(r))
        return NULL;
    return dl_finding_add(out, "cpu_matmul_slow", DL_SEV_WARNING,
                          "torch uses the generic reference BLAS: CPU matrix products run many "
                          "times slower than this CPU can");
}

static void kernel_evidence_and_fix(const dl_facts *f, const dl_torch_runtime *r, dl_finding *x)
{
    dl_x86_level cpu = cpu_level(f);
    if (!r->blas_core.value)
        return;
    if (!kernel_too_narrow(f, r)) {
        dl_finding_evidence(x, "pythons[0].runtime.blas_core", "OpenBLAS kernel %s",
                            r->blas_core.value);
        return;
    }
    dl_finding_evidence(x, "pythons[0].runtime.blas_core", "OpenBLAS kernel %s (%s), this CPU "
                        "has %s", r->blas_core.value,
                        dl_x86_level_name(dl_openblas_core_level(r->blas_core.value)),
                        dl_x86_level_name(cpu));
    if (dl_dict_get(&f->environment, "OPENBLAS_CORETYPE"))
        dl_finding_evidence(x, "environment.OPENBLAS_CORETYPE", "%s (set, and OpenBLAS obeys it)",
                            dl_dict_get(&f->environment, "OPENBLAS_CORETYPE"));
    /* OPENBLAS_CORETYPE only chooses among the kernels of a DYNAMIC_ARCH build. */
    if (r->blas_config.value && !strstr(r->blas_config.value, "DYNAMIC_ARCH")) {
        dl_finding_evidence(x, "pythons[0].runtime.blas_config", "%s", r->blas_config.value);
        dl_fix_note(x, "this OpenBLAS was built for %s only: use one built with "
                       "DYNAMIC_ARCH (Debian's libopenblas0-pthread, conda-forge's) or "
                       "the official torch wheels", r->blas_core.value);
        return;
    }
    /* Windows fixes are PowerShell, as everywhere in the doctor. */
    dl_fix_note(x, "OpenBLAS did not recognise this CPU model (as in many virtual machines): "
                   "set this where the job starts");
    {
        char *cmd = dl_shell_set_env(dl_fix_shell(f), "OPENBLAS_CORETYPE",
                                     dl_openblas_core_for(cpu));
        dl_finding_fix(x, "%s", cmd);
        free(cmd);
    }
}

/* One thread where the CPU has more: said as set, or as torch's own choice. */
static bool threads_evidence_and_fix(const dl_facts *f, const dl_torch_runtime *r, dl_finding *x)
{
    static const char *const vars[] = {"OMP_NUM_THREADS", "MKL_NUM_THREADS",
                                       "OPENBLAS_NUM_THREADS"};
    long long cores = f->cpu.physical_cores.known && f->cpu.physical_cores.value > 1
                          ? f->cpu.physical_cores.value
                          : f->cpu.logical_threads.value;
    size_t i;
    char *count, *cmd;
    if (!r->threads.known || r->threads.value != 1 || !f->cpu.logical_threads.known ||
        f->cpu.logical_threads.value <= 1)
        return false;
    count = dl_fmt("%lld", cores);
    dl_finding_evidence(x, "pythons[0].runtime.threads", "1 of %lld logical CPUs",
                        f->cpu.logical_threads.value);
    for (i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = dl_dict_get(&f->environment, vars[i]);
        if (v && strcmp(v, "1") == 0) {
            /* Set to the core count rather than removed: a torch that picks one thread by
             * itself would stay at one without it. */
            dl_finding_evidence(x, "environment", "%s=1", vars[i]);
            cmd = dl_shell_set_env(dl_fix_shell(f), vars[i], count);
            dl_finding_fix(x, "%s", cmd);
            free(cmd);
            free(count);
            return true;
        }
    }
    dl_fix_note(x, "torch chose one thread itself: call torch.set_num_threads(%lld) at the "
                   "start of the script, or set OMP_NUM_THREADS where it starts:", cores);
    cmd = dl_shell_set_env(dl_fix_shell(f), "OMP_NUM_THREADS", count);
    dl_finding_fix(x, "%s", cmd);
    free(cmd);
    free(count);
    return true;
}

/* A frequency governor that holds the CPU low, named with the figure it slowed (it slows
 * dlenv's own peak as much, so it is said beside the cause, never instead of it). */
static void power_evidence(const dl_rule_input *in, const dl_torch_runtime *r, dl_finding *x)
{
    const dl_cpu_measure *c = &in->facts->cpu_measure;
    char *measured;
    if (!r->matmul_gflops.known)
        return;
    measured = c->fp32_gflops_all.known
                   ? dl_fmt("measured %.1f GFLOPS, and this CPU's own %.0f GFLOPS, at this "
                            "setting", r->matmul_gflops.value, c->fp32_gflops_all.value)
                   : dl_fmt("measured %.1f GFLOPS at this setting", r->matmul_gflops.value);
    dl_power_explain_cpu(in, x, measured);
    free(measured);
}

void dl_rule_cpu_matmul_slow(const dl_rule_input *in, dl_findings *out)
{
    const dl_python *py = dl_q_main_python(in->facts);
    const dl_torch_install *t = dl_q_static_torch(py);
    const dl_torch_runtime *r = py ? &py->runtime : NULL;
    dl_finding *x = r ? slow_finding(in->facts, r, out) : NULL;
    bool optimised;
    if (!x)
        return;
    optimised = optimised_blas_loaded(r);
    if (r->blas.value)
        dl_finding_evidence(x, "pythons[0].runtime.blas", "%s%s", r->blas.value,
                            optimised ? "" : ", no optimised BLAS mapped");
    kernel_evidence_and_fix(in->facts, r, x);
    if (!optimised && t && t->location.value &&
        strncmp(t->location.value, "/usr/lib/python3/", 17) == 0) {
        dl_fix_note(x, "Debian's torch then uses OpenBLAS through libblas.so.3:");
        dl_fix_as_root(x, in->facts, "apt-get install -y libopenblas0-pthread");
    } else if (!optimised) {
        dl_fix_note(x, "install the official wheels, which bundle an optimised BLAS");
    }
    if (!threads_evidence_and_fix(in->facts, r, x) && optimised && !kernel_too_narrow(in->facts, r))
        dl_fix_note(x, "an optimised BLAS with a fitting kernel is this slow when the CPU is "
                       "shared: check what else runs (top) and the *_NUM_THREADS variables");
    power_evidence(in, r, x);
}
