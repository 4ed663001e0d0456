#include "diff/snapshot.h"

#include "base/str.h"
#include "facts/facts_json.h"
#include "facts/json_check.h"
#include "rules/verdict.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* ---- writing ------------------------------------------------------------------------ */

/* The doctor's verdict on the recorded facts: "cannot_judge" where a layer is unknown,
 * never "ok" for what was not seen to work. */
static const char *verdict_of(const dl_snapshot *s)
{
    dl_judgement j;
    const char *name;
    dl_judge(&s->facts, &s->findings, NULL, &j);
    name = dl_verdict_name(j.verdict);
    dl_judgement_free(&j);
    return name;
}

static void add_text_or_null(cJSON *doc, const char *key, const char *value)
{
    if (value)
        cJSON_AddStringToObject(doc, key, value);
    else
        cJSON_AddNullToObject(doc, key);
}

char *dl_snapshot_to_json_text(const dl_snapshot *s)
{
    cJSON *doc = cJSON_CreateObject(), *all, *items;
    char *text, *out;
    cJSON_AddStringToObject(doc, "schema", DL_SNAPSHOT_SCHEMA);
    add_text_or_null(doc, "taken_at", s->taken_at);
    add_text_or_null(doc, "host", s->host);
    cJSON_AddStringToObject(doc, "verdict", verdict_of(s));
    add_text_or_null(doc, "root_cause", s->findings.root_cause.value);
    all = dl_schema_to_json(&dl_findings_schema, &s->findings);
    items = cJSON_DetachItemFromObject(all, "findings");
    cJSON_Delete(all);
    cJSON_AddItemToObject(doc, "findings", items ? items : cJSON_CreateArray());
    cJSON_AddItemToObject(doc, "facts", dl_schema_to_json(&dl_facts_schema, &s->facts));
    text = cJSON_Print(doc);
    out = dl_strdup(text);
    cJSON_free(text);
    cJSON_Delete(doc);
    return out;
}

/* ---- reading ------------------------------------------------------------------------ */

typedef enum doc_kind { DOC_SNAPSHOT, DOC_REPORT, DOC_DOCTOR } doc_kind;

typedef struct doc_form {
    const char *name;
    doc_kind kind;
    long newest;   /* the newest major version this dlenv reads */
} doc_form;

static const doc_form forms[] = {
    {"dlenv.snapshot/", DOC_SNAPSHOT, 1},
    {"dlenv.report/", DOC_REPORT, 1},
    {"dlenv.doctor/", DOC_DOCTOR, 1},
    {"dlenv.verify/", DOC_DOCTOR, 1}, /* a doctor document with its measurements */
};

static bool fail(char **error, char *message)
{
    *error = message;
    return false;
}

/* Which document this is, from "schema": NAME/MAJOR; path names doc in errors. */
static bool identify(const cJSON *doc, const char *path, const doc_form **form, char **error)
{
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(doc, "schema");
    const char *s;
    size_t i;
    if (!cJSON_IsString(schema))
        return fail(error, dl_strdup("not a dlenv snapshot (no \"schema\": "
                                     "\"dlenv.snapshot/N\")"));
    s = schema->valuestring;
    for (i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        unsigned long long major;
        if (!dl_starts_with(s, forms[i].name))
            continue;
        if (!dl_parse_u64(s + strlen(forms[i].name), 10, &major))
            break;
        if (major > (unsigned long long)forms[i].newest)
            return fail(error, dl_fmt("%s.schema: \"%s\" is newer than this dlenv reads "
                                      "(%s%ld): update dlenv", path, s, forms[i].name,
                                      forms[i].newest));
        *form = &forms[i];
        return true;
    }
    return fail(error, dl_fmt("%s.schema: \"%s\" is not a dlenv snapshot, report, "
                              "doctor or verify document", path, s));
}

static bool read_string(const cJSON *doc, const char *key, char **out, char **error)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(doc, key);
    if (!j || cJSON_IsNull(j))
        return true;
    if (!cJSON_IsString(j))
        return fail(error, dl_fmt("$.%s: expected a string", key));
    *out = dl_strdup(j->valuestring);
    return true;
}

