/* Version parsing and comparing; see version.h. Every parser here is strict: a string
 * that is not exactly the expected shape is refused rather than half-read, so a garbled
 * fact becomes "unknown" upstream instead of a wrong verdict. */
#include "know/version.h"

#include <stdio.h>
#include <string.h>

/* Nine digits always fit an unsigned long (at least 32 bits), so no overflow checks
 * beyond the length are needed. */
#define DL_MAX_DIGITS 9

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_alnum(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Reads a run of 1..9 digits at *p and advances past it. */
static bool read_number(const char **p, unsigned long *out)
{
    const char *s = *p;
    unsigned long v = 0;
    int len = 0;
    while (is_digit(s[len])) {
        if (len == DL_MAX_DIGITS)
            return false;
        v = v * 10 + (unsigned long)(s[len] - '0');
        len++;
    }
    if (len == 0)
        return false;
    *p = s + len;
    *out = v;
    return true;
}

/* Reads "N(.N){0,3}" at *p and advances past it; what follows is the caller's business. */
static bool read_version(const char **p, dl_version *v)
{
    const char *s = *p;
    memset(v, 0, sizeof *v);
    for (;;) {
        if (v->n == DL_VERSION_MAX_PARTS || !read_number(&s, &v->part[v->n]))
            return false;
        v->n++;
        /* A dot continues the version only when a digit follows: in "2.6.0.dev1" the
         * ".dev" belongs to the pre-release tag. */
        if (s[0] != '.' || !is_digit(s[1]))
            break;
        s++;
    }
    *p = s;
    return true;
}

bool dl_version_parse(const char *s, dl_version *v)
{
    if (!s || !read_version(&s, v) || *s != '\0') {
        memset(v, 0, sizeof *v);
        return false;
    }
    return true;
}

int dl_version_cmp(const dl_version *a, const dl_version *b)
{
    for (int i = 0; i < DL_VERSION_MAX_PARTS; i++) {
        if (a->part[i] != b->part[i])
            return a->part[i] < b->part[i] ? -1 : 1;
    }
    return 0;
}

/* ---- torch versions ---- */

static const struct {
    const char *tag;
    dl_pre_kind kind;
} pre_tags[] = {
    /* No tag is a prefix of another, so the order of this table does not matter. */
    {"rc", DL_PRE_RC}, {"dev", DL_PRE_DEV}, {"a", DL_PRE_ALPHA}, {"b", DL_PRE_BETA},
};

/* Reads an optional pre-release tag at *p: [.](a|b|rc|dev)[N]. */
static bool read_pre(const char **p, dl_torch_version *v)
{
    const char *s = *p;
    v->pre = DL_PRE_NONE;
    v->pre_num = 0;
    if (*s == '.')
        s++;
    for (size_t i = 0; i < sizeof pre_tags / sizeof pre_tags[0]; i++) {
        size_t len = strlen(pre_tags[i].tag);
        if (strncmp(s, pre_tags[i].tag, len) != 0)
            continue;
        s += len;
        /* PEP 440: a tag without a number means 0 ("1.0a" == "1.0a0"). */
        if (is_digit(*s) && !read_number(&s, &v->pre_num))
            return false;
        v->pre = pre_tags[i].kind;
        *p = s;
        return true;
    }
    /* No tag: leave *p alone, so a lone '.' is left for the caller to refuse. */
    return true;
}

static bool local_ok(const char *s)
{
    if (*s == '\0' || strlen(s) >= sizeof ((dl_torch_version *)0)->local)
        return false;
    for (; *s; s++) {
        if (!is_alnum(*s) && *s != '.' && *s != '_' && *s != '-')
            return false;
    }
    return true;
}

bool dl_torch_version_parse(const char *s, dl_torch_version *v)
{
    memset(v, 0, sizeof *v);
    v->pre = DL_PRE_NONE;
    if (!s || !read_version(&s, &v->release) || !read_pre(&s, v))
        goto bad;
    if (*s == '+') {
        if (!local_ok(s + 1))
            goto bad;
        strcpy(v->local, s + 1);
    } else if (*s != '\0') {
        goto bad;
    }
    return true;
bad:
    memset(v, 0, sizeof *v);
    v->pre = DL_PRE_NONE;
    return false;
}

int dl_torch_version_cmp(const dl_torch_version *a, const dl_torch_version *b)
{
    int c = dl_version_cmp(&a->release, &b->release);
    if (c != 0)
        return c;
    if (a->pre != b->pre)
        return a->pre < b->pre ? -1 : 1;
    if (a->pre_num != b->pre_num)
        return a->pre_num < b->pre_num ? -1 : 1;
    return 0;
}

/* A run of letters and digits, dots only between two of them ("2.6.0.dev20241112" but
 * not a sentence's full stop); returns its length, at most n. */
static size_t dotted_run(const char *v, size_t n, size_t *dots)
{
    size_t k = 0;
    while (k < n && (is_alnum(v[k]) || (v[k] == '.' && is_alnum(v[k + 1]))))
        *dots += v[k++] == '.';
    return k;
}

bool dl_torch_version_after(const char *text, const char *mark, char *out, size_t n)
{
    const char *v = text && mark ? strstr(text, mark) : NULL;
    size_t k, dots = 0, tag_dots = 0;
    if (!v || n < 2)
        return false;
    v += strlen(mark);
    k = dotted_run(v, n - 1, &dots);
    if (k && k + 1 < n && v[k] == '+' && is_alnum(v[k + 1]))
        k += 1 + dotted_run(v + k + 1, n - 2 - k, &tag_dots);
    if (!dots || !is_digit(v[0]) || is_digit(v[1]))
        return false; /* no release, or a major of 10 or more: a CUDA, not a torch */
    memcpy(out, v, k);
    out[k] = '\0';
    return true;
}

/* ---- build variants ---- */

/* The first dot-separated word of a local tag: "cpu.cxx11.abi" and
 * "cu121.with.pypi.cudnn" were real tags whose first word names the build. */
static bool first_word_is(const char *local, const char *word)
{
    size_t len = strlen(word);
    return strncmp(local, word, len) == 0 && (local[len] == '\0' || local[len] == '.');
}

/* "cu121" -> "12.1": the last digit is the minor, the ones before it the major
 * (cu92 -> 9.2, cu102 -> 10.2). */
static bool cuda_from_tag(const char *digits, char *out, size_t n)
{
    size_t len = 0;
    while (is_digit(digits[len]))
        len++;
    if (len < 2 || len > 3 || (digits[len] != '\0' && digits[len] != '.') || digits[0] == '0')
        return false;
    int w = snprintf(out, n, "%.*s.%c", (int)(len - 1), digits, digits[len - 1]);
    return w > 0 && (size_t)w < n;
}

/* "rocm6.2.4" -> "6.2.4". */
static bool rocm_from_tag(const char *s, char *out, size_t n)
{
    dl_version v;
    const char *end = s;
    if (!read_version(&end, &v) || *end != '\0')
        return false;
    size_t len = (size_t)(end - s);
    if (len >= n)
        return false;
    memcpy(out, s, len);
    out[len] = '\0';
    return true;
}

dl_variant dl_torch_variant(const char *local)
{
    dl_variant r;
    memset(&r, 0, sizeof r);
    if (!local || !*local)
        r.kind = DL_VARIANT_NONE;
    else if (first_word_is(local, "cpu"))
        r.kind = DL_VARIANT_CPU;
    else if (first_word_is(local, "xpu"))
        r.kind = DL_VARIANT_XPU;
    else if (strncmp(local, "cu", 2) == 0 && cuda_from_tag(local + 2, r.version, sizeof r.version))
        r.kind = DL_VARIANT_CUDA;
    else if (strncmp(local, "rocm", 4) == 0 && rocm_from_tag(local + 4, r.version, sizeof r.version))
        r.kind = DL_VARIANT_ROCM;
    else
        r.kind = DL_VARIANT_UNKNOWN;
    if (r.kind != DL_VARIANT_CUDA && r.kind != DL_VARIANT_ROCM)
        r.version[0] = '\0';
    return r;
}

bool dl_cuda_variant_name(const char *cuda, char *out, size_t n)
{
    dl_version v;
    /* A variant names major.minor; one digit of minor is all the name can hold. */
    if (!dl_version_parse(cuda, &v) || v.n < 2 || v.part[1] > 9 || v.part[0] == 0 ||
        v.part[0] > 99)
        return false;
    int w = snprintf(out, n, "cu%lu%lu", v.part[0], v.part[1]);
    return w > 0 && (size_t)w < n;
}

/* ---- CUDA integers ---- */

bool dl_cuda_version_from_int(int v, char *out, size_t n)
{
    if (v <= 0)
        return false;
    int w = snprintf(out, n, "%d.%d", v / 1000, (v % 1000) / 10);
    return w > 0 && (size_t)w < n;
}

bool dl_cuda_version_to_int(const char *s, int *out)
{
    dl_version v;
    /* The integer holds a two-digit minor; a major past 2 million would overflow it. */
    if (!dl_version_parse(s, &v) || v.n < 2 || v.part[1] > 99 || v.part[0] > 2000000)
        return false;
    *out = (int)(v.part[0] * 1000 + v.part[1] * 10);
    return true;
}

/* ---- driver versions ---- */

/* Splits "a.b.c.d" into four digit groups (pointers and lengths into s). */
static bool split4(const char *s, const char *g[4], size_t len[4])
{
    for (int i = 0; i < 4; i++) {
        g[i] = s;
        len[i] = 0;
        while (is_digit(s[len[i]]))
            len[i]++;
        if (len[i] == 0 || len[i] > 5)
            return false;
        s += len[i];
        if (*s != (i == 3 ? '\0' : '.'))
            return false;
        s++;
    }
    return true;
}

bool dl_driver_from_windows(const char *win, char *out, size_t n)
{
    const char *g[4];
    size_t len[4];
    char digits[16] = "";
    if (!win || !split4(win, g, len) || len[3] > 4)
        return false;
    /* Windows writes each group as a plain number, so 301.42 is "...13.142": pad the
     * fourth group back to its four digits before joining. */
    size_t w = len[2];
    memcpy(digits, g[2], len[2]);
    for (size_t i = len[3]; i < 4; i++)
        digits[w++] = '0';
    memcpy(digits + w, g[3], len[3]);
    w += len[3];
    /* w >= 5 here: the third group has a digit and the fourth was padded to four. */
    const char *last5 = digits + w - 5;
    int k = snprintf(out, n, "%.3s.%.2s", last5, last5 + 3);
    return k > 0 && (size_t)k < n;
}

bool dl_driver_normalize(const char *s, char *out, size_t n)
{
    dl_version v;
    if (!dl_version_parse(s, &v) || v.n < 2)
        return false;
    if (v.n == 4)
        return dl_driver_from_windows(s, out, n);
    if (strlen(s) >= n)
        return false;
    strcpy(out, s);
    return true;
}

static bool driver_version_of(const char *s, dl_version *v)
{
    char norm[32];
    return dl_driver_normalize(s, norm, sizeof norm) && dl_version_parse(norm, v);
}

bool dl_driver_cmp(const char *a, const char *b, int *out)
{
    dl_version va, vb;
    if (!driver_version_of(a, &va) || !driver_version_of(b, &vb))
        return false;
    *out = dl_version_cmp(&va, &vb);
    return true;
}

/* ---- requirements ---- */

static const struct {
    const char *text;
    dl_req_op op;
} req_ops[] = {
    /* Two-character operators first so ">=" is not read as ">". */
    {">=", DL_REQ_GE}, {"<=", DL_REQ_LE}, {"==", DL_REQ_EQ}, {"!=", DL_REQ_NE},
    {">", DL_REQ_GT},  {"<", DL_REQ_LT},  {"=", DL_REQ_EQ},
};

static const char *skip_spaces(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* Parses the version that runs from s to its trailing spaces. */
static bool parse_trimmed_version(const char *s, dl_version *v)
{
    char buf[64];
    size_t len = strlen(s);
    while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
        len--;
    if (len >= sizeof buf)
        return false;
    memcpy(buf, s, len);
    buf[len] = '\0';
    return dl_version_parse(buf, v);
}

bool dl_requirement_parse(const char *req, dl_requirement *r)
{
    memset(r, 0, sizeof *r);
    if (!req)
        return false;
    const char *s = skip_spaces(req);
    /* The tables leave a cell empty, or write N/A, where nothing is required. */
    if (*s == '\0' || strcmp(s, "N/A") == 0)
        return true;
    for (size_t i = 0; i < sizeof req_ops / sizeof req_ops[0]; i++) {
        size_t len = strlen(req_ops[i].text);
        if (strncmp(s, req_ops[i].text, len) == 0) {
            r->op = req_ops[i].op;
            return parse_trimmed_version(skip_spaces(s + len), &r->version);
        }
    }
    return false;
}

bool dl_requirement_test(const dl_requirement *r, const dl_version *v)
{
    int c = dl_version_cmp(v, &r->version);
    switch (r->op) {
    case DL_REQ_ANY: return true;
    case DL_REQ_GE: return c >= 0;
    case DL_REQ_GT: return c > 0;
    case DL_REQ_LE: return c <= 0;
    case DL_REQ_LT: return c < 0;
    case DL_REQ_EQ: return c == 0;
    case DL_REQ_NE: return c != 0;
    }
    return false;
}

bool dl_requirement_ok(const char *req, const char *version)
{
    dl_requirement r;
    dl_version v;
    return dl_requirement_parse(req, &r) && dl_version_parse(version, &v) &&
           dl_requirement_test(&r, &v);
}

/* ---- driver vs wheel CUDA ---- */

/* Minor-version compatibility began with CUDA 11. */
#define DL_FIRST_MVC_MAJOR 11

static dl_cuda_compat mvc_check(const char *driver_version, const char *mvc_min_driver)
{
    dl_requirement r;
    dl_version v;
    /* Without the minimum or the driver's version the rule cannot be decided; saying
     * "too old" here would send users to update a driver that may be fine. */
    if (!mvc_min_driver || !driver_version || !dl_requirement_parse(mvc_min_driver, &r) ||
        r.op == DL_REQ_ANY || !driver_version_of(driver_version, &v))
        return DL_CUDA_COMPAT_UNKNOWN;
    return dl_requirement_test(&r, &v) ? DL_CUDA_COMPAT_OK_MINOR_COMPAT : DL_CUDA_COMPAT_TOO_OLD;
}

dl_cuda_compat dl_cuda_compat_check(int driver_cuda, const char *wheel_cuda,
                                    const char *driver_version, const char *mvc_min_driver)
{
    int wheel;
    if (driver_cuda <= 0 || !dl_cuda_version_to_int(wheel_cuda, &wheel))
        return DL_CUDA_COMPAT_UNKNOWN;
    if (driver_cuda >= wheel)
        return DL_CUDA_COMPAT_OK;
    if (driver_cuda / 1000 != wheel / 1000 || wheel / 1000 < DL_FIRST_MVC_MAJOR)
        return DL_CUDA_COMPAT_TOO_OLD;
    return mvc_check(driver_version, mvc_min_driver);
}
