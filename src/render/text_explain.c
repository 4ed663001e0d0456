/* `dlenv explain` as text: the most likely root cause with the lines of the text that
 * support it, the candidates the text cannot tell apart, what to ask for, and the facts
 * the text gave. */
#include "render/explain_view.h"

#include "base/str.h"
#include "facts/facts_json.h"
#include "facts/value.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void finding(dl_buf *b, const dl_finding *x)
{
    size_t i;
    dl_buf_printf(b, "%s: %s\n  From the text:\n", x->id.value, x->title.value);
    for (i = 0; i < x->evidence.count; i++) {
        const dl_pair *p = &DL_LIST_AT(x->evidence, dl_pair, i);
        dl_buf_printf(b, "    %s: %s\n", p->name, p->value);
    }
    if (x->fix.count)
        dl_buf_printf(b, "  Fix:\n");
    for (i = 0; i < x->fix.count; i++) {
        const char *step = DL_LIST_AT(x->fix, char *, i);
        dl_buf_printf(b, "    %s%s\n", step[0] == '#' ? "" : "$ ", step);
    }
}

/* The item at a fact path ("pythons[0].site_packages[0].torches[0].version") in the facts'
 * JSON form; NULL when absent. */
static const cJSON *at_path(const cJSON *json, const char *path)
{
    char *copy = dl_strdup(path), *seg = copy, *next;
    const cJSON *cur = json;
    for (; cur && seg; seg = next) {
        char *bracket;
        next = strchr(seg, '.');
        if (next)
            *next++ = '\0';
        bracket = strchr(seg, '[');
        if (bracket)
            *bracket = '\0';
        cur = cJSON_GetObjectItemCaseSensitive(cur, seg);
        if (cur && bracket)
            cur = cJSON_GetArrayItem(cur, atoi(bracket + 1));
    }
    free(copy);
    return cur;
}

/* One value as the text view shows it: a string, a number, "name version" of a package. */
static void put_value(dl_buf *b, const cJSON *v)
{
    const cJSON *item, *name, *version;
    if (cJSON_IsString(v)) {
        dl_buf_printf(b, "%s", v->valuestring);
    } else if (cJSON_IsNumber(v)) {
        dl_buf_printf(b, "%g", v->valuedouble);
    } else if (cJSON_IsBool(v)) {
        dl_buf_printf(b, "%s", cJSON_IsTrue(v) ? "true" : "false");
    } else if (cJSON_IsArray(v)) {
        int i = 0;
        cJSON_ArrayForEach(item, v) {
            dl_buf_printf(b, "%s", i++ ? ", " : "");
            put_value(b, item);
        }
    } else if (cJSON_IsObject(v)) {
        name = cJSON_GetObjectItemCaseSensitive(v, "name");
        version = cJSON_GetObjectItemCaseSensitive(v, "version");
        if (cJSON_IsString(name))
            dl_buf_printf(b, "%s%s%s", name->valuestring, cJSON_IsString(version) ? " " : "",
                          cJSON_IsString(version) ? version->valuestring : "");
        else if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(v, "unknown")))
            dl_buf_printf(b, "unknown, because %s",
                          cJSON_GetObjectItemCaseSensitive(v, "unknown")->valuestring);
    }
}

/* A fact the text does not say but dlenv inferred from another one: shown with what it
 * was inferred from ("windows (inferred from the driver version 536.23)"), so that it is
 * not read as the writer's word. */
static void inferred(dl_buf *b, const cJSON *json, const char *from)
{
    static const struct {
        const char *fact, *words;
    } labels[] = {{"nvml.driver_version", "the driver version"}};
    const char *words = from;
    const cJSON *v;
    size_t k;
    if (!from)
        return;
    for (k = 0; k < sizeof labels / sizeof labels[0]; k++)
        if (!strcmp(labels[k].fact, from))
            words = labels[k].words;
    dl_buf_printf(b, " (inferred from %s", words);
    v = at_path(json, from);
    if (v) {
        dl_buf_printf(b, " ");
        put_value(b, v);
    }
    dl_buf_printf(b, ")");
}

static void facts(dl_buf *b, const dl_explanation *e)
{
    cJSON *json;
    size_t i;
    if (!e->where.n)
        return;
    json = dl_schema_to_json(&dl_facts_schema, &e->facts);
    dl_buf_printf(b, "\nWhat the text says about the machine (the value, then the line it came "
                     "from):\n");
    for (i = 0; i < e->where.n; i++) {
        const cJSON *v = at_path(json, e->where.where[i].fact);
        dl_buf_printf(b, "  %s = ", e->where.where[i].fact);
        if (v)
            put_value(b, v);
        else
            dl_buf_printf(b, "?");
        inferred(b, json, e->where.where[i].inferred_from);
        dl_buf_printf(b, "\n      L%zu: %s\n", e->paste.lines[e->where.where[i].line].number,
                      e->paste.lines[e->where.where[i].line].text);
    }
    cJSON_Delete(json);
}

char *dl_render_explain_text(const dl_explanation *e, const char *name, const dl_style *s)
{
    dl_buf b = {0};
    const dl_finding *r = dl_explanation_root(e, NULL);
    size_t i;
    dl_buf_printf(&b, "%sdlenv explain%s  %s (%zu line%s)\n\n", dl_style_on(s, DL_TONE_HEAD),
                  dl_style_off(s, DL_TONE_HEAD), name, e->paste.count,
                  e->paste.count == 1 ? "" : "s");
    if (r) {
        dl_buf_printf(&b, "%s%s Most likely%s ", dl_style_on(s, DL_TONE_BAD), dl_glyph_fail(s),
                      dl_style_off(s, DL_TONE_BAD));
        finding(&b, r);
    } else if (e->notes.n) {
        dl_buf_printf(&b, "No problem of the environment is recognisable in this text:\n");
    } else {
        dl_buf_printf(&b, "No known problem is recognisable in this text.\n");
    }
    for (i = 0; i < e->notes.n; i++)
        dl_buf_printf(&b, r ? "\nNote: %s\n" : "  %s\n", e->notes.v[i]);
    if (e->alternatives.n) {
        dl_buf_printf(&b, "\nThe text cannot rule out:");
        for (i = 0; i < e->alternatives.n; i++)
            dl_buf_printf(&b, "%s %s", i ? "," : "", e->alternatives.v[i]);
        dl_buf_printf(&b, "\n");
    }
    if (e->ask.n || !r) {
        dl_buf_printf(&b, "\nAsk for:\n");
        for (i = 0; i < e->ask.n; i++)
            dl_buf_printf(&b, "  - %s\n", e->ask.v[i]);
        if (!r)
            dl_buf_printf(&b, "  - the whole error, from the first line of the traceback\n");
    }
    facts(&b, e);
    return dl_buf_take(&b);
}
