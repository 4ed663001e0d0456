/* The CPU probe: who made the CPU, its sockets, cores and threads, and the vector
 * instruction sets PyTorch's kernels dispatch on.
 *
 * /proc/cpuinfo is the main source because it also describes a machine under --root.
 * On the live x86 machine cpuid replaces its flags: cpuid together with XCR0 says what a
 * program can really execute, which is what decides the kernels torch picks. Where
 * cpuinfo names no physical id / core id (arm64, some VMs), the kernel's topology files
 * under /sys fill in. */
#include "probe/probe.h"

#include "base/str.h"
#include "probe/system/cpu_isa.h"

#include <stdlib.h>
#include <string.h>

#define CPUINFO "/proc/cpuinfo"
#define CPUINFO_MAX ((size_t)4 * 1024 * 1024)
#define SYS_CPU "/sys/devices/system/cpu"

/* Where one logical CPU sits. */
typedef struct cpu_place {
    long long package, core;
    bool has_package, has_core;
} cpu_place;

typedef struct cpu_places {
    cpu_place *items;
    size_t count, cap;
} cpu_places;

/* What /proc/cpuinfo said. Texts are the first occurrence: the kernel repeats them per
 * processor, and a mixed big.LITTLE system is still named by its first core. */
typedef struct cpuinfo {
    char *unread;        /* why the file could not be read at all, or NULL */
    bool cut;            /* the file ends mid-line or past our cap: later lines are missing */
    char *vendor, *model, *implementer, *part, *flags;
    bool arm_features;   /* flags came from "Features", arm's list */
    cpu_places cpus;     /* one per "processor" entry */
} cpuinfo;

static void cpuinfo_free(cpuinfo *ci)
{
    free(ci->unread);
    free(ci->vendor);
    free(ci->model);
    free(ci->implementer);
    free(ci->part);
    free(ci->flags);
    free(ci->cpus.items);
}

static cpu_place *places_push(cpu_places *p)
{
    if (p->count == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 16;
        p->items = dl_xrealloc(p->items, p->cap * sizeof *p->items);
    }
    memset(&p->items[p->count], 0, sizeof p->items[0]);
    return &p->items[p->count++];
}

/* ---- reading /proc/cpuinfo ---------------------------------------------------------- */

static void keep_first(char **slot, const char *value)
{
    if (!*slot && *value)
        *slot = dl_strdup(value);
}

/* Ids are small non-negative numbers; anything else (garbage) counts as absent. */
static bool parse_id(const char *value, long long *id)
{
    unsigned long long v;
    if (!dl_parse_u64(value, 10, &v) || v > 0x7fffffffULL)
        return false;
    *id = (long long)v;
    return true;
}

static void apply_field(cpuinfo *ci, const char *key, const char *value)
{
    cpu_place *cur = ci->cpus.count ? &ci->cpus.items[ci->cpus.count - 1] : NULL;
    long long id;
    if (strcmp(key, "processor") == 0 && parse_id(value, &id))
        places_push(&ci->cpus);
    else if (strcmp(key, "vendor_id") == 0)
        keep_first(&ci->vendor, value);
    else if (strcmp(key, "model name") == 0)
        keep_first(&ci->model, value);
    else if (strcmp(key, "CPU implementer") == 0)
        keep_first(&ci->implementer, value);
    else if (strcmp(key, "CPU part") == 0)
        keep_first(&ci->part, value);
    else if (strcmp(key, "flags") == 0 || strcmp(key, "Features") == 0) {
        if (!ci->flags)
            ci->arm_features = key[0] == 'F';
        keep_first(&ci->flags, value);
    } else if (cur && strcmp(key, "physical id") == 0)
        cur->has_package = parse_id(value, &cur->package);
    else if (cur && strcmp(key, "core id") == 0)
        cur->has_core = parse_id(value, &cur->core);
}

