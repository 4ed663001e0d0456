/* The CUDA driver (libcuda / nvcuda.dll): its version and devices, read in an isolated child
 * (child.c; the inner half is cuda_driver_gather.c). */
#include "probe/gpu/child.h"

void dl_probe_cuda_driver(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out)
{
    dl_probe_child c = {"cuda", NULL, NULL, 0};
    c.library = dl_lib_name_cuda();
    dl_probe_child_run(ctx, &c, &dl_cuda_driver_schema, &f->cuda_driver, out);
}
