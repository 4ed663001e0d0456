#include "explain/text_cause.h"

#include "base/str.h"
#include "explain/cpu_build_text.h"
#include "explain/quote.h"
#include "explain/text_marks.h"
#include "facts/query.h"
#include "plan/gpu_names.h"

#include <string.h>

dl_finding *dl_text_cause_add(dl_explanation *e, const dl_text_cause *c, long line, long also)
{
    dl_finding *x = dl_finding_add(&e->findings, c->id, DL_SEV_FAILURE, "%s", c->title);
    size_t i;
    dl_quote_line(x, &e->paste, (size_t)line);
    if (also >= 0)
        dl_quote_line(x, &e->paste, (size_t)also);
    dl_finding_fix(x, "%s", c->fix);
    for (i = 0; i < sizeof c->alternatives / sizeof c->alternatives[0] && c->alternatives[i]; i++)
        dl_strv_add(&e->alternatives, dl_strdup(c->alternatives[i]));
    if (c->ask)
        dl_strv_add(&e->ask, dl_strdup(c->ask));
    return x;
}

dl_finding *dl_text_cause_restate(dl_explanation *e, const dl_text_cause *c, long line)
{
    dl_finding *x = dl_findings_get(&e->findings, c->id);
    size_t i;
    if (!x || !dl_q_failure(x))
        return dl_text_cause_add(e, c, line, -1);
    dl_text_set(&x->title, c->title);
    dl_finding_fix_clear(x);
    dl_finding_fix(x, "%s", c->fix);
    for (i = 0; i < sizeof c->alternatives / sizeof c->alternatives[0] && c->alternatives[i]; i++)
        dl_strv_add(&e->alternatives, dl_strdup(c->alternatives[i]));
    if (c->ask)
        dl_strv_add(&e->ask, dl_strdup(c->ask));
    return x;
}

bool dl_text_cause_read(const dl_explanation *e)
{
    size_t i;
    for (i = 0; i < e->findings.items.count; i++)
        if (dl_q_failure(&DL_LIST_AT(e->findings.items, dl_finding, i)))
            return true;
    return false;
}

void dl_text_causes_step_back(dl_explanation *e, const char *const *ids, size_t n)
{
    size_t i, k;
    for (i = 0; i < e->findings.items.count; i++) {
        dl_finding *x = &DL_LIST_AT(e->findings.items, dl_finding, i);
        for (k = 0; k < n; k++)
            if (!strcmp(x->id.value, ids[k]) && dl_q_failure(x)) {
                dl_text_set(&x->severity, dl_severity_name(DL_SEV_WARNING));
                dl_strv_add(&e->alternatives, dl_strdup(ids[k]));
            }
    }
}

bool dl_text_torch_ran(const dl_explanation *e)
{
    const dl_python *py = e->facts.pythons.count ? &DL_LIST_AT(e->facts.pythons, dl_python, 0)
                                                 : NULL;
    return (py && py->runtime.cuda_available.known) ||
           dl_text_unavailable_line(&e->paste) >= 0 ||
           dl_text_cpu_device_logged_line(&e->paste) >= 0;
}

long dl_text_line_of_fact(const dl_explanation *e, const char *fact)
{
    size_t i;
    for (i = 0; i < e->where.n; i++)
        if (!strcmp(e->where.where[i].fact, fact))
            return (long)e->where.where[i].line;
    return -1;
}

long dl_text_gpu_line(const dl_explanation *e, int vendor, bool is, const char *const *words,
                      size_t n)
{
    const dl_nvml_gpu *g =
        e->facts.nvml.gpus.count ? &DL_LIST_AT(e->facts.nvml.gpus, dl_nvml_gpu, 0) : NULL;
    long line;
    if (g && g->name.value && ((int)dl_gpu_vendor_of_name(g->name.value) == vendor) == is &&
        (line = dl_text_line_of_fact(e, "nvml.gpus[0].name")) >= 0)
        return line;
    return dl_paste_find_any(&e->paste, words, n);
}
