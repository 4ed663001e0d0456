/* The driver-library probes, isolated. nvmlInit and cuInit can hang for minutes or crash
 * the process on a broken install, so dlenv starts itself again as a child
 * (`dlenv __probe nvml|cuda`), which gathers and answers in JSON on stdout, under a
 * timeout. A hang becomes "timed_out", a crash "failed" with the signal, and the report
 * still comes out. The probes that use it (nvml.c, cuda_driver.c, gpu_measure.c) name the
 * child and the facts it fills. */
#include "probe/gpu/child.h"

#include "base/str.h"
#include "facts/facts_json.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

static void give_up(const dl_schema *s, void *obj, dl_probe_outcome *out, dl_probe_status st,
                    const char *why)
{
    dl_schema_fill_unknown(s, obj, why);
    dl_probe_note(out, st, why);
}

/* Reads the child's answer: {"status": ..., "detail": ..., "facts": {...}}. */
static void read_answer(const dl_proc_result *r, const dl_schema *s, void *obj,
                        dl_probe_outcome *out)
{
    cJSON *j = cJSON_ParseWithLength(r->out, r->out_len);
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(j, "status");
    const cJSON *detail = cJSON_GetObjectItemCaseSensitive(j, "detail");
    char *error = NULL;
    if (!j || !cJSON_IsString(status) ||
        !dl_schema_from_json(s, cJSON_GetObjectItemCaseSensitive(j, "facts"), obj, "$.facts",
                             &error)) {
        char *why = dl_fmt("the child probe answered something unreadable (%s; exit code %d)",
                           error ? error : "not JSON", r->exit_code);
        give_up(s, obj, out, DL_PROBE_FAILED, why);
        free(why);
    } else {
        dl_probe_note(out, dl_probe_status_from_name(status->valuestring),
                      cJSON_IsString(detail) ? detail->valuestring : "no detail");
        dl_schema_fill_unknown(s, obj, "the child probe did not report it");
    }
    free(error);
    cJSON_Delete(j);
}

void dl_probe_child_run(const dl_probe_ctx *ctx, const dl_probe_child *c, const dl_schema *s,
                        void *obj, dl_probe_outcome *out)
{
    const char *library = c->library;
    int timeout_ms = c->timeout_ms > 0 ? c->timeout_ms
                   : ctx->settings.child_timeout_ms > 0 ? ctx->settings.child_timeout_ms
                                                        : 15000;
    const char *argv[5];
    dl_proc_opts opts;
    dl_proc_result r;
    char *why = NULL;
    if (!ctx->machine->live) {
        give_up(s, obj, out, DL_PROBE_SKIPPED,
                "driver libraries are loaded only when inspecting this machine, not a --root");
        return;
    }
    argv[0] = ctx->settings.self_path ? ctx->settings.self_path : "dlenv";
    argv[1] = "__probe";
    argv[2] = c->which;
    argv[3] = c->arg;
    argv[4] = NULL;
    memset(&opts, 0, sizeof opts);
    opts.timeout_ms = timeout_ms;
    opts.max_output = 4u << 20;
    dl_proc_run(argv, &opts, &r);
    if (!r.started)
        why = dl_fmt("could not start the child probe: %s", r.error);
    else if (r.timed_out)
        why = dl_fmt("%s did not answer within %.1f s: its initialisation hangs (a wedged "
                     "driver?); the child probe was killed", library, timeout_ms / 1000.0);
    else if (r.term_signal)
        why = dl_fmt("the child probe crashed inside %s with signal %d (%s): a broken driver "
                     "install", library, r.term_signal,
                     dl_signal_name(r.term_signal) ? dl_signal_name(r.term_signal) : "?");
    if (why)
        give_up(s, obj, out, r.timed_out ? DL_PROBE_TIMED_OUT : DL_PROBE_FAILED, why);
    else
        read_answer(&r, s, obj, out);
    free(why);
    dl_proc_result_free(&r);
}