/* "key<tabs> : value"; lines without a colon (blank separators, garbage) say nothing. */
static void parse_line(cpuinfo *ci, const char *line, size_t len)
{
    const char *colon = memchr(line, ':', len);
    char *key, *value;
    if (!colon)
        return;
    key = dl_strndup(line, (size_t)(colon - line));
    value = dl_strndup(colon + 1, len - (size_t)(colon - line) - 1);
    apply_field(ci, dl_trim(key), dl_trim(value));
    free(key);
    free(value);
}

static void parse_cpuinfo(cpuinfo *ci, const char *data, size_t len)
{
    size_t pos = 0;
    while (pos < len) {
        const char *line = data + pos;
        const char *nl = memchr(line, '\n', len - pos);
        if (!nl) {
            /* The kernel ends every line with a newline: an unterminated last line was
             * cut, and half a line (half a model name, half a flags list) is wrong. */
            ci->cut = true;
            return;
        }
        parse_line(ci, line, (size_t)(nl - line));
        pos = (size_t)(nl - data) + 1;
    }
}

static void read_cpuinfo(const dl_machine *m, cpuinfo *ci, dl_probe_outcome *out)
{
    dl_io_error err = {DL_IO_OK, NULL};
    char *data = NULL;
    size_t len = 0;
    bool truncated = false;
    if (!dl_fs_read(m, CPUINFO, CPUINFO_MAX, &data, &len, &truncated, &err)) {
        const char *msg = err.message ? err.message : "unknown error";
        ci->unread = dl_strdup(msg);
        dl_probe_note(out, dl_probe_status_of_io(err.status), msg);
        dl_io_error_clear(&err);
        return;
    }
    parse_cpuinfo(ci, data, len);
    if (truncated)
        ci->cut = true;
    free(data);
    if (!ci->cpus.count)
        dl_probe_note(out, DL_PROBE_FAILED, CPUINFO " has no processor entries");
}

/* ---- vendor and model ------------------------------------------------------------------ */

typedef struct arm_name {
    unsigned implementer;
    unsigned part;      /* 0 for the implementer's own name */
    const char *name;
} arm_name;

/* Implementer and part numbers of the MIDR register, as Linux's
 * arch/arm64/include/asm/cputype.h names them: the cores people run PyTorch on. */
static const arm_name arm_names[] = {
    {0x41, 0, "ARM"},        {0x42, 0, "Broadcom"},   {0x43, 0, "Cavium"},
    {0x46, 0, "Fujitsu"},    {0x48, 0, "HiSilicon"},  {0x4e, 0, "NVIDIA"},
    {0x50, 0, "Applied Micro"}, {0x51, 0, "Qualcomm"}, {0x61, 0, "Apple"},
    {0x6d, 0, "Microsoft"},  {0xc0, 0, "Ampere"},
    {0x41, 0xd03, "Cortex-A53"},   {0x41, 0xd05, "Cortex-A55"},
    {0x41, 0xd07, "Cortex-A57"},   {0x41, 0xd08, "Cortex-A72"},
    {0x41, 0xd0b, "Cortex-A76"},   {0x41, 0xd0c, "Neoverse-N1"},
    {0x41, 0xd40, "Neoverse-V1"},  {0x41, 0xd41, "Cortex-A78"},
    {0x41, 0xd42, "Cortex-A78AE"}, {0x41, 0xd49, "Neoverse-N2"},
    {0x41, 0xd4f, "Neoverse-V2"},  {0x41, 0xd84, "Neoverse-V3"},
    {0x41, 0xd8e, "Neoverse-N3"},  {0x4e, 0x004, "Carmel"},
    {0x6d, 0xd49, "Azure Cobalt 100"}, {0xc0, 0xac3, "AmpereOne"},
};

/* The name for an implementer (part == NULL) or one of its parts; NULL when unknown. */
static const char *arm_lookup(const char *implementer, const char *part)
{
    unsigned long long imp, num = 0;
    size_t i;
    if (!implementer || !dl_parse_u64(implementer, 16, &imp))
        return NULL;
    if (part && (!dl_parse_u64(part, 16, &num) || num == 0))
        return NULL;
    for (i = 0; i < sizeof arm_names / sizeof arm_names[0]; i++)
        if (arm_names[i].implementer == imp && arm_names[i].part == num)
            return arm_names[i].name;
    return NULL;
}

