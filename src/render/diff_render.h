/* The views of `dlenv diff`: text for people (the headline first, then the changes by
 * group with the schema's labels, old -> new, then the findings) and JSON
 * ("schema": "dlenv.diff/1"). */
#ifndef DLENV_RENDER_DIFF_RENDER_H
#define DLENV_RENDER_DIFF_RENDER_H

#include "diff/facts_diff.h"
#include "render/style.h"

typedef struct dl_diff_side {
    const char *source;     /* the file as given; "-" for this machine now */
    const char *schema;     /* the document's schema */
    const char *taken_at;   /* NULL when the document has no time */
    const char *host;
} dl_diff_side;

typedef struct dl_diff_input {
    const dl_diff *diff;
    dl_diff_side a, b;
    bool verbose;           /* volatile changes are in diff and shown */
} dl_diff_input;

char *dl_render_diff_text(const dl_diff_input *in, const dl_style *style);
char *dl_render_diff_json(const dl_diff_input *in);

#endif
