/* `dlenv explain --json` ("schema": "dlenv.explain/1"): root_cause (with id and the
 * quoted lines), alternatives, ask, notes (what is at fault outside the environment),
 * findings and the facts the text gave. */
#include "render/explain_view.h"

#include "base/str.h"
#include "facts/facts_json.h"

#include <cjson/cJSON.h>
#include <string.h>

static cJSON *strv(const dl_strv *v)
{
    cJSON *a = cJSON_CreateArray();
    size_t i;
    for (i = 0; i < v->n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateString(v->v[i]));
    return a;
}

char *dl_render_explain_json(const dl_explanation *e, const char *name)
{
    cJSON *doc = cJSON_CreateObject(), *findings, *all, *where = cJSON_CreateArray();
    char *text, *out;
    size_t i;
    cJSON_AddStringToObject(doc, "schema", "dlenv.explain/1");
    cJSON_AddStringToObject(doc, "input", name);
    cJSON_AddNumberToObject(doc, "lines", (double)e->paste.count);
    all = dl_schema_to_json(&dl_findings_schema, &e->findings);
    findings = cJSON_DetachItemFromObject(all, "findings");
    cJSON_Delete(all);
    if (!findings)
        findings = cJSON_CreateArray();
    if (dl_explanation_root(e, &i))
        cJSON_AddItemToObject(doc, "root_cause",
                              cJSON_Duplicate(cJSON_GetArrayItem(findings, (int)i), 1));
    else
        cJSON_AddNullToObject(doc, "root_cause");
    cJSON_AddItemToObject(doc, "alternatives", strv(&e->alternatives));
    cJSON_AddItemToObject(doc, "ask", strv(&e->ask));
    cJSON_AddItemToObject(doc, "notes", strv(&e->notes));
    cJSON_AddItemToObject(doc, "findings", findings);
    for (i = 0; i < e->where.n; i++) {
        cJSON *w = cJSON_CreateObject();
        cJSON_AddStringToObject(w, "fact", e->where.where[i].fact);
        cJSON_AddNumberToObject(w, "line", (double)e->paste.lines[e->where.where[i].line].number);
        /* a fact dlenv inferred, not one the text says: the fact it came from */
        if (e->where.where[i].inferred_from)
            cJSON_AddStringToObject(w, "inferred_from", e->where.where[i].inferred_from);
        cJSON_AddItemToArray(where, w);
    }
    cJSON_AddItemToObject(doc, "facts_from", where);
    cJSON_AddItemToObject(doc, "facts", dl_schema_to_json(&dl_facts_schema, &e->facts));
    text = cJSON_Print(doc);
    cJSON_Delete(doc);
    out = dl_strdup(text);
    cJSON_free(text);
    return out;
}
