/* The verify view: the CPU's lines and torch's CPU product here, the GPUs' lines in
 * verify_view_gpu.c; then the verdict, rules/verdict.c's judgement of the findings. */
#include "render/verify_view.h"

#include "base/str.h"
#include "facts/query.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static dl_verify_line *new_line(dl_verify_view *v, const char *group, const char *title,
                                const char *what, const char *key)
{
    dl_verify_line *l;
    if (v->count == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 16;
        v->lines = dl_xrealloc(v->lines, v->cap * sizeof *v->lines);
    }
    l = &v->lines[v->count++];
    memset(l, 0, sizeof *l);
    l->group = dl_strdup(group);
    l->group_title = dl_strdup(title);
    l->what = what;
    l->key = key;
    l->unit = "";
    return l;
}

dl_verify_line *dl_verify_add(dl_verify_view *v, const char *group, const char *title,
                              const char *what, const char *key, const char *unit,
                              const dl_num *value)
{
    dl_verify_line *l = new_line(v, group, title, what, key);
    l->unit = unit;
    l->known = value->known;
    l->value = value->value;
    l->why = value->known ? NULL : dl_strdup(value->why ? value->why : "not measured");
    l->verdict = value->known ? DL_SEV_OK : DL_SEV_INFO;
    return l;
}

dl_verify_line *dl_verify_add_text(dl_verify_view *v, const char *group, const char *title,
                                   const char *what, const char *key, const dl_text *value)
{
    dl_verify_line *l = new_line(v, group, title, what, key);
    l->known = value->value != NULL;
    l->text = dl_strdup(value->value);
    l->why = value->value ? NULL : dl_strdup(value->why ? value->why : "not measured");
    l->verdict = value->value ? DL_SEV_OK : DL_SEV_INFO;
    return l;
}

void dl_verify_limit(dl_verify_line *l, double limit, char *what)
{
    if (limit > 0) {
        l->has_limit = true;
        l->limit = limit;
        l->limit_what = what;
    } else {
        free(what);
    }
}

bool dl_verify_has_finding(const dl_findings *fs, const char *id)
{
    size_t i;
    for (i = 0; i < fs->items.count; i++)
        if (dl_q_text_is(&DL_LIST_AT(fs->items, dl_finding, i).id, id))
            return true;
    return false;
}

dl_severity dl_verify_finding_on(const dl_findings *fs, const char *fact)
{
    dl_severity worst = DL_SEV_OK;
    size_t i, j;
    for (i = 0; i < fs->items.count; i++) {
        const dl_finding *x = &DL_LIST_AT(fs->items, dl_finding, i);
        int s = dl_severity_of_name(x->severity.value);
        for (j = 0; j < x->evidence.count && s > (int)worst; j++)
            if (!strcmp(DL_LIST_AT(x->evidence, dl_pair, j).name, fact))
                worst = (dl_severity)s;
    }
    return worst;
}

static void cpu_lines(dl_verify_view *v, const dl_facts *f)
{
    const dl_cpu_measure *c = &f->cpu_measure;
    dl_verify_line *l;
    /* the ISA's name comes from the facts (a saved report): any length */
    char *title = dl_fmt("CPU, native (%s kernel, %lld threads)",
                         c->isa.value ? c->isa.value : "no",
                         c->threads.known ? c->threads.value : 0);
    dl_verify_add(v, "cpu", title, "fp32 peak, 1 core", "fp32_gflops_1core", "GFLOPS",
                  &c->fp32_gflops_1core);
    l = dl_verify_add(v, "cpu", title, "fp32 peak, all cores", "fp32_gflops_all", "GFLOPS",
                      &c->fp32_gflops_all);
    if (c->fp32_gflops_1core.known && c->threads.known)
        dl_verify_limit(l, c->fp32_gflops_1core.value * (double)c->threads.value,
                        dl_fmt("1 core x %lld threads", c->threads.value));
    dl_verify_add(v, "cpu", title, "fp64 peak, 1 core", "fp64_gflops_1core", "GFLOPS",
                  &c->fp64_gflops_1core);
    dl_verify_add(v, "cpu", title, "fp64 peak, all cores", "fp64_gflops_all", "GFLOPS",
                  &c->fp64_gflops_all);
    dl_verify_add(v, "cpu", title, "memory bandwidth (triad)", "triad_gbps", "GB/s",
                  &c->triad_gbps);
    free(title);
}

