/* The one way dlenv takes functions from a driver library (NVML, libcuda): each library's
 * functions are a typed table (nvml_gather.c, cuda_driver_gather.c, measure/gpu_driver.c),
 * filled once per load from the public API's names, newest first, so no call looks a
 * symbol up by name and a missing one is known before anything runs. */
#ifndef DLENV_PROBE_GPU_DRIVER_LIB_H
#define DLENV_PROBE_GPU_DRIVER_LIB_H

#include "base/str.h"
#include "os/os.h"

/* The function called newest, else older (NULL when the API has one name); NULL when the
 * library has neither. When lacking is given, a newest name the library does not have is
 * added to it (an old driver shows up as old, even where an older name stands in). */
void *dl_driver_sym(dl_lib *lib, const char *newest, const char *older, dl_strv *lacking);

#endif
