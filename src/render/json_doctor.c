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
    cJSON_AddStringToObject(doc, "verdict", dl_severity_word(in->view->verdict));
    if (in->view->root)
        cJSON_AddStringToObject(doc, "root_cause", in->view->root->id.value);
    else
        cJSON_AddNullToObject(doc, "root_cause");
    for (i = 0; i < DL_LAYER_COUNT; i++) {
        cJSON *l = cJSON_CreateObject();
        cJSON_AddStringToObject(l, "layer", dl_layer_name(in->view->layers[i].layer));
        cJSON_AddStringToObject(l, "status", dl_severity_word(in->view->layers[i].status));
        cJSON_AddStringToObject(l, "summary", in->view->layers[i].summary);
        cJSON_AddBoolToObject(l, "consequence", in->view->layers[i].consequence);
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
