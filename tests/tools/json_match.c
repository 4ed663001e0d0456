/* json_match EXPECTED ACTUAL: exits 0 when the two JSON documents are equal once the
 * volatile values (timings, the tool's version and root) are dropped from both; prints
 * each difference with its path otherwise. --print ACTUAL prints the normalised form,
 * which is how a new fixture's expected.json is started (then checked by hand).
 * --partial EXPECTED ACTUAL compares only the top-level keys EXPECTED has; its key
 * "probe_status" ({"nvml": "failed", ...}) is checked against ACTUAL's tool.probes.
 * --complete FILE reads a report as facts and lists every value that is neither known nor
 * unknown with a reason (exit 1 when there is one).
 * --get FILE PATH prints one value (PATH like os.wsl.detected or gpus.0.driver): a string
 * as it is, anything else as JSON; exits 1 when the path is absent. */
#include "base/str.h"
#include "facts/facts_json.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const volatile_keys[] = {"duration_ms", "version", "root"};

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    dl_buf b = {0};
    char chunk[4096];
    size_t n;
    if (!f) {
        fprintf(stderr, "json_match: cannot open %s\n", path);
        return NULL;
    }
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        dl_buf_add(&b, chunk, n);
    fclose(f);
    return dl_buf_take(&b);
}

/* Drops volatile keys inside "tool" only: elsewhere "version" is a real fact. */
static void normalise(cJSON *doc)
{
    cJSON *tool = cJSON_GetObjectItemCaseSensitive(doc, "tool");
    cJSON *probes = cJSON_GetObjectItemCaseSensitive(tool, "probes");
    cJSON *p;
    size_t i;
    for (i = 0; i < sizeof volatile_keys / sizeof volatile_keys[0]; i++)
        cJSON_DeleteItemFromObjectCaseSensitive(tool, volatile_keys[i]);
    cJSON_ArrayForEach(p, probes) cJSON_DeleteItemFromObjectCaseSensitive(p, "duration_ms");
}

static int diff(const cJSON *a, const cJSON *b, const char *path)
{
    int n = 0;
    const cJSON *x;
    if (cJSON_IsObject(a) && cJSON_IsObject(b)) {
        cJSON_ArrayForEach(x, a)
        {
            char *sub = dl_fmt("%s.%s", path, x->string);
            const cJSON *y = cJSON_GetObjectItemCaseSensitive(b, x->string);
            if (!y) {
                printf("missing in actual: %s\n", sub);
                n++;
            } else {
                n += diff(x, y, sub);
            }
            free(sub);
        }
        cJSON_ArrayForEach(x, b) if (!cJSON_GetObjectItemCaseSensitive(a, x->string))
        {
            printf("unexpected in actual: %s.%s\n", path, x->string);
            n++;
        }
        return n;
    }
    if (cJSON_IsArray(a) && cJSON_IsArray(b) && cJSON_GetArraySize(a) == cJSON_GetArraySize(b)) {
        int i;
        for (i = 0; i < cJSON_GetArraySize(a); i++) {
            char *sub = dl_fmt("%s[%d]", path, i);
            n += diff(cJSON_GetArrayItem(a, i), cJSON_GetArrayItem(b, i), sub);
            free(sub);
        }
        return n;
    }
    if (!cJSON_Compare(a, b, 1)) {
        char *ea = cJSON_PrintUnformatted(a), *eb = cJSON_PrintUnformatted(b);
        printf("%s: expected %s, got %s\n", path, ea, eb);
        cJSON_free(ea);
        cJSON_free(eb);
        return 1;
    }
    return 0;
}

static cJSON *load(const char *path)
{
    char *text = slurp(path);
    cJSON *j = text ? cJSON_Parse(text) : NULL;
    if (text && !j)
        fprintf(stderr, "json_match: %s is not valid JSON\n", path);
    free(text);
    if (j)
        normalise(j);
    return j;
}

