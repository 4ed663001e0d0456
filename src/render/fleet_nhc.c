/* fleet check as LBNL NHC (or Slurm's HealthCheckProgram) wants it: one line, the root
 * cause's title when the node fails, which becomes the drain reason. */
#include "render/fleet_view.h"

#include "base/str.h"

#include <string.h>

/* The first layer that could not be judged, with why, or NULL. */
static const dl_layer_judgement *unknown_layer(const dl_doctor_view *v)
{
    size_t i;
    for (i = 0; i < DL_LAYER_COUNT; i++)
        if (v->judged.layers[i].state == DL_STATE_UNKNOWN)
            return &v->judged.layers[i];
    return NULL;
}

char *dl_render_fleet_nhc(const dl_fleet_input *in)
{
    const dl_finding *root = in->view->root;
    const dl_layer_judgement *unknown;
    if (root)
        return dl_fmt("dlenv: %s (%s)", root->title.value ? root->title.value : "failure",
                      root->id.value ? root->id.value : "unknown");
    unknown = unknown_layer(in->view);
    if (in->view->judged.verdict == DL_VERDICT_CANNOT_JUDGE && unknown)
        return dl_fmt("dlenv: cannot judge %s: %s", dl_layer_title(unknown->layer),
                      unknown->summary ? unknown->summary : "unknown");
    return dl_fmt("dlenv: %s", strcmp(dl_fleet_status(in), "warning") ? "ok" : "ok, with warnings");
}
