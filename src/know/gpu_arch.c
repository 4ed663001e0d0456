/* Per-SM throughput of each compute capability and the peak arithmetic; see gpu_arch.h. */
#include "know/gpu_arch.h"

#include "base/str.h"
#include "know/arch.h"

#include <ctype.h>
#include <string.h>

/* A cell's number: "1024", "0.5". Parsed by hand because strtod follows the locale's
 * decimal point. 1 parsed, 0 empty, -1 not a number. */
static int parse_number(const char *cell, double *out)
{
    const char *p = cell;
    double v = 0, scale = 1;
    bool digits = false;
    while (*p == ' ')
        p++;
    if (!*p)
        return 0;
    for (; *p >= '0' && *p <= '9'; p++, digits = true)
        v = v * 10 + (*p - '0');
    if (*p == '.')
        for (p++; *p >= '0' && *p <= '9'; p++, digits = true)
            v += (*p - '0') * (scale /= 10);
    while (*p == ' ')
        p++;
    if (!digits || *p)
        return -1;
    *out = v;
    return 1;
}

static long find_row(const dl_table *t, unsigned major, unsigned minor)
{
    size_t r;
    for (r = 0; t && r < t->rows; r++) {
        unsigned ma, mi;
        if (dl_cc_parse(dl_table_cell(t, r, DL_COL_gpu_arch_compute_capability), &ma, &mi) &&
            ma == major && mi == minor)
            return (long)r;
    }
    return -1;
}

/* Reads column into *rate, scaled (2 per FMA lane for the CUDA-core columns). */
static bool read_rate(const dl_table *t, size_t row, dl_column_id column, double scale,
                      dl_gpu_rate *rate, dl_gpu_arch *out)
{
    const char *cell = dl_table_cell(t, row, column);
    double v = 0;
    int got = cell ? parse_number(cell, &v) : 0;
    if (got < 0 || (got > 0 && v <= 0)) {
        /* a zero rate is a typo for "unknown": refuse it */
        out->bad_column = dl_column_name(column);
        return false;
    }
    rate->known = got > 0;
    rate->flops_per_clk_sm = rate->known ? v * scale : 0;
    return true;
}

/* A factor cell: empty means 1 (no reduction); otherwise a number in (0, 1]. */
static bool read_factor(const dl_table *t, size_t row, dl_column_id column, double *factor,
                        dl_gpu_arch *out)
{
    const char *cell = dl_table_cell(t, row, column);
    int got = cell ? parse_number(cell, factor) : 0;
    if (got == 0)
        *factor = 1;
    if (got < 0 || *factor <= 0 || *factor > 1) {
        out->bad_column = dl_column_name(column);
        return false;
    }
    return true;
}

/* a[0..n) equals b[0..n) ignoring ASCII case. */
static bool same_ci(const char *a, const char *b, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i]))
            return false;
    return true;
}

/* s[0..*n) without the spaces around it; returns the new start. */
static const char *trim_span(const char *s, size_t *n)
{
    while (*n && *s == ' ') {
        s++;
        (*n)--;
    }
    while (*n && s[*n - 1] == ' ')
        (*n)--;
    return s;
}

/* device_name equals (ignoring case and surrounding spaces) one entry of "a; b". An
 * exact name, not a substring: "NVIDIA L40" must not match "NVIDIA L40S". */
static bool listed(const char *list, const char *device_name)
{
    size_t n = strlen(device_name);
    const char *name = trim_span(device_name, &n);
    while (list && *list) {
        const char *end = strchr(list, ';');
        size_t len = end ? (size_t)(end - list) : strlen(list);
        const char *entry = trim_span(list, &len);
        if (len && len == n && same_ci(entry, name, n))
            return true;
        list = end ? end + 1 : NULL;
    }
    return false;
}

bool dl_gpu_arch_lookup(const dl_knowledge *k, const char *compute_capability,
                        const char *device_name, dl_gpu_arch *out)
{
    const dl_table *t = k ? dl_knowledge_at(k, DL_TABLE_gpu_arch) : NULL;
    long row;
    memset(out, 0, sizeof *out);
    if (!dl_cc_parse(compute_capability, &out->cc_major, &out->cc_minor))
        return false;
    row = find_row(t, out->cc_major, out->cc_minor);
    if (row < 0)
        return false;
    out->architecture = dl_table_cell(t, (size_t)row, DL_COL_gpu_arch_architecture);
    out->source = dl_table_cell(t, (size_t)row, DL_COL_gpu_arch_source);
    if (!read_rate(t, (size_t)row, DL_COL_gpu_arch_fp32_lanes_per_sm, 2, &out->fp32, out) ||
        !read_rate(t, (size_t)row, DL_COL_gpu_arch_fp64_lanes_per_sm, 2, &out->fp64, out) ||
        !read_rate(t, (size_t)row, DL_COL_gpu_arch_tf32_tensor_flops_per_clk_sm, 1,
                   &out->tf32, out) ||
        !read_rate(t, (size_t)row, DL_COL_gpu_arch_fp16_tensor_flops_per_clk_sm, 1,
                   &out->fp16, out) ||
        !read_rate(t, (size_t)row, DL_COL_gpu_arch_bf16_tensor_flops_per_clk_sm, 1,
                   &out->bf16, out) ||
        !read_factor(t, (size_t)row, DL_COL_gpu_arch_geforce_fp32acc_factor,
                     &out->fp32acc_factor, out) ||
        !read_factor(t, (size_t)row, DL_COL_gpu_arch_geforce_tf32_factor, &out->tf32_factor,
                     out))
        return false;
    out->reduced =
        device_name &&
        (dl_contains_ci(device_name, "GeForce") ||
         listed(dl_table_cell(t, (size_t)row, DL_COL_gpu_arch_reduced_rate_devices),
                device_name));
    if (!out->reduced) {
        out->fp32acc_factor = 1;
        out->tf32_factor = 1;
    }
    out->fp16.flops_per_clk_sm *= out->fp32acc_factor;
    out->bf16.flops_per_clk_sm *= out->fp32acc_factor;
    out->tf32.flops_per_clk_sm *= out->tf32_factor;
    return true;
}

