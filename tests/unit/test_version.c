#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "know/version.h"

#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- dl_version_parse / dl_version_cmp ---- */

static void version_parse_accepts_dotted_numbers(void **state)
{
    static const struct {
        const char *s;
        int n;
        unsigned long p[4];
    } cases[] = {
        {"12", 1, {12, 0, 0, 0}},
        {"12.4", 2, {12, 4, 0, 0}},
        {"12.4.127", 3, {12, 4, 127, 0}},
        {"535.104.05", 3, {535, 104, 5, 0}},
        {"2.3.1", 3, {2, 3, 1, 0}},
        {"31.0.15.3598", 4, {31, 0, 15, 3598}},
        {"0.0", 2, {0, 0, 0, 0}},
        {"999999999.1", 2, {999999999UL, 1, 0, 0}},
    };
    (void)state;
    for (size_t i = 0; i < COUNT(cases); i++) {
        dl_version v;
        assert_true(dl_version_parse(cases[i].s, &v));
        assert_int_equal(v.n, cases[i].n);
        for (int k = 0; k < 4; k++)
            assert_int_equal(v.part[k], cases[i].p[k]);
    }
}

static void version_parse_refuses_malformed(void **state)
{
    static const char *bad[] = {
        "", ".", "1.", ".1", "1..2", "1.2.3.4.5", "v1.2", "1.2a", "1.2 ", " 1.2", "-1",
        "1,2", "1.2+cu121", "abc", "1234567890", "1.x", "535.104.05\n",
    };
    (void)state;
    for (size_t i = 0; i < COUNT(bad); i++) {
        dl_version v;
        v.n = 7;
        assert_false(dl_version_parse(bad[i], &v));
        assert_int_equal(v.n, 0); /* zeroed on failure */
    }
    dl_version v;
    assert_false(dl_version_parse(NULL, &v));
}

static void version_cmp_orders_and_pads(void **state)
{
    static const struct {
        const char *a, *b;
        int want;
    } cases[] = {
        {"12.4", "12.4.0", 0},       {"12.4", "12.4.0.0", 0}, {"12.4", "12.4.1", -1},
        {"12.10", "12.9", 1},         {"11.8", "12.0", -1},    {"535.104.05", "535.98", 1},
        {"535.104.05", "535.104.5", 0}, {"2.3.1", "2.3.1", 0}, {"2", "10", -1},
        {"525", "525.60.13", -1},     {"580.65.06", "580", 1},
    };
    (void)state;
    for (size_t i = 0; i < COUNT(cases); i++) {
        dl_version a, b;
        assert_true(dl_version_parse(cases[i].a, &a));
        assert_true(dl_version_parse(cases[i].b, &b));
        int c = dl_version_cmp(&a, &b);
        assert_int_equal(c < 0 ? -1 : c > 0, cases[i].want);
        c = dl_version_cmp(&b, &a);
        assert_int_equal(c < 0 ? -1 : c > 0, -cases[i].want);
    }
}

/* ---- torch versions ---- */

