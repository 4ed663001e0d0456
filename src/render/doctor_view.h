/* What every doctor renderer shows, worked out once from the facts and findings: one line
 * per layer (status and a short summary), and the notes that answer common confusions. */
#ifndef DLENV_RENDER_DOCTOR_VIEW_H
#define DLENV_RENDER_DOCTOR_VIEW_H

#include "base/str.h"
#include "rules/finding.h"

typedef struct dl_layer_line {
    dl_layer layer;
    dl_severity status;        /* the worst finding in the layer; ok when none */
    char *summary;             /* the failing finding's title, or what was seen */
    bool consequence;          /* its failure follows from the root cause */
} dl_layer_line;

typedef struct dl_doctor_view {
    dl_layer_line layers[DL_LAYER_COUNT];
    dl_severity verdict;       /* the worst severity overall */
    const dl_finding *root;    /* NULL when nothing fails */
    dl_strv notes;
} dl_doctor_view;

void dl_doctor_view_build(dl_doctor_view *v, const dl_facts *f, const dl_findings *fs);
void dl_doctor_view_free(dl_doctor_view *v);
const char *dl_severity_word(dl_severity s);   /* "ok", "info", "warning", "failure" */

#endif
