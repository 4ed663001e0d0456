/* The extension packages (xformers, flash-attn, bitsandbytes, torchvision ...) imported
 * after torch, in the user's interpreter: a script embedded in dlenv
 * (src/probe/python/scripts/ext_probe.py) imports each in its own child, so one that hangs
 * or crashes costs only its own record. */
#ifndef DLENV_PROBE_PYTHON_EXT_RUNTIME_H
#define DLENV_PROBE_PYTHON_EXT_RUNTIME_H

#include "facts/facts.h"

/* Fills python->runtime.extensions, once torch imported (absent otherwise): one record per
 * installed extension package (by its metadata), imported under timeout_ms together;
 * none (--no-ext-import) or skip (a comma-separated list of packages or modules) marks
 * them skipped instead. */
void dl_python_ext_imports(dl_python *python, int timeout_ms, bool none, const char *skip);

/* Reads the script's output (anything, then "@@DLENV@@" + {"extensions": [...]}) into
 * python->runtime.extensions. False with *why when no answer is in it. For tests. */
bool dl_python_ext_parse(const char *output, dl_python *python, char **why);

#endif
