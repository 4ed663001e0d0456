/* The shared-memory probe on fixture roots (tests/unit/data/shared_memory): /dev/shm's size
 * from its tmpfs mount options (k, g, a share of memory), tmpfs's default of half of
 * memory where no size is given, the last of two mounts, and unknown with the reason for a
 * size that is not one, a machine without a /dev/shm mount or without mountinfo. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "base/str.h"
#include "test_run.h"

#define SHM_DATA DLENV_TEST_DATA "/unit/data/shared_memory"

/* The memory probe first, as platform.c runs them: the default size is half of its total. */
static void probe_sample(dl_test_run *r, const char *name)
{
    dl_probe_outcome memory_out = {DL_PROBE_OK, NULL};
    char *root = dl_fmt("%s/%s", SHM_DATA, name);
    dl_test_run_open(r, root);
    dl_probe_memory(&r->ctx, &r->f, &memory_out);
    free(memory_out.detail);
    dl_probe_shared_memory(&r->ctx, &r->f, &r->out);
    free(root);
}

static void expect_bytes(const char *name, long long bytes)
{
    dl_test_run r;
    probe_sample(&r, name);
    assert_int_equal(r.out.status, DL_PROBE_OK);
    if (!r.f.memory.shm_bytes.known)
        fail_msg("%s: unknown (%s)", name, r.f.memory.shm_bytes.why);
    assert_int_equal(r.f.memory.shm_bytes.value, bytes);
    dl_test_run_free(&r);
}

static void expect_unknown(const char *name, const char *why)
{
    dl_test_run r;
    probe_sample(&r, name);
    assert_false(r.f.memory.shm_bytes.known);
    if (!strstr(r.f.memory.shm_bytes.why, why))
        fail_msg("%s: why is \"%s\", not \"%s\"", name, r.f.memory.shm_bytes.why, why);
    dl_test_run_free(&r);
}

static void sizes_from_mount_options(void **state)
{
    (void)state;
    expect_bytes("docker", 65536LL << 10);             /* Docker's 64 MiB */
    expect_bytes("percent", 16384000LL * 1024 / 100 * 25);
    expect_bytes("remounted", 8LL << 30);              /* the later mount hides the first */
}

static void default_is_half_of_memory(void **state)
{
    (void)state;
    expect_bytes("host", 16384000LL * 1024 / 2);
}

static void unknown_with_reason(void **state)
{
    dl_test_run r;
    (void)state;
    expect_unknown("garbage", "size=lots");
    expect_unknown("none", "no /dev/shm mount");
    expect_unknown("nosize-nomem", "memory's total is unknown");
    probe_sample(&r, "none/proc"); /* a root without /proc/self/mountinfo */
    assert_int_equal(r.out.status, DL_PROBE_NOT_PRESENT);
    assert_false(r.f.memory.shm_bytes.known);
    assert_non_null(strstr(r.f.memory.shm_bytes.why, "mountinfo"));
    dl_test_run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sizes_from_mount_options),
        cmocka_unit_test(default_is_half_of_memory),
        cmocka_unit_test(unknown_with_reason),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
