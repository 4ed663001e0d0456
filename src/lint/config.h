/* `[tool.dlenv.lint]` in pyproject.toml (config.c): the settings a project keeps with
 * its code. The command line wins over them. */
#ifndef DLENV_LINT_CONFIG_H
#define DLENV_LINT_CONFIG_H

#include "base/str.h"

#include <stdbool.h>

typedef struct dl_lint_config {
    char *path;                 /* the pyproject.toml read; NULL: none found */
    dl_strv select, ignore;     /* rule ids */
    char *fail_on, *os, *torch, *cuda; /* NULL: not set */
} dl_lint_config;

/* Reads the nearest pyproject.toml from the current folder upwards. False with *error
 * (one line, naming the file and line) when its [tool.dlenv.lint] table is malformed or
 * holds a key this version does not know; true with nothing set when there is none. */
bool dl_lint_config_load(dl_lint_config *c, char **error);
/* The same for the text of one pyproject.toml (name for the messages). */
bool dl_lint_config_parse(dl_lint_config *c, const char *name, const char *text,
                          char **error);
void dl_lint_config_free(dl_lint_config *c);

#endif
