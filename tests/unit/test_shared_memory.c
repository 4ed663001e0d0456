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
#include "probe/probe.h"

#define SHM_DATA DLENV_TEST_DATA "/unit/data/shared_memory"

typedef struct probed {
    dl_facts f;
    dl_probe_outcome out;
} probed;

/* The memory probe first, as platform.c runs them: the default size is half of its total. */
static void probe_sample(probed *p, const char *name)
{
    dl_machine m;
    dl_probe_ctx ctx = {NULL, {0}};
    dl_probe_outcome memory_out = {DL_PROBE_OK, NULL};
    char *error = NULL, *root = dl_fmt("%s/%s", SHM_DATA, name);
    ctx.machine = &m;
    if (!dl_machine_open(&m, root, &error))
        fail_msg("cannot open %s: %s", root, error);
    dl_facts_init(&p->f);
    p->out.status = DL_PROBE_OK;
    p->out.detail = NULL;
    dl_probe_memory(&ctx, &p->f, &memory_out);
    free(memory_out.detail);
    dl_probe_shared_memory(&ctx, &p->f, &p->out);
    dl_machine_close(&m);
    free(root);
}

static void probed_free(probed *p)
{
    dl_facts_free(&p->f);
    free(p->out.detail);
}

static void expect_bytes(const char *name, long long bytes)
{
    probed p;
    probe_sample(&p, name);
    assert_int_equal(p.out.status, DL_PROBE_OK);
    if (!p.f.memory.shm_bytes.known)
        fail_msg("%s: unknown (%s)", name, p.f.memory.shm_bytes.why);
    assert_int_equal(p.f.memory.shm_bytes.value, bytes);
    probed_free(&p);
}

static void expect_unknown(const char *name, const char *why)
{
    probed p;
    probe_sample(&p, name);
    assert_false(p.f.memory.shm_bytes.known);
    if (!strstr(p.f.memory.shm_bytes.why, why))
        fail_msg("%s: why is \"%s\", not \"%s\"", name, p.f.memory.shm_bytes.why, why);
    probed_free(&p);
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
    probed p;
    (void)state;
    expect_unknown("garbage", "size=lots");
    expect_unknown("none", "no /dev/shm mount");
    expect_unknown("nosize-nomem", "memory's total is unknown");
    probe_sample(&p, "none/proc"); /* a root without /proc/self/mountinfo */
    assert_int_equal(p.out.status, DL_PROBE_NOT_PRESENT);
    assert_false(p.f.memory.shm_bytes.known);
    assert_non_null(strstr(p.f.memory.shm_bytes.why, "mountinfo"));
    probed_free(&p);
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