static void fill_vendor(dl_cpu_facts *c, const cpuinfo *ci)
{
    const char *name = arm_lookup(ci->implementer, NULL);
    if (ci->unread)
        dl_text_unknown(&c->vendor, "%s", ci->unread);
    else if (ci->vendor)
        dl_text_set(&c->vendor, ci->vendor);
    else if (name)
        dl_text_set(&c->vendor, name);
    else if (ci->implementer)
        dl_text_unknown(&c->vendor, "CPU implementer %s is not one dlenv knows",
                        ci->implementer);
    else
        dl_text_unknown(&c->vendor,
                        CPUINFO " has no vendor_id or CPU implementer line");
}

/* arm64 kernels print no model name; the MIDR part number is the next best thing. */
static void fill_model(dl_cpu_facts *c, const cpuinfo *ci)
{
    const char *name = arm_lookup(ci->implementer, ci->part);
    if (ci->unread)
        dl_text_unknown(&c->model, "%s", ci->unread);
    else if (ci->model)
        dl_text_set(&c->model, ci->model);
    else if (name)
        dl_text_set(&c->model, name);
    else if (ci->part)
        dl_text_unknown(&c->model,
                        CPUINFO " has no model name line and CPU part %s of "
                        "implementer %s is not one dlenv knows",
                        ci->part, ci->implementer ? ci->implementer : "(none)");
    else
        dl_text_unknown(&c->model, CPUINFO " has no model name line");
}

/* Only for the live machine, where cpuid describes the CPU we run on: fills what
 * cpuinfo did not say (it may be unreadable, or absent on other systems). */
static void identity_from_cpuid(dl_cpu_facts *c)
{
    uint32_t r[4], brand[12];
    char text[49];
    uint32_t i;
    if (!c->vendor.value && dl_cpuid(0, 0, r)) {
        dl_x86_vendor_text(r, text);
        if (text[0])
            dl_text_set(&c->vendor, text);
    }
    if (c->model.value || !dl_cpuid(0x80000000u, 0, r) || r[0] < 0x80000004u)
        return;
    for (i = 0; i < 3; i++)
        if (!dl_cpuid(0x80000002u + i, 0, brand + 4 * i))
            return;
    dl_x86_brand_text(brand, text);
    if (text[0])
        dl_text_set(&c->model, text);
}

/* ---- sockets, cores, threads ------------------------------------------------------------ */

static int compare_core(const void *a, const void *b)
{
    const cpu_place *x = a, *y = b;
    if (x->package != y->package)
        return x->package < y->package ? -1 : 1;
    return x->core < y->core ? -1 : x->core > y->core;
}

static int compare_package(const void *a, const void *b)
{
    const cpu_place *x = a, *y = b;
    return x->package < y->package ? -1 : x->package > y->package;
}

/* How many distinct places there are under cmp (a core is a (package, core) pair: core
 * ids repeat on every socket). */
static long long count_distinct(const cpu_places *p, int (*cmp)(const void *, const void *))
{
    cpu_place *sorted = dl_xmalloc(p->count * sizeof *sorted);
    long long n = 0;
    size_t i;
    memcpy(sorted, p->items, p->count * sizeof *sorted);
    qsort(sorted, p->count, sizeof *sorted, cmp);
    for (i = 0; i < p->count; i++)
        if (i == 0 || cmp(&sorted[i - 1], &sorted[i]) != 0)
            n++;
    free(sorted);
    return n;
}

static void set_topology(dl_cpu_facts *c, const cpu_places *p, const char *source)
{
    size_t i;
    dl_int_set(&c->physical_cores, count_distinct(p, compare_core));
    for (i = 0; i < p->count; i++)
        if (p->items[i].package < 0) {
            /* Firmware without package information (some arm64 ACPI tables) */
            dl_int_unknown(&c->sockets, "%s gives no physical package id (-1)",
                           source);
            return;
        }
    dl_int_set(&c->sockets, count_distinct(p, compare_package));
}

