/* `dlenv __probe nvml|cuda|nvapi`: the child side of the isolated driver probes (see
 * src/probe/gpu/child.c). Not a user command: it is absent from --help. It gathers, then
 * answers {"status", "detail", "facts"} as JSON on stdout. */
#include "cli/exit_codes.h"
#include "cli/probe_child.h"
#include "cli/output.h"

#include "base/str.h"
#include "facts/facts_json.h"
#include "measure/gpu_measure.h"
#include "probe/gpu/gather.h"
#include "probe/windows/power.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int answer(const dl_schema *s, const void *facts, const dl_probe_outcome *out)
{
    cJSON *j = cJSON_CreateObject();
    char *text;
    int rc = DL_EXIT_OK;
    cJSON_AddStringToObject(j, "status", dl_probe_status_name(out->status));
    if (out->detail)
        cJSON_AddStringToObject(j, "detail", out->detail);
    cJSON_AddItemToObject(j, "facts", dl_schema_to_json(s, facts));
    text = cJSON_PrintUnformatted(j);
    if (fputs(text, stdout) == EOF || fflush(stdout) != 0)
        rc = DL_EXIT_TOOL;
    cJSON_free(text);
    cJSON_Delete(j);
    return rc;
}

/* The GPU measurements at a level; the probe's status says whether any device failed. */
static int measure_gpus(const char *level, dl_probe_outcome *out)
{
    dl_gpu_budget b;
    dl_gpu_measure_facts f;
    int rc;
    if (!level || !dl_gpu_budget_for(level, &b)) {
        dl_cli_error("__probe gpu-measure takes quick, default or full");
        return DL_EXIT_USAGE;
    }
    memset(&f, 0, sizeof f);
    dl_measure_gpus(&b, &f);
    if (f.status.value && strcmp(f.status.value, "failed") == 0)
        dl_probe_note(out, DL_PROBE_FAILED, f.detail.value ? f.detail.value : "failed");
    rc = answer(&dl_gpu_measure_schema, &f, out);
    dl_schema_free(&dl_gpu_measure_schema, &f);
    return rc;
}

int dl_probe_child_main(const char *which, const char *arg)
{
    dl_probe_outcome out = {DL_PROBE_OK, NULL};
    int rc;
    if (which && strcmp(which, "nvml") == 0) {
        dl_nvml_facts f;
        memset(&f, 0, sizeof f);
        dl_gather_nvml(&f, &out);
        rc = answer(&dl_nvml_schema, &f, &out);
        dl_schema_free(&dl_nvml_schema, &f);
    } else if (which && strcmp(which, "cuda") == 0) {
        dl_cuda_driver_facts f;
        memset(&f, 0, sizeof f);
        dl_gather_cuda(&f, &out);
        rc = answer(&dl_cuda_driver_schema, &f, &out);
        dl_schema_free(&dl_cuda_driver_schema, &f);
    } else if (which && strcmp(which, "nvapi") == 0) {
        dl_windows_power_facts f;
        memset(&f, 0, sizeof f);
        dl_gather_nvapi(NULL, &f, &out);
        rc = answer(&dl_windows_power_schema, &f, &out);
        dl_schema_free(&dl_windows_power_schema, &f);
    } else if (which && strcmp(which, "gpu-measure") == 0) {
        rc = measure_gpus(arg, &out);
    } else {
        dl_cli_error("__probe takes nvml, cuda, nvapi or gpu-measure LEVEL");
        return DL_EXIT_USAGE;
    }
    free(out.detail);
    return rc;
}
