/* dlenv verify: every CUDA device measured by dlenv's own kernels (src/measure/gpu_measure.c)
 * in an isolated child (child.c), at a level, killed after timeout_ms. */
#include "probe/gpu/child.h"

void dl_probe_gpu_measure(const dl_probe_ctx *ctx, const char *level, int timeout_ms,
                          dl_gpu_measure_facts *f, dl_probe_outcome *out)
{
    dl_probe_child c = {"gpu-measure", NULL, NULL, 0};
    c.arg = level;
    c.library = dl_lib_name_cuda();
    c.timeout_ms = timeout_ms;
    dl_probe_child_run(ctx, &c, &dl_gpu_measure_schema, f, out);
}
