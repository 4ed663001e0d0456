/* fleet check --snapshot FILE: verify's measured figures, each next to its limit, from a
 * saved `dlenv verify --json` or snapshot, for the Prometheus textfile. The live node's
 * checks stay quick (no measuring): the measurement is taken when verify runs (a weekly
 * timer, a node's acceptance test) and read here. Called by fleet.c. */
#ifndef DLENV_CLI_FLEET_MEASURED_H
#define DLENV_CLI_FLEET_MEASURED_H

#include "diff/snapshot.h"
#include "know/tables.h"
#include "render/verify_view.h"

typedef struct dl_fleet_measured {
    dl_snapshot doc;          /* the file as read (its facts and findings) */
    dl_verify_view view;      /* verify's lines built from them */
    long long taken_at;       /* seconds since 1970; -1 when the document says no time */
} dl_fleet_measured;

/* Reads path (a dlenv.verify/1, dlenv.snapshot/1, report or doctor document) and builds
 * verify's view of it. Returns an exit code after printing the one-line error;
 * dl_fleet_measured_free either way. */
int dl_fleet_measured_read(const char *path, const dl_knowledge *know, dl_fleet_measured *out);
void dl_fleet_measured_free(dl_fleet_measured *m);

/* "2025-03-01T09:30:00Z" as seconds since 1970; -1 when it is not that form or before
 * 1970 (no dlenv wrote it). */
long long dl_fleet_utc_seconds(const char *iso);

#endif
