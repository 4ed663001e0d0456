#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "know/arch.h"

#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Lists as wheel_arches.csv holds them. */
#define CU118_LINUX "sm_37;sm_50;sm_60;sm_70;sm_75;sm_80;sm_86;sm_90"
#define CU121_LINUX "sm_50;sm_60;sm_70;sm_75;sm_80;sm_86;sm_90"
#define CU126_LINUX "5.0;6.0;7.0;7.5;8.0;8.6;9.0"
#define CU126_PTX "5.0;6.0;7.0;7.5;8.0;8.6;9.0+PTX"
#define CU128_LINUX "sm_75;sm_80;sm_86;sm_90;sm_100;sm_120"
#define CU130_LINUX "7.5;8.0;8.6;9.0;10.0;12.0+PTX"
#define CU113_WIN "3.7+PTX;5.0;6.0;6.1;7.0;7.5;8.0;8.6"
#define CU102_LINUX "sm_37;sm_50;sm_60;sm_70"

/* ---- parsing ---- */

static void target_parse_table(void **state)
{
    static const struct {
        const char *tok;
        size_t n;
        dl_arch_target t[2];
    } cases[] = {
        {"sm_86", 1, {{8, 6, DL_ARCH_SASS, false}}},
        {"sm_90a", 1, {{9, 0, DL_ARCH_SASS, true}}},
        {"sm_100a", 1, {{10, 0, DL_ARCH_SASS, true}}},
        {"sm_100f", 1, {{10, 0, DL_ARCH_SASS, false}}},
        {"sm_120", 1, {{12, 0, DL_ARCH_SASS, false}}},
        {"sm_37", 1, {{3, 7, DL_ARCH_SASS, false}}},
        {"compute_90", 1, {{9, 0, DL_ARCH_PTX, false}}},
        {"compute_120", 1, {{12, 0, DL_ARCH_PTX, false}}},
        {"compute_90a", 1, {{9, 0, DL_ARCH_PTX, true}}},
        {"8.6", 1, {{8, 6, DL_ARCH_SASS, false}}},
        {"9.0a", 1, {{9, 0, DL_ARCH_SASS, true}}},
        {"10.0", 1, {{10, 0, DL_ARCH_SASS, false}}},
        {"9.0+PTX", 2, {{9, 0, DL_ARCH_SASS, false}, {9, 0, DL_ARCH_PTX, false}}},
        {"12.0+PTX", 2, {{12, 0, DL_ARCH_SASS, false}, {12, 0, DL_ARCH_PTX, false}}},
        {"3.7+ptx", 2, {{3, 7, DL_ARCH_SASS, false}, {3, 7, DL_ARCH_PTX, false}}},
        {"9.0a+PTX", 2, {{9, 0, DL_ARCH_SASS, true}, {9, 0, DL_ARCH_PTX, true}}},
    };
    (void)state;
    for (size_t i = 0; i < COUNT(cases); i++) {
        dl_arch_target t[2];
        size_t n = 99;
        assert_true(dl_arch_target_parse(cases[i].tok, strlen(cases[i].tok), t, &n));
        assert_int_equal(n, cases[i].n);
        for (size_t k = 0; k < n; k++) {
            assert_int_equal(t[k].major, cases[i].t[k].major);
            assert_int_equal(t[k].minor, cases[i].t[k].minor);
            assert_int_equal(t[k].code, cases[i].t[k].code);
            assert_int_equal(t[k].specific, cases[i].t[k].specific);
        }
    }
}

static void target_parse_refuses_garbage(void **state)
{
    static const char *bad[] = {
        "", "sm_", "sm_8", "sm_1000", "sm_086", "sm_86b", "sm_86aa", "sm86", "SM_86",
        "compute_", "compute_9", "compute90", "8", "8.", "8.x", ".6", "8.66", "100.0",
        "0.5", "9.0+", "9.0+PTXX", "9.0 PTX", "9.0PTX", "Ampere", "sm_90a+PTX", "-8.6",
        "lto_90", "sm_90\xE2",
    };
    (void)state;
    for (size_t i = 0; i < COUNT(bad); i++) {
        dl_arch_target t[2];
        size_t n = 99;
        if (dl_arch_target_parse(bad[i], strlen(bad[i]), t, &n))
            print_error("accepted \"%s\"\n", bad[i]);
        assert_false(dl_arch_target_parse(bad[i], strlen(bad[i]), t, &n));
        assert_int_equal(n, 0);
    }
    dl_arch_target t[2];
    size_t n;
    assert_false(dl_arch_target_parse(NULL, 3, t, &n));
    /* The length bounds the token: "sm_86" inside "sm_86;sm_90". */
    assert_true(dl_arch_target_parse("sm_86;sm_90", 5, t, &n));
    assert_int_equal(t[0].minor, 6);
}

