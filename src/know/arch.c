/* The architecture rule; see arch.h. */
#include "know/arch.h"

#include <stdio.h>
#include <string.h>

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

static bool prefix(const char *s, size_t len, const char *p)
{
    size_t n = strlen(p);
    return len >= n && strncmp(s, p, n) == 0;
}

/* True when s[0..len) is "+PTX" in any case (torch reads it case-sensitively, but a
 * pasted "+ptx" still means PTX). */
static bool is_plus_ptx(const char *s, size_t len)
{
    static const char want[] = "+ptx";
    if (len != sizeof want - 1)
        return false;
    for (size_t i = 0; i < len; i++) {
        if (lower(s[i]) != want[i])
            return false;
    }
    return true;
}

/* An optional suffix letter: "a" marks arch-specific code; "f" (CUDA 12.9 family code)
 * runs across its family the way plain SASS does, so only "a" changes the rule. */
static size_t read_suffix(const char *s, size_t len, bool *specific)
{
    *specific = false;
    if (len > 0 && s[0] == 'a') {
        *specific = true;
        return 1;
    }
    return (len > 0 && s[0] == 'f') ? 1 : 0;
}

/* nvcc notation: "sm_86", "sm_100a", "compute_90". The last digit is the minor. */
static bool parse_nvcc(const char *s, size_t len, dl_arch_target *t)
{
    size_t p = prefix(s, len, "sm_") ? 3 : prefix(s, len, "compute_") ? 8 : 0;
    if (p == 0)
        return false;
    t->code = p == 3 ? DL_ARCH_SASS : DL_ARCH_PTX;
    size_t d = 0;
    while (p + d < len && is_digit(s[p + d]))
        d++;
    if (d < 2 || d > 3 || s[p] == '0')
        return false;
    t->major = 0;
    for (size_t i = 0; i + 1 < d; i++)
        t->major = t->major * 10 + (unsigned)(s[p + i] - '0');
    t->minor = (unsigned)(s[p + d - 1] - '0');
    p += d;
    p += read_suffix(s + p, len - p, &t->specific);
    return p == len;
}

/* TORCH_CUDA_ARCH_LIST notation: "8.6", "9.0a", "12.0+PTX". */
static bool parse_dotted(const char *s, size_t len, dl_arch_target out[2], size_t *n)
{
    size_t p = 0;
    unsigned major = 0;
    while (p < len && p < 2 && is_digit(s[p]))
        major = major * 10 + (unsigned)(s[p++] - '0');
    if (p == 0 || major == 0 || p + 2 > len || s[p] != '.' || !is_digit(s[p + 1]))
        return false;
    dl_arch_target t = {major, (unsigned)(s[p + 1] - '0'), DL_ARCH_SASS, false};
    p += 2;
    p += read_suffix(s + p, len - p, &t.specific);
    out[0] = t;
    *n = 1;
    if (p == len)
        return true;
    if (!is_plus_ptx(s + p, len - p))
        return false;
    /* "+PTX" adds PTX for the same architecture next to its SASS. */
    t.code = DL_ARCH_PTX;
    out[(*n)++] = t;
    return true;
}

bool dl_arch_target_parse(const char *tok, size_t len, dl_arch_target out[2], size_t *n)
{
    *n = 0;
    if (!tok || len == 0)
        return false;
    if (is_digit(tok[0])) {
        if (parse_dotted(tok, len, out, n))
            return true;
        *n = 0; /* nothing half-parsed is handed out */
        return false;
    }
    if (!parse_nvcc(tok, len, &out[0]))
        return false;
    *n = 1;
    return true;
}

static bool is_sep(char c)
{
    return c == ';' || c == ',' || c == ' ' || c == '\t';
}

static void note_bad(dl_arch_list *list, const char *tok, size_t len)
{
    if (list->n_bad++ > 0)
        return;
    size_t keep = len < sizeof list->first_bad - 1 ? len : sizeof list->first_bad - 1;
    memcpy(list->first_bad, tok, keep);
    list->first_bad[keep] = '\0';
}

static void add_token(dl_arch_list *list, const char *tok, size_t len)
{
    dl_arch_target two[2];
    size_t n;
    if (!dl_arch_target_parse(tok, len, two, &n) || list->n + n > DL_ARCH_MAX_TARGETS) {
        note_bad(list, tok, len);
        return;
    }
    for (size_t i = 0; i < n; i++)
        list->t[list->n++] = two[i];
}

bool dl_arch_list_parse(const char *s, dl_arch_list *list)
{
    memset(list, 0, sizeof *list);
    if (!s)
        return false;
    while (*s) {
        size_t len = 0;
        while (s[len] && !is_sep(s[len]))
            len++;
        if (len > 0)
            add_token(list, s, len);
        s += len;
        while (is_sep(*s))
            s++;
    }
    return list->n_bad == 0;
}

