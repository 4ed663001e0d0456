#include "facts/facts_json.h"

#include "os/os.h"

#include "base/str.h"
#include "facts/json_check.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cJSON *unknown_json(const char *why)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "unknown", why);
    return o;
}

static cJSON *int_json(const dl_field *fd, long long v)
{
    char buf[32];
    if (fd->flags & DL_FMT_HEX4) {
        snprintf(buf, sizeof buf, "0x%04llx", v);
        return cJSON_CreateString(buf);
    }
    if (fd->flags & DL_FMT_HEX6) {
        snprintf(buf, sizeof buf, "0x%06llx", v);
        return cJSON_CreateString(buf);
    }
    return cJSON_CreateNumber((double)v);
}

static cJSON *list_json(const dl_field *fd, const dl_list *l)
{
    cJSON *out;
    size_t i;
    if (!l->known)
        return l->why ? unknown_json(l->why) : NULL;
    out = fd->kind == DL_F_DICT ? cJSON_CreateObject() : cJSON_CreateArray();
    for (i = 0; i < l->count; i++) {
        if (fd->kind == DL_F_LIST)
            cJSON_AddItemToArray(out,
                                 dl_schema_to_json(fd->sub, (char *)l->items + i * fd->sub->size));
        else if (fd->kind == DL_F_TEXTLIST)
            cJSON_AddItemToArray(out, cJSON_CreateString(DL_LIST_AT(*l, char *, i)));
        else
            cJSON_AddStringToObject(out, DL_LIST_AT(*l, dl_pair, i).name,
                                    DL_LIST_AT(*l, dl_pair, i).value);
    }
    return out;
}

static cJSON *field_json(const dl_field *fd, const void *p)
{
    switch (fd->kind) {
    case DL_F_TEXT: {
        const dl_text *t = p;
        return t->value ? cJSON_CreateString(t->value) : t->why ? unknown_json(t->why) : NULL;
    }
    case DL_F_INT: {
        const dl_int *v = p;
        return v->known ? int_json(fd, v->value) : v->why ? unknown_json(v->why) : NULL;
    }
    case DL_F_FLAG: {
        const dl_flag *v = p;
        return v->known ? cJSON_CreateBool(v->value) : v->why ? unknown_json(v->why) : NULL;
    }
    case DL_F_NUM: {
        const dl_num *v = p;
        return v->known ? cJSON_CreateNumber(v->value) : v->why ? unknown_json(v->why) : NULL;
    }
    case DL_F_OBJECT: {
        /* An object with nothing in it (the Windows facts of a Linux machine) is left out. */
        cJSON *o = dl_schema_to_json(fd->sub, p);
        if (!o->child) {
            cJSON_Delete(o);
            return NULL;
        }
        return o;
    }
    default:
        return list_json(fd, p);
    }
}

cJSON *dl_schema_to_json(const dl_schema *s, const void *obj)
{
    cJSON *o = cJSON_CreateObject();
    size_t i;
    for (i = 0; i < s->count; i++) {
        cJSON *v = field_json(&s->fields[i], (const char *)obj + s->fields[i].offset);
        if (v)
            cJSON_AddItemToObject(o, s->fields[i].key, v);
    }
    return o;
}

char *dl_facts_to_json_text(const dl_facts *f, bool pretty)
{
    cJSON *j = dl_schema_to_json(&dl_facts_schema, f);
    char *cj = pretty ? cJSON_Print(j) : cJSON_PrintUnformatted(j);
    char *out = dl_strdup(cj);
    cJSON_free(cj);
    cJSON_Delete(j);
    return out;
}

/* ---- reading ---------------------------------------------------------------------------- */

/* Where a value is, for error messages: a chain of steps from the caller's path, made
 * into text only when a read fails (a report has thousands of values, and formatting
 * each one's path was a quarter of reading it). */
typedef struct at {
    const struct at *up;
    const char *root;   /* the first step: the caller's path ("$") */
    const char *key;    /* ".key"; with neither root nor key: "[index]" */
    size_t index;
} at;

typedef struct reader {
    char **error;
} reader;

static void at_text(const at *a, dl_buf *b)
{
    if (a->up)
        at_text(a->up, b);
    if (a->root)
        dl_buf_puts(b, a->root);
    else if (a->key)
        dl_buf_printf(b, ".%s", a->key);
    else
        dl_buf_printf(b, "[%zu]", a->index);
}

static bool fail(reader *r, const at *path, const char *what)
{
    if (!*r->error) {
        dl_buf b = {0};
        char *text;
        at_text(path, &b);
        text = dl_buf_take(&b);
        *r->error = dl_fmt("%s: %s", text, what);
        free(text);
    }
    return false;
}

/* {"unknown": "..."} gives the reason; anything else is not an unknown marker. */
static const char *unknown_reason(const cJSON *j)
{
    const cJSON *u;
    if (!cJSON_IsObject(j))
        return NULL;
    u = cJSON_GetObjectItemCaseSensitive(j, "unknown");
    return cJSON_IsString(u) && cJSON_GetArraySize(j) == 1 ? u->valuestring : NULL;
}

static bool read_object(reader *r, const dl_schema *s, const cJSON *json, void *obj,
                        const at *path);

static bool read_int(reader *r, const dl_field *fd, const cJSON *j, dl_int *v, const at *path)
{
    if (cJSON_IsString(j) && (fd->flags & (DL_FMT_HEX4 | DL_FMT_HEX6))) {
        unsigned long long x;
        if (!dl_starts_with(j->valuestring, "0x") || !dl_parse_u64(j->valuestring + 2, 16, &x))
            return fail(r, path, "expected a hexadecimal id like \"0x10de\"");
        dl_int_set(v, (long long)x);
        return true;
    }
    if (!cJSON_IsNumber(j) || j->valuedouble != floor(j->valuedouble) ||
        fabs(j->valuedouble) > 9007199254740992.0)
        return fail(r, path, "expected an integer");
    dl_int_set(v, (long long)j->valuedouble);
    return true;
}

