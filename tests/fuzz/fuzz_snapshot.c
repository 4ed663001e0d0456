/* libFuzzer target for `dlenv diff`: any bytes through the snapshot reader (snapshot,
 * report or doctor document, any schema version; diff/snapshot.c), the rules where the
 * document has no findings (as diff does), then diffed both ways against a real snapshot
 * (tests/diff/same-machine/before.json) and against itself, with both renderers. Seeds are
 * tests/diff; regressions tests/fuzz/regress/snapshot. */
#include "cli/snapshot.h"
#include "diff/facts_diff.h"
#include "diff/snapshot.h"
#include "know/tables.h"
#include "render/diff_render.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void load_base(dl_snapshot *base, const dl_knowledge *know)
{
    FILE *f = fopen(DLENV_FUZZ_BASE, "rb");
    char *text = malloc(1u << 22), *error = NULL;
    size_t len;
    if (!f || !text)
        abort();
    len = fread(text, 1, (1u << 22) - 1, f);
    fclose(f);
    if (!dl_snapshot_from_json_text(text, len, base, &error))
        abort();
    free(text);
    dl_cli_snapshot_judge(base, know);
}

static void compare(const dl_snapshot *a, const dl_snapshot *b)
{
    dl_style style = {false, true};
    dl_diff d;
    dl_diff_input in;
    memset(&d, 0, sizeof d);
    dl_diff_facts(&a->facts, &b->facts, true, &d);
    dl_diff_findings(&a->findings, &b->findings, &d);
    memset(&in, 0, sizeof in);
    in.diff = &d;
    in.a.source = "a.json";
    in.a.schema = a->schema;
    in.a.taken_at = a->taken_at;
    in.a.host = a->host;
    in.b.source = "b.json";
    in.b.schema = b->schema;
    in.b.taken_at = b->taken_at;
    in.b.host = b->host;
    in.verbose = true;
    free(dl_render_diff_text(&in, &style));
    free(dl_render_diff_json(&in));
    (void)dl_diff_equal(&d);
    dl_diff_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static dl_knowledge know;
    static dl_snapshot base;
    static int loaded;
    dl_snapshot s;
    char *error = NULL;
    if (!loaded) {
        if (!dl_knowledge_load(&know, NULL, &error))
            abort();
        load_base(&base, &know);
        loaded = 1;
    }
    if (!dl_snapshot_from_json_text((const char *)data, size, &s, &error)) {
        free(error);
        return 0;
    }
    dl_cli_snapshot_judge(&s, &know);
    free(dl_snapshot_to_json_text(&s));
    compare(&base, &s);
    compare(&s, &base);
    compare(&s, &s);
    dl_snapshot_free(&s);
    return 0;
}