static void torch_version_parse_table(void **state)
{
    static const struct {
        const char *s;
        const char *release;
        dl_pre_kind pre;
        unsigned long pre_num;
        const char *local;
    } cases[] = {
        {"2.3.1+cu121", "2.3.1", DL_PRE_NONE, 0, "cu121"},
        {"2.4.0a0+git1234abc", "2.4.0", DL_PRE_ALPHA, 0, "git1234abc"},
        {"1.13.0a0", "1.13.0", DL_PRE_ALPHA, 0, ""},
        {"2.6.0.dev20241112+cu124", "2.6.0", DL_PRE_DEV, 20241112, "cu124"},
        {"2.3.1", "2.3.1", DL_PRE_NONE, 0, ""},
        {"2.1.0rc3", "2.1.0", DL_PRE_RC, 3, ""},
        {"2.0.0b1", "2.0.0", DL_PRE_BETA, 1, ""},
        {"2.5.0dev1", "2.5.0", DL_PRE_DEV, 1, ""},
        {"1.0a", "1.0", DL_PRE_ALPHA, 0, ""},
        {"2.3.1rc", "2.3.1", DL_PRE_RC, 0, ""},
        {"2.5.1+rocm6.2", "2.5.1", DL_PRE_NONE, 0, "rocm6.2"},
        {"2.1.0+cpu.cxx11.abi", "2.1.0", DL_PRE_NONE, 0, "cpu.cxx11.abi"},
        {"2.4.0a0+f70bd71a48.nv24.06", "2.4.0", DL_PRE_ALPHA, 0, "f70bd71a48.nv24.06"},
        {"2.7.0+xpu", "2.7.0", DL_PRE_NONE, 0, "xpu"},
    };
    (void)state;
    for (size_t i = 0; i < COUNT(cases); i++) {
        dl_torch_version v;
        dl_version want;
        assert_true(dl_torch_version_parse(cases[i].s, &v));
        assert_true(dl_version_parse(cases[i].release, &want));
        assert_int_equal(dl_version_cmp(&v.release, &want), 0);
        assert_int_equal(v.release.n, want.n);
        assert_int_equal(v.pre, cases[i].pre);
        assert_int_equal(v.pre_num, cases[i].pre_num);
        assert_string_equal(v.local, cases[i].local);
    }
}

static void torch_version_refuses_malformed(void **state)
{
    static const char *bad[] = {
        "", "+cu121", "2.3.1+", "2.3.1+cu 121", "2.3.1+cu121+cpu", "2.3.1x", "2.3.1.",
        "2.3.1rc.", "2.3.1.rc1.", "torch", "2.3.1 ", "2.3.1+cu121/",
        "2.3.1+0123456789012345678901234567890123456789012345678901234567890123",
        "2.3.1a1234567890",
    };
    (void)state;
    for (size_t i = 0; i < COUNT(bad); i++) {
        dl_torch_version v;
        assert_false(dl_torch_version_parse(bad[i], &v));
        assert_int_equal(v.pre, DL_PRE_NONE);
        assert_string_equal(v.local, "");
    }
    dl_torch_version v;
    assert_false(dl_torch_version_parse(NULL, &v));
}

static void torch_version_cmp_follows_pep440(void **state)
{
    /* Each is older than the next. */
    static const char *order[] = {
        "1.13.0a0", "1.13.0", "2.4.0.dev20240101", "2.4.0.dev20240501", "2.4.0a0",
        "2.4.0b1", "2.4.0rc1", "2.4.0rc2", "2.4.0", "2.4.1", "2.10.0",
    };
    (void)state;
    for (size_t i = 0; i + 1 < COUNT(order); i++) {
        dl_torch_version a, b;
        assert_true(dl_torch_version_parse(order[i], &a));
        assert_true(dl_torch_version_parse(order[i + 1], &b));
        assert_true(dl_torch_version_cmp(&a, &b) < 0);
        assert_true(dl_torch_version_cmp(&b, &a) > 0);
        assert_int_equal(dl_torch_version_cmp(&a, &a), 0);
    }
    dl_torch_version x, y;
    assert_true(dl_torch_version_parse("2.3.1+cu121", &x));
    assert_true(dl_torch_version_parse("2.3.1+cpu", &y));
    assert_int_equal(dl_torch_version_cmp(&x, &y), 0);
    assert_true(dl_torch_version_parse("2.3", &y));
    assert_true(dl_torch_version_parse("2.3.0", &x));
    assert_int_equal(dl_torch_version_cmp(&x, &y), 0);
}