bool dl_arch_target_name(const dl_arch_target *t, char *out, size_t n)
{
    int w = snprintf(out, n, "%s_%u%u%s", t->code == DL_ARCH_SASS ? "sm" : "compute",
                     t->major, t->minor, t->specific ? "a" : "");
    return w > 0 && (size_t)w < n;
}

bool dl_cc_parse(const char *s, unsigned *major, unsigned *minor)
{
    dl_arch_target t[2];
    size_t n;
    /* A device CC is the dotted notation without suffixes: exactly one SASS target. */
    if (!s || !dl_arch_target_parse(s, strlen(s), t, &n) || n != 1 || t[0].specific ||
        !is_digit(s[0]))
        return false;
    *major = t[0].major;
    *minor = t[0].minor;
    return true;
}

/* ---- the rule ---- */

static unsigned cc_key(unsigned major, unsigned minor)
{
    return major * 100 + minor;
}

static bool target_runs(const dl_arch_target *t, unsigned major, unsigned minor)
{
    if (t->specific)
        return t->major == major && t->minor == minor;
    if (t->code == DL_ARCH_SASS)
        return t->major == major && t->minor <= minor;
    return cc_key(t->major, t->minor) <= cc_key(major, minor);
}

/* The newest target of this code that runs on the device: what the driver would choose. */
static const dl_arch_target *best_target(const dl_arch_list *list, dl_arch_code code,
                                         unsigned major, unsigned minor)
{
    const dl_arch_target *best = NULL;
    for (size_t i = 0; i < list->n; i++) {
        const dl_arch_target *t = &list->t[i];
        if (t->code != code || !target_runs(t, major, minor))
            continue;
        if (!best || cc_key(t->major, t->minor) > cc_key(best->major, best->minor))
            best = t;
    }
    return best;
}

/* Nothing runs: say on which side of the list the device falls. */
static dl_arch_result classify_miss(const dl_arch_list *list, unsigned major, unsigned minor)
{
    dl_arch_result r;
    unsigned lo = ~0u, hi = 0, dev = cc_key(major, minor);
    memset(&r, 0, sizeof r);
    for (size_t i = 0; i < list->n; i++) {
        unsigned k = cc_key(list->t[i].major, list->t[i].minor);
        lo = k < lo ? k : lo;
        hi = k > hi ? k : hi;
    }
    /* Newer than every target is arch_not_in_wheel: a newer wheel is the fix. Older than
     * every target, or in a gap (sm_61 in "sm_50 sm_70 sm_80"), is gpu_arch_dropped:
     * DIAGNOSES.md's fix for it is "a wheel that still covers it", and a GPU in a gap
     * is older than the list's newest target, so no newer wheel brings its arch back,
     * an older (or other) variant does (cu111's nightly without sm_61; cu128 without
     * Pascal but with sm_50). */
    if (dev > hi) {
        r.verdict = DL_ARCH_TOO_NEW;
        r.diagnosis = "arch_not_in_wheel";
    } else if (dev >= lo && major >= 10) {
        /* a Blackwell-era gap (Thor's sm_110 in cu128's "sm_100 sm_120"): no wheel has
         * dropped such a GPU yet; its arch needs a newer toolkit's wheel (cu130 has
         * sm_110), so a newer wheel is the fix */
        r.verdict = DL_ARCH_NOT_COVERED;
        r.diagnosis = "arch_not_in_wheel";
    } else {
        r.verdict = dev < lo ? DL_ARCH_TOO_OLD : DL_ARCH_NOT_COVERED;
        r.diagnosis = "gpu_arch_dropped";
    }
    return r;
}

dl_arch_result dl_arch_check(unsigned cc_major, unsigned cc_minor, const dl_arch_list *list)
{
    dl_arch_result r;
    const dl_arch_target *t;
    memset(&r, 0, sizeof r);
    if (!list || list->n == 0 || cc_major == 0) {
        r.verdict = DL_ARCH_UNKNOWN;
        return r;
    }
    /* SASS first: the driver prefers ready machine code over compiling PTX. */
    if ((t = best_target(list, DL_ARCH_SASS, cc_major, cc_minor)) != NULL) {
        r.verdict = DL_ARCH_RUNS_SASS;
        r.target = *t;
        return r;
    }
    if ((t = best_target(list, DL_ARCH_PTX, cc_major, cc_minor)) != NULL) {
        r.verdict = DL_ARCH_RUNS_PTX_JIT;
        r.target = *t;
        r.needs_new_driver = true;
        return r;
    }
    return classify_miss(list, cc_major, cc_minor);
}
