#include "rules/finding.h"

#include "base/str.h"
#include "rules/catalog.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define N DL_COUNT
#define F DL_FIELD

static const dl_field finding_fields[] = {
    F(dl_finding, "id", "Id", DL_F_TEXT, id, NULL, 0),
    F(dl_finding, "layer", "Layer", DL_F_TEXT, layer, NULL, 0),
    F(dl_finding, "severity", "Severity", DL_F_TEXT, severity, NULL, 0),
    F(dl_finding, "title", "Title", DL_F_TEXT, title, NULL, 0),
    F(dl_finding, "evidence", "Evidence", DL_F_DICT, evidence, NULL, 0),
    F(dl_finding, "fix", "Fix", DL_F_TEXTLIST, fix, NULL, 0),
    F(dl_finding, "consequence", "Consequence", DL_F_FLAG, consequence, NULL, 0),
};
const dl_schema dl_finding_schema = {"finding", sizeof(dl_finding), finding_fields,
                                     N(finding_fields)};

static const dl_field findings_fields[] = {
    F(dl_findings, "root_cause", "Root cause", DL_F_TEXT, root_cause, NULL, DL_OPTIONAL),
    F(dl_findings, "findings", "Findings", DL_F_LIST, items, &dl_finding_schema, 0),
};
const dl_schema dl_findings_schema = {"findings", sizeof(dl_findings), findings_fields,
                                      N(findings_fields)};

static const char *const layer_names[DL_LAYER_COUNT] = {
    "hardware", "driver", "container", "libraries", "python", "torch_build", "torch_runtime",
    "performance"};
static const char *const layer_titles[DL_LAYER_COUNT] = {
    "Hardware", "Driver", "Container / VM", "Libraries and paths", "Python", "torch build",
    "torch runtime", "Performance"};
static const char *const severity_names[] = {"ok", "info", "warning", "failure"};

const char *dl_layer_name(dl_layer l)
{
    return l < DL_LAYER_COUNT ? layer_names[l] : "unknown";
}

const char *dl_layer_title(dl_layer l)
{
    return l < DL_LAYER_COUNT ? layer_titles[l] : "Unknown";
}

const char *dl_severity_name(dl_severity s)
{
    return (size_t)s < N(severity_names) ? severity_names[s] : "failure";
}

static int index_of(const char *const *names, size_t n, const char *name)
{
    size_t i;
    for (i = 0; name && i < n; i++)
        if (strcmp(names[i], name) == 0)
            return (int)i;
    return -1;
}

int dl_layer_of_name(const char *name)
{
    return index_of(layer_names, DL_LAYER_COUNT, name);
}

int dl_severity_of_name(const char *name)
{
    return index_of(severity_names, N(severity_names), name);
}

dl_finding *dl_finding_add(dl_findings *f, const char *id, dl_severity sev,
                           const char *title_fmt, ...)
{
    const dl_diagnosis *d = dl_diagnosis_find(id);
    dl_finding *x = dl_list_push(&f->items, sizeof *x);
    va_list ap;
    char *title;
    va_start(ap, title_fmt);
    title = dl_vfmt(title_fmt, ap);
    va_end(ap);
    dl_text_set(&x->id, id);
    dl_text_set(&x->layer, d ? dl_layer_name(d->layer) : "unknown");
    dl_text_set(&x->severity, dl_severity_name(sev));
    dl_text_set(&x->title, title);
    dl_list_known(&x->evidence);
    dl_list_known(&x->fix);
    dl_flag_set(&x->consequence, false);
    free(title);
    return x;
}

void dl_finding_evidence(dl_finding *f, const char *fact, const char *fmt, ...)
{
    va_list ap;
    char *value;
    va_start(ap, fmt);
    value = dl_vfmt(fmt, ap);
    va_end(ap);
    dl_dict_add(&f->evidence, fact, value);
    free(value);
}

void dl_finding_fix(dl_finding *f, const char *fmt, ...)
{
    va_list ap;
    char *step;
    va_start(ap, fmt);
    step = dl_vfmt(fmt, ap);
    va_end(ap);
    dl_textlist_add(&f->fix, step);
    free(step);
}

bool dl_finding_fix_is_only(const dl_finding *f, const char *words)
{
    return f->fix.count == 1 && strstr(DL_LIST_AT(f->fix, char *, 0), words) != NULL;
}

void dl_finding_fix_clear(dl_finding *f)
{
    size_t i;
    for (i = 0; i < f->fix.count; i++)
        free(DL_LIST_AT(f->fix, char *, i));
    f->fix.count = 0;
}

bool dl_findings_has(const dl_findings *f, const char *id)
{
    size_t i;
    for (i = 0; i < f->items.count; i++)
        if (strcmp(DL_LIST_AT(f->items, dl_finding, i).id.value, id) == 0)
            return true;
    return false;
}

bool dl_findings_has_failure(const dl_findings *f, const char *id)
{
    size_t i;
    for (i = 0; i < f->items.count; i++) {
        const dl_finding *x = &DL_LIST_AT(f->items, dl_finding, i);
        if (strcmp(x->id.value, id) == 0 && dl_q_failure(x))
            return true;
    }
    return false;
}

bool dl_findings_failures_all(dl_findings *f, const char *id, dl_finding **last)
{
    size_t i;
    *last = NULL;
    for (i = 0; i < f->items.count; i++) {
        dl_finding *x = &DL_LIST_AT(f->items, dl_finding, i);
        if (!dl_q_failure(x))
            continue;
        if (strcmp(x->id.value, id) != 0)
            return false;
        *last = x;
    }
    return true;
}

dl_finding *dl_findings_get(dl_findings *f, const char *id)
{
    size_t i;
    for (i = 0; i < f->items.count; i++)
        if (strcmp(DL_LIST_AT(f->items, dl_finding, i).id.value, id) == 0)
            return &DL_LIST_AT(f->items, dl_finding, i);
    return NULL;
}

void dl_finding_raise(dl_finding *x, dl_severity sev)
{
    int now = dl_severity_of_name(x->severity.value);
    if (now < 0 || (int)sev > now)
        dl_text_set(&x->severity, dl_severity_name(sev));
}

void dl_findings_free(dl_findings *f)
{
    dl_schema_free(&dl_findings_schema, f);
}

bool dl_q_failure(const dl_finding *x)
{
    return x->severity.value && strcmp(x->severity.value, "failure") == 0;
}
