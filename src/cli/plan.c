/* dlenv plan: the install command for this machine (its facts, gathered without importing
 * torch), or for one described by --os/--arch/--gpu/--driver/--python X.Y. Flags given
 * without --os adjust this machine ("what if I had Python 3.12"). Exit 0 with a
 * recommendation, 1 when nothing fits. */
#include "cli/exit_codes.h"
#include "cli/gather.h"
#include "cli/commands.h"
#include "cli/output.h"

#include "base/str.h"
#include "facts/query.h"
#include "know/version.h"
#include "os/os.h"
#include "plan/driver_form.h"
#include "plan/gpu_names.h"
#include "plan/machine_facts.h"
#include "probe/system/pci_ids.h"
#include "render/plan_view.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const dl_option dl_plan_options[] = {
    DL_OPT_ROOT,
    DL_OPT_JSON,
    DL_OPT_FROM,
    DL_OPT_PROBE_TIMEOUT,
    DL_OPT_CALL("python", "PATH|X.Y", dl_opt_set_python_or_version,
                "plan for this interpreter, or for Python X.Y (3.12, 3.13t)"),
    DL_OPT_FLAG("why", 0, why, "list every candidate and why it was rejected"),
    DL_OPT_FLAG("offline", 0, offline, "also the wheel files to download on another machine"),
    DL_OPT_TEXT("torch", 0, "VERSION", torch, "only this torch: 2.3, 2.3.1 or >=2.1,<2.4"),
    DL_OPT_LOWER("for", "KIND", for_kind, "only this kind of build: cpu, cuda, rocm, xpu, mps"),
    DL_OPT_INDEX_MIRROR,
    DL_OPT_LOWER("os", "OS", os, "plan for another machine: windows, linux or macos"),
    DL_OPT_TEXT("arch", 0, "ARCH", arch, "its architecture: x86_64, arm64, x86 (32-bit)"),
    DL_OPT_CALL("gpu", "GPU", dl_opt_set_gpu,
                "its GPU, repeatable: a name as nvidia-smi prints it, 8.6 / sm_86, or 10de:2504"),
    DL_OPT_TEXT("driver", 0, "VERSION", driver,
                "its NVIDIA driver: 535.104.05 or the Windows form 31.0.15.3598"),
    DL_OPT_END,
};

static bool parse_want(const char *s, dl_plan_want *out)
{
    static const struct { const char *name; dl_plan_want want; } kinds[] = {
        {"cpu", DL_WANT_CPU}, {"cuda", DL_WANT_CUDA}, {"rocm", DL_WANT_ROCM},
        {"xpu", DL_WANT_XPU}, {"mps", DL_WANT_MPS}};
    size_t i;
    *out = DL_WANT_ANY;
    for (i = 0; s && i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strcmp(s, kinds[i].name)) {
            *out = kinds[i].want;
            return true;
        }
    return !s;
}

/* A PCI id's marketing name from pci.ids: "AD106M [GeForce RTX 4070 Max-Q / Mobile]";
 * the whole pci.ids name (with the chip) in full[]. */
static void name_from_pci(long vendor, long device, char *out, size_t n, char *full,
                          size_t full_n)
{
    dl_machine m;
    char *error = NULL;
    dl_pci_ids_query q;
    dl_io_error err;
    const char *path, *open, *close;
    memset(&q, 0, sizeof q);
    q.vendor = vendor;
    q.device = device;
    q.subvendor = q.subdevice = -1;
    snprintf(out, n, "PCI %04lx:%04lx", (unsigned long)vendor, (unsigned long)device);
    full[0] = '\0';
    if (!dl_machine_open(&m, "/", &error)) {
        free(error);
        return;
    }
    path = dl_pci_ids_find(&m);
    if (path && dl_pci_ids_lookup(&m, path, &q, 1, &err) && q.device_name) {
        snprintf(full, full_n, "%s", q.device_name);
        open = strchr(q.device_name, '[');
        close = open ? strchr(open, ']') : NULL;
        if (open && close)
            snprintf(out, n, "%.*s", (int)(close - open - 1), open + 1);
        else
            snprintf(out, n, "%s", q.device_name);
    }
    dl_pci_ids_query_free(&q);
    dl_machine_close(&m);
}

/* A name the tables do not know, looked up in pci.ids' device names (where the chip
 * decides): "Quadro K620" is "GM107GL [Quadro K620]". Read only for such a name. */