static bool is_cpu_dir(const char *name)
{
    size_t i;
    if (!dl_starts_with(name, "cpu") || !name[3])
        return false;
    for (i = 3; name[i]; i++)
        if (name[i] < '0' || name[i] > '9')
            return false;
    return true;
}

/* One topology file: a decimal number, -1 included. */
static bool read_sys_id(const dl_machine *m, const char *cpu, const char *file,
                        long long *id, dl_io_error *err)
{
    char *path = dl_fmt(SYS_CPU "/%s/topology/%s", cpu, file);
    char *data = NULL, *text;
    unsigned long long v;
    size_t len = 0;
    bool truncated = false;
    bool ok = dl_fs_read(m, path, 64, &data, &len, &truncated, err);
    if (ok) {
        text = dl_trim(data);
        ok = dl_parse_u64(text[0] == '-' ? text + 1 : text, 10, &v) && v <= 0x7fffffffULL;
        if (ok)
            *id = text[0] == '-' ? -(long long)v : (long long)v;
        else if (!err->message) {
            err->status = DL_IO_FAILED;
            err->message = dl_fmt("%s does not hold a number", path);
        }
    }
    free(data);
    free(path);
    return ok;
}

/* The kernel's topology for every online CPU (offline ones have no topology folder). On
 * failure *why says what could not be read. */
static bool sys_topology(const dl_machine *m, cpu_places *p, char **why)
{
    dl_io_error err = {DL_IO_OK, NULL};
    char **names;
    size_t n, i;
    if (!dl_fs_list(m, SYS_CPU, &names, &n, &err)) {
        *why = dl_strdup(err.message);
        dl_io_error_clear(&err);
        return false;
    }
    for (i = 0; i < n; i++) {
        cpu_place place = {0, 0, true, true};
        if (!is_cpu_dir(names[i]))
            continue;
        if (read_sys_id(m, names[i], "core_id", &place.core, &err) &&
            read_sys_id(m, names[i], "physical_package_id", &place.package, &err))
            *places_push(p) = place;
    }
    dl_fs_list_free(names, n);
    if (!p->count)
        *why = err.message ? dl_strdup(err.message)
                           : dl_strdup(SYS_CPU " has no cpuN folders");
    dl_io_error_clear(&err);
    return p->count > 0;
}

/* Why cpuinfo's counts cannot be used, or NULL when they can. */
static const char *count_problem(const cpuinfo *ci)
{
    if (ci->unread)
        return ci->unread;
    if (ci->cut)
        return CPUINFO " was cut short, so its processor list is incomplete";
    if (!ci->cpus.count)
        return CPUINFO " has no processor entries";
    return NULL;
}

static bool cpuinfo_has_topology(const cpuinfo *ci)
{
    size_t i;
    for (i = 0; i < ci->cpus.count; i++)
        if (!ci->cpus.items[i].has_package || !ci->cpus.items[i].has_core)
            return false;
    return true;
}

/* Neither cpuinfo nor /sys could give the counts. An unreadable cpuinfo is the first
 * thing to fix, so its error alone is shown; otherwise both reasons are. */
static void counts_unknown(dl_cpu_facts *c, const cpuinfo *ci, const char *problem,
                           const char *sys_why)
{
    char *why = ci->unread ? dl_strdup(ci->unread)
                : problem  ? dl_fmt("%s, and %s", problem, sys_why)
                           : dl_fmt(CPUINFO " has no physical id and core id lines, and %s",
                                    sys_why);
    dl_int_unknown(&c->sockets, "%s", why);
    dl_int_unknown(&c->physical_cores, "%s", why);
    if (problem)
        dl_int_unknown(&c->logical_threads, "%s", why);
    free(why);
}

