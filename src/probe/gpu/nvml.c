/* NVML: the driver's GPUs, read in an isolated child (child.c; the inner half is
 * nvml_gather.c). */
#include "probe/gpu/child.h"

void dl_probe_nvml(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out)
{
    dl_probe_child c = {"nvml", NULL, NULL, 0};
    c.library = dl_lib_name_nvml();
    dl_probe_child_run(ctx, &c, &dl_nvml_schema, &f->nvml, out);
}
