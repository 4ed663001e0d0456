/* GPU name -> target, and wheel -> targets; see gpu_target.h. */
#include "know/gpu_target.h"

#include "base/str.h"
#include "know/version.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Lower-case, "(r)"/"(tm)" dropped, runs of spaces as one: "Intel(R) Arc(TM) A770" ->
 * "intel arc a770". */
static void normalize(const char *s, char *out, size_t cap)
{
    size_t n = 0;
    while (*s && n + 1 < cap) {
        char c = (char)tolower((unsigned char)*s);
        if (c == '(' && (!strncmp(s, "(R)", 3) || !strncmp(s, "(r)", 3))) {
            s += 3;
            continue;
        }
        if (c == '(' && (!strncmp(s, "(TM)", 4) || !strncmp(s, "(tm)", 4))) {
            s += 4;
            continue;
        }
        if (isspace((unsigned char)c) || c == '-' || c == '_') {
            if (n && out[n - 1] != ' ')
                out[n++] = ' ';
            s++;
            continue;
        }
        out[n++] = c;
        s++;
    }
    while (n && out[n - 1] == ' ')
        n--;
    out[n] = '\0';
}

/* "gfx1100", "gfx90a": gfx then a digit, then letters or digits to the end or a space. */
static bool is_gfx_id(const char *s, size_t *len)
{
    size_t i = 3;
    if (strncmp(s, "gfx", 3) != 0 || !isdigit((unsigned char)s[3]))
        return false;
    while (isalnum((unsigned char)s[i]))
        i++;
    *len = i;
    return s[i] == '\0' || s[i] == ' ';
}

bool dl_gpu_target_of_name(const dl_knowledge *k, const char *vendor, const char *name,
                           char *out, size_t cap)
{
    const dl_table *t = k ? dl_knowledge_at(k, DL_TABLE_gpu_targets) : NULL;
    char norm[160];
    const char *p;
    size_t r, best_len = 0, len;
    out[0] = '\0';
    if (!name)
        return false;
    normalize(name, norm, sizeof norm);
    for (p = norm; *p; p++)
        if ((p == norm || p[-1] == ' ') && is_gfx_id(p, &len)) {
            snprintf(out, cap, "%.*s", (int)len, p);
            return true;
        }
    for (r = 0; t && r < t->rows; r++) {
        const char *match = dl_table_cell(t, r, DL_COL_gpu_targets_name_match);
        size_t n = match ? strlen(match) : 0;
        if (!n || n <= best_len || strcmp(dl_table_cell(t, r, DL_COL_gpu_targets_vendor), vendor) != 0 ||
            !strstr(norm, match))
            continue;
        best_len = n;
        snprintf(out, cap, "%s", dl_table_cell(t, r, DL_COL_gpu_targets_target));
    }
    return best_len > 0 || dl_gpu_target_of_chip(k, vendor, name, -1, out, cap);
}

/* Lower case, letters and digits only: "Polaris 20 XL" -> "polaris20xl". */
static void squash(const char *s, size_t len, char *out, size_t cap)
{
    size_t n = 0, i;
    for (i = 0; i < len && s[i] && n + 1 < cap; i++)
        if (isalnum((unsigned char)s[i]))
            out[n++] = (char)tolower((unsigned char)s[i]);
    out[n] = '\0';
}

/* code (squashed) starts chip (squashed), and does not cut a number in two. */
static bool starts_with_code(const char *chip, const char *code)
{
    size_t n = strlen(code);
    return n && !strncmp(chip, code, n) &&
           !(isdigit((unsigned char)code[n - 1]) && isdigit((unsigned char)chip[n]));
}

static bool lists_device(const char *devices, long device)
{
    char id[20];
    if (device < 0 || !devices || !*devices)
        return false;
    snprintf(id, sizeof id, "%04lx", (unsigned long)device);
    return dl_target_in_list(devices, id);
}