static void resolve_by_pci_ids(const dl_knowledge *k, dl_plan_gpu *g)
{
    dl_machine m;
    char *error = NULL;
    dl_io_error err;
    dl_lines *lines;
    const char *path, *line;
    size_t len;
    dl_gpu_pci_search search;
    if (!dl_machine_open(&m, "/", &error)) {
        free(error);
        return;
    }
    path = dl_pci_ids_find(&m);
    memset(&err, 0, sizeof err);
    lines = path ? dl_lines_open(&m, path, &err) : NULL;
    dl_io_error_clear(&err);
    if (lines) {
        dl_gpu_pci_search_begin(&search, g->name);
        while ((line = dl_lines_next(lines, &len)) != NULL)
            dl_gpu_pci_search_line(k, &search, line, len);
        dl_lines_close(lines);
        dl_gpu_pci_search_end(&search, g);
    }
    dl_machine_close(&m);
}

/* Compute capabilities that exist or may: 1.0 (Tesla) to the teens, minor one digit. */
static bool plausible_cc(unsigned major, unsigned minor)
{
    return major >= 1 && major <= 15 && minor <= 9;
}

/* "8.6" or "12.0": what can only be meant as a compute capability. */
static bool looks_like_cc(const char *s)
{
    size_t n = strspn(s, "0123456789");
    return n && s[n] == '.' && s[n + 1] && strspn(s + n + 1, "0123456789") == strlen(s + n + 1);
}

static bool starts_ci(const char *s, const char *prefix)
{
    for (; *prefix; s++, prefix++)
        if (tolower((unsigned char)*s) != tolower((unsigned char)*prefix))
            return false;
    return true;
}

/* A name the tables do not resolve still names a GPU when it has a model number or a
 * maker's or series' word ("RTX 9090", "Radeon VII", "TITAN Xp"); "zzz" does not. */
static bool could_name_a_gpu(const char *name)
{
    static const char *const words[] = {"nvidia", "geforce", "quadro", "tesla", "titan",
                                        "rtx",    "gtx",     "jetson", "amd",   "radeon",
                                        "instinct", "intel", "arc",    "iris",  "uhd",
                                        "apple",  "gpu"};
    char *lower = dl_ascii_lower(name, strlen(name));
    bool letter = false, digit = false, word = false;
    const char *p;
    size_t i;
    for (p = name; *p; p++) {
        letter = letter || isalpha((unsigned char)*p);
        digit = digit || isdigit((unsigned char)*p);
    }
    for (i = 0; i < sizeof words / sizeof words[0] && !word; i++)
        word = strstr(lower, words[i]) != NULL;
    free(lower);
    return letter && (digit || word);
}

static bool parse_gpu(const char *arg, const dl_knowledge *k, dl_plan_gpu *g)
{
    long vendor, device;
    char full[160];
    memset(g, 0, sizeof *g);
    if (looks_like_cc(arg) || starts_ci(arg, "sm_") || starts_ci(arg, "compute_")) {
        /* meant as a capability: it has to be one (sm_-1 and 99.99 are not) */
        if (!dl_gpu_cc_from_text(arg, &g->cc_major, &g->cc_minor) ||
            !plausible_cc(g->cc_major, g->cc_minor))
            return false;
        g->vendor = DL_GPU_NVIDIA;
        snprintf(g->name, sizeof g->name, "a GPU of compute capability %u.%u", g->cc_major,
                 g->cc_minor);
        return true;
    }
    if (dl_gpu_cc_from_text(arg, &g->cc_major, &g->cc_minor)) {
        g->vendor = DL_GPU_NVIDIA;
        snprintf(g->name, sizeof g->name, "a GPU of compute capability %u.%u", g->cc_major,
                 g->cc_minor);
        return true;
    }
    if (dl_gpu_pci_id_parse(arg, &vendor, &device)) {
        char name[sizeof g->name];
        g->vendor = dl_gpu_vendor_of_pci(vendor);
        /* the built-in table first; the host's pci.ids only for ids newer than it */
        if (dl_plan_gpu_from_pci_table(k, vendor, device, g))
            return true;
        name_from_pci(vendor, device, name, sizeof name, full, sizeof full);
        if (!full[0] && g->name[0])
            return true; /* the table's chip and why it is unknown */
        snprintf(g->name, sizeof g->name, "%s", name);
        if (!full[0])
            return true; /* neither knows the id */
        g->unknown_why[0] = '\0';
        if (g->vendor == DL_GPU_NVIDIA)
            dl_plan_gpu_resolve(k, full, g); /* the chip in pci.ids' name decides */
        else
            dl_plan_gpu_target_from_pci_name(k, full, device, g);
        return true;
    } else {
        const char *p;
        for (; *arg && isspace((unsigned char)*arg); arg++)
            ;
        for (p = arg; *p && !isalnum((unsigned char)*p); p++)
            ;
        if (!*p)
            return false; /* nothing that could name a GPU */
        g->vendor = dl_gpu_vendor_of_name(arg);
        dl_fixed_fmt(g->name, sizeof g->name, "%s", arg); /* a long name ends in "…" */
        if (g->vendor == DL_GPU_NVIDIA)
            dl_plan_gpu_resolve(k, g->name, g);
        /* unknown, or only a guess: pci.ids may know the name exactly */
        if (g->vendor == DL_GPU_NVIDIA && (g->guessed[0] || (!g->cc_major && !g->unknown_why[0])))
            resolve_by_pci_ids(k, g);
        return g->cc_major || g->guessed[0] || g->unknown_why[0] || could_name_a_gpu(arg);
    }
}