static void torch_variant_table(void **state)
{
    static const struct {
        const char *local;
        dl_variant_kind kind;
        const char *version;
    } cases[] = {
        {"cu121", DL_VARIANT_CUDA, "12.1"},     {"cu118", DL_VARIANT_CUDA, "11.8"},
        {"cu126", DL_VARIANT_CUDA, "12.6"},     {"cu128", DL_VARIANT_CUDA, "12.8"},
        {"cu130", DL_VARIANT_CUDA, "13.0"},     {"cu102", DL_VARIANT_CUDA, "10.2"},
        {"cu92", DL_VARIANT_CUDA, "9.2"},       {"cu132", DL_VARIANT_CUDA, "13.2"},
        {"cu121.with.pypi.cudnn", DL_VARIANT_CUDA, "12.1"},
        {"cpu", DL_VARIANT_CPU, ""},            {"cpu.cxx11.abi", DL_VARIANT_CPU, ""},
        {"rocm6.2.4", DL_VARIANT_ROCM, "6.2.4"}, {"rocm5.1.1", DL_VARIANT_ROCM, "5.1.1"},
        {"rocm6.2", DL_VARIANT_ROCM, "6.2"},    {"xpu", DL_VARIANT_XPU, ""},
        {"", DL_VARIANT_NONE, ""},              {NULL, DL_VARIANT_NONE, ""},
        {"git1234abc", DL_VARIANT_UNKNOWN, ""}, {"f70bd71a48.nv24.06", DL_VARIANT_UNKNOWN, ""},
        {"cu", DL_VARIANT_UNKNOWN, ""},         {"cu1", DL_VARIANT_UNKNOWN, ""},
        {"cu1210", DL_VARIANT_UNKNOWN, ""},     {"cu12x", DL_VARIANT_UNKNOWN, ""},
        {"cu012", DL_VARIANT_UNKNOWN, ""},      {"cpux", DL_VARIANT_UNKNOWN, ""},
        {"rocm", DL_VARIANT_UNKNOWN, ""},       {"rocmx", DL_VARIANT_UNKNOWN, ""},
        {"rocm6..2", DL_VARIANT_UNKNOWN, ""},   {"xpu2", DL_VARIANT_UNKNOWN, ""},
        {"cuda", DL_VARIANT_UNKNOWN, ""},       {"rocm123456789.123456", DL_VARIANT_UNKNOWN, ""},
    };
    (void)state;
    for (size_t i = 0; i < COUNT(cases); i++) {
        dl_variant v = dl_torch_variant(cases[i].local);
        assert_int_equal(v.kind, cases[i].kind);
        assert_string_equal(v.version, cases[i].version);
    }
}

static void cuda_variant_name_table(void **state)
{
    static const struct {
        const char *cuda;
        const char *want; /* NULL: refused */
    } cases[] = {
        {"12.8", "cu128"}, {"12.1", "cu121"}, {"11.8", "cu118"}, {"13.0", "cu130"},
        {"10.2", "cu102"}, {"9.2", "cu92"},   {"12.8.1", "cu128"}, {"12", NULL},
        {"12.10", NULL},   {"0.1", NULL},     {"", NULL},        {"cu128", NULL},
        {NULL, NULL},
    };
    (void)state;
    for (size_t i = 0; i < COUNT(cases); i++) {
        char out[16] = "untouched";
        bool ok = dl_cuda_variant_name(cases[i].cuda, out, sizeof out);
        assert_int_equal(ok, cases[i].want != NULL);
        if (ok)
            assert_string_equal(out, cases[i].want);
    }
    char tiny[5];
    assert_false(dl_cuda_variant_name("12.8", tiny, sizeof tiny)); /* "cu128" needs 6 */
    char fits[6];
    assert_true(dl_cuda_variant_name("12.8", fits, sizeof fits));
}

static void variant_name_round_trips(void **state)
{
    static const char *names[] = {"cu92", "cu102", "cu118", "cu121", "cu126", "cu130"};
    (void)state;
    for (size_t i = 0; i < COUNT(names); i++) {
        char out[16];
        dl_variant v = dl_torch_variant(names[i]);
        assert_true(dl_cuda_variant_name(v.version, out, sizeof out));
        assert_string_equal(out, names[i]);
    }
}

