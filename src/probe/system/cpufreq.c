/* The CPU frequency settings Linux's cpufreq exposes in sysfs: which scaling driver runs,
 * the governor each CPU is set to and, for the drivers that hand the choice to the
 * hardware (intel_pstate and amd-pstate in active mode), the energy/performance
 * preference. Only read here; rules/power_settings.c judges them. A machine without a
 * cpufreq directory (most virtual machines and many containers) leaves them unknown,
 * saying so. */
#include "probe/probe.h"

#include "base/str.h"

#include <stdlib.h>
#include <string.h>

#define CPU_DIR "/sys/devices/system/cpu"
#define ATTR_MAX 128   /* each attribute is one short word */
#define NO_CPUFREQ                                                                          \
    "no CPU has a cpufreq directory in " CPU_DIR ": the kernel scales no CPU frequency "    \
    "here (usual in a virtual machine or container)"

/* One trimmed attribute of a CPU's cpufreq directory; NULL with err when unreadable. */
static char *read_attr(const dl_machine *m, const char *cpu, const char *name,
                       dl_io_error *err)
{
    char *path = dl_fmt(CPU_DIR "/%s/cpufreq/%s", cpu, name);
    char *data = NULL, *text = NULL;
    bool truncated = false;
    if (dl_fs_read(m, path, ATTR_MAX, &data, NULL, &truncated, err))
        text = dl_strdup(dl_trim(data));
    free(data);
    free(path);
    return text;
}

/* "cpu" followed by digits only: cpufreq, cpuidle and the like are not CPUs. */
static bool is_cpu_dir(const char *name)
{
    const char *p = name + 3;
    if (strncmp(name, "cpu", 3) != 0 || !*p)
        return false;
    for (; *p; p++)
        if (*p < '0' || *p > '9')
            return false;
    return true;
}

/* The number of a "cpuN" name, for the order CPUs are listed in (cpu10 after cpu9). */
static long cpu_number(const char *name)
{
    return strtol(name + 3, NULL, 10);
}

static int by_cpu_number(const void *a, const void *b)
{
    long x = cpu_number(*(char *const *)a), y = cpu_number(*(char *const *)b);
    return x < y ? -1 : x > y;
}

/* Adds the value once: the list holds the distinct settings, in CPU order. */
static void add_distinct(dl_list *l, const char *value)
{
    if (!dl_textlist_has(l, value))
        dl_textlist_add(l, value);
}

/* One attribute over every CPU that has cpufreq: the distinct values, or unknown with the
 * first CPU's reason when none could be read. */
static void read_all(const dl_machine *m, char **cpus, size_t n, const char *name,
                     dl_list *out, const char *absent_why)
{
    dl_io_error err = {0};
    char *first_why = NULL;
    bool absent = true;
    size_t i;
    for (i = 0; i < n; i++) {
        char *v = read_attr(m, cpus[i], name, &err);
        if (v && *v) {
            if (!out->known)
                dl_list_known(out);
            add_distinct(out, v);
        } else if (!first_why) {
            if (err.status != DL_IO_NOT_FOUND)
                absent = false;
            first_why = err.message ? dl_strdup(err.message)
                                    : dl_fmt(CPU_DIR "/%s/cpufreq/%s is empty", cpus[i], name);
        }
        free(v);
        dl_io_error_clear(&err);
    }
    if (!out->known)
        dl_list_unknown(out, "%s", absent && absent_why ? absent_why : first_why);
    free(first_why);
}

/* The CPUs that have a cpufreq directory, sorted by number; false when there are none. */
static bool cpufreq_cpus(const dl_machine *m, char ***cpus, size_t *n, char **why)
{
    dl_io_error err = {0};
    char **names = NULL;
    size_t count = 0, i;
    *cpus = NULL;
    *n = 0;
    if (!dl_fs_list(m, CPU_DIR, &names, &count, &err)) {
        *why = dl_strdup(err.status == DL_IO_NOT_FOUND ? NO_CPUFREQ : err.message);
        dl_io_error_clear(&err);
        return false;
    }
    *cpus = dl_xcalloc(count ? count : 1, sizeof **cpus);
    for (i = 0; i < count; i++) {
        char *dir = dl_fmt(CPU_DIR "/%s/cpufreq", names[i]);
        if (is_cpu_dir(names[i]) && dl_fs_kind_of(m, dir, &err) == DL_FS_DIR)
            (*cpus)[(*n)++] = dl_strdup(names[i]);
        dl_io_error_clear(&err);
        free(dir);
    }
    dl_fs_list_free(names, count);
    if (*n == 0) {
        *why = dl_strdup(NO_CPUFREQ);
        free(*cpus);
        *cpus = NULL;
        return false;
    }
    qsort(*cpus, *n, sizeof **cpus, by_cpu_number);
    return true;
}

void dl_probe_cpufreq(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out)
{
    const dl_machine *m = ctx->machine;
    dl_cpu_facts *c = &f->cpu;
    dl_io_error err = {0};
    char **cpus = NULL, *why = NULL, *driver;
    size_t n = 0, i;
    if (!cpufreq_cpus(m, &cpus, &n, &why)) {
        dl_text_unknown(&c->frequency_driver, "%s", why);
        dl_list_unknown(&c->frequency_governors, "%s", why);
        dl_list_unknown(&c->energy_preferences, "%s", why);
        dl_probe_note(out, DL_PROBE_NOT_PRESENT, why);
        free(why);
        return;
    }
    /* One driver runs every CPU. */
    driver = read_attr(m, cpus[0], "scaling_driver", &err);
    if (driver && *driver)
        dl_text_set(&c->frequency_driver, driver);
    else
        dl_text_unknown(&c->frequency_driver, "%s",
                        err.message ? err.message : CPU_DIR " scaling_driver is empty");
    dl_io_error_clear(&err);
    free(driver);
    read_all(m, cpus, n, "scaling_governor", &c->frequency_governors, NULL);
    read_all(m, cpus, n, "energy_performance_preference", &c->energy_preferences,
             "this scaling driver takes no energy/performance preference (only intel_pstate "
             "and amd-pstate in active mode do)");
    for (i = 0; i < n; i++)
        free(cpus[i]);
    free(cpus);
}