static void list_parse_both_notations(void **state)
{
    dl_arch_list l;
    (void)state;
    assert_true(dl_arch_list_parse(CU130_LINUX, &l));
    assert_int_equal(l.n, 7); /* six SASS plus the PTX of 12.0 */
    assert_int_equal(l.n_bad, 0);
    assert_int_equal(l.t[6].code, DL_ARCH_PTX);
    assert_int_equal(l.t[6].major, 12);

    assert_true(dl_arch_list_parse(CU118_LINUX, &l));
    assert_int_equal(l.n, 8);

    /* Separators of every kind, runs of them, and mixed notations. */
    assert_true(dl_arch_list_parse("  sm_80, 8.6;;9.0+PTX\tcompute_75  ", &l));
    assert_int_equal(l.n, 5);
    assert_int_equal(l.t[4].code, DL_ARCH_PTX);
    assert_int_equal(l.t[4].major, 7);

    assert_true(dl_arch_list_parse("", &l));
    assert_int_equal(l.n, 0);
    assert_false(dl_arch_list_parse(NULL, &l));
}

static void list_parse_skips_garbage_with_a_flag(void **state)
{
    dl_arch_list l;
    (void)state;
    assert_false(dl_arch_list_parse("sm_80;Ampere;sm_86;bogus_token_that_is_very_long;8.x", &l));
    assert_int_equal(l.n, 2);
    assert_int_equal(l.n_bad, 3);
    assert_string_equal(l.first_bad, "Ampere");

    assert_false(dl_arch_list_parse("averyveryverylongtokenthatdoesnotfit;sm_90", &l));
    assert_int_equal(l.n, 1);
    assert_int_equal(strlen(l.first_bad), sizeof l.first_bad - 1);

    /* More targets than fit: the overflow is counted, never written past the end. */
    char big[1024] = "";
    for (int i = 0; i < DL_ARCH_MAX_TARGETS + 3; i++)
        strcat(big, "sm_80;");
    assert_false(dl_arch_list_parse(big, &l));
    assert_int_equal(l.n, DL_ARCH_MAX_TARGETS);
    assert_int_equal(l.n_bad, 3);
}

static void target_name_table(void **state)
{
    static const char *names[] = {"sm_86", "sm_90a", "compute_90", "sm_120", "compute_100a"};
    (void)state;
    for (size_t i = 0; i < COUNT(names); i++) {
        dl_arch_target t[2];
        size_t n;
        char out[16];
        assert_true(dl_arch_target_parse(names[i], strlen(names[i]), t, &n));
        assert_true(dl_arch_target_name(&t[0], out, sizeof out));
        assert_string_equal(out, names[i]);
    }
    dl_arch_target t = {8, 6, DL_ARCH_SASS, false};
    char tiny[5];
    assert_false(dl_arch_target_name(&t, tiny, sizeof tiny));
}

static void cc_parse_table(void **state)
{
    static const struct {
        const char *s;
        bool ok;
        unsigned major, minor;
    } cases[] = {
        {"8.9", true, 8, 9},   {"12.0", true, 12, 0}, {"3.5", true, 3, 5},
        {"10.3", true, 10, 3}, {"9.0a", false, 0, 0}, {"9.0+PTX", false, 0, 0},
        {"sm_89", false, 0, 0}, {"8", false, 0, 0},   {"", false, 0, 0},
        {"8.9.1", false, 0, 0}, {NULL, false, 0, 0},
    };
    (void)state;
    for (size_t i = 0; i < COUNT(cases); i++) {
        unsigned major = 99, minor = 99;
        assert_int_equal(dl_cc_parse(cases[i].s, &major, &minor), cases[i].ok);
        if (cases[i].ok) {
            assert_int_equal(major, cases[i].major);
            assert_int_equal(minor, cases[i].minor);
        }
    }
}

/* ---- the rule ---- */

typedef struct arch_case {
    const char *cc;
    const char *list;
    dl_arch_verdict verdict;
    const char *target; /* the target that runs, by name */
} arch_case;