/* ---- CUDA integers ---- */

static void cuda_int_table(void **state)
{
    static const struct {
        int v;
        const char *s;
    } cases[] = {
        {12040, "12.4"}, {13000, "13.0"}, {11080, "11.8"}, {10020, "10.2"},
        {12090, "12.9"}, {9020, "9.2"},   {12085, "12.8"}, {13020, "13.2"},
    };
    (void)state;
    for (size_t i = 0; i < COUNT(cases); i++) {
        char out[16];
        assert_true(dl_cuda_version_from_int(cases[i].v, out, sizeof out));
        assert_string_equal(out, cases[i].s);
    }
    char out[16];
    assert_false(dl_cuda_version_from_int(0, out, sizeof out));
    assert_false(dl_cuda_version_from_int(-12040, out, sizeof out));
    char tiny[4];
    assert_false(dl_cuda_version_from_int(12040, tiny, sizeof tiny));
}

static void cuda_to_int_table(void **state)
{
    static const struct {
        const char *s;
        int v; /* 0: refused */
    } cases[] = {
        {"12.4", 12040}, {"13.0", 13000}, {"11.8", 11080}, {"12.8.1", 12080},
        {"9.2", 9020},   {"12", 0},       {"", 0},         {"12.x", 0},
        {"12.100", 0},   {NULL, 0},
    };
    (void)state;
    for (size_t i = 0; i < COUNT(cases); i++) {
        int v = -1;
        bool ok = dl_cuda_version_to_int(cases[i].s, &v);
        assert_int_equal(ok, cases[i].v != 0);
        if (ok)
            assert_int_equal(v, cases[i].v);
    }
}

/* A release read out of a line of text: the mark, then the version with its tag, and
 * nothing of the sentence around it. */
static void torch_version_after_table(void **state)
{
    static const struct {
        const char *text, *mark;
        size_t cap;
        const char *want; /* NULL: refused */
    } cases[] = {
        {"(you have 2.4.0+cu121)", "(you have ", 32, "2.4.0+cu121"},
        {"but you have torch 2.3.1.", "you have torch ", 32, "2.3.1"},
        {"requires torch==2.6.0.dev20241112+cu124, but", "torch==", 32,
         "2.6.0.dev20241112+cu124"},
        {"only torch<=2.6.0+ is there", "torch<=", 32, "2.6.0"},
        {"torch 2.3.0a0+git1234abc.", "torch ", 32, "2.3.0a0+git1234abc"},
        {"torch==2.13.0+cu126", "torch==", 8, "2.13.0+"},
        {"cuda 12.1", "cuda ", 32, NULL},   /* a major of 10 or more is no torch */
        {"torch 2 is here", "torch ", 32, NULL},
        {"torch version", "torch ", 32, NULL},
        {"no mark here", "torch==", 32, NULL},
        {"torch==2.1", "torch==", 1, NULL},
    };
    (void)state;
    for (size_t i = 0; i < COUNT(cases); i++) {
        char out[32] = "untouched";
        bool ok = dl_torch_version_after(cases[i].text, cases[i].mark, out, cases[i].cap);
        assert_int_equal(ok, cases[i].want != NULL);
        if (ok)
            assert_string_equal(out, cases[i].want);
    }
}

/* ---- driver versions ---- */

