/* The doctor as JSON: the verdict, the layers, the findings and all the facts. */
#include "render/text_doctor.h"

#include "base/str.h"
#include "facts/facts_json.h"

#include <cjson/cJSON.h>

char *dl_render_doctor_json(const dl_doctor_input *in)
{
    cJSON *doc = cJSON_CreateObject(), *layers = cJSON_CreateArray();
    char *text, *out;
    size_t i;
    cJSON_AddStringToObject(doc, "schema", "dlenv.doctor/1");
    cJSON_AddStringToObject(doc, "verdict", dl_verdict_name(in->view->judged.verdict));
    if (in->view->root)
        cJSON_AddStringToObject(doc, "root_cause", in->view->root->id.value);
    else
        cJSON_AddNullToObject(doc, "root_cause");
    for (i = 0; i < DL_LAYER_COUNT; i++) {
        const dl_layer_judgement *j = &in->view->judged.layers[i];
        cJSON *l = cJSON_CreateObject();
        cJSON_AddStringToObject(l, "layer", dl_layer_name(j->layer));
        cJSON_AddStringToObject(l, "status", dl_layer_state_name(j->state));
        cJSON_AddStringToObject(l, "summary", j->summary);
        cJSON_AddBoolToObject(l, "consequence", j->consequence);
        cJSON_AddItemToArray(layers, l);
    }
    cJSON_AddItemToObject(doc, "layers", layers);
    {
        cJSON *all = dl_schema_to_json(&dl_findings_schema, in->findings);
        cJSON *items = cJSON_DetachItemFromObject(all, "findings");
        cJSON_Delete(all);
        cJSON_AddItemToObject(doc, "findings", items ? items : cJSON_CreateArray());
    }
    cJSON_AddItemToObject(doc, "notes", cJSON_CreateArray());
    for (i = 0; i < in->view->notes.n; i++)
        cJSON_AddItemToArray(cJSON_GetObjectItem(doc, "notes"),
                             cJSON_CreateString(in->view->notes.v[i]));
    cJSON_AddItemToObject(doc, "facts", dl_schema_to_json(&dl_facts_schema, in->facts));
    text = cJSON_Print(doc);
    out = dl_strdup(text);
    cJSON_free(text);
    cJSON_Delete(doc);
    return out;
}
