/* The snapshot document (`dlenv snapshot`), both ways:
 *
 *   {"schema": "dlenv.snapshot/1", "taken_at": "2025-03-01T09:30:00Z", "host": "ana-pc",
 *    "verdict": "warning", "root_cause": null, "findings": [...], "facts": {...}}
 *
 * "facts" is exactly a `dlenv report --json` document (with its own "schema":
 * "dlenv.report/1"), "findings" and "root_cause" exactly those of `dlenv doctor --json`.
 * Reading also takes a plain report (facts, no findings), a doctor document or a verify
 * one (read as a doctor document: its "measurements" are in its facts too), and any
 * snapshot of an older major version (0); keys it does not know are skipped, keys an
 * older writer lacked stay absent. A newer major version is an error: its meaning may
 * have changed. Pure: no I/O. */
#ifndef DLENV_DIFF_SNAPSHOT_H
#define DLENV_DIFF_SNAPSHOT_H

#include "facts/facts.h"
#include "rules/finding.h"

#include <stdbool.h>
#include <stddef.h>

#define DL_SNAPSHOT_SCHEMA "dlenv.snapshot/1"

typedef struct dl_snapshot {
    char *schema;        /* as the file says: dlenv.snapshot/1, dlenv.report/1, dlenv.doctor/1 */
    char *taken_at;      /* ISO 8601 UTC; NULL when the document has none (a report, a doctor
                          * document, a verify one from before verify wrote its time) */
    char *host;          /* NULL when the document has none */
    dl_facts facts;
    dl_findings findings;
    bool has_findings;   /* false for a report: the caller may run the rules */
} dl_snapshot;

/* The document as pretty-printed JSON text (schema, taken_at and host from s; the verdict
 * from the findings). */
char *dl_snapshot_to_json_text(const dl_snapshot *s);

/* Reads a snapshot, report, doctor or verify document. False with *error (one line, with the JSON
 * path where there is one: "$.facts.gpus[0].vendor_id: expected ...") otherwise; out is
 * then empty. out needs dl_snapshot_free after success. */
bool dl_snapshot_from_json_text(const char *text, size_t len, dl_snapshot *out, char **error);
void dl_snapshot_free(dl_snapshot *s);

#endif