static void driver_from_windows_table(void **state)
{
    static const struct {
        const char *win;
        const char *want; /* NULL: refused */
    } cases[] = {
        {"31.0.15.3598", "535.98"}, {"32.0.15.6094", "560.94"}, {"30.0.14.7212", "472.12"},
        {"27.21.14.5671", "456.71"}, {"32.0.15.7283", "572.83"}, {"9.18.13.142", "301.42"},
        {"31.0.15.5222", "552.22"}, {"535.104.05", NULL},       {"31.0.15", NULL},
        {"31.0.15.35981", NULL},     {"31.0..3598", NULL},       {"31.0.15.3598.1", NULL},
        {"31.0.15.-1", NULL},        {"", NULL},                 {NULL, NULL},
        {"a.b.c.d", NULL},
    };
    (void)state;
    for (size_t i = 0; i < COUNT(cases); i++) {
        char out[16] = "";
        bool ok = dl_driver_from_windows(cases[i].win, out, sizeof out);
        assert_int_equal(ok, cases[i].want != NULL);
        if (ok)
            assert_string_equal(out, cases[i].want);
    }
    char tiny[6];
    assert_false(dl_driver_from_windows("31.0.15.3598", tiny, sizeof tiny));
}

static void driver_normalize_table(void **state)
{
    static const struct {
        const char *in;
        const char *want;
    } cases[] = {
        {"535.104.05", "535.104.05"}, {"535.98", "535.98"}, {"31.0.15.3598", "535.98"},
        {"550", NULL},                {"", NULL},           {"535.104.05-1", NULL},
    };
    (void)state;
    for (size_t i = 0; i < COUNT(cases); i++) {
        char out[32] = "";
        bool ok = dl_driver_normalize(cases[i].in, out, sizeof out);
        assert_int_equal(ok, cases[i].want != NULL);
        if (ok)
            assert_string_equal(out, cases[i].want);
    }
    char tiny[8];
    assert_false(dl_driver_normalize("535.104.05", tiny, sizeof tiny));
}

static void driver_cmp_table(void **state)
{
    static const struct {
        const char *a, *b;
        int want;
    } cases[] = {
        {"535.104.05", "535.98", 1},      {"535.98", "535.104.05", -1},
        {"31.0.15.3598", "535.98", 0},    {"32.0.15.6094", "31.0.15.3598", 1},
        {"450.80.02", "450.80.2", 0},     {"525.60.13", "525.85.12", -1},
        {"30.0.14.7212", "470.82.01", 1}, {"570.26", "570.124.06", -1},
    };
    (void)state;
    for (size_t i = 0; i < COUNT(cases); i++) {
        int c = 99;
        assert_true(dl_driver_cmp(cases[i].a, cases[i].b, &c));
        assert_int_equal(c < 0 ? -1 : c > 0, cases[i].want);
    }
    int c;
    assert_false(dl_driver_cmp("535", "535.98", &c));
    assert_false(dl_driver_cmp("535.98", "garbage", &c));
    assert_false(dl_driver_cmp(NULL, "535.98", &c));
}

/* ---- requirements ---- */

static void requirement_parse_table(void **state)
{
    static const struct {
        const char *req;
        bool ok;
        dl_req_op op;
        const char *version;
    } cases[] = {
        {">=450.80.02", true, DL_REQ_GE, "450.80.02"},
        {"<525", true, DL_REQ_LT, "525"},
        {"", true, DL_REQ_ANY, NULL},
        {"N/A", true, DL_REQ_ANY, NULL},
        {"  ", true, DL_REQ_ANY, NULL},
        {"> 470", true, DL_REQ_GT, "470"},
        {"<=12.4 ", true, DL_REQ_LE, "12.4"},
        {"==2.3.1", true, DL_REQ_EQ, "2.3.1"},
        {"=2.3.1", true, DL_REQ_EQ, "2.3.1"},
        {"!=2.3.1", true, DL_REQ_NE, "2.3.1"},
        {"525", false, DL_REQ_ANY, NULL},
        {">=", false, DL_REQ_ANY, NULL},
        {">=abc", false, DL_REQ_ANY, NULL},
        {"=>525", false, DL_REQ_ANY, NULL},
        {">>525", false, DL_REQ_ANY, NULL},
        {">=525,<580", false, DL_REQ_ANY, NULL},
        {"~=2.3", false, DL_REQ_ANY, NULL},
        {">= 1.2.3                                                              ", true,
         DL_REQ_GE, "1.2.3"},
        {">=1.2.3.4.5.6.7.8.9.0.1.2.3.4.5.6.7.8.9.0.1.2.3.4.5.6.7.8.9.0.1.2.3.4.5.6.7.8.9.0", false,
         DL_REQ_ANY, NULL},
        {NULL, false, DL_REQ_ANY, NULL},
    };
    (void)state;
    for (size_t i = 0; i < COUNT(cases); i++) {
        dl_requirement r;
        assert_int_equal(dl_requirement_parse(cases[i].req, &r), cases[i].ok);
        if (!cases[i].ok)
            continue;
        assert_int_equal(r.op, cases[i].op);
        if (cases[i].version) {
            dl_version want;
            assert_true(dl_version_parse(cases[i].version, &want));
            assert_int_equal(dl_version_cmp(&r.version, &want), 0);
        }
    }
}

