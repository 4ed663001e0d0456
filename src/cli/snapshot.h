/* What `dlenv snapshot` and `dlenv diff -` share: this machine now as a snapshot (the
 * facts gathered as the doctor gathers them, the rules' findings, the time and the host). */
#ifndef DLENV_CLI_SNAPSHOT_H
#define DLENV_CLI_SNAPSHOT_H

#include "cli/options.h"
#include "diff/snapshot.h"
#include "know/tables.h"

/* Fills out (needs dl_snapshot_free either way); returns an exit code after printing the
 * one-line error (an unusable --python). */
int dl_cli_take_snapshot(const dl_cli *cli, const dl_knowledge *know, dl_snapshot *out);
/* The same with torch's matrix products timed and checked in the runtime probe at verify's
 * level MEASURE ("quick", "default", "full"; NULL: none). */
int dl_cli_take_snapshot_measured(const dl_cli *cli, const dl_knowledge *know,
                                  const char *measure, dl_snapshot *out);

/* The time now as a snapshot's taken_at: "2025-03-01T09:30:00Z" (UTC), "unknown" when the
 * clock cannot be read; n: 32 is enough. */
void dl_cli_utc_now(char *out, size_t n);

/* Runs the rules on s's facts when s has no findings (a plain report, an older snapshot). */
void dl_cli_snapshot_judge(dl_snapshot *s, const dl_knowledge *know);

#endif
