/* Pure readers of the files a CUDA toolkit carries its versions in, kept apart from the
 * probe so they can be tested on text alone. */
#ifndef DLENV_PROBE_CUDA_TOOLKIT_H
#define DLENV_PROBE_CUDA_TOOLKIT_H

#include <stdbool.h>

/* The value of "#define NAME <decimal>" in a C header's text, as the preprocessor would
 * see a plain definition (spaces allowed around '#'). False when there is none. */
bool dl_cuda_header_define(const char *text, const char *name, unsigned long long *value);

/* version.json's {"cuda": {"version": "13.0.88"}}. Returns the version (caller frees) or
 * NULL with *why set to a static phrase saying what was wrong. */
char *dl_cuda_version_json(const char *text, const char **why);

/* version.txt's "CUDA Version 11.8.89". Returns the version (caller frees) or NULL. */
char *dl_cuda_version_txt(const char *text);
/* "Cuda compilation tools, release 13.0, V13.0.88" (nvcc --version) -> "13.0.88"; NULL when
 * the text has no such line. */
char *dl_cuda_version_nvcc(const char *text);

/* cuda.h's CUDA_VERSION (13000) as "13.0". Returns the version (caller frees) or NULL. */
char *dl_cuda_version_header(const char *text);

#endif