static void requirement_ok_table(void **state)
{
    static const struct {
        const char *req, *version;
        bool want;
    } cases[] = {
        {">=450.80.02", "450.80.02", true}, {">=450.80.02", "450.80.01", false},
        {">=450.80.02", "535.104.05", true}, {">=450.80.02", "450.80", false},
        {"<525", "520.61.05", true},        {"<525", "525", false},
        {"<525", "525.60.13", false},       {"", "1.0", true},
        {"N/A", "580.65.06", true},         {">=525", "525", true},
        {">=525", "524.99", false},         {">525", "525.0.0", false},
        {">525", "525.0.1", true},          {"<=12.4", "12.4.0", true},
        {"<=12.4", "12.4.1", false},        {"==12.4", "12.4.0", true},
        {"!=12.4", "12.4.0", false},        {"!=12.4", "12.5", true},
        /* Unreadable inputs are never "satisfied". */
        {"525", "525", false},              {">=525", "garbage", false},
        {">=525", "", false},               {"", "garbage", false},
        {NULL, "525", false},               {">=525", NULL, false},
    };
    (void)state;
    for (size_t i = 0; i < COUNT(cases); i++)
        assert_int_equal(dl_requirement_ok(cases[i].req, cases[i].version), cases[i].want);
}

/* ---- driver vs wheel CUDA ---- */