static const arch_case arch_cases[] = {
    /* SASS of the same major with minor <= the device's. */
    {"8.9", "sm_86", DL_ARCH_RUNS_SASS, "sm_86"},
    {"8.6", "sm_80", DL_ARCH_RUNS_SASS, "sm_80"},
    {"8.9", "sm_80;sm_86", DL_ARCH_RUNS_SASS, "sm_86"},
    {"8.9", CU121_LINUX, DL_ARCH_RUNS_SASS, "sm_86"},
    {"7.5", CU102_LINUX, DL_ARCH_RUNS_SASS, "sm_70"},
    {"8.6", CU118_LINUX, DL_ARCH_RUNS_SASS, "sm_86"},
    {"9.0", CU126_LINUX, DL_ARCH_RUNS_SASS, "sm_90"},
    {"12.0", CU128_LINUX, DL_ARCH_RUNS_SASS, "sm_120"},
    {"12.0", CU130_LINUX, DL_ARCH_RUNS_SASS, "sm_120"},
    {"10.3", CU128_LINUX, DL_ARCH_RUNS_SASS, "sm_100"},
    {"12.1", CU128_LINUX, DL_ARCH_RUNS_SASS, "sm_120"},
    {"6.1", CU126_LINUX, DL_ARCH_RUNS_SASS, "sm_60"},
    {"6.1", CU113_WIN, DL_ARCH_RUNS_SASS, "sm_61"},
    /* No SASS across majors. */
    {"8.9", "sm_90", DL_ARCH_TOO_OLD, NULL},
    {"8.0", "sm_75", DL_ARCH_TOO_NEW, NULL},
    /* Kepler. */
    {"3.7", CU118_LINUX, DL_ARCH_RUNS_SASS, "sm_37"},
    {"3.5", CU118_LINUX, DL_ARCH_TOO_OLD, NULL},
    {"3.5", CU121_LINUX, DL_ARCH_TOO_OLD, NULL},
    {"3.7", CU121_LINUX, DL_ARCH_TOO_OLD, NULL},
    {"3.7", CU113_WIN, DL_ARCH_RUNS_SASS, "sm_37"},
    {"3.5", CU113_WIN, DL_ARCH_TOO_OLD, NULL},
    /* Maxwell. */
    {"5.0", CU121_LINUX, DL_ARCH_RUNS_SASS, "sm_50"},
    {"5.2", CU121_LINUX, DL_ARCH_RUNS_SASS, "sm_50"},
    {"5.2", CU128_LINUX, DL_ARCH_TOO_OLD, NULL},
    {"5.0", "sm_70;sm_75;sm_80", DL_ARCH_TOO_OLD, NULL},
    /* Pascal against lists that start at sm_70 / sm_75. */
    {"6.1", "sm_70;sm_75;sm_80;sm_86;sm_90;sm_100;sm_120", DL_ARCH_TOO_OLD, NULL},
    {"6.1", CU128_LINUX, DL_ARCH_TOO_OLD, NULL},
    {"6.0", CU130_LINUX, DL_ARCH_TOO_OLD, NULL},
    /* Blackwell 12.0 against cu126 lists that end at sm_90: only +PTX saves it. */
    {"12.0", CU126_LINUX, DL_ARCH_TOO_NEW, NULL},
    {"12.0", CU121_LINUX, DL_ARCH_TOO_NEW, NULL},
    {"12.0", CU126_PTX, DL_ARCH_RUNS_PTX_JIT, "compute_90"},
    {"10.0", CU126_LINUX, DL_ARCH_TOO_NEW, NULL},
    /* PTX runs on any later major, prefers the newest that fits, never beats SASS. */
    {"8.9", "sm_80;compute_80", DL_ARCH_RUNS_SASS, "sm_80"},
    {"8.0", "sm_75;compute_75", DL_ARCH_RUNS_PTX_JIT, "compute_75"},
    {"9.0", "compute_50;compute_80;compute_100", DL_ARCH_RUNS_PTX_JIT, "compute_80"},
    {"12.1", CU130_LINUX, DL_ARCH_RUNS_SASS, "sm_120"},
    {"13.0", CU130_LINUX, DL_ARCH_RUNS_PTX_JIT, "compute_120"},
    {"5.0", CU113_WIN, DL_ARCH_RUNS_SASS, "sm_50"},
    {"3.5", "compute_37", DL_ARCH_TOO_OLD, NULL},
    {"3.7", "compute_37", DL_ARCH_RUNS_PTX_JIT, "compute_37"},
    /* Arch-specific "a" targets run only on exactly their CC. */
    {"10.0", "sm_100a", DL_ARCH_RUNS_SASS, "sm_100a"},
    {"10.3", "sm_100a", DL_ARCH_TOO_NEW, NULL},
    {"9.0", "sm_90a", DL_ARCH_RUNS_SASS, "sm_90a"},
    {"9.0", "9.0a", DL_ARCH_RUNS_SASS, "sm_90a"},
    {"10.0", "sm_90a", DL_ARCH_TOO_NEW, NULL},
    {"12.0", "sm_90a", DL_ARCH_TOO_NEW, NULL},
    {"8.9", "sm_90a", DL_ARCH_TOO_OLD, NULL},
    {"10.0", "compute_90a", DL_ARCH_TOO_NEW, NULL},
    {"9.0", "compute_90a", DL_ARCH_RUNS_PTX_JIT, "compute_90a"},
    {"9.0", "sm_80;sm_90a", DL_ARCH_RUNS_SASS, "sm_90a"},
    {"10.0", "sm_90a;compute_90", DL_ARCH_RUNS_PTX_JIT, "compute_90"},
    {"10.0", "sm_90;sm_100a;sm_120", DL_ARCH_RUNS_SASS, "sm_100a"},
    {"10.3", "sm_90;sm_100f", DL_ARCH_RUNS_SASS, "sm_100"},
    /* A gap inside the list: targets on both sides, none for this device. */
    {"8.9", "sm_75;sm_90", DL_ARCH_NOT_COVERED, NULL},
    {"6.1", "sm_50;sm_70", DL_ARCH_NOT_COVERED, NULL},
    {"10.3", "sm_90;sm_100a;sm_120", DL_ARCH_NOT_COVERED, NULL},
    {"11.0", "sm_80;sm_90;sm_100;sm_120", DL_ARCH_NOT_COVERED, NULL},
    /* Nothing to judge. */
    {"8.9", "", DL_ARCH_UNKNOWN, NULL},
    {"8.9", "garbage;more", DL_ARCH_UNKNOWN, NULL},
};

