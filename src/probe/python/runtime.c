#include "probe/python/runtime.h"

#include "base/str.h"
#include "facts/facts_json.h"
#include "os/os.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#define MARKER "@@DLENV@@"

extern const char dl_torch_probe_py[];

/* The interpreter's own word on itself beats what its file names said ("3.11" from
 * python3.11 becomes "3.11.2"). */
static void take_identity(cJSON *j, dl_python *py)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, "python_version");
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(j, "python_bits");
    if (cJSON_IsString(v))
        dl_text_set(&py->version, v->valuestring);
    if (cJSON_IsNumber(b))
        dl_int_set(&py->bits, (long long)b->valuedouble);
    cJSON_DeleteItemFromObjectCaseSensitive(j, "python_version");
    cJSON_DeleteItemFromObjectCaseSensitive(j, "python_bits");
}

cJSON *dl_python_answer_json(const char *output, char **why)
{
    const char *at = NULL, *p = output;
    cJSON *j;
    while (p && (p = strstr(p, MARKER)) != NULL)
        at = p++;
    if (!at) {
        *why = dl_strdup("the interpreter printed no answer");
        return NULL;
    }
    j = cJSON_Parse(at + strlen(MARKER));
    if (!j)
        *why = dl_strdup("the interpreter's answer is not valid JSON");
    return j;
}

bool dl_python_runtime_parse(const char *output, dl_python *py, char **why)
{
    cJSON *j = dl_python_answer_json(output, why);
    const cJSON *status, *error;
    bool ok;
    if (!j)
        return false;
    take_identity(j, py);
    ok = dl_schema_from_json(&dl_torch_runtime_schema, j, &py->runtime, "$.runtime", why);
    status = cJSON_GetObjectItemCaseSensitive(j, "status");
    error = cJSON_GetObjectItemCaseSensitive(j, "error");
    if (ok && cJSON_IsString(status) && (strcmp(status->valuestring, "import_failed") == 0 ||
                                         strcmp(status->valuestring, "incomplete") == 0)) {
        char *reason = dl_fmt("%s: %s",
                              strcmp(status->valuestring, "incomplete") == 0
                                  ? "torch imported, but describing it failed"
                                  : "import torch failed",
                              cJSON_IsString(error) ? error->valuestring : "no message");
        dl_schema_fill_unknown(&dl_torch_runtime_schema, &py->runtime, reason);
        free(reason);
    }
    cJSON_Delete(j);
    return ok;
}

/* The last lines (at most n) of what the interpreter wrote to stderr, joined with " | ":
 * the error, or for a crash the stack faulthandler printed. */
static char *last_lines(const char *text, int n)
{
    const char *end = text + strlen(text), *start;
    dl_buf b = {0};
    char *joined, *line;
    while (end > text && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
        end--;
    start = end;
    while (start > text && n > 0) {
        start--;
        if (*start == '\n')
            n--;
    }
    if (*start == '\n')
        start++;
    joined = dl_strndup(start, (size_t)(end - start));
    for (line = strtok(joined, "\r\n"); line; line = strtok(NULL, "\r\n")) {
        char *t = dl_trim(line);
        if (!*t)
            continue;
        dl_buf_printf(&b, "%s%s", b.len ? " | " : "", t);
    }
    free(joined);
    return b.len ? dl_buf_take(&b) : dl_strdup("");
}

static void failed(dl_python *py, const char *status, const char *why)
{
    dl_text_set(&py->runtime.status, status);
    dl_schema_fill_unknown(&dl_torch_runtime_schema, &py->runtime, why);
}

void dl_python_runtime(dl_python *py, int timeout_ms, const char *measure_level)
{
    const char *argv[6];
    dl_proc_opts opts;
    dl_proc_result r;
    char *why = NULL;
    argv[0] = py->path.value;
    argv[1] = "-c";
    argv[2] = dl_torch_probe_py;
    argv[3] = measure_level ? "measure" : NULL;
    argv[4] = measure_level;
    argv[5] = NULL;
    memset(&opts, 0, sizeof opts);
    opts.timeout_ms = timeout_ms;
    opts.max_output = 1u << 20;
    dl_proc_run(argv, &opts, &r);
    if (!r.started) {
        why = dl_fmt("could not run %s: %s", py->path.value, r.error);
        failed(py, "not_runnable", why);
        dl_text_set(&py->runtime.error, why);
    } else if (r.timed_out) {
        why = dl_fmt("%s did not finish `import torch` within %.0f s; it was stopped",
                     py->path.value, timeout_ms / 1000.0);
        failed(py, "timed_out", why);
        dl_text_set(&py->runtime.error, why);
    } else if (r.term_signal) {
        char *err = last_lines(r.err ? r.err : "", 6);
        why = dl_fmt("%s died with signal %d (%s) while importing torch%s%s", py->path.value,
                     r.term_signal, dl_signal_name(r.term_signal) ? dl_signal_name(r.term_signal)
                                                                  : "?",
                     *err ? ": " : "", err);
        failed(py, "crashed", why);
        dl_text_set(&py->runtime.error, why);
        free(err);
    } else if (!dl_python_runtime_parse(r.out, py, &why)) {
        char *err = last_lines(r.err ? r.err : "", 3);
        char *full = dl_fmt("%s (exit code %d)%s%s", why, r.exit_code, *err ? ": " : "", err);
        failed(py, "failed", full);
        dl_text_set(&py->runtime.error, full);
        free(full);
        free(err);
    } else {
        dl_schema_fill_unknown(&dl_torch_runtime_schema, &py->runtime,
                               "the runtime probe did not report it");
    }
    free(why);
    dl_proc_result_free(&r);
}
