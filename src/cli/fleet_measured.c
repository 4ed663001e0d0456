/* fleet check --snapshot FILE: the file read as `dlenv diff` reads a side (a verify
 * document is read as a doctor document: facts, findings, root cause), its rules run when
 * it has no findings (a plain report), then verify's view built from it, so each figure
 * and its limit are exactly what `dlenv verify` showed. */
#include "cli/fleet_measured.h"

#include "cli/exit_codes.h"
#include "cli/input.h"
#include "cli/output.h"
#include "cli/snapshot.h"

#include "base/str.h"

#include <stdlib.h>
#include <string.h>

/* A snapshot or a verify document is some hundred kilobytes; far larger is not one. */
#define MAX_MEASURED_BYTES (64u * 1024u * 1024u)

int dl_fleet_measured_read(const char *path, const dl_knowledge *know, dl_fleet_measured *out)
{
    size_t len = 0;
    char *text, *error = NULL;
    memset(out, 0, sizeof *out);
    out->taken_at = -1;
    text = dl_cli_read_input(path, MAX_MEASURED_BYTES, &len);
    if (!text)
        return DL_EXIT_BAD_INPUT;
    if (!dl_snapshot_from_json_text(text, len, &out->doc, &error)) {
        dl_cli_error("%s: %s", path, error);
        free(error);
        free(text);
        return DL_EXIT_BAD_INPUT;
    }
    free(text);
    dl_cli_snapshot_judge(&out->doc, know);
    dl_verify_view_build(&out->view, &out->doc.facts, &out->doc.findings, know);
    if (out->doc.taken_at)
        out->taken_at = dl_fleet_utc_seconds(out->doc.taken_at);
    return DL_EXIT_OK;
}

void dl_fleet_measured_free(dl_fleet_measured *m)
{
    dl_verify_view_free(&m->view);
    dl_snapshot_free(&m->doc);
}

/* Days from 1970-01-01 to the civil date y-m-d (proleptic Gregorian): no timegm() on
 * every platform, and mktime() would read the local time zone. */
static long long days_from_civil(long long y, unsigned m, unsigned d)
{
    long long era;
    unsigned yoe, doy, doe;
    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = (unsigned)(y - era * 400);
    doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (long long)doe - 719468;
}

static bool digits(const char *s, size_t n, unsigned *out)
{
    size_t i;
    *out = 0;
    for (i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        *out = *out * 10 + (unsigned)(s[i] - '0');
    }
    return true;
}

long long dl_fleet_utc_seconds(const char *iso)
{
    unsigned y, mo, d, h, mi, s;
    if (!iso || strlen(iso) != 20 || iso[4] != '-' || iso[7] != '-' || iso[10] != 'T' ||
        iso[13] != ':' || iso[16] != ':' || iso[19] != 'Z')
        return -1;
    if (!digits(iso, 4, &y) || !digits(iso + 5, 2, &mo) || !digits(iso + 8, 2, &d) ||
        !digits(iso + 11, 2, &h) || !digits(iso + 14, 2, &mi) || !digits(iso + 17, 2, &s))
        return -1;
    if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60)
        return -1;
    return days_from_civil(y, mo, d) * 86400 + h * 3600LL + mi * 60LL + s;
}