/* The names plan.c's arch_name knows. */
static bool known_arch(const char *arch)
{
    static const char *const names[] = {"x86_64", "amd64", "AMD64", "arm64", "aarch64",
                                        "ARM64",  "x86",   "i686",  "i386"};
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(arch, names[i]))
            return true;
    return false;
}

/* Every flag that describes the machine, checked before anything is gathered: a value
 * that cannot be what it names is a usage error (exit 2), whichever machine it adjusts. */
static bool check_flags(const dl_cli *cli, const dl_knowledge *k, char **error)
{
    size_t i;
    if (cli->arch && !known_arch(cli->arch)) {
        *error = dl_fmt("--arch '%s': expected x86_64, arm64 or x86 (32-bit)", cli->arch);
        return false;
    }
    if (cli->python && cli->os) { /* a path names an interpreter here, not there */
        *error = dl_fmt("--python '%s': expected a version X.Y (3.12, 3.13t) for a machine "
                        "described by --os", cli->python);
        return false;
    }
    if (cli->driver) {
        char why[200];
        if (!dl_driver_is_nvidia(cli->driver, why, sizeof why)) {
            *error = dl_fmt("--driver: %s", why);
            return false;
        }
    }
    for (i = 0; i < cli->n_gpus; i++) {
        dl_plan_gpu g;
        if (!parse_gpu(cli->gpus[i], k, &g)) {
            *error = dl_fmt("--gpu '%s': expected a GPU's name as nvidia-smi prints it, a "
                            "compute capability (8.6, sm_86) or a PCI id (10de:2504)",
                            cli->gpus[i]);
            return false;
        }
    }
    return true;
}

/* The flags that describe (or adjust) the machine. */
static bool apply_flags(const dl_cli *cli, const dl_knowledge *k, dl_plan_machine *m,
                        char **error)
{
    const dl_python_version *v = &cli->python_version;
    size_t i;
    if (cli->arch)
        snprintf(m->arch, sizeof m->arch, "%s", cli->arch);
    if (v->major) {
        m->py_major = v->major;
        m->py_minor = v->minor;
        m->py_free_threaded = v->free_threaded;
        m->py_bits = !strcmp(m->arch, "x86") ? 32 : 64;
    }
    if (cli->n_gpus)
        m->n_gpus = 0;
    for (i = 0; i < cli->n_gpus; i++)
        if (!parse_gpu(cli->gpus[i], k, &m->gpus[m->n_gpus++])) {
            *error = dl_fmt("--gpu '%s': expected a GPU's name as nvidia-smi prints it, a "
                            "compute capability (8.6, sm_86) or a PCI id (10de:2504)",
                            cli->gpus[i]);
            return false;
        }
    if (cli->driver) {
        if (!dl_driver_normalize(cli->driver, m->driver, sizeof m->driver)) {
            *error = dl_fmt("--driver '%s': expected 535.104.05 or the Windows form "
                            "31.0.15.3598", cli->driver);
            return false;
        }
        m->driver_cuda = 0; /* from the table, for this driver */
    }
    return true;
}

static void described(const dl_cli *cli, dl_plan_machine *m)
{
    memset(m, 0, sizeof *m);
    m->os = dl_plan_os_parse(cli->os);
    snprintf(m->arch, sizeof m->arch, "%s", m->os == DL_PLAN_OS_MACOS ? "arm64" : "x86_64");
}

/* How the commands start the interpreter: this machine's own (a venv made from a
 * distribution's Python, which refuses pip), or the launcher of the described version. */
