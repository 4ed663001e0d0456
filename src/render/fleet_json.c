/* fleet check as JSON: {"schema": "dlenv.fleet_check/1", "status", "root_cause": {id,
 * layer, title} or null, "failing": [{id, layer, severity, title}], "info": {driver,
 * max_cuda, torch, capability}}. Only the failures and warnings: the doctor's JSON has the
 * rest. */
#include "render/fleet_view.h"

#include "base/str.h"

#include <cjson/cJSON.h>

static void add_text_or_null(cJSON *o, const char *name, const char *value)
{
    if (value)
        cJSON_AddStringToObject(o, name, value);
    else
        cJSON_AddNullToObject(o, name);
}

static cJSON *finding_json(const dl_finding *x)
{
    cJSON *o = cJSON_CreateObject();
    add_text_or_null(o, "id", x->id.value);
    add_text_or_null(o, "layer", x->layer.value);
    add_text_or_null(o, "severity", x->severity.value);
    add_text_or_null(o, "title", x->title.value);
    return o;
}

static cJSON *failing_json(const dl_findings *fs)
{
    cJSON *a = cJSON_CreateArray();
    size_t i;
    for (i = 0; i < fs->items.count; i++) {
        const dl_finding *x = &DL_LIST_AT(fs->items, dl_finding, i);
        if (dl_fleet_check_level(fs, x->id.value ? x->id.value : "") > 0)
            cJSON_AddItemToArray(a, finding_json(x));
    }
    return a;
}

static cJSON *info_json(const dl_facts *f)
{
    cJSON *o = cJSON_CreateObject();
    dl_fleet_info info;
    dl_fleet_info_build(f, &info);
    add_text_or_null(o, "driver", info.driver);
    add_text_or_null(o, "max_cuda", info.max_cuda);
    add_text_or_null(o, "torch", info.torch);
    add_text_or_null(o, "capability", info.capability);
    dl_fleet_info_free(&info);
    return o;
}

char *dl_render_fleet_json(const dl_fleet_input *in)
{
    cJSON *doc = cJSON_CreateObject();
    char *text, *out;
    cJSON_AddStringToObject(doc, "schema", "dlenv.fleet_check/1");
    cJSON_AddStringToObject(doc, "status", dl_fleet_status(in));
    if (in->view->root)
        cJSON_AddItemToObject(doc, "root_cause", finding_json(in->view->root));
    else
        cJSON_AddNullToObject(doc, "root_cause");
    cJSON_AddItemToObject(doc, "failing", failing_json(in->findings));
    cJSON_AddItemToObject(doc, "info", info_json(in->facts));
    cJSON_AddNumberToObject(doc, "checked_at", (double)in->now);
    text = cJSON_Print(doc);
    out = dl_strdup(text);
    cJSON_free(text);
    cJSON_Delete(doc);
    return out;
}
