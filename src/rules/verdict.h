/* The judgement of each layer and of the machine, from the facts and the findings. A layer
 * is ok only on positive evidence (NVML answered, `import torch` ran, the GPU list was
 * read); where the facts it needs are unknown it is "unknown", and the machine's verdict
 * is then "cannot judge", never "works". Every command that says whether PyTorch works
 * here (doctor, verify, snapshot) asks this one place. */
#ifndef DLENV_RULES_VERDICT_H
#define DLENV_RULES_VERDICT_H

#include "rules/finding.h"

typedef enum dl_layer_state {
    DL_STATE_OK,        /* judged, nothing wrong, with the evidence in the summary */
    DL_STATE_INFO,      /* the worst finding is information */
    DL_STATE_WARNING,
    DL_STATE_FAILURE,
    DL_STATE_UNKNOWN,   /* cannot judge: what it needs is unknown (the summary says why) */
    DL_STATE_SKIPPED    /* not checked, as asked (--no-runtime, --check) */
} dl_layer_state;

typedef struct dl_layer_judgement {
    dl_layer layer;
    dl_layer_state state;
    char *summary;      /* the worst finding's title, the evidence, or why it is unknown */
    bool consequence;   /* its failure follows from the root cause below it */
} dl_layer_judgement;

typedef enum dl_verdict {
    DL_VERDICT_OK,
    DL_VERDICT_INFO,
    DL_VERDICT_WARNING,
    DL_VERDICT_FAILURE,
    DL_VERDICT_CANNOT_JUDGE   /* no failure found, but a layer could not be judged */
} dl_verdict;

typedef struct dl_judgement {
    dl_layer_judgement layers[DL_LAYER_COUNT];
    dl_verdict verdict;
    bool skipped;       /* some layer was not checked, as asked */
} dl_judgement;

/* only: the one check `doctor --check` ran (NULL: all); the other layers are skipped. */
void dl_judge(const dl_facts *f, const dl_findings *fs, const char *only, dl_judgement *out);
void dl_judgement_free(dl_judgement *j);

const char *dl_layer_state_name(dl_layer_state s); /* ok info warning failure unknown skipped */
const char *dl_verdict_name(dl_verdict v);         /* ok info warning failure cannot_judge */

#endif
