/* libFuzzer target for `dlenv doctor --from FILE` / `report --from`: any bytes through the
 * report reader (facts_json.c), then what the commands do with the facts: the text report,
 * the JSON written back, every rule (with the planner behind the install fixes), the
 * doctor's view and its three renderers. Run by dev.sh test for a bounded time under ASan;
 * seeds are the saved reports of tests/doctor and tests/machines, regressions
 * tests/fuzz/regress/report. */
#include "facts/facts_json.h"
#include "know/tables.h"
#include "render/doctor_view.h"
#include "render/text_doctor.h"
#include "render/text_report.h"
#include "rules/rules.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void render_all(const dl_facts *f, const dl_findings *fs)
{
    dl_style style = {false, true};
    dl_doctor_view view;
    dl_doctor_input in;
    dl_doctor_view_build(&view, f, fs, NULL);
    in.facts = f;
    in.findings = fs;
    in.view = &view;
    in.verbose = true;
    free(dl_render_doctor_text(&in, &style));
    free(dl_render_doctor_markdown(&in));
    free(dl_render_doctor_json(&in));
    dl_doctor_view_free(&view);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static dl_knowledge know;
    static int loaded;
    dl_style style = {false, true};
    dl_facts f;
    dl_findings fs;
    dl_rule_input rin;
    char *error = NULL;
    if (!loaded) {
        if (!dl_knowledge_load(&know, NULL, &error))
            abort();
        loaded = 1;
    }
    if (!dl_facts_from_json_text((const char *)data, size, &f, &error)) {
        free(error);
        return 0;
    }
    free(dl_render_report_text(&f, &style));
    free(dl_facts_to_json_text(&f, true));
    memset(&fs, 0, sizeof fs);
    rin.facts = &f;
    rin.know = &know;
    dl_rules_run(&rin, NULL, &fs);
    render_all(&f, &fs);
    dl_findings_free(&fs);
    dl_facts_free(&f);
    return 0;
}