static void cuda_compat_table(void **state)
{
    static const struct {
        int driver_cuda;
        const char *wheel_cuda, *driver, *mvc_min;
        dl_cuda_compat want;
    } cases[] = {
        /* The driver supports the wheel's CUDA outright. */
        {12040, "12.1", "550.54.14", ">=525", DL_CUDA_COMPAT_OK},
        {12040, "12.4", "550.54.14", ">=525", DL_CUDA_COMPAT_OK},
        {13000, "12.8", "580.65.06", ">=525", DL_CUDA_COMPAT_OK},
        {12020, "11.8", "535.104.05", ">=450.80.02", DL_CUDA_COMPAT_OK},
        {11040, "10.2", "470.82.01", "", DL_CUDA_COMPAT_OK},
        {12080, "12.8", NULL, NULL, DL_CUDA_COMPAT_OK},
        /* Same major, older minor: minor-version compatibility. */
        {12040, "12.8", "550.54.14", ">=525", DL_CUDA_COMPAT_OK_MINOR_COMPAT},
        {12000, "12.6", "525.60.13", ">=525", DL_CUDA_COMPAT_OK_MINOR_COMPAT},
        {12020, "12.8", "31.0.15.3598", ">=527.41", DL_CUDA_COMPAT_OK_MINOR_COMPAT},
        {11040, "11.8", "470.82.01", ">=450.80.02", DL_CUDA_COMPAT_OK_MINOR_COMPAT},
        {11000, "11.8", "450.80.02", ">=450.80.02", DL_CUDA_COMPAT_OK_MINOR_COMPAT},
        {13000, "13.2", "580.65.06", ">=580", DL_CUDA_COMPAT_OK_MINOR_COMPAT},
        /* Same major but below that major's MVC minimum. */
        {11000, "11.8", "450.51.06", ">=450.80.02", DL_CUDA_COMPAT_TOO_OLD},
        {11000, "11.1", "30.0.14.5139", ">=452.39", DL_CUDA_COMPAT_TOO_OLD},
        /* Another major: no compatibility across majors. */
        {11080, "12.1", "520.61.05", ">=525", DL_CUDA_COMPAT_TOO_OLD},
        {12090, "13.0", "575.57.08", ">=580", DL_CUDA_COMPAT_TOO_OLD},
        {10020, "11.0", "440.33.01", ">=450.80.02", DL_CUDA_COMPAT_TOO_OLD},
        /* CUDA 10.x and older: no minor-version compatibility at all. */
        {10010, "10.2", "418.87", ">=400", DL_CUDA_COMPAT_TOO_OLD},
        {9000, "9.2", "384.81", ">=384", DL_CUDA_COMPAT_TOO_OLD},
        /* What the answer depends on is not known. */
        {12020, "12.8", "31.0.15.3598", "", DL_CUDA_COMPAT_UNKNOWN},
        {12020, "12.8", "31.0.15.3598", NULL, DL_CUDA_COMPAT_UNKNOWN},
        {12020, "12.8", "31.0.15.3598", "N/A", DL_CUDA_COMPAT_UNKNOWN},
        {12020, "12.8", NULL, ">=525", DL_CUDA_COMPAT_UNKNOWN},
        {12020, "12.8", "garbage", ">=525", DL_CUDA_COMPAT_UNKNOWN},
        {12020, "12.8", "550.54.14", ">=x", DL_CUDA_COMPAT_UNKNOWN},
        {0, "12.8", "550.54.14", ">=525", DL_CUDA_COMPAT_UNKNOWN},
        {-1, "12.8", "550.54.14", ">=525", DL_CUDA_COMPAT_UNKNOWN},
        {12040, "", "550.54.14", ">=525", DL_CUDA_COMPAT_UNKNOWN},
        {12040, NULL, "550.54.14", ">=525", DL_CUDA_COMPAT_UNKNOWN},
        {12040, "cu128", "550.54.14", ">=525", DL_CUDA_COMPAT_UNKNOWN},
    };
    (void)state;
    for (size_t i = 0; i < COUNT(cases); i++) {
        dl_cuda_compat got = dl_cuda_compat_check(cases[i].driver_cuda, cases[i].wheel_cuda,
                                                  cases[i].driver, cases[i].mvc_min);
        if (got != cases[i].want)
            print_error("case %zu: got %d want %d\n", i, (int)got, (int)cases[i].want);
        assert_int_equal(got, cases[i].want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(version_parse_accepts_dotted_numbers),
        cmocka_unit_test(version_parse_refuses_malformed),
        cmocka_unit_test(version_cmp_orders_and_pads),
        cmocka_unit_test(torch_version_parse_table),
        cmocka_unit_test(torch_version_refuses_malformed),
        cmocka_unit_test(torch_version_cmp_follows_pep440),
        cmocka_unit_test(torch_variant_table),
        cmocka_unit_test(cuda_variant_name_table),
        cmocka_unit_test(variant_name_round_trips),
        cmocka_unit_test(cuda_int_table),
        cmocka_unit_test(cuda_to_int_table),
        cmocka_unit_test(torch_version_after_table),
        cmocka_unit_test(driver_from_windows_table),
        cmocka_unit_test(driver_normalize_table),
        cmocka_unit_test(driver_cmp_table),
        cmocka_unit_test(requirement_parse_table),
        cmocka_unit_test(requirement_ok_table),
        cmocka_unit_test(cuda_compat_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
