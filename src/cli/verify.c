/* dlenv verify: "it imports" is not "it works". Gathers the facts with torch's matrix
 * products timed in `python` (CPU, and each GPU dtype), measures every CUDA device with
 * dlenv's own PTX kernels in a child process (check, fp32 FMA rate, memory bandwidth, host
 * copies, largest allocation, NVML under load), measures this CPU natively (its fp32/fp64
 * peak with the widest FMA kernel, one core and all; a STREAM triad), runs the rules and
 * prints each figure next to its limit. Exit 0 unless a failure (or, with --strict, a
 * warning) is found. */
#include "cli/exit_codes.h"
#include "cli/gather.h"
#include "cli/measure_cpu.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "cli/redaction.h"
#include "cli/snapshot.h"

#include "base/str.h"
#include "facts/query.h"
#include "know/tables.h"
#include "os/os.h"
#include "probe/probe.h"
#include "render/text_verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void progress(const char *what)
{
    if (dl_term_is_tty(2)) {
        fprintf(stderr, "\r\033[Kdlenv verify: %s", what);
        fflush(stderr);
    }
}

static void measure_cpu(const dl_cli *cli, dl_cpu_measure *c)
{
    dl_cli_measure_cpu(cli, true, progress, c);
    progress("");
    if (dl_term_is_tty(2))
        fputs("\r\033[K", stderr);
}

/* Why there is nothing to measure, or NULL when the CUDA driver answered with devices. */
static char *gpu_skip_reason(const dl_facts *f)
{
    const dl_cuda_driver_facts *c = &f->cuda_driver;
    bool ready = c->init_code.known && c->init_code.value == 0;
    if (!ready && !dl_q_has_nvidia_gpu(f))
        return dl_strdup("no NVIDIA GPU on this machine");
    if (!c->init_code.known)
        return dl_fmt("the CUDA driver did not answer: %s",
                      c->library.why ? c->library.why : c->init_code.why ? c->init_code.why
                                                                          : "unknown");
    if (c->init_code.value != 0)
        return dl_fmt("cuInit failed: %s", c->init_result.value ? c->init_result.value : "?");
    if (!c->device_count.known || c->device_count.value <= 0)
        return dl_strdup("the CUDA driver lists no device");
    return NULL;
}

/* Each CUDA device measured in dlenv's child process; a JIT and the measurements of
 * several devices fit well inside the timeout, a kernel that never ends does not. */
static void measure_gpus(const dl_cli *cli, dl_facts *f)
{
    dl_gpu_measure_facts *g = &f->gpu_measure;
    dl_probe_outcome out = {DL_PROBE_OK, NULL};
    dl_machine m;
    dl_probe_ctx ctx;
    char *why = gpu_skip_reason(f), *error = NULL;
    const char *level = cli->quick ? "quick" : cli->full ? "full" : "default";
    int timeout_ms;
    if (why || !dl_machine_open(&m, NULL, &error)) {
        dl_text_set(&g->status, "skipped");
        dl_text_set(&g->detail, why ? why : error);
        free(why);
        free(error);
        return;
    }
    progress("measuring the GPU (dlenv's own kernels through the CUDA driver) ...");
    timeout_ms = 30000 + 20000 * (int)f->cuda_driver.device_count.value * (cli->full ? 3 : 1);
    ctx.machine = &m;
    dl_cli_probe_settings(cli, &ctx.settings);
    dl_probe_gpu_measure(&ctx, level, timeout_ms, g, &out);
    free((char *)ctx.settings.self_path);
    if (out.status != DL_PROBE_OK && !g->status.value) {
        dl_text_set(&g->status, dl_probe_status_name(out.status));
        dl_text_set(&g->detail, out.detail ? out.detail : "the measuring child failed");
    }
    free(out.detail);
    dl_machine_close(&m);
}

const dl_option dl_verify_options[] = {
    DL_OPT_JSON,
    DL_OPT_PROBE_TIMEOUT,
    DL_OPT_PYTHON,
    DL_OPT_IMPORT_TIMEOUT,
    DL_OPTS_EXT_IMPORT,
    DL_OPT_REDACT,
    DL_OPT_STRICT,
    DL_OPT_FLAG("quick", 0, quick, "shorter measurements (under 3 s)"),
    DL_OPT_FLAG("full", 0, full, "longer, steadier measurements"),
    DL_OPT_END,
};

int dl_cmd_verify(const dl_cli *cli, const dl_context *ctx)
{
    const dl_knowledge *know = ctx->know;
    dl_facts f;
    dl_findings fs;
    dl_verify_view view;
    dl_verify_input in;
    dl_rule_input rin;
    dl_style style;
    char when[32], *text;
    int rc;
    if (cli->quick && cli->full) {
        dl_cli_error("--quick and --full exclude each other");
        return DL_EXIT_USAGE;
    }
    progress("gathering the facts and timing torch's matrix product ...");
    rc = dl_cli_gather_measured(cli, cli->quick ? "quick" : cli->full ? "full" : "default", &f);
    if (rc != DL_EXIT_OK) {
        dl_facts_free(&f);
        return rc;
    }
    measure_gpus(cli, &f);
    measure_cpu(cli, &f.cpu_measure);
    memset(&fs, 0, sizeof fs);
    rin.facts = &f;
    rin.know = know;
    dl_rules_run(&rin, NULL, &fs);
    dl_cli_redact(cli, &f, &fs);
    dl_verify_view_build(&view, &f, &fs, know);
    in.facts = &f;
    in.findings = &fs;
    in.view = &view;
    dl_cli_utc_now(when, sizeof when);
    in.taken_at = strcmp(when, "unknown") ? when : NULL; /* as of the measuring's end */
    style = dl_cli_style(cli);
    text = cli->json ? dl_render_verify_json(&in) : dl_render_verify_text(&in, &style);
    rc = dl_cli_write(text, cli->json);
    if (rc == DL_EXIT_OK && (view.judged.verdict == DL_VERDICT_FAILURE ||
                             (cli->strict && view.judged.verdict == DL_VERDICT_WARNING)))
        rc = DL_EXIT_FINDINGS;
    else if (rc == DL_EXIT_OK && view.judged.verdict == DL_VERDICT_CANNOT_JUDGE)
        rc = DL_EXIT_CANNOT_JUDGE;
    free(text);
    dl_verify_view_free(&view);
    dl_findings_free(&fs);
    dl_facts_free(&f);
    return rc;
}
