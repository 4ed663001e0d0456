#include "cli/facts_file.h"

#include "cli/exit_codes.h"
#include "cli/input.h"
#include "cli/output.h"
#include "base/str.h"
#include "facts/facts_json.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>

/* A report is some hundred kilobytes; anything far larger is not one. */
#define MAX_REPORT_BYTES (64u * 1024u * 1024u)

/* What every report dlenv writes has, whatever the machine (unknown with the reason where
 * a probe could not tell). A document without them is not a report to judge: alone,
 * {"schema": "dlenv.report/1"} was "Everything works". */
static const char *const core_sections[] = {"os",  "cpu",         "memory",    "gpus",
                                            "nvidia_kernel", "nvml", "cuda_driver",
                                            "libraries", "pythons"};

/* The first core section the document lacks, or NULL. */
static const char *missing_section(const cJSON *doc)
{
    size_t i;
    for (i = 0; i < sizeof core_sections / sizeof core_sections[0]; i++)
        if (!cJSON_GetObjectItemCaseSensitive(doc, core_sections[i]))
            return core_sections[i];
    return NULL;
}

bool dl_cli_facts_from_text(const char *text, size_t len, dl_facts *f, char **why)
{
    const char *missing;
    cJSON *doc = dl_report_json_parse(text, len, why);
    if (!doc || !dl_facts_from_json(doc, f, why)) {
        cJSON_Delete(doc);
        dl_facts_init(f);
        return false;
    }
    missing = missing_section(doc);
    cJSON_Delete(doc);
    if (missing) {
        *why = dl_fmt("$.%s: missing: not a whole `dlenv report --json` (it has os, cpu, "
                      "memory, gpus, nvidia_kernel, nvml, cuda_driver, libraries and pythons)",
                      missing);
        dl_facts_free(f);
        dl_facts_init(f);
        return false;
    }
    return true;
}

int dl_cli_read_facts(const char *path, dl_facts *f)
{
    size_t len = 0;
    char *text = dl_cli_read_input(path, MAX_REPORT_BYTES, &len), *error = NULL;
    dl_facts_init(f);
    if (!text)
        return DL_EXIT_BAD_INPUT;
    dl_facts_free(f);
    if (!dl_cli_facts_from_text(text, len, f, &error)) {
        dl_cli_error("%s: %s", path, error);
        free(error);
        free(text);
        return DL_EXIT_BAD_INPUT;
    }
    free(text);
    return DL_EXIT_OK;
}