static void fill_counts(const dl_machine *m, dl_cpu_facts *c, const cpuinfo *ci)
{
    const char *problem = count_problem(ci);
    cpu_places sys = {NULL, 0, 0};
    char *sys_why = NULL;
    if (!problem)
        dl_int_set(&c->logical_threads, (long long)ci->cpus.count);
    if (!problem && cpuinfo_has_topology(ci)) {
        set_topology(c, &ci->cpus, CPUINFO);
        return;
    }
    if (sys_topology(m, &sys, &sys_why)) {
        set_topology(c, &sys, SYS_CPU);
        if (problem)
            dl_int_set(&c->logical_threads, (long long)sys.count);
    } else {
        counts_unknown(c, ci, problem, sys_why);
    }
    free(sys.items);
    free(sys_why);
}

/* ---- instruction sets ------------------------------------------------------------------- */

/* Whether the space-separated list holds the whole word. */
static bool has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    const char *p = list;
    while (*p) {
        size_t len;
        while (*p == ' ' || *p == '\t')
            p++;
        len = strcspn(p, " \t");
        if (len == n && strncmp(p, word, n) == 0)
            return true;
        p += len;
    }
    return false;
}

typedef struct arm_feature {
    const char *name;    /* in the report */
    const char *word;    /* in the Features line */
    const char *alias;   /* the 32-bit kernel's word, or NULL */
} arm_feature;

static const arm_feature arm_features[] = {
    {"neon", "asimd", "neon"}, {"asimdhp", "asimdhp", NULL}, {"sve", "sve", NULL},
    {"sve2", "sve2", NULL},    {"bf16", "bf16", NULL},       {"i8mm", "i8mm", NULL},
    /* LSE atomics (ARMv8.1): an ARMv8.0 core (Cortex-A53/A72, Raspberry Pi 4, AWS a1)
     * lacks them, and some torch aarch64 wheels died there (known_bad_releases.csv) */
    {"atomics", "atomics", NULL},
};

static void isa_from_flags(dl_list *isa, const cpuinfo *ci)
{
    size_t i;
    dl_list_known(isa);
    if (ci->arm_features) {
        for (i = 0; i < sizeof arm_features / sizeof arm_features[0]; i++) {
            const arm_feature *a = &arm_features[i];
            if (has_word(ci->flags, a->word) || (a->alias && has_word(ci->flags, a->alias)))
                dl_textlist_add(isa, a->name);
        }
        return;
    }
    for (i = 0; i < DL_X86_ISA_MAX; i++)
        if (has_word(ci->flags, dl_x86_isa_names[i]))
            dl_textlist_add(isa, dl_x86_isa_names[i]);
}

static void fill_isa(const dl_machine *m, dl_cpu_facts *c, const cpuinfo *ci)
{
    dl_x86_cpuid id;
    const char *names[DL_X86_ISA_MAX];
    size_t i, n;
    /* Never under --root: the CPU we run on is not the one the files describe. */
    if (m->live && dl_x86_cpuid_read(&id)) {
        n = dl_x86_isa_decode(&id, names);
        dl_list_known(&c->isa);
        for (i = 0; i < n; i++)
            dl_textlist_add(&c->isa, names[i]);
        dl_text_set(&c->isa_source, "cpuid");
    } else if (ci->flags) {
        isa_from_flags(&c->isa, ci);
        dl_text_set(&c->isa_source, CPUINFO);
    } else {
        dl_list_unknown(&c->isa, "%s",
                        ci->unread ? ci->unread
                                   : CPUINFO " has no flags or Features line");
    }
}

void dl_probe_cpu(const dl_probe_ctx *ctx, dl_facts *f, dl_probe_outcome *out)
{
    const dl_machine *m = ctx->machine;
    cpuinfo ci;
    memset(&ci, 0, sizeof ci);
    read_cpuinfo(m, &ci, out);
    fill_vendor(&f->cpu, &ci);
    fill_model(&f->cpu, &ci);
    if (m->live)
        identity_from_cpuid(&f->cpu);
    fill_counts(m, &f->cpu, &ci);
    fill_isa(m, &f->cpu, &ci);
    cpuinfo_free(&ci);
}
