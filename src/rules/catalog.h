/* The catalog of findings: every id dlenv reports (DIAGNOSES.md's, and verify's own) with
 * its layer, written once here. dl_finding_add takes the layer from it; the rules table,
 * explain's signatures and the tests look ids up in it. */
#ifndef DLENV_RULES_CATALOG_H
#define DLENV_RULES_CATALOG_H

#include "rules/finding.h"

typedef struct dl_diagnosis {
    const char *id;
    dl_layer layer;
    bool measured;   /* judged from what `dlenv verify` measured; its fix is verify's */
} dl_diagnosis;

const dl_diagnosis *dl_diagnosis_table(size_t *count);
/* The row for an id; NULL when the catalog has none. */
const dl_diagnosis *dl_diagnosis_find(const char *id);
bool dl_finding_is_measured(const dl_finding *x);

#endif