static void arch_check_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < COUNT(arch_cases); i++) {
        const arch_case *c = &arch_cases[i];
        unsigned major, minor;
        dl_arch_list l;
        char name[16];
        assert_true(dl_cc_parse(c->cc, &major, &minor));
        (void)dl_arch_list_parse(c->list, &l);
        dl_arch_result r = dl_arch_check(major, minor, &l);
        if (r.verdict != c->verdict)
            print_error("case %zu (%s vs %s): got %d\n", i, c->cc, c->list, (int)r.verdict);
        assert_int_equal(r.verdict, c->verdict);
        if (c->target) {
            assert_true(dl_arch_target_name(&r.target, name, sizeof name));
            assert_string_equal(name, c->target);
        }
        assert_int_equal(r.needs_new_driver, r.verdict == DL_ARCH_RUNS_PTX_JIT);
        switch (r.verdict) {
        case DL_ARCH_TOO_OLD:
            assert_string_equal(r.diagnosis, "gpu_arch_dropped");
            break;
        case DL_ARCH_NOT_COVERED:
            /* a gap is a dropped GPU, except a Blackwell-era one (B300's 10.3 beside
             * sm_100a and sm_120, Thor's 11.0 beside sm_100 and sm_120), which a newer
             * wheel covers */
            assert_string_equal(r.diagnosis, major >= 10 ? "arch_not_in_wheel" : "gpu_arch_dropped");
            break;
        case DL_ARCH_TOO_NEW:
            assert_string_equal(r.diagnosis, "arch_not_in_wheel");
            break;
        default:
            assert_null(r.diagnosis);
        }
    }
}

static void arch_check_odd_inputs(void **state)
{
    dl_arch_list l;
    (void)state;
    assert_true(dl_arch_list_parse("sm_80", &l));
    assert_int_equal(dl_arch_check(0, 5, &l).verdict, DL_ARCH_UNKNOWN);
    assert_int_equal(dl_arch_check(8, 0, NULL).verdict, DL_ARCH_UNKNOWN);
    assert_int_equal(dl_arch_check(8, 0, &l).verdict, DL_ARCH_RUNS_SASS);
    /* Minors past 9 never come from a real GPU, but must not wrap into the next major. */
    assert_int_equal(dl_arch_check(7, 99, &l).verdict, DL_ARCH_TOO_OLD);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(target_parse_table),
        cmocka_unit_test(target_parse_refuses_garbage),
        cmocka_unit_test(list_parse_both_notations),
        cmocka_unit_test(list_parse_skips_garbage_with_a_flag),
        cmocka_unit_test(target_name_table),
        cmocka_unit_test(cc_parse_table),
        cmocka_unit_test(arch_check_table),
        cmocka_unit_test(arch_check_odd_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
