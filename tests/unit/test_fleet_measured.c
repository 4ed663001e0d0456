/* fleet check --snapshot: a snapshot's taken_at as seconds since 1970, without timegm()
 * or the local time zone (dl_fleet_utc_seconds). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cli/fleet_measured.h"

static void test_known_instants(void **state)
{
    (void)state;
    assert_int_equal(dl_fleet_utc_seconds("1970-01-01T00:00:00Z"), 0);
    assert_int_equal(dl_fleet_utc_seconds("2000-03-01T00:00:00Z"), 951868800LL);
    assert_int_equal(dl_fleet_utc_seconds("2024-02-29T12:34:56Z"), 1709210096LL);
    assert_int_equal(dl_fleet_utc_seconds("2026-11-30T06:00:00Z"), 1796018400LL);
}

static void test_other_forms_are_unknown(void **state)
{
    (void)state;
    assert_int_equal(dl_fleet_utc_seconds(NULL), -1);
    assert_int_equal(dl_fleet_utc_seconds(""), -1);
    assert_int_equal(dl_fleet_utc_seconds("unknown"), -1);
    assert_int_equal(dl_fleet_utc_seconds("2026-11-30T06:00:00"), -1);      /* no zone */
    assert_int_equal(dl_fleet_utc_seconds("2026-11-30T06:00:00+01:00"), -1);
    assert_int_equal(dl_fleet_utc_seconds("2026-13-30T06:00:00Z"), -1);
    assert_int_equal(dl_fleet_utc_seconds("2026-11-30 06:00:00Z"), -1);
    assert_int_equal(dl_fleet_utc_seconds("2026-11-3aT06:00:00Z"), -1);
    assert_int_equal(dl_fleet_utc_seconds("1969-12-31T23:59:59Z"), -1); /* no dlenv's */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_instants),
        cmocka_unit_test(test_other_forms_are_unknown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
