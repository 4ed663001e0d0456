/* dlenv verify as JSON: when it was measured ("taken_at", UTC, as a snapshot writes it, so
 * `fleet check --snapshot` can say how old the rates are), every figure under its group with the unit in its key
 * ("fp32_gflops_all"), its limit ("fp32_gflops_all_limit") and the share reached; an
 * unmeasured one is {"unknown": why}. Then the findings and all the facts. */
#include "render/text_verify.h"

#include "base/str.h"
#include "facts/facts_json.h"
#include "render/doctor_view.h"

#include <cjson/cJSON.h>
#include <stdlib.h>

static cJSON *group_object(cJSON *doc, const char *group)
{
    cJSON *g = cJSON_GetObjectItemCaseSensitive(doc, group);
    if (!g) {
        g = cJSON_CreateObject();
        cJSON_AddItemToObject(doc, group, g);
    }
    return g;
}

static void add_line(cJSON *g, const dl_verify_line *l)
{
    char *key;
    if (!l->known) {
        cJSON *u = cJSON_CreateObject();
        cJSON_AddStringToObject(u, "unknown", l->why);
        cJSON_AddItemToObject(g, l->key, u);
        return;
    }
    if (l->text)
        cJSON_AddStringToObject(g, l->key, l->text);
    else
        cJSON_AddNumberToObject(g, l->key, l->value);
    if (l->has_limit && !l->text) {
        key = dl_fmt("%s_limit", l->key);
        cJSON_AddNumberToObject(g, key, l->limit);
        free(key);
        key = dl_fmt("%s_limit_is", l->key);
        cJSON_AddStringToObject(g, key, l->limit_what);
        free(key);
        key = dl_fmt("%s_pct_of_limit", l->key);
        cJSON_AddNumberToObject(g, key, dl_verify_line_pct(l));
        free(key);
    }
    key = dl_fmt("%s_verdict", l->key);
    cJSON_AddStringToObject(g, key, dl_severity_word(l->verdict));
    free(key);
}

char *dl_render_verify_json(const dl_verify_input *in)
{
    cJSON *doc = cJSON_CreateObject(), *m = cJSON_CreateObject(), *all;
    char *text, *out;
    size_t i;
    cJSON_AddStringToObject(doc, "schema", "dlenv.verify/1");
    if (in->taken_at)
        cJSON_AddStringToObject(doc, "taken_at", in->taken_at);
    cJSON_AddStringToObject(doc, "verdict", dl_verdict_name(in->view->verdict));
    if (in->view->root)
        cJSON_AddStringToObject(doc, "root_cause", in->view->root->id.value);
    else
        cJSON_AddNullToObject(doc, "root_cause");
    for (i = 0; i < in->view->count; i++)
        add_line(group_object(m, in->view->lines[i].group), &in->view->lines[i]);
    cJSON_AddItemToObject(doc, "measurements", m);
    all = dl_schema_to_json(&dl_findings_schema, in->findings);
    cJSON_AddItemToObject(doc, "findings", cJSON_DetachItemFromObject(all, "findings"));
    cJSON_Delete(all);
    cJSON_AddItemToObject(doc, "facts", dl_schema_to_json(&dl_facts_schema, in->facts));
    text = cJSON_Print(doc);
    out = dl_strdup(text);
    cJSON_free(text);
    cJSON_Delete(doc);
    return out;
}