double dl_gpu_peak_flops(int sms, double per_sm_per_clk, double clock_khz)
{
    if (sms <= 0 || !(per_sm_per_clk > 0) || !(clock_khz > 0))
        return 0;
    return (double)sms * per_sm_per_clk * clock_khz * 1e3;
}

double dl_gpu_mem_peak_gbps(double memory_clock_khz, int bus_width_bits)
{
    if (!(memory_clock_khz > 0) || bus_width_bits <= 0)
        return 0;
    /* Two transfers per memory clock, bus_width_bits / 8 bytes each. */
    return 2.0 * memory_clock_khz * 1e3 * (bus_width_bits / 8.0) / 1e9;
}

double dl_pcie_peak_gbps(int generation, int width)
{
    /* Per lane: transfers per second x payload bits per line bit, / 8 bits per byte. */
    static const double lane_gbps[] = {
        2.5 * 8 / 10 / 8,     /* gen 1: 8b/10b */
        5.0 * 8 / 10 / 8,     /* gen 2: 8b/10b */
        8.0 * 128 / 130 / 8,  /* gen 3: 128b/130b */
        16.0 * 128 / 130 / 8, /* gen 4 */
        32.0 * 128 / 130 / 8, /* gen 5 */
        64.0 * 236 / 256 / 8, /* gen 6: PAM4, 256-byte flits carrying 236 TLP bytes */
    };
    if (generation < 1 || generation > (int)(sizeof lane_gbps / sizeof lane_gbps[0]) ||
        width <= 0)
        return 0;
    return lane_gbps[generation - 1] * width;
}

bool dl_gpu_arch_span_of_name(const dl_knowledge *k, const char *name, unsigned *lo,
                              unsigned *hi)
{
    const dl_table *t = k ? dl_knowledge_at(k, DL_TABLE_gpu_arch) : NULL;
    size_t r, n = strcspn(name, " ");
    *lo = *hi = 0;
    for (r = 0; t && r < t->rows; r++) {
        const char *arch = dl_table_cell(t, r, DL_COL_gpu_arch_architecture);
        unsigned major, minor;
        if (strlen(arch) != n || !same_ci(arch, name, n) ||
            !dl_cc_parse(dl_table_cell(t, r, DL_COL_gpu_arch_compute_capability), &major,
                         &minor))
            continue;
        if (!*lo || major * 10 + minor < *lo)
            *lo = major * 10 + minor;
        if (major * 10 + minor > *hi)
            *hi = major * 10 + minor;
    }
    return *hi > 0;
}

/* The word ("quadro", "tesla") in name, case aside, as a word of its own: what follows it,
 * or NULL. */
static const char *after_word(const char *name, const char *word)
{
    size_t n = strlen(word), i;
    for (i = 0; name[i]; i++)
        if (same_ci(name + i, word, n) && (i == 0 || !isalnum((unsigned char)name[i - 1])) &&
            name[i + n] == ' ')
            return name + i + n + 1;
    return NULL;
}

bool dl_gpu_pro_model_span(const dl_knowledge *k, const char *name, unsigned *lo,
                           unsigned *hi)
{
    static const struct { char letter; const char *arch; } letters[] = {
        {'k', "Kepler"}, {'m', "Maxwell"}, {'p', "Pascal"}, {'v', "Volta"}, {'t', "Turing"}};
    const char *model = after_word(name, "quadro");
    bool quadro = model != NULL;
    unsigned mlo, mhi;
    size_t i;
    if (!model)
        model = after_word(name, "tesla");
    /* the data-center cards named without "Tesla" ("NVIDIA P40", "NVIDIA K80") */
    if (!model)
        model = after_word(name, "nvidia");
    if (!model || !isdigit((unsigned char)model[1]))
        return false;
    for (i = 0; i < sizeof letters / sizeof letters[0]; i++) {
        /* a Tesla T is Turing only as the T4, which the name table has; "Tesla T10" is a
         * 2008 card */
        if (tolower((unsigned char)model[0]) != letters[i].letter ||
            (!quadro && letters[i].letter == 't') ||
            !dl_gpu_arch_span_of_name(k, letters[i].arch, lo, hi))
            continue;
        if (quadro && letters[i].letter == 'k' &&
            dl_gpu_arch_span_of_name(k, "Maxwell", &mlo, &mhi))
            *hi = mlo;
        return true;
    }
    return false;
}
