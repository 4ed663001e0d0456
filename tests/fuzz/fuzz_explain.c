/* libFuzzer target for dlenv explain: any bytes through the paste reader, the text facts,
 * the signature catalog, the rules and both renderers. Run by dev.sh test for a bounded
 * time under ASan; the corpus lives in tests/fuzz/corpus. */
#include "explain/explain.h"
#include "know/tables.h"
#include "render/explain_view.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static dl_knowledge know;
    static int loaded;
    dl_explanation e;
    dl_style style = {false, true};
    char *error = NULL, *text;
    if (!loaded) {
        if (!dl_knowledge_load(&know, NULL, &error))
            abort();
        loaded = 1;
    }
    dl_explain(&know, (const char *)data, size, &e);
    text = dl_render_explain_text(&e, "fuzz", &style);
    free(text);
    text = dl_render_explain_json(&e, "fuzz");
    free(text);
    dl_explanation_free(&e);
    return 0;
}