static bool read_list(reader *r, const dl_field *fd, const cJSON *j, dl_list *l,
                      const at *path)
{
    const cJSON *item;
    at ipath;
    bool ok = true;
    if (fd->kind == DL_F_DICT ? !cJSON_IsObject(j) : !cJSON_IsArray(j))
        return fail(r, path, fd->kind == DL_F_DICT ? "expected an object" : "expected an array");
    dl_list_known(l);
    memset(&ipath, 0, sizeof ipath);
    ipath.up = path;
    cJSON_ArrayForEach(item, j)
    {
        if (fd->kind == DL_F_LIST) {
            void *slot = dl_list_push(l, fd->sub->size);
            ok = read_object(r, fd->sub, item, slot, &ipath);
        } else if (!cJSON_IsString(item)) {
            ok = fail(r, &ipath, "expected a string");
        } else if (fd->kind == DL_F_TEXTLIST) {
            dl_textlist_add(l, item->valuestring);
        } else {
            dl_dict_add(l, item->string, item->valuestring);
        }
        if (!ok)
            return false;
        ipath.index++;
    }
    return true;
}

static bool read_field(reader *r, const dl_field *fd, const cJSON *j, void *p, const at *path)
{
    const char *why = fd->kind == DL_F_OBJECT ? NULL : unknown_reason(j);
    if (why) {
        dl_value_set_unknown(fd->kind, p, why);
        return true;
    }
    switch (fd->kind) {
    case DL_F_TEXT:
        if (!cJSON_IsString(j))
            return fail(r, path, "expected a string");
        dl_text_set(p, j->valuestring);
        return true;
    case DL_F_INT:
        return read_int(r, fd, j, p, path);
    case DL_F_FLAG:
        if (!cJSON_IsBool(j))
            return fail(r, path, "expected true or false");
        dl_flag_set(p, cJSON_IsTrue(j));
        return true;
    case DL_F_NUM:
        if (!cJSON_IsNumber(j))
            return fail(r, path, "expected a number");
        dl_num_set(p, j->valuedouble);
        return true;
    case DL_F_OBJECT:
        return read_object(r, fd->sub, j, p, path);
    default:
        return read_list(r, fd, j, p, path);
    }
}

static bool read_object(reader *r, const dl_schema *s, const cJSON *json, void *obj,
                        const at *path)
{
    at fpath;
    size_t i;
    if (!cJSON_IsObject(json))
        return fail(r, path, "expected an object");
    memset(&fpath, 0, sizeof fpath);
    fpath.up = path;
    for (i = 0; i < s->count; i++) {
        const dl_field *fd = &s->fields[i];
        const cJSON *j = cJSON_GetObjectItemCaseSensitive(json, fd->key);
        if (!j)
            continue; /* absent; newer writers may add keys older readers skip */
        fpath.key = fd->key;
        if (!read_field(r, fd, j, (char *)obj + fd->offset, &fpath))
            return false;
    }
    return true;
}

bool dl_schema_from_json(const dl_schema *s, const cJSON *json, void *obj, const char *path,
                         char **error)
{
    reader r;
    at root;
    r.error = error;
    memset(&root, 0, sizeof root);
    root.root = path;
    return read_object(&r, s, json, obj, &root);
}

/* "dlenv.report/1": the name, then a major version this dlenv reads (0 and 1; a newer
 * one is another format, as diff says for snapshots). */
static bool report_schema(const cJSON *j, char **error)
{
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(j, "schema");
    const char *prefix = "dlenv.report/";
    unsigned long long major;
    if (!cJSON_IsObject(j) || !cJSON_IsString(schema) ||
        !dl_starts_with(schema->valuestring, prefix)) {
        *error = dl_strdup("not a dlenv report (no \"schema\": \"dlenv.report/N\")");
        return false;
    }
    if (!dl_parse_u64(schema->valuestring + strlen(prefix), 10, &major)) {
        *error = dl_fmt("$.schema: \"%s\" is not a dlenv report's schema", schema->valuestring);
        return false;
    }
    if (major > DL_REPORT_SCHEMA_MAJOR) {
        *error = dl_fmt("$.schema: \"%s\" is newer than this dlenv reads (%s%d): update dlenv",
                        schema->valuestring, prefix, DL_REPORT_SCHEMA_MAJOR);
        return false;
    }
    return true;
}

struct cJSON *dl_report_json_parse(const char *text, size_t len, char **error)
{
    cJSON *j;
    *error = NULL;
    if (!dl_json_check(text, len, error))
        return NULL;
    dl_library_lock(); /* cJSON's parse writes a global (os.h) */
    j = cJSON_ParseWithLength(text, len);
    dl_library_unlock();
    if (!j)
        *error = dl_strdup("not valid JSON");
    return j;
}

bool dl_facts_from_json(const struct cJSON *doc, dl_facts *f, char **error)
{
    bool ok;
    memset(f, 0, sizeof *f);
    *error = NULL;
    ok = report_schema(doc, error) && dl_schema_from_json(&dl_facts_schema, doc, f, "$", error);
    if (!ok)
        dl_facts_free(f);
    return ok;
}

bool dl_facts_from_json_text(const char *text, size_t len, dl_facts *f, char **error)
{
    cJSON *j;
    bool ok;
    memset(f, 0, sizeof *f);
    j = dl_report_json_parse(text, len, error);
    if (!j)
        return false;
    ok = dl_facts_from_json(j, f, error);
    cJSON_Delete(j);
    return ok;
}
