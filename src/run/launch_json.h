/* The VS Code launcher: one debug configuration per profile in .vscode/launch.json, merged
 * into the file that is there (the configuration with the same name is replaced, every
 * other one kept) rather than overwriting it. Pure: text in, text out. */
#ifndef DLENV_RUN_LAUNCH_JSON_H
#define DLENV_RUN_LAUNCH_JSON_H

#include "run/launcher.h"

#include <stdbool.h>

/* VS Code's JSON with comments and trailing commas as plain JSON: comments and those
 * commas become spaces, so line numbers stay those of the original. *had_comments says
 * whether there were comments (the merged file cannot keep them). Caller frees. */
char *dl_jsonc_strip(const char *text, bool *had_comments);

/* launch.json's new text: existing (NULL or blank: a new file) with l's configuration in
 * place of the one of the same name, or added at the end. The command must be Python's:
 * `python script.py ARGS`, `python -m module ARGS`, with interpreter options before the
 * script going to "pythonArgs"; no command means the file open in the editor ("${file}").
 * NULL with *error when existing is not a launch.json, or the command is not Python's. */
char *dl_launch_json_merge(const char *existing, const dl_launcher *l, bool *dropped_comments,
                           char **error);

#endif
