/* The doctor's views: the terminal (one line per layer, then the root cause with its
 * evidence and fix), Markdown for a bug report, and JSON ("schema": "dlenv.doctor/1"). */
#ifndef DLENV_RENDER_TEXT_DOCTOR_H
#define DLENV_RENDER_TEXT_DOCTOR_H

#include "render/doctor_view.h"
#include "render/style.h"
#include "rules/rules.h"

typedef struct dl_doctor_input {
    const dl_facts *facts;
    const dl_findings *findings;
    const dl_doctor_view *view;
    bool verbose;                 /* every check, every probe's time */
} dl_doctor_input;

char *dl_render_doctor_text(const dl_doctor_input *in, const dl_style *style);
char *dl_render_doctor_markdown(const dl_doctor_input *in);
char *dl_render_doctor_json(const dl_doctor_input *in);

#endif
