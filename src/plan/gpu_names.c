#include "plan/gpu_names.h"

#include "base/str.h"
#include "know/arch.h"
#include "know/gpu_chip.h"
#include "know/gpu_target.h"
#include "know/pci_gpus.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool contains_word(const char *hay, const char *word)
{
    size_t n = strlen(word), i, h = strlen(hay);
    for (i = 0; n && i + n <= h; i++) {
        size_t j;
        for (j = 0; j < n && tolower((unsigned char)hay[i + j]) ==
                                 tolower((unsigned char)word[j]); j++)
            ;
        if (j == n && (i == 0 || !isalnum((unsigned char)hay[i - 1])) &&
            !isalnum((unsigned char)hay[i + n]))
            return true;
    }
    return false;
}

dl_gpu_vendor dl_gpu_vendor_of_name(const char *name)
{
    static const struct { const char *word; dl_gpu_vendor v; } words[] = {
        {"AMD", DL_GPU_AMD}, {"Radeon", DL_GPU_AMD}, {"Instinct", DL_GPU_AMD},
        {"Intel", DL_GPU_INTEL}, {"Arc", DL_GPU_INTEL}, {"Iris", DL_GPU_INTEL},
        {"UHD", DL_GPU_INTEL}, {"Apple", DL_GPU_APPLE},
    };
    size_t i;
    /* a bare gfx id ("gfx1100", what rocminfo prints) is an AMD GPU */
    if (!strncmp(name, "gfx", 3) && isdigit((unsigned char)name[3]))
        return DL_GPU_AMD;
    /* Radeon's model written alone: "RX 6600", "rx6700xt" */
    if (tolower((unsigned char)name[0]) == 'r' && tolower((unsigned char)name[1]) == 'x' &&
        (isdigit((unsigned char)name[2]) || (name[2] == ' ' && isdigit((unsigned char)name[3]))))
        return DL_GPU_AMD;
    for (i = 0; i < sizeof words / sizeof words[0]; i++)
        if (contains_word(name, words[i].word))
            return words[i].v;
    return DL_GPU_NVIDIA;
}

/* ---- names as tokens: "NVIDIA GeForce GTX1060 6GB" -> "gtx" "1060" "6" "gb" ----
 * Tokens split at anything not a letter or digit and where letters meet digits, so
 * spacing and case stop mattering ("gtx1060" = "GTX 1060"), and the maker's words that
 * nvidia-smi prints and people leave out ("NVIDIA", "GeForce") are dropped in front. */

#define MAX_TOKENS 16

typedef struct tokens {
    char buf[128];
    const char *t[MAX_TOKENS];
    size_t n;
} tokens;

static void tokenize(const char *s, tokens *out)
{
    size_t used = 0, first = 0;
    char prev = 0;
    out->n = 0;
    for (; *s && used + 2 < sizeof out->buf; s++) {
        char c = (char)tolower((unsigned char)*s);
        bool alnum = isalnum((unsigned char)c) != 0;
        bool split = !alnum || (prev && (isdigit((unsigned char)c) != 0) !=
                                            (isdigit((unsigned char)prev) != 0));
        if (split && prev) {
            out->buf[used++] = '\0';
            if (out->n < MAX_TOKENS)
                out->t[out->n++] = out->buf + first;
            prev = 0;
        }
        if (!alnum)
            continue;
        if (!prev)
            first = used;
        out->buf[used++] = c;
        prev = c;
    }
    if (prev) {
        out->buf[used++] = '\0';
        if (out->n < MAX_TOKENS)
            out->t[out->n++] = out->buf + first;
    }
    /* the maker's words in front carry nothing */
    while (out->n && (!strcmp(out->t[0], "nvidia") || !strcmp(out->t[0], "geforce"))) {
        memmove(out->t, out->t + 1, (out->n - 1) * sizeof out->t[0]);
        out->n--;
    }
}

static bool tokens_equal(const tokens *a, const tokens *b)
{
    size_t i;
    if (a->n != b->n)
        return false;
    for (i = 0; i < a->n; i++)
        if (strcmp(a->t[i], b->t[i]) != 0)
            return false;
    return true;
}