static void python_command(const dl_plan_machine *m, const dl_python *py,
                           dl_python_command *out)
{
    bool managed = py && dl_q_text_is(&py->kind, "system") && py->prefix.value &&
                   !strcmp(py->prefix.value, "/usr");
    dl_python_command_make(dl_plan_shell(m), py ? py->path.value : NULL, managed,
                           py && dl_q_text_is(&py->kind, "conda") ? py->prefix.value : NULL, m,
                           out);
}

typedef struct plan_run {
    dl_facts facts;
    bool have_facts;
    dl_plan_machine machine;
    dl_plan plan;
    dl_plan_view view;
    dl_python_command python;
} plan_run;

static int gather_this_machine(const dl_cli *cli, const dl_knowledge *k, plan_run *r)
{
    dl_cli quiet = *cli;
    int rc;
    quiet.no_runtime = true; /* the plan needs versions, not an import of torch */
    rc = dl_cli_gather(&quiet, &r->facts);
    r->have_facts = true;
    if (rc != DL_EXIT_OK)
        return rc;
    dl_plan_machine_from_facts(&r->facts, NULL, k, &r->machine);
    return DL_EXIT_OK;
}

static char *render(const dl_cli *cli, plan_run *r, const dl_knowledge *k)
{
    /* --python X.Y: the described version's launcher, not this machine's interpreter */
    const dl_python *py = r->have_facts && !cli->python_version.major
                              ? dl_q_main_python(&r->facts) : NULL;
    dl_style style;
    python_command(&r->machine, py, &r->python);
    r->view.venv_note = r->python.make_venv;
    r->view.machine = &r->machine;
    r->view.plan = &r->plan;
    r->view.machine_source = cli->os ? "a machine described by flags" : "this machine";
    r->view.python_path = py ? py->path.value : NULL;
    r->view.why = cli->why;
    r->view.offline = cli->offline;
    if (r->plan.best >= 0)
        dl_plan_commands_make(k, &r->plan, &r->plan.c[r->plan.best], &r->machine, &r->python,
                              cli->index_mirror, &r->view.best);
    if (r->plan.after_driver_update >= 0)
        dl_plan_commands_make(k, &r->plan, &r->plan.c[r->plan.after_driver_update],
                              &r->machine, &r->python, cli->index_mirror, &r->view.after_update);
    if (cli->json)
        return dl_render_plan_json(&r->view);
    style = dl_cli_style(cli);
    return dl_render_plan_text(&r->view, &style);
}

static int plan_with(const dl_cli *cli, const dl_knowledge *k, plan_run *r)
{
    dl_plan_constraints cons;
    char *error = NULL, *text;
    int rc = DL_EXIT_OK;
    if (!parse_want(cli->for_kind, &cons.want)) {
        dl_cli_error("--for '%s': expected cpu, cuda, rocm, xpu or mps",
                cli->for_kind);
        return DL_EXIT_USAGE;
    }
    cons.torch = cli->torch;
    if (!check_flags(cli, k, &error)) {
        dl_cli_error("%s", error);
        free(error);
        return DL_EXIT_USAGE;
    }
    if (cli->os) {
        described(cli, &r->machine);
        if (r->machine.os == DL_PLAN_OS_UNKNOWN) {
            dl_cli_error("--os '%s': expected windows, linux or macos", cli->os);
            return DL_EXIT_USAGE;
        }
    } else if ((rc = gather_this_machine(cli, k, r)) != DL_EXIT_OK) {
        return rc;
    }
    if (!apply_flags(cli, k, &r->machine, &error) ||
        !dl_plan_make(k, &r->machine, &cons, &r->plan, &error)) {
        dl_cli_error("%s", error);
        free(error);
        return DL_EXIT_USAGE;
    }
    text = render(cli, r, k);
    rc = dl_cli_write(text, cli->json);
    free(text);
    if (rc == DL_EXIT_OK && r->plan.best < 0)
        rc = DL_EXIT_FINDINGS;
    return rc;
}

int dl_cmd_plan(const dl_cli *cli, const dl_context *ctx)
{
    plan_run *r = calloc(1, sizeof *r);
    int rc;
    if (!r)
        return DL_EXIT_TOOL;
    rc = plan_with(cli, ctx->know, r);
    dl_plan_commands_free(&r->view.best);
    dl_plan_commands_free(&r->view.after_update);
    dl_python_command_free(&r->python);
    dl_plan_free(&r->plan);
    if (r->have_facts)
        dl_facts_free(&r->facts);
    free(r);
    return rc;
}