bool dl_gpu_target_of_chip(const dl_knowledge *k, const char *vendor, const char *chip,
                           long device, char *out, size_t cap)
{
    const dl_table *t = k ? dl_knowledge_at(k, DL_TABLE_gpu_codenames) : NULL;
    const char *bracket = chip ? strstr(chip, " [") : NULL;
    char want[96], code[64];
    size_t r, best_len = 0;
    bool best_by_device = false;
    out[0] = '\0';
    if (!chip)
        return false;
    squash(chip, bracket ? (size_t)(bracket - chip) : strlen(chip), want, sizeof want);
    for (r = 0; t && r < t->rows; r++) {
        const char *devices = dl_table_cell(t, r, DL_COL_gpu_codenames_devices);
        bool by_device;
        size_t n;
        if (strcmp(dl_table_cell(t, r, DL_COL_gpu_codenames_vendor), vendor) != 0)
            continue;
        squash(dl_table_cell(t, r, DL_COL_gpu_codenames_codename), (size_t)-1, code,
               sizeof code);
        if (!starts_with_code(want, code))
            continue;
        /* a row for listed devices only: those devices, and nothing else */
        by_device = lists_device(devices, device);
        if (devices && *devices && !by_device)
            continue;
        n = strlen(code);
        if ((best_by_device && !by_device) || (by_device == best_by_device && n <= best_len))
            continue;
        best_len = n;
        best_by_device = by_device;
        snprintf(out, cap, "%s", dl_table_cell(t, r, DL_COL_gpu_codenames_target));
    }
    return best_len > 0;
}

static bool minor_of(const char *s, int *out)
{
    dl_version v;
    if (!s || !dl_version_parse(s, &v))
        return false;
    *out = v.part[0] * 100 + v.part[1];
    return true;
}

const char *dl_wheel_targets(const dl_knowledge *k, const char *torch, const char *variant)
{
    const dl_table *t = k ? dl_knowledge_at(k, DL_TABLE_wheel_targets) : NULL;
    const char *family = !strncmp(variant, "rocm", 4) ? "rocm" : variant, *found = NULL;
    int want, from, to;
    size_t r;
    if (!minor_of(torch, &want))
        return NULL;
    for (r = 0; t && r < t->rows; r++) {
        const char *v = dl_table_cell(t, r, DL_COL_wheel_targets_variant);
        bool exact = !strcmp(v, variant);
        if ((!exact && strcmp(v, family) != 0) ||
            !minor_of(dl_table_cell(t, r, DL_COL_wheel_targets_torch_from), &from) ||
            !minor_of(dl_table_cell(t, r, DL_COL_wheel_targets_torch_to), &to) || want < from || want > to)
            continue;
        if (exact)
            return dl_table_cell(t, r, DL_COL_wheel_targets_targets);
        if (!found)
            found = dl_table_cell(t, r, DL_COL_wheel_targets_targets);
    }
    return found;
}

bool dl_target_in_list(const char *list, const char *target)
{
    return dl_semicolon_list_has(list, target);
}

/* "gfx803" -> 0x803, "gfx90a" -> 0x90a, "gfx1030" -> 0x1030: the number orders AMD's
 * generations (GCN 3 < Vega < CDNA < RDNA 1..4); -1 for anything else. */
static long gfx_number(const char *target, size_t n)
{
    char digits[8];
    char *end;
    long v;
    if (n < 4 || n - 3 >= sizeof digits || strncmp(target, "gfx", 3) != 0)
        return -1;
    memcpy(digits, target + 3, n - 3);
    digits[n - 3] = '\0';
    v = strtol(digits, &end, 16);
    return *end ? -1 : v;
}

bool dl_gfx_below_every_rocm_wheel(const dl_knowledge *k, const char *target)
{
    const dl_table *t = k ? dl_knowledge_at(k, DL_TABLE_wheel_targets) : NULL;
    long mine = target ? gfx_number(target, strlen(target)) : -1, oldest = -1;
    size_t r;
    for (r = 0; mine >= 0 && t && r < t->rows; r++) {
        const char *list = dl_table_cell(t, r, DL_COL_wheel_targets_targets);
        if (strncmp(dl_table_cell(t, r, DL_COL_wheel_targets_variant), "rocm", 4) != 0)
            continue;
        while (*list) {
            size_t n = strcspn(list, ";");
            long v = gfx_number(list, n);
            if (v >= 0 && (oldest < 0 || v < oldest))
                oldest = v;
            list += n + (list[n] == ';');
        }
    }
    return oldest >= 0 && mine < oldest;
}
