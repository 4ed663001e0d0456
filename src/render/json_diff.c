/* dlenv diff as JSON ("schema": "dlenv.diff/1"):
 *   {"a": {source, schema, taken_at, host}, "b": {...}, "equal": bool,
 *    "headline": change | null,
 *    "facts": [{group, importance, change, path, label, old, new, [note], [volatile]}],
 *    "findings": [{change: appeared|gone|severity, id, subject, severity, [old_severity],
 *                  title}],
 *    "volatile": N, "volatile_shown": bool,
 *    "runtime_not_compared": N (interpreters whose import torch ran on one side only)}
 * Values are text as the facts' JSON has them ("unknown: why" for an unknown); null
 * when absent on that side. */
#include "render/diff_render.h"

#include "base/str.h"

#include <cjson/cJSON.h>

static void add_text(cJSON *o, const char *key, const char *value)
{
    if (value)
        cJSON_AddStringToObject(o, key, value);
    else
        cJSON_AddNullToObject(o, key);
}

static cJSON *side_json(const dl_diff_side *s)
{
    cJSON *o = cJSON_CreateObject();
    add_text(o, "source", s->source);
    add_text(o, "schema", s->schema);
    add_text(o, "taken_at", s->taken_at);
    add_text(o, "host", s->host);
    return o;
}

static cJSON *change_json(const dl_fact_change *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "group", dl_diff_group_name(c->group));
    cJSON_AddStringToObject(o, "importance", dl_diff_importance_name(c->importance));
    cJSON_AddStringToObject(o, "change", dl_diff_kind_name(c->kind));
    cJSON_AddStringToObject(o, "path", c->path);
    cJSON_AddStringToObject(o, "label", c->label);
    add_text(o, "old", c->old_value);
    add_text(o, "new", c->new_value);
    if (c->bytes)
        cJSON_AddStringToObject(o, "unit", "bytes");
    if (c->note)
        cJSON_AddStringToObject(o, "note", c->note);
    if (c->volatile_value)
        cJSON_AddBoolToObject(o, "volatile", true);
    return o;
}

static cJSON *finding_json(const dl_finding_change *f)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "change", dl_finding_change_name(f->kind));
    cJSON_AddStringToObject(o, "id", f->id);
    cJSON_AddStringToObject(o, "subject", f->subject);
    cJSON_AddStringToObject(o, "severity", f->severity);
    if (f->old_severity)
        cJSON_AddStringToObject(o, "old_severity", f->old_severity);
    cJSON_AddStringToObject(o, "title", f->title);
    return o;
}

char *dl_render_diff_json(const dl_diff_input *in)
{
    const dl_diff *d = in->diff;
    const dl_fact_change *h = dl_diff_headline(d);
    cJSON *doc = cJSON_CreateObject(), *facts = cJSON_CreateArray(),
          *findings = cJSON_CreateArray();
    char *text, *out;
    size_t i;
    cJSON_AddStringToObject(doc, "schema", "dlenv.diff/1");
    cJSON_AddItemToObject(doc, "a", side_json(&in->a));
    cJSON_AddItemToObject(doc, "b", side_json(&in->b));
    cJSON_AddBoolToObject(doc, "equal", dl_diff_equal(d));
    cJSON_AddItemToObject(doc, "headline", h ? change_json(h) : cJSON_CreateNull());
    for (i = 0; i < d->n_facts; i++)
        cJSON_AddItemToArray(facts, change_json(&d->facts[i]));
    cJSON_AddItemToObject(doc, "facts", facts);
    for (i = 0; i < d->n_findings; i++)
        cJSON_AddItemToArray(findings, finding_json(&d->findings[i]));
    cJSON_AddItemToObject(doc, "findings", findings);
    cJSON_AddNumberToObject(doc, "volatile", (double)d->n_volatile);
    cJSON_AddBoolToObject(doc, "volatile_shown", in->verbose);
    cJSON_AddNumberToObject(doc, "runtime_not_compared", (double)d->n_runtime_skipped);
    text = cJSON_Print(doc);
    out = dl_strdup(text);
    cJSON_free(text);
    cJSON_Delete(doc);
    return out;
}
