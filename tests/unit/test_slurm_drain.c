/* fleet check --drain's decision (cli/slurm_drain.c): the node lines are what Debian 12's
 * scontrol 22.05 prints with `-o show node` (seen in tests/e2e/fleet_slurm.sh's cluster),
 * shortened to the fields that matter plus their neighbours. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cli/slurm_drain.h"

#include <stdlib.h>
#include <string.h>

#define IDLE "NodeName=node1 Arch=x86_64 CoresPerSocket=1 Gres=gpu:h100:1 State=IDLE " \
             "ThreadsPerCore=1 Partitions=debug ExtSensorsTemp=n/s\n"
#define OURS "NodeName=node1 Arch=x86_64 State=IDLE+DRAIN ThreadsPerCore=1 " \
             "ExtSensorsTemp=n/s Reason=dlenv: The driver is too old (driver_too_old) " \
             "[root@2026-12-01T18:05:42]\n"
#define HUMAN "NodeName=node1 Arch=x86_64 State=MIXED+DRAIN ThreadsPerCore=1 " \
              "ExtSensorsTemp=n/s Reason=disk swap, ask alice [alice@2026-12-01T18:05:42]\n"
#define DOWN "NodeName=node1 State=DOWN+NOT_RESPONDING ThreadsPerCore=1 " \
             "Reason=Not responding [slurm@2026-12-01T18:05:42]\n"
#define REASON "dlenv: The driver is too old (driver_too_old)"

static void parse(const char *text, dl_slurm_node *n)
{
    char *why = NULL;
    assert_true(dl_slurm_node_parse(text, n, &why));
    assert_null(why);
}

static void parses_state_and_reason(void **state)
{
    dl_slurm_node n;
    (void)state;
    parse(IDLE, &n);
    assert_string_equal(n.state, "IDLE");
    assert_false(n.drained);
    assert_null(n.reason);
    dl_slurm_node_free(&n);
    parse(OURS, &n);
    assert_string_equal(n.state, "IDLE+DRAIN");
    assert_true(n.drained);
    assert_string_equal(n.reason, REASON); /* Slurm's [user@time] is not part of it */
    dl_slurm_node_free(&n);
    parse(HUMAN, &n);
    assert_true(n.drained);
    assert_string_equal(n.reason, "disk swap, ask alice");
    dl_slurm_node_free(&n);
    parse("NodeName=n State=ALLOCATED+DRAINING Reason=(null)", &n);
    assert_true(n.drained);
    assert_null(n.reason);
    dl_slurm_node_free(&n);
    /* a state word that merely contains DRAIN is not the flag */
    parse("NodeName=n State=IDLE+UNDRAIN_X", &n);
    assert_false(n.drained);
    dl_slurm_node_free(&n);
}

static void refuses_text_without_a_node(void **state)
{
    dl_slurm_node n;
    char *why = NULL;
    (void)state;
    assert_false(dl_slurm_node_parse("Node nosuch not found\n", &n, &why));
    assert_non_null(why);
    free(why);
    why = NULL;
    assert_false(dl_slurm_node_parse("", &n, &why));
    free(why);
}

/* The step for a node shown as text with this health; argv joined by '|' ("" for none). */
static void step(const char *text, dl_slurm_health health, dl_slurm_verb want_verb,
                 const char *want_argv)
{
    dl_slurm_node n;
    dl_slurm_step s;
    char joined[512] = "";
    size_t i;
    parse(text, &n);
    dl_slurm_drain_step("node1", health, health == DL_SLURM_FAILING ? REASON : NULL, &n, &s);
    assert_int_equal(s.verb, want_verb);
    assert_non_null(s.why);
    for (i = 0; s.argv[i]; i++) {
        if (i)
            strcat(joined, "|");
        strcat(joined, s.argv[i]);
    }
    assert_string_equal(joined, want_argv);
    dl_slurm_argv_free(s.argv);
    dl_slurm_node_free(&n);
}

static void drains_a_failing_node_nobody_drained(void **state)
{
    (void)state;
    step(IDLE, DL_SLURM_FAILING, DL_SLURM_DRAIN,
         "scontrol|update|NodeName=node1|State=DRAIN|Reason=" REASON);
}

static void never_touches_another_reason(void **state)
{
    (void)state;
    step(HUMAN, DL_SLURM_FAILING, DL_SLURM_KEEP, "");
    step(HUMAN, DL_SLURM_HEALTHY, DL_SLURM_KEEP, "");
    step(DOWN, DL_SLURM_FAILING, DL_SLURM_KEEP, "");
    step(DOWN, DL_SLURM_HEALTHY, DL_SLURM_KEEP, "");
}

static void resumes_only_what_it_drained(void **state)
{
    (void)state;
    step(OURS, DL_SLURM_HEALTHY, DL_SLURM_RESUME, "scontrol|update|NodeName=node1|State=RESUME");
    step(IDLE, DL_SLURM_HEALTHY, DL_SLURM_KEEP, "");
}

static void keeps_its_own_drain_and_updates_a_changed_cause(void **state)
{
    (void)state;
    step(OURS, DL_SLURM_FAILING, DL_SLURM_KEEP, ""); /* same reason: nothing to do */
    step("NodeName=node1 State=IDLE+DRAIN Reason=dlenv: nouveau is loaded (nouveau_loaded) "
         "[root@2026-12-01T18:05:42]",
         DL_SLURM_FAILING, DL_SLURM_DRAIN,
         "scontrol|update|NodeName=node1|State=DRAIN|Reason=" REASON);
}

static void does_nothing_when_it_cannot_judge(void **state)
{
    (void)state;
    step(IDLE, DL_SLURM_UNKNOWN, DL_SLURM_KEEP, "");
    step(OURS, DL_SLURM_UNKNOWN, DL_SLURM_KEEP, "");
}

static void show_command(void **state)
{
    char *argv[DL_SLURM_MAX_ARGV];
    (void)state;
    dl_slurm_show_argv("gpu07", argv);
    assert_string_equal(argv[0], "scontrol");
    assert_string_equal(argv[1], "-o");
    assert_string_equal(argv[2], "show");
    assert_string_equal(argv[3], "node");
    assert_string_equal(argv[4], "gpu07");
    assert_null(argv[5]);
    dl_slurm_argv_free(argv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parses_state_and_reason),
        cmocka_unit_test(refuses_text_without_a_node),
        cmocka_unit_test(drains_a_failing_node_nobody_drained),
        cmocka_unit_test(never_touches_another_reason),
        cmocka_unit_test(resumes_only_what_it_drained),
        cmocka_unit_test(keeps_its_own_drain_and_updates_a_changed_cause),
        cmocka_unit_test(does_nothing_when_it_cannot_judge),
        cmocka_unit_test(show_command),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
