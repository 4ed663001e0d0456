/* What every doctor renderer shows, worked out once: the layers and the verdict (judged by
 * rules/verdict.c), the root cause's finding, and the notes that answer common
 * confusions. */
#ifndef DLENV_RENDER_DOCTOR_VIEW_H
#define DLENV_RENDER_DOCTOR_VIEW_H

#include "base/str.h"
#include "rules/verdict.h"

typedef struct dl_doctor_view {
    dl_judgement judged;       /* one state and summary per layer, and the verdict */
    const dl_finding *root;    /* NULL when nothing fails */
    dl_strv notes;
} dl_doctor_view;

/* only: the check `--check` ran, or NULL. */
void dl_doctor_view_build(dl_doctor_view *v, const dl_facts *f, const dl_findings *fs,
                          const char *only);
void dl_doctor_view_free(dl_doctor_view *v);
const char *dl_severity_word(dl_severity s);   /* "ok", "info", "warning", "failure" */
/* The layers not checked, as asked ("torch runtime, performance"), or NULL. Caller frees. */
char *dl_doctor_view_not_checked(const dl_doctor_view *v);
/* The layers that could not be judged, each with why, one "Layer: why" per entry. */
void dl_doctor_view_unknown(const dl_doctor_view *v, dl_strv *out);

#endif
