#include "run/launch_json.h"

#include "run/quote.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* Copies text, blanking comments (newlines kept) and the commas before a ] or }. */
char *dl_jsonc_strip(const char *text, bool *had_comments)
{
    char *out = dl_strdup(text), *p = out;
    char *last = NULL; /* the last character outside strings and comments, not a space */
    *had_comments = false;
    while (*p) {
        if (*p == '"') {
            for (p++; *p && *p != '"'; p++)
                if (*p == '\\' && p[1])
                    p++;
            last = p;
            if (*p)
                p++;
        } else if (p[0] == '/' && (p[1] == '/' || p[1] == '*')) {
            bool line = p[1] == '/';
            *had_comments = true;
            while (*p && !(line ? *p == '\n' : (p[0] == '*' && p[1] == '/'))) {
                if (*p != '\n')
                    *p = ' ';
                p++;
            }
            if (!line && *p) {
                p[0] = p[1] = ' ';
                p += 2;
            }
        } else {
            if ((*p == ']' || *p == '}') && last && *last == ',')
                *last = ' ';
            if (*p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
                last = p;
            p++;
        }
    }
    return out;
}

/* python, python3, python3.12, python.exe, a path to one, or the chosen interpreter. */
static bool is_python(const char *arg, const char *python)
{
    const char *p, *name = arg;
    size_t len;
    if (python && !strcmp(arg, python))
        return true;
    for (p = arg; *p; p++)
        if (*p == '/' || *p == '\\')
            name = p + 1;
    len = strlen(name);
    if (len > 4 && dl_contains_ci(name + len - 4, ".exe"))
        len -= 4;
    return len >= 6 && !strncmp(name, "python", 6) &&
           strspn(name + 6, "0123456789.") >= len - 6;
}

/* "program"/"module", "args" and "pythonArgs" from `python [options] script|-m module ...`. */
static bool command_fields(cJSON *config, const dl_launcher *l, char **error)
{
    cJSON *python_args = cJSON_CreateArray(), *args = cJSON_CreateArray();
    size_t i = 1;
    if (l->argc == 0) {
        cJSON_AddStringToObject(config, "program", "${file}");
        cJSON_Delete(python_args);
        cJSON_Delete(args);
        return true;
    }
    if (!is_python(l->argv[0], l->python)) {
        *error = dl_fmt("a VS Code configuration runs Python: the command must start with "
                        "python, not '%s'", l->argv[0]);
        goto fail;
    }
    for (; i < l->argc && l->argv[i][0] == '-' && strcmp(l->argv[i], "-m"); i++) {
        if (!strcmp(l->argv[i], "-c") || !strcmp(l->argv[i], "-")) {
            *error = dl_fmt("a VS Code configuration runs a script or a module, not python %s",
                            l->argv[i]);
            goto fail;
        }
        cJSON_AddItemToArray(python_args, cJSON_CreateString(l->argv[i]));
        if ((!strcmp(l->argv[i], "-X") || !strcmp(l->argv[i], "-W")) && i + 1 < l->argc)
            cJSON_AddItemToArray(python_args, cJSON_CreateString(l->argv[++i]));
    }
    if (i >= l->argc || (!strcmp(l->argv[i], "-m") && i + 1 >= l->argc)) {
        *error = dl_strdup("the python command names no script or module to run");
        goto fail;
    }
    if (!strcmp(l->argv[i], "-m"))
        cJSON_AddStringToObject(config, "module", l->argv[++i]);
    else
        cJSON_AddStringToObject(config, "program", l->argv[i]);
    for (i++; i < l->argc; i++)
        cJSON_AddItemToArray(args, cJSON_CreateString(l->argv[i]));
    cJSON_AddItemToObject(config, "args", args);
    if (cJSON_GetArraySize(python_args) > 0)
        cJSON_AddItemToObject(config, "pythonArgs", python_args);
    else
        cJSON_Delete(python_args);
    return true;
fail:
    cJSON_Delete(python_args);
    cJSON_Delete(args);
    return false;
}

/* VS Code substitutes ${env:NAME} and ${pathSeparator} in launch.json; a variable to be
 * removed has no form there and is left out. */
static cJSON *env_object(const dl_env_changes *c)
{
    cJSON *env = cJSON_CreateObject();
    size_t i;
    for (i = 0; i < c->n; i++) {
        char *value;
        if (c->v[i].op == DL_ENV_UNSET)
            continue;
        value = c->v[i].op == DL_ENV_PREPEND
                    ? dl_fmt("%s${pathSeparator}${env:%s}", c->v[i].value, c->v[i].name)
                    : dl_strdup(c->v[i].value);
        cJSON_AddStringToObject(env, c->v[i].name, value);
        free(value);
    }
    return env;
}

/* VS Code substitutes ${...} in every string of launch.json (${command:...} runs a
 * command), with no escape: a name, path or argument holding one cannot be written. */
static bool all_literal(const dl_launcher *l, char **error)
{
    const char *bad = NULL;
    size_t i;
    if (!dl_quote_vscode_literal(l->name))
        bad = l->name;
    for (i = 0; !bad && i < l->argc; i++)
        if (!dl_quote_vscode_literal(l->argv[i]))
            bad = l->argv[i];
    if (!bad && l->python && !dl_quote_vscode_literal(l->python))
        bad = l->python;
    for (i = 0; !bad && i < l->changes->n; i++)
        if (l->changes->v[i].value && !dl_quote_vscode_literal(l->changes->v[i].value))
            bad = l->changes->v[i].value;
    if (!bad)
        return true;
    *error = dl_fmt("'%s' holds ${ (which VS Code would substitute) or is not UTF-8: it "
                    "cannot go into launch.json as it is", bad);
    return false;
}

static cJSON *configuration(const dl_launcher *l, char **error)
{
    cJSON *config;
    if (!all_literal(l, error))
        return NULL;
    config = cJSON_CreateObject();
    cJSON_AddStringToObject(config, "name", l->name);
    cJSON_AddStringToObject(config, "type", "debugpy");
    cJSON_AddStringToObject(config, "request", "launch");
    if (!command_fields(config, l, error)) {
        cJSON_Delete(config);
        return NULL;
    }
    if (l->python)
        cJSON_AddStringToObject(config, "python", l->python);
    cJSON_AddStringToObject(config, "console", "integratedTerminal");
    cJSON_AddItemToObject(config, "env", env_object(l->changes));
    return config;
}

static size_t line_of(const char *text, const char *at)
{
    size_t line = 1;
    for (; text < at && *text; text++)
        line += *text == '\n';
    return line;
}

static cJSON *parse_existing(const char *existing, bool *dropped_comments, char **error)
{
    char *plain;
    const char *end = NULL;
    cJSON *doc;
    if (!existing || !existing[strspn(existing, " \t\r\n")]) {
        doc = cJSON_CreateObject();
        cJSON_AddStringToObject(doc, "version", "0.2.0");
        return doc;
    }
    plain = dl_jsonc_strip(existing, dropped_comments);
    doc = cJSON_ParseWithOpts(plain, &end, true);
    if (!doc)
        *error = dl_fmt("not JSON at line %zu", line_of(plain, end ? end : plain));
    else if (!cJSON_IsObject(doc))
        *error = dl_strdup("not a launch.json: the top level is not an object");
    if (*error) {
        cJSON_Delete(doc);
        doc = NULL;
    }
    free(plain);
    return doc;
}

char *dl_launch_json_merge(const char *existing, const dl_launcher *l, bool *dropped_comments,
                           char **error)
{
    cJSON *doc, *configs, *config, *item;
    char *printed, *text;
    int i = 0;
    *dropped_comments = false;
    if (!(config = configuration(l, error)))
        return NULL;
    if (!(doc = parse_existing(existing, dropped_comments, error))) {
        cJSON_Delete(config);
        return NULL;
    }
    configs = cJSON_GetObjectItemCaseSensitive(doc, "configurations");
    if (!configs)
        configs = cJSON_AddArrayToObject(doc, "configurations");
    if (!cJSON_IsArray(configs)) {
        *error = dl_strdup("not a launch.json: \"configurations\" is not a list");
        cJSON_Delete(config);
        cJSON_Delete(doc);
        return NULL;
    }
    cJSON_ArrayForEach(item, configs) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(item, "name");
        if (cJSON_IsString(name) && !strcmp(name->valuestring, l->name))
            break;
        i++;
    }
    if (item)
        cJSON_ReplaceItemInArray(configs, i, config);
    else
        cJSON_AddItemToArray(configs, config);
    printed = cJSON_Print(doc);
    text = dl_fmt("%s\n", printed);
    cJSON_free(printed);
    cJSON_Delete(doc);
    return text;
}
