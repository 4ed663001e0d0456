#include "probe/python/ext_runtime.h"
#include "probe/python/runtime.h"

#include "base/str.h"
#include "facts/facts_json.h"
#include "facts/query.h"
#include "os/os.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>


extern const char dl_ext_probe_py[];

/* The packages with native code for torch, by the names their metadata gives, and the
 * module each one's import is. */
static const struct {
    const char *package, *module;
} extension_modules[] = {
    {"xformers", "xformers"},         {"flash-attn", "flash_attn"},
    {"flash_attn", "flash_attn"},     {"bitsandbytes", "bitsandbytes"},
    {"torchvision", "torchvision"},   {"torchaudio", "torchaudio"},
    {"triton", "triton"},             {"pytorch-triton", "triton"},
    {"apex", "apex"},                 {"deepspeed", "deepspeed"},
    {"vllm", "vllm"},                 {"mmcv", "mmcv"},
    {"mmcv-full", "mmcv"},            {"mmcv_full", "mmcv"},
};
#define N_EXTENSIONS (sizeof extension_modules / sizeof extension_modules[0])

/* Is package (or its module) in the comma-separated list? */
static bool in_list(const char *list, const char *package, const char *module)
{
    char *copy, *item;
    bool found = false;
    if (!list)
        return false;
    copy = dl_strdup(list);
    for (item = strtok(copy, ", "); item && !found; item = strtok(NULL, ", "))
        found = dl_package_name_equal(item, package) || dl_package_name_equal(item, module);
    free(copy);
    return found;
}

static dl_ext_import *add_record(dl_python *py, const char *package, const char *module)
{
    dl_ext_import *e = dl_list_push(&py->runtime.extensions, sizeof *e);
    dl_text_set(&e->package, package);
    dl_text_set(&e->module, module);
    return e;
}

bool dl_python_ext_parse(const char *output, dl_python *py, char **why)
{
    cJSON *j = dl_python_answer_json(output, why);
    bool ok;
    if (!j)
        return false;
    if (!cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(j, "extensions"))) {
        cJSON_Delete(j);
        *why = dl_strdup("the interpreter's answer is not the expected JSON");
        return false;
    }
    /* only the "extensions" member is in it: the rest of the runtime stays as it is */
    ok = dl_schema_from_json(&dl_torch_runtime_schema, j, &py->runtime, "$.runtime", why);
    cJSON_Delete(j);
    return ok;
}

/* The whole run failed: every package gets the same status and reason. */
static void all_failed(dl_python *py, const char *const *packages, const char *const *modules,
                       size_t n, const char *status, const char *why)
{
    size_t i;
    for (i = 0; i < n; i++) {
        dl_ext_import *e = add_record(py, packages[i], modules[i]);
        dl_text_set(&e->status, status);
        dl_text_set(&e->error, why);
    }
}

static void run_children(dl_python *py, int timeout_ms, const char *const *packages,
                         const char *const *modules, size_t n)
{
    const char *argv[4 + N_EXTENSIONS + 1];
    char *pairs[N_EXTENSIONS], *seconds = dl_fmt("%.3f", timeout_ms / 1000.0), *why = NULL;
    dl_proc_opts opts;
    dl_proc_result r;
    size_t i;
    argv[0] = py->path.value;
    argv[1] = "-c";
    argv[2] = dl_ext_probe_py;
    argv[3] = seconds;
    for (i = 0; i < n; i++) {
        pairs[i] = dl_fmt("%s=%s", packages[i], modules[i]);
        argv[4 + i] = pairs[i];
    }
    argv[4 + n] = NULL;
    memset(&opts, 0, sizeof opts);
    /* the script stops its children before this, so this limit only catches the script */
    opts.timeout_ms = timeout_ms;
    opts.max_output = 1u << 20;
    dl_proc_run(argv, &opts, &r);
    if (!r.started) {
        why = dl_fmt("could not run %s: %s", py->path.value, r.error);
        all_failed(py, packages, modules, n, "not_run", why);
    } else if (r.timed_out || r.term_signal) {
        why = dl_fmt("the import probe itself %s", r.timed_out ? "did not finish in time"
                                                               : "was killed by a signal");
        all_failed(py, packages, modules, n, r.timed_out ? "timed_out" : "crashed", why);
    } else {
        dl_list_known(&py->runtime.extensions);
        if (!dl_python_ext_parse(r.out, py, &why)) {
            char *full = dl_fmt("%s (exit code %d)", why, r.exit_code);
            all_failed(py, packages, modules, n, "not_run", full);
            free(full);
        }
    }
    for (i = 0; i < n; i++)
        free(pairs[i]);
    free(why);
    free(seconds);
    dl_proc_result_free(&r);
}

void dl_python_ext_imports(dl_python *py, int timeout_ms, bool none, const char *skip)
{
    const char *packages[N_EXTENSIONS], *modules[N_EXTENSIONS];
    size_t i, j, n = 0;
    if (!dl_q_torch_imported(py))
        return; /* absent: an extension imports torch first, so nothing to learn */
    dl_list_known(&py->runtime.extensions);
    for (i = 0; i < N_EXTENSIONS; i++) {
        const dl_py_package *p = dl_q_package(py, extension_modules[i].package);
        bool seen = false;
        if (!p || !p->name.value)
            continue;
        for (j = 0; j < n; j++)
            seen = seen || strcmp(modules[j], extension_modules[i].module) == 0;
        if (seen)
            continue; /* pytorch-triton and triton are one module */
        if (none || in_list(skip, p->name.value, extension_modules[i].module)) {
            dl_ext_import *e = add_record(py, p->name.value, extension_modules[i].module);
            dl_text_set(&e->status, "skipped");
            dl_text_set(&e->error, none ? "--no-ext-import was given"
                                        : "--skip-ext-import names it");
            continue;
        }
        packages[n] = p->name.value;
        modules[n++] = extension_modules[i].module;
    }
    if (n)
        run_children(py, timeout_ms, packages, modules, n);
}
