/* A saved report (`dlenv report --json`) read back as the facts, for `--from FILE`:
 * diagnose or plan for a machine that is not this one, from what it recorded. */
#ifndef DLENV_CLI_FACTS_FILE_H
#define DLENV_CLI_FACTS_FILE_H

#include "facts/facts.h"

#include <stdbool.h>
#include <stddef.h>

/* path "-" is standard input. Returns DL_EXIT_OK, or DL_EXIT_BAD_INPUT after printing one
 * line naming the file and what is wrong with it. f needs dl_facts_free either way. */
int dl_cli_read_facts(const char *path, dl_facts *f);
/* The same from text already read: false with *why (caller frees) when it is not a whole
 * report; f is then empty but initialised: it needs dl_facts_free either way. */
bool dl_cli_facts_from_text(const char *text, size_t len, dl_facts *f, char **why);

#endif