/* "torch on the CPU (PYTHON, torch 2.5.1, OpenBLAS SkylakeX kernel, 8 torch threads)": what
 * the figure below depends on. */
static char *torch_title(const dl_torch_runtime *r, const char *python)
{
    dl_buf b = {0};
    dl_buf_printf(&b, "torch on the CPU (%s, torch %s", python ? python : "python",
                  r->version.value ? r->version.value : "?");
    if (r->blas_core.value)
        dl_buf_printf(&b, ", OpenBLAS %s kernel", r->blas_core.value);
    else if (r->blas.value)
        dl_buf_printf(&b, ", BLAS %s", r->blas.value);
    if (r->threads.known)
        dl_buf_printf(&b, ", %lld torch thread%s", r->threads.value,
                      r->threads.value == 1 ? "" : "s");
    dl_buf_puts(&b, ")");
    return dl_buf_take(&b);
}

static void torch_lines(dl_verify_view *v, const dl_facts *f, const dl_findings *fs)
{
    const dl_python *py = dl_q_main_python(f);
    dl_num none = {0, 0, NULL};
    dl_verify_line *l;
    char *title;
    if (!py)
        return;
    if (!py->runtime.matmul_gflops.known && !py->runtime.matmul_gflops.why)
        none.why = py->runtime.error.value ? py->runtime.error.value
                                           : (char *)"torch did not run in this interpreter";
    title = torch_title(&py->runtime, py->path.value);
    l = dl_verify_add(v, "torch_cpu", title, "torch fp32 matmul", "matmul_gflops", "GFLOPS",
                      py->runtime.matmul_gflops.known || py->runtime.matmul_gflops.why
                          ? &py->runtime.matmul_gflops : &none);
    free(title);
    if (f->cpu_measure.fp32_gflops_all.known)
        dl_verify_limit(l, f->cpu_measure.fp32_gflops_all.value,
                        dl_strdup("this CPU's fp32 peak"));
    if (l->known && dl_verify_has_finding(fs, "cpu_matmul_slow"))
        l->verdict = DL_SEV_WARNING;
}

void dl_verify_view_build(dl_verify_view *v, const dl_facts *f, const dl_findings *fs,
                          const dl_knowledge *know)
{
    size_t i;
    memset(v, 0, sizeof *v);
    cpu_lines(v, f);
    torch_lines(v, f, fs);
    dl_verify_view_gpu(v, f, fs, know);
    for (i = 0; i < fs->items.count; i++) {
        const dl_finding *x = &DL_LIST_AT(fs->items, dl_finding, i);
        if (fs->root_cause.value && dl_q_text_is(&x->id, fs->root_cause.value))
            v->root = x;
    }
    dl_judge(f, fs, NULL, &v->judged);
    v->verdict = v->judged.verdict == DL_VERDICT_INFO ? DL_VERDICT_OK : v->judged.verdict;
}

void dl_verify_view_free(dl_verify_view *v)
{
    size_t i;
    for (i = 0; i < v->count; i++) {
        free(v->lines[i].group);
        free(v->lines[i].group_title);
        free(v->lines[i].text);
        free(v->lines[i].why);
        free(v->lines[i].limit_what);
    }
    free(v->lines);
    dl_judgement_free(&v->judged);
    memset(v, 0, sizeof *v);
}

double dl_verify_line_pct(const dl_verify_line *l)
{
    return l->known && l->has_limit && !l->text ? l->value / l->limit * 100.0 : -1.0;
}
