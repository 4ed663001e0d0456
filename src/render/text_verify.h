/* dlenv verify for a person (text_verify.c) and as JSON, "dlenv.verify/1" (json_verify.c). */
#ifndef DLENV_RENDER_TEXT_VERIFY_H
#define DLENV_RENDER_TEXT_VERIFY_H

#include "render/style.h"
#include "render/verify_view.h"

typedef struct dl_verify_input {
    const dl_facts *facts;
    const dl_findings *findings;
    const dl_verify_view *view;
    const char *taken_at; /* when it was measured, "2025-03-01T09:30:00Z" (UTC); NULL: left out */
} dl_verify_input;

char *dl_render_verify_text(const dl_verify_input *in, const dl_style *style);
char *dl_render_verify_json(const dl_verify_input *in);

#endif