/* The facts: the document itself (a report) or its "facts", itself a report. */
static bool read_facts(const cJSON *doc, const doc_form *form, dl_facts *f, char **error)
{
    const cJSON *facts = form->kind == DOC_REPORT ? doc
                                                  : cJSON_GetObjectItemCaseSensitive(doc, "facts");
    const char *path = form->kind == DOC_REPORT ? "$" : "$.facts";
    const cJSON *schema;
    if (!cJSON_IsObject(facts))
        return fail(error, dl_fmt("%s: %s", path, facts ? "expected an object" : "missing"));
    schema = cJSON_GetObjectItemCaseSensitive(facts, "schema");
    if (form->kind != DOC_REPORT && cJSON_IsString(schema)) {
        const doc_form *inner = NULL;
        if (!identify(facts, path, &inner, error))
            return false;
        if (inner->kind != DOC_REPORT)
            return fail(error, dl_fmt("$.facts.schema: expected \"dlenv.report/1\", not "
                                      "\"%s\"", schema->valuestring));
    }
    return dl_schema_from_json(&dl_facts_schema, facts, f, path, error);
}

/* A finding is nothing without its id, layer, severity and title: one that lacks one (or
 * has an unknown there) makes the document unreadable, not a "? (unknown)" line. */
static bool findings_complete(const dl_findings *fs, char **error)
{
    size_t i;
    for (i = 0; fs->items.known && i < fs->items.count; i++) {
        const dl_finding *x = &DL_LIST_AT(fs->items, dl_finding, i);
        const char *lacking = !x->id.value ? "id" : !x->layer.value ? "layer"
                              : !x->severity.value ? "severity" : !x->title.value ? "title"
                                                                                   : NULL;
        if (lacking)
            return fail(error, dl_fmt("$.findings[%zu].%s: missing (every finding has an id, "
                                      "a layer, a severity and a title)", i, lacking));
    }
    return true;
}

/* "findings" and "root_cause" as the doctor writes them; a null root cause is none. */
static bool read_findings(const cJSON *doc, dl_snapshot *out, char **error)
{
    const cJSON *items = cJSON_GetObjectItemCaseSensitive(doc, "findings");
    const cJSON *root = cJSON_GetObjectItemCaseSensitive(doc, "root_cause");
    cJSON *view;
    bool ok;
    if (!items)
        return true; /* an older snapshot without findings: the caller runs the rules */
    if (root && !cJSON_IsNull(root) && !cJSON_IsString(root))
        return fail(error, dl_strdup("$.root_cause: expected a string or null"));
    view = cJSON_CreateObject();
    cJSON_AddItemReferenceToObject(view, "findings", (cJSON *)items);
    if (cJSON_IsString(root))
        cJSON_AddItemReferenceToObject(view, "root_cause", (cJSON *)root);
    ok = dl_schema_from_json(&dl_findings_schema, view, &out->findings, "$", error) &&
         findings_complete(&out->findings, error);
    cJSON_Delete(view);
    out->has_findings = ok;
    return ok;
}

static bool read_document(const cJSON *doc, dl_snapshot *out, char **error)
{
    const doc_form *form = NULL;
    const cJSON *schema;
    if (!cJSON_IsObject(doc))
        return fail(error, dl_strdup("$: expected an object"));
    if (!identify(doc, "$", &form, error))
        return false;
    schema = cJSON_GetObjectItemCaseSensitive(doc, "schema");
    out->schema = dl_strdup(schema->valuestring);
    /* A snapshot has its time and host; a verify document its time (since it wrote one). */
    if (form->kind != DOC_REPORT && !read_string(doc, "taken_at", &out->taken_at, error))
        return false;
    if (form->kind == DOC_SNAPSHOT && !read_string(doc, "host", &out->host, error))
        return false;
    if (!read_facts(doc, form, &out->facts, error))
        return false;
    return form->kind == DOC_REPORT || read_findings(doc, out, error);
}

bool dl_snapshot_from_json_text(const char *text, size_t len, dl_snapshot *out, char **error)
{
    cJSON *doc;
    bool ok;
    memset(out, 0, sizeof *out);
    *error = NULL;
    if (!dl_json_check(text, len, error))
        return false;
    doc = cJSON_ParseWithLength(text, len);
    if (!doc) /* checked: cJSON itself ran out of memory */
        return fail(error, dl_strdup("not valid JSON"));
    ok = read_document(doc, out, error);
    cJSON_Delete(doc);
    if (!ok)
        dl_snapshot_free(out);
    return ok;
}

void dl_snapshot_free(dl_snapshot *s)
{
    free(s->schema);
    free(s->taken_at);
    free(s->host);
    dl_facts_free(&s->facts);
    dl_findings_free(&s->findings);
    memset(s, 0, sizeof *s);
}
