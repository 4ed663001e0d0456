/* The runtime half of the Python probe: `import torch` in the user's interpreter, in a
 * child process under a timeout, reported by a script embedded in dlenv
 * (src/probe/python/scripts/torch_probe.py). */
#ifndef DLENV_PROBE_PYTHON_RUNTIME_H
#define DLENV_PROBE_PYTHON_RUNTIME_H

#include "facts/facts.h"

/* Runs the embedded probe with python->path (never through a shell) and fills
 * python->runtime; also python->version and python->bits when the interpreter states them
 * more precisely than its files did. */
/* measure: also time an fp32 matrix product (`dlenv verify`). */
void dl_python_runtime(dl_python *python, int timeout_ms, const char *measure_level);

/* Reads the probe's output (anything, then "@@DLENV@@" + JSON) into py. False with *why
 * when no answer is in it. Exposed for tests. */
/* The JSON a probe script printed after its last "@@DLENV@@" marker (anything the
 * interpreter printed before it is noise), or NULL with *why set. The caller frees it with
 * cJSON_Delete. */
struct cJSON *dl_python_answer_json(const char *output, char **why);
bool dl_python_runtime_parse(const char *output, dl_python *py, char **why);

#endif
