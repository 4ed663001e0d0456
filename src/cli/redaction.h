/* --redact for the commands that have it (report, doctor, verify, snapshot): who and where
 * this is, from the system, applied to the facts and findings before anything is
 * rendered (render/redact.h says what changes). */
#ifndef DLENV_CLI_REDACTION_H
#define DLENV_CLI_REDACTION_H

#include "cli/options.h"
#include "facts/facts.h"
#include "rules/finding.h"

/* With --redact: every string of f and of fs (NULL: none) with this account's homes and
 * names and this host's name replaced where they stand as a path, an address or a user=
 * token. Without --redact nothing changes. */
void dl_cli_redact(const dl_cli *cli, dl_facts *f, dl_findings *fs);

/* With --redact: text (owned, returned) redacted as one value; a lock file, which no
 * renderer wraps. */
char *dl_cli_redact_text(const dl_cli *cli, char *text);

#endif
