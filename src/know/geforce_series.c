/* A three-digit GeForce's series -> its capability span; see geforce_series.h. */
#include "know/geforce_series.h"

#include "know/arch.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* One word of a name, lower-cased, letters and digits only ("GT", "720m"). */
typedef struct name_word {
    char w[16];
} name_word;

static size_t split_words(const char *name, name_word *out, size_t max)
{
    size_t n = 0, len = 0;
    for (;; name++) {
        if (isalnum((unsigned char)*name)) {
            if (len + 1 < sizeof out[0].w && n < max)
                out[n].w[len++] = (char)tolower((unsigned char)*name);
            continue;
        }
        if (len && n < max) {
            out[n].w[len] = '\0';
            n++;
        }
        len = 0;
        if (!*name)
            return n;
    }
}

/* A family whose three-digit models are no GeForce series ("MX 150" is Pascal, "Quadro 600"
 * a workstation board, "RTX" has four digits). */
static bool other_family(const char *w)
{
    static const char *const words[] = {"mx", "rtx", "quadro", "tesla", "titan", "nvs", "grid",
                                        "radeon", "arc"};
    size_t k;
    for (k = 0; k < sizeof words / sizeof words[0]; k++)
        if (!strcmp(w, words[k]))
            return true;
    return false;
}

static bool series_word(const char *w, size_t n)
{
    return (n == 1 && w[0] == 'g') || (n == 2 && !strncmp(w, "gt", 2)) ||
           (n == 3 && (!strncmp(w, "gtx", 3) || !strncmp(w, "gts", 3)));
}

/* The model number of w when it is three digits and a suffix of letters only ("720m",
 * "940mx", "460"), with the GeForce word glued before it or not ("gt650m"); 0 otherwise.
 * *glued says a GT/GTS/GTX word was glued before the digits. */
static unsigned model_of(const char *w, bool *glued)
{
    size_t lead = strspn(w, "abcdefghijklmnopqrstuvwxyz"), digits = strspn(w + lead, "0123456789");
    const char *after = w + lead + digits;
    *glued = lead > 0;
    if (digits != 3 || (lead && !series_word(w, lead)) || w[lead] == '0' ||
        strspn(after, "abcdefghijklmnopqrstuvwxyz") != strlen(after) || strlen(after) > 2)
        return 0;
    return (unsigned)atoi(w + lead);
}

unsigned dl_geforce_series_of(const char *name)
{
    name_word words[12];
    size_t n, i;
    bool geforce = false;
    if (!name)
        return 0;
    n = split_words(name, words, sizeof words / sizeof words[0]);
    for (i = 0; i < n; i++) {
        const char *w = words[i].w;
        bool glued;
        unsigned model;
        if (other_family(w))
            return 0;
        geforce |= !strcmp(w, "geforce");
        model = model_of(w, &glued);
        if (!model) {
            /* four digits or more are another naming ("GTX 1060", "GeForce 8800 GTX") */
            if (strspn(w, "0123456789") >= 4)
                return 0;
            continue;
        }
        if (glued || geforce || (i > 0 && series_word(words[i - 1].w, strlen(words[i - 1].w))))
            return model / 100 * 100;
        return 0;
    }
    return 0;
}

/* Whether a name table row's words hold family ("rtx") followed by a four-digit model of
 * the series ("50": "5070"). */
static bool row_of_line(const char *row_name, const char *family, const char *series)
{
    name_word words[12];
    size_t n = split_words(row_name, words, sizeof words / sizeof words[0]), i;
    for (i = 0; i + 1 < n; i++)
        if (!strcmp(words[i].w, family) && strlen(words[i + 1].w) == 4 &&
            strspn(words[i + 1].w, "0123456789") == 4 && !strncmp(words[i + 1].w, series, 2))
            return true;
    return false;
}

bool dl_geforce_line_span(const dl_knowledge *k, const char *name, unsigned *lo, unsigned *hi)
{
    const dl_table *t = k ? dl_knowledge_at(k, DL_TABLE_gpu_compute_capability) : NULL;
    name_word words[4];
    size_t n, r;
    bool found = false;
    if (!t || !name || (n = split_words(name, words, sizeof words / sizeof words[0])) != 3 ||
        (strcmp(words[0].w, "rtx") != 0 && strcmp(words[0].w, "gtx") != 0) ||
        strlen(words[1].w) != 2 || strspn(words[1].w, "0123456789") != 2 ||
        strcmp(words[2].w, "series") != 0)
        return false;
    for (r = 0; r < t->rows; r++) {
        unsigned major, minor, cc;
        /* GeForce boards only: "Quadro RTX 5000" is no RTX 50 */
        if (strncmp(dl_table_cell(t, r, DL_COL_gpu_compute_capability_segment), "GeForce", 7) ||
            !row_of_line(dl_table_cell(t, r, DL_COL_gpu_compute_capability_gpu_name),
                         words[0].w, words[1].w) ||
            !dl_cc_parse(dl_table_cell(t, r, DL_COL_gpu_compute_capability_compute_capability),
                         &major, &minor) || minor >= 10)
            continue;
        cc = major * 10 + minor;
        if (!found || cc < *lo)
            *lo = cc;
        if (!found || cc > *hi)
            *hi = cc;
        found = true;
    }
    return found;
}

bool dl_geforce_series_span(const dl_knowledge *k, const char *name, unsigned *lo, unsigned *hi)
{
    const dl_table *t = k ? dl_knowledge_at(k, DL_TABLE_geforce_series) : NULL;
    unsigned series = dl_geforce_series_of(name), a, b, c, d;
    size_t r;
    if (!series || !t)
        return false;
    for (r = 0; r < t->rows; r++) {
        const char *s = dl_table_cell(t, r, DL_COL_geforce_series_series);
        if (!s || (unsigned)atoi(s) != series ||
            !dl_cc_parse(dl_table_cell(t, r, DL_COL_geforce_series_compute_capability_lo), &a, &b) ||
            !dl_cc_parse(dl_table_cell(t, r, DL_COL_geforce_series_compute_capability_hi), &c, &d))
            continue;
        *lo = a * 10 + b;
        *hi = c * 10 + d;
        return true;
    }
    return false;
}