static int get(const char *file, const char *path)
{
    char *text = slurp(file), *copy = dl_strdup(path), *save = NULL, *key;
    cJSON *doc = text ? cJSON_Parse(text) : NULL, *at = doc;
    int rc = 1;
    for (save = copy, key = dl_str_token(&save, "."); key && at; key = dl_str_token(&save, "."))
        at = cJSON_IsArray(at) ? cJSON_GetArrayItem(at, atoi(key))
                               : cJSON_GetObjectItemCaseSensitive(at, key);
    if (at) {
        char *out = cJSON_IsString(at) ? NULL : cJSON_PrintUnformatted(at);
        printf("%s\n", out ? out : at->valuestring);
        cJSON_free(out);
        rc = 0;
    }
    cJSON_Delete(doc);
    free(text);
    free(copy);
    return doc ? rc : 2;
}

static int probe_status(const cJSON *want, const cJSON *actual)
{
    const cJSON *probes = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(actual, "tool"), "probes");
    const cJSON *w, *p;
    int n = 0;
    cJSON_ArrayForEach(w, want)
    {
        const char *got = NULL;
        cJSON_ArrayForEach(p, probes)
        {
            const cJSON *name = cJSON_GetObjectItemCaseSensitive(p, "name");
            if (cJSON_IsString(name) && strcmp(name->valuestring, w->string) == 0)
                got = cJSON_GetObjectItemCaseSensitive(p, "status")->valuestring;
        }
        if (!got || !cJSON_IsString(w) || strcmp(got, w->valuestring) != 0) {
            printf("probe %s: expected status %s, got %s\n", w->string,
                   cJSON_IsString(w) ? w->valuestring : "?", got ? got : "(no such probe)");
            n++;
        }
    }
    return n;
}

static int partial(const char *expected, const char *actual)
{
    char *ta = slurp(expected), *tb = slurp(actual);
    cJSON *a = ta ? cJSON_Parse(ta) : NULL, *b = tb ? cJSON_Parse(tb) : NULL;
    const cJSON *x;
    int n = 0;
    free(ta);
    free(tb);
    if (!a || !b) {
        fprintf(stderr, "json_match: cannot read both documents as JSON\n");
        cJSON_Delete(a);
        cJSON_Delete(b);
        return 2;
    }
    cJSON_ArrayForEach(x, a)
    {
        char *path = dl_fmt("$.%s", x->string);
        const cJSON *y = cJSON_GetObjectItemCaseSensitive(b, x->string);
        if (strcmp(x->string, "probe_status") == 0)
            n += probe_status(x, b);
        else if (!y) {
            printf("missing in actual: %s\n", path);
            n++;
        } else
            n += diff(x, y, path);
        free(path);
    }
    cJSON_Delete(a);
    cJSON_Delete(b);
    return n ? 1 : 0;
}

static int complete(const char *file)
{
    char *text = slurp(file), *error = NULL;
    dl_facts f;
    dl_buf silent = {0};
    size_t n;
    if (!text)
        return 2;
    if (!dl_facts_from_json_text(text, strlen(text), &f, &error)) {
        printf("%s: %s\n", file, error);
        free(error);
        free(text);
        return 2;
    }
    n = dl_schema_find_silent(&dl_facts_schema, &f, "$", &silent);
    if (n)
        printf("values neither known nor unknown with a reason:\n%s", silent.data);
    dl_buf_free(&silent);
    dl_facts_free(&f);
    free(text);
    return n ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--partial") == 0)
        return partial(argv[2], argv[3]);
    if (argc == 3 && strcmp(argv[1], "--complete") == 0)
        return complete(argv[2]);
    cJSON *a, *b;
    int n;
    if (argc == 4 && strcmp(argv[1], "--get") == 0)
        return get(argv[2], argv[3]);
    if (argc == 3 && strcmp(argv[1], "--print") == 0) {
        char *out;
        if (!(a = load(argv[2])))
            return 2;
        out = cJSON_Print(a);
        printf("%s\n", out);
        cJSON_free(out);
        cJSON_Delete(a);
        return 0;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: json_match EXPECTED ACTUAL | --print ACTUAL\n");
        return 2;
    }
    a = load(argv[1]);
    b = load(argv[2]);
    if (!a || !b) {
        cJSON_Delete(a);
        cJSON_Delete(b);
        return 2;
    }
    n = diff(a, b, "$");
    cJSON_Delete(a);
    cJSON_Delete(b);
    return n ? 1 : 0;
}
