#include "render/verify_view.h"

#include "base/str.h"
#include "rules/query.h"

#include <stdlib.h>
#include <string.h>

static dl_verify_line *add(dl_verify_view *v, const char *group, const char *what,
                           const char *key, const char *unit, const dl_num *value)
{
    dl_verify_line *l = &v->lines[v->count++];
    memset(l, 0, sizeof *l);
    l->group = group;
    l->what = what;
    l->key = key;
    l->unit = unit;
    l->known = value->known;
    l->value = value->value;
    l->why = value->known ? NULL : dl_strdup(value->why ? value->why : "not measured");
    l->verdict = value->known ? DL_SEV_OK : DL_SEV_INFO;
    return l;
}

static void limit(dl_verify_line *l, const dl_num *value, char *what)
{
    if (value->known && value->value > 0) {
        l->has_limit = true;
        l->limit = value->value;
        l->limit_what = what;
    } else {
        free(what);
    }
}

static bool has_finding(const dl_findings *fs, const char *id)
{
    size_t i;
    for (i = 0; i < fs->items.count; i++)
        if (dl_q_text_is(&DL_LIST_AT(fs->items, dl_finding, i).id, id))
            return true;
    return false;
}

static void cpu_lines(dl_verify_view *v, const dl_facts *f)
{
    const dl_cpu_measure *c = &f->cpu_measure;
    dl_verify_line *l;
    dl_num scaled = {0, 0, NULL};
    add(v, "cpu", "fp32 peak, 1 core", "fp32_gflops_1core", "GFLOPS", &c->fp32_gflops_1core);
    l = add(v, "cpu", "fp32 peak, all cores", "fp32_gflops_all", "GFLOPS", &c->fp32_gflops_all);
    if (c->fp32_gflops_1core.known && c->threads.known) {
        scaled.known = true;
        scaled.value = c->fp32_gflops_1core.value * (double)c->threads.value;
    }
    limit(l, &scaled, dl_fmt("1 core x %lld threads", c->threads.value));
    add(v, "cpu", "fp64 peak, 1 core", "fp64_gflops_1core", "GFLOPS", &c->fp64_gflops_1core);
    add(v, "cpu", "fp64 peak, all cores", "fp64_gflops_all", "GFLOPS", &c->fp64_gflops_all);
    add(v, "cpu", "memory bandwidth (triad)", "triad_gbps", "GB/s", &c->triad_gbps);
}

static void torch_lines(dl_verify_view *v, const dl_facts *f, const dl_findings *fs)
{
    const dl_python *py = dl_q_main_python(f);
    dl_num none = {0, 0, NULL};
    dl_verify_line *l;
    if (!py)
        return;
    if (!py->runtime.matmul_gflops.known && !py->runtime.matmul_gflops.why)
        none.why = py->runtime.error.value ? py->runtime.error.value
                                           : (char *)"torch did not run in this interpreter";
    l = add(v, "torch_cpu", "torch fp32 matmul", "matmul_gflops", "GFLOPS",
            py->runtime.matmul_gflops.known || py->runtime.matmul_gflops.why
                ? &py->runtime.matmul_gflops : &none);
    limit(l, &f->cpu_measure.fp32_gflops_all, dl_strdup("this CPU's fp32 peak"));
    if (l->known && has_finding(fs, "cpu_matmul_slow"))
        l->verdict = DL_SEV_WARNING;
}

static void gpu_lines(dl_verify_view *v, const dl_facts *f)
{
    dl_num none = {0, 0, NULL};
    none.why = dl_q_has_nvidia_gpu(f)
                   ? (char *)"the native CUDA measurements are not part of this build yet"
                   : (char *)"no NVIDIA GPU on this machine";
    add(v, "gpu", "GPU compute and bandwidth", "gpu", "", &none);
}

void dl_verify_view_build(dl_verify_view *v, const dl_facts *f, const dl_findings *fs)
{
    size_t i;
    memset(v, 0, sizeof *v);
    cpu_lines(v, f);
    torch_lines(v, f, fs);
    gpu_lines(v, f);
    v->verdict = DL_SEV_OK;
    for (i = 0; i < v->count; i++)
        if (v->lines[i].verdict > v->verdict && v->lines[i].verdict != DL_SEV_INFO)
            v->verdict = v->lines[i].verdict;
    for (i = 0; i < fs->items.count; i++) {
        const dl_finding *x = &DL_LIST_AT(fs->items, dl_finding, i);
        dl_severity s = (dl_severity)dl_severity_of_name(x->severity.value);
        if (dl_q_text_is(&x->layer, "performance") && s > v->verdict)
            v->verdict = s;
    }
}

void dl_verify_view_free(dl_verify_view *v)
{
    size_t i;
    for (i = 0; i < v->count; i++) {
        free(v->lines[i].why);
        free(v->lines[i].limit_what);
    }
    memset(v, 0, sizeof *v);
}

double dl_verify_line_pct(const dl_verify_line *l)
{
    return l->known && l->has_limit ? l->value / l->limit * 100.0 : -1.0;
}