/* needle's tokens appear in hay, in a row. */
static bool tokens_inside(const tokens *needle, const tokens *hay)
{
    size_t i, j;
    for (i = 0; needle->n && i + needle->n <= hay->n; i++) {
        for (j = 0; j < needle->n && !strcmp(needle->t[j], hay->t[i + j]); j++)
            ;
        if (j == needle->n)
            return true;
    }
    return false;
}

/* The tokens run together ("gtx1060") and their digits alone ("1060"). */
static void compact(const tokens *t, char *all, char *digits, size_t n)
{
    size_t i, a = 0, d = 0;
    const char *p;
    for (i = 0; i < t->n; i++)
        for (p = t->t[i]; *p; p++) {
            if (a + 1 < n)
                all[a++] = *p;
            if (isdigit((unsigned char)*p) && d + 1 < n)
                digits[d++] = *p;
        }
    all[a] = digits[d] = '\0';
}

/* Levenshtein distance, capped: anything above 3 reads as 4. */
static unsigned edit_distance(const char *a, const char *b)
{
    unsigned row[130], i, j, na = (unsigned)strlen(a), nb = (unsigned)strlen(b);
    if (na > 128 || nb > 128 || (na > nb ? na - nb : nb - na) > 3)
        return 4;
    for (j = 0; j <= nb; j++)
        row[j] = j;
    for (i = 1; i <= na; i++) {
        unsigned diag = row[0];
        row[0] = i;
        for (j = 1; j <= nb; j++) {
            unsigned up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            if (up + 1 < best)
                best = up + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[nb] > 3 ? 4 : row[nb];
}

static bool row_cc(const dl_table *t, size_t r, unsigned *major, unsigned *minor)
{
    return dl_cc_parse(dl_table_cell(t, r, DL_COL_gpu_compute_capability_compute_capability), major,
                       minor);
}

/* Takes row r's capability into out, unless another row of the same name (its tokens)
 * says otherwise: then the name is ambiguous ("GeForce GT 730": Kepler GK208 and Fermi
 * GF108 boards) and the capability stays unknown, with why. */
static void take_row(const dl_table *t, size_t r, dl_gpu_match *out)
{
    tokens mine, other;
    size_t o;
    unsigned ma, mi;
    if (!row_cc(t, r, &out->major, &out->minor))
        return;
    tokenize(dl_table_cell(t, r, DL_COL_gpu_compute_capability_gpu_name), &mine);
    for (o = 0; o < t->rows; o++) {
        if (o == r || !row_cc(t, o, &ma, &mi) || (ma == out->major && mi == out->minor))
            continue;
        tokenize(dl_table_cell(t, o, DL_COL_gpu_compute_capability_gpu_name), &other);
        if (!tokens_equal(&mine, &other))
            continue;
        dl_fixed_fmt(out->unknown_why, sizeof out->unknown_why,
                     "%s is sold as %s (sm_%u%u) and as %s (sm_%u%u); the name alone does not "
                     "say which",
                     dl_table_cell(t, r, DL_COL_gpu_compute_capability_gpu_name),
                     dl_table_cell(t, r, DL_COL_gpu_compute_capability_architecture), out->major,
                     out->minor, dl_table_cell(t, o, DL_COL_gpu_compute_capability_architecture),
                     ma, mi);
        out->span_lo = out->major * 10 + out->minor;
        out->span_hi = ma * 10 + mi;
        if (out->span_lo > out->span_hi) {
            out->span_hi = out->span_lo;
            out->span_lo = ma * 10 + mi;
        }
        out->major = out->minor = 0;
        return;
    }
    out->found = true;
    out->span_lo = out->span_hi = out->major * 10 + out->minor;
}

/* The letters right before the model number ("k" of "Quadro K620", "gtx" of "GTX 1060"):
 * the series, which is part of the model (K620 is a Maxwell, P620 a Pascal); "" when the
 * name has none. */
static const char *series_of(const tokens *t)
{
    size_t i;
    for (i = 1; i < t->n; i++)
        if (isdigit((unsigned char)t->t[i][0]))
            return isdigit((unsigned char)t->t[i - 1][0]) || strlen(t->t[i - 1]) > 3
                       ? ""
                       : t->t[i - 1];
    return "";
}

/* A one-letter series is a generation of its own (Quadro K, M, P, T; RTX A): a typo there
 * would change the GPU. A longer one ("GTZ" for "GTX") may be a typo. */
static bool same_series(const char *a, const char *b)
{
    return (strlen(a) > 1 && strlen(b) > 1) || strcmp(a, b) == 0;
}

/* The row whose name is closest to want when want has no exact match: a typo in the
 * letters ("geforse gtx 1060"), never in the model number or its series letters ("Quadro
 * K620" is not the P620). -1 when none is close or two different capabilities are
 * equally close. */
static long closest_row(const dl_table *t, const tokens *want)
{
    char wall[128], wdig[128], rall[128], rdig[128];
    long best = -1;
    unsigned best_d = 4, limit;
    bool tie = false;
    size_t r;
    compact(want, wall, wdig, sizeof wall);
    limit = strlen(wall) >= 12 ? 2 : 1;
    if (strlen(wall) < 4 || !wdig[0])
        return -1;
    for (r = 0; r < t->rows; r++) {
        tokens row;
        unsigned d;
        tokenize(dl_table_cell(t, r, DL_COL_gpu_compute_capability_gpu_name), &row);
        compact(&row, rall, rdig, sizeof rall);
        if (strcmp(rdig, wdig) != 0 || !same_series(series_of(&row), series_of(want)))
            continue;
        d = edit_distance(wall, rall);
        if (d > limit || d > best_d)
            continue;
        if (d == best_d && best >= 0) {
            unsigned a, b, c, e;
            tie = tie || !row_cc(t, r, &a, &b) || !row_cc(t, (size_t)best, &c, &e) ||
                  a != c || b != e;
            continue;
        }
        best = (long)r;
        best_d = d;
        tie = false;
    }
    return tie ? -1 : best;
}

void dl_gpu_resolve_name(const dl_knowledge *k, const char *name, dl_gpu_match *out)
{
    const dl_table *t = dl_knowledge_at(k, DL_TABLE_gpu_compute_capability);
    tokens want, row;
    long inside = -1, holding = -1, near;
    size_t inside_n = 0, holding_n = 0, r;
    bool model_number = false;
    dl_gpu_chip chip;
    memset(out, 0, sizeof *out);
    if (!name)
        return;
    tokenize(name, &want);
    if (!want.n)
        return;
    for (r = 0; r < want.n; r++)
        model_number |= isdigit((unsigned char)want.t[r][0]) != 0;
    for (r = 0; t && r < t->rows; r++) {
        tokenize(dl_table_cell(t, r, DL_COL_gpu_compute_capability_gpu_name), &row);
        if (tokens_equal(&row, &want)) {
            take_row(t, r, out);
            return;
        }
        /* "GeForce RTX 3060 Laptop GPU (12GB)" holds the row "GeForce RTX 3060 Laptop
         * GPU": the longest row inside the name wins */
        if (row.n > inside_n && tokens_inside(&row, &want)) {
            inside = (long)r;
            inside_n = row.n;
        }
        /* "3060" is inside "RTX 3060" and "RTX 3060 Ti": the shortest row holding a short
         * name is the plain model; a name without its model number ("NVIDIA Quadro",
         * "Tesla") is a family, not a GPU */
        if (model_number && tokens_inside(&want, &row) && (holding < 0 || row.n < holding_n)) {
            holding = (long)r;
            holding_n = row.n;
        }
    }
    /* pci.ids' form, "GP106 [GeForce GTX 1060 6GB]": the chip decides */
    if (dl_gpu_chip_lookup(k, name, &chip)) {
        out->major = chip.cc_major;
        out->minor = chip.cc_minor;
        out->found = true;
        out->span_lo = out->span_hi = chip.cc_major * 10 + chip.cc_minor;
        return;
    }
    if (inside >= 0 || holding >= 0) {
        take_row(t, (size_t)(inside >= 0 ? inside : holding), out);
        return;
    }
    near = t ? closest_row(t, &want) : -1;
    if (near >= 0) {
        take_row(t, (size_t)near, out);
        dl_fixed_fmt(out->guessed, sizeof out->guessed, "%s",
                     dl_table_cell(t, (size_t)near, DL_COL_gpu_compute_capability_gpu_name));
    }
}

void dl_plan_gpu_resolve(const dl_knowledge *k, const char *name, dl_plan_gpu *g)
{
    dl_gpu_match m;
    dl_gpu_resolve_name(k, name, &m);
    g->cc_major = m.found ? m.major : 0;
    g->cc_minor = m.found ? m.minor : 0;
    dl_fixed_fmt(g->guessed, sizeof g->guessed, "%s", m.guessed);
    dl_fixed_fmt(g->unknown_why, sizeof g->unknown_why, "%s", m.unknown_why);
}

void dl_gpu_pci_search_begin(dl_gpu_pci_search *s, const char *name)
{
    memset(s, 0, sizeof *s);
    snprintf(s->want, sizeof s->want, "%s", name);
}

/* One bracketed alternative of a pci.ids name equals the wanted name (as tokens). */
static bool names_it(const char *want, const char *alt, size_t len)
{
    char buf[128];
    tokens a, b;
    snprintf(buf, sizeof buf, "%.*s", (int)len, alt);
    size_t i;
    tokenize(want, &a);
    tokenize(buf, &b);
    if (!a.n || b.n < a.n)
        return false;
    /* nvidia-smi's "Quadro M1200" is pci.ids' "Quadro M1200 Mobile": the form factor
     * words after the model do not make another GPU */
    for (i = a.n; i < b.n; i++)
        if (strcmp(b.t[i], "mobile") && strcmp(b.t[i], "max") && strcmp(b.t[i], "q") &&
            strcmp(b.t[i], "laptop") && strcmp(b.t[i], "gpu"))
            return false;
    b.n = a.n;
    return tokens_equal(&a, &b);
}

void dl_gpu_pci_search_line(const dl_knowledge *k, dl_gpu_pci_search *s, const char *line,
                            size_t len)
{
    char dev[160];
    const char *open, *close, *alt;
    dl_gpu_chip chip;
    bool match = false;
    if (len && isxdigit((unsigned char)line[0])) {
        s->nvidia = len >= 6 && !strncmp(line, "10de  ", 6);
        return;
    }
    /* "\t1c03  GP106 [GeForce GTX 1060 6GB]"; subsystems have two tabs */
    if (!s->nvidia || len < 9 || line[0] != '\t' || line[1] == '\t')
        return;
    snprintf(dev, sizeof dev, "%.*s", (int)(len - 7), line + 7);
    open = strchr(dev, '[');
    close = open ? strchr(open, ']') : NULL;
    if (!close)
        return;
    /* "GeForce GTX 1650 Mobile / Max-Q": each alternative, and the whole */
    for (alt = open + 1; alt < close && !match;) {
        const char *slash = strstr(alt, " / ");
        const char *end = slash && slash < close ? slash : close;
        match = names_it(s->want, alt, (size_t)(end - alt));
        alt = end == close ? close : end + 3;
    }
    if (!match && !names_it(s->want, open + 1, (size_t)(close - open - 1)))
        return;
    if (!dl_gpu_chip_lookup(k, dev, &chip))
        return;
    if (!s->hits++) {
        s->major = chip.cc_major;
        s->minor = chip.cc_minor;
        snprintf(s->first, sizeof s->first, "%s", dev);
    } else if ((chip.cc_major != s->major || chip.cc_minor != s->minor) && !s->other[0]) {
        s->other_major = chip.cc_major;
        s->other_minor = chip.cc_minor;
        snprintf(s->other, sizeof s->other, "%s", dev);
    }
}

bool dl_gpu_pci_search_end(const dl_gpu_pci_search *s, dl_plan_gpu *g)
{
    if (!s->hits)
        return false;
    g->guessed[0] = '\0';
    if (s->other[0]) {
        g->cc_major = g->cc_minor = 0;
        dl_fixed_fmt(g->unknown_why, sizeof g->unknown_why,
                     "pci.ids gives the name to %.70s "
                     "(sm_%u%u) and to %.70s (sm_%u%u)",
                     s->first, s->major, s->minor, s->other, s->other_major, s->other_minor);
        return true;
    }
    g->cc_major = s->major;
    g->cc_minor = s->minor;
    g->unknown_why[0] = '\0';
    return true;
}

bool dl_gpu_cc_from_name(const dl_knowledge *k, const char *name, unsigned *major,
                         unsigned *minor)
{
    dl_gpu_match m;
    dl_gpu_resolve_name(k, name, &m);
    if (m.found) {
        *major = m.major;
        *minor = m.minor;
    }
    return m.found;
}

bool dl_gpu_cc_from_text(const char *s, unsigned *major, unsigned *minor)
{
    dl_arch_target t[2];
    size_t n = 0;
    if (dl_cc_parse(s, major, minor))
        return *major > 0;
    if (!dl_arch_target_parse(s, strlen(s), t, &n) || n == 0 ||
        (strncmp(s, "sm_", 3) != 0 && strncmp(s, "compute_", 8) != 0))
        return false;
    *major = t[0].major;
    *minor = t[0].minor;
    return true;
}

bool dl_gpu_pci_id_parse(const char *s, long *vendor, long *device)
{
    char *end;
    unsigned long v, d;
    if (strlen(s) != 9 || s[4] != ':')
        return false;
    v = strtoul(s, &end, 16);
    if (end != s + 4)
        return false;
    d = strtoul(s + 5, &end, 16);
    if (*end)
        return false;
    *vendor = (long)v;
    *device = (long)d;
    return true;
}

dl_gpu_vendor dl_gpu_vendor_of_pci(long vendor)
{
    switch (vendor) {
    case 0x10de: return DL_GPU_NVIDIA;
    case 0x1002: return DL_GPU_AMD;
    case 0x8086: return DL_GPU_INTEL;
    case 0x106b: return DL_GPU_APPLE;
    default: return DL_GPU_OTHER;
    }
}

static const char *vendor_key(dl_gpu_vendor v)
{
    return v == DL_GPU_AMD ? "amd" : v == DL_GPU_INTEL ? "intel" : NULL;
}

void dl_plan_gpu_target_from_pci_name(const dl_knowledge *k, const char *full, long device,
                                      dl_plan_gpu *g)
{
    const char *v = vendor_key(g->vendor);
    if (v && !dl_gpu_target_of_chip(k, v, full, device, g->target, sizeof g->target))
        dl_gpu_target_of_name(k, v, full, g->target, sizeof g->target);
}

bool dl_plan_gpu_from_pci_table(const dl_knowledge *k, long vendor, long device,
                                dl_plan_gpu *g)
{
    const char *chip = dl_pci_gpu_chip(k, vendor, device);
    const char *v;
    char version[32];
    dl_gpu_chip c;
    if (!chip)
        return false;
    g->vendor = dl_gpu_vendor_of_pci(vendor);
    dl_fixed_fmt(g->name, sizeof g->name, "PCI %04lx:%04lx (%s)", (unsigned long)vendor,
                 (unsigned long)device, chip);
    if (g->vendor == DL_GPU_NVIDIA && dl_gpu_chip_lookup(k, chip, &c)) {
        g->cc_major = c.cc_major;
        g->cc_minor = c.cc_minor;
        return true;
    }
    v = vendor_key(g->vendor);
    if (v && dl_gpu_target_of_chip(k, v, chip, device, g->target, sizeof g->target))
        return true;
    if (!dl_pci_gpus_version(k, version, sizeof version))
        snprintf(version, sizeof version, "?");
    dl_fixed_fmt(g->unknown_why, sizeof g->unknown_why,
                 "pci.ids %s names %04lx:%04lx by its chip %.40s, which dlenv's chip tables "
                 "do not know", version, (unsigned long)vendor, (unsigned long)device, chip);
    return false;
}
