/* dlenv plan: the install command for this machine (its facts, gathered without importing
 * torch), or for one described by --os/--arch/--gpu/--driver/--python X.Y. Flags given
 * without --os adjust this machine ("what if I had Python 3.12"). Exit 0 with a
 * recommendation, 1 when nothing fits. */
#include "cli/exit_codes.h"
#include "cli/gather.h"
#include "cli/options.h"
#include "cli/output.h"

#include "base/str.h"
#include "know/version.h"
#include "os/os.h"
#include "plan/gpu_names.h"
#include "plan/machine_facts.h"
#include "probe/pci_ids.h"
#include "render/plan_view.h"
#include "rules/query.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "3.12" or "3.13t": a version for a described machine, not an interpreter's path. */
static bool python_is_version(const char *s, unsigned *major, unsigned *minor, bool *ft)
{
    char tail[4] = "";
    int used = 0;
    if (!s || sscanf(s, "%u.%u%n", major, minor, &used) != 2)
        return false;
    snprintf(tail, sizeof tail, "%s", s + used);
    *ft = !strcmp(tail, "t");
    return s[used] == '\0' || (*ft && s[used + 1] == '\0');
}

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

/* A PCI id's marketing name from pci.ids: "AD106M [GeForce RTX 4070 Max-Q / Mobile]". */
static void name_from_pci(long vendor, long device, char *out, size_t n)
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
    if (!dl_machine_open(&m, "/", &error)) {
        free(error);
        return;
    }
    path = dl_pci_ids_find(&m);
    if (path && dl_pci_ids_lookup(&m, path, &q, 1, &err) && q.device_name) {
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

static bool parse_gpu(const char *arg, const dl_knowledge *k, dl_plan_gpu *g)
{
    long vendor, device;
    memset(g, 0, sizeof *g);
    if (dl_gpu_cc_from_text(arg, &g->cc_major, &g->cc_minor)) {
        g->vendor = DL_GPU_NVIDIA;
        snprintf(g->name, sizeof g->name, "a GPU of compute capability %u.%u", g->cc_major,
                 g->cc_minor);
        return true;
    }
    if (dl_gpu_pci_id_parse(arg, &vendor, &device)) {
        g->vendor = dl_gpu_vendor_of_pci(vendor);
        name_from_pci(vendor, device, g->name, sizeof g->name);
    } else {
        const char *p;
        for (; *arg && isspace((unsigned char)*arg); arg++)
            ;
        for (p = arg; *p && !isalnum((unsigned char)*p); p++)
            ;
        if (!*p)
            return false; /* nothing that could name a GPU */
        g->vendor = dl_gpu_vendor_of_name(arg);
        snprintf(g->name, sizeof g->name, "%s", arg);
    }
    if (g->vendor == DL_GPU_NVIDIA)
        dl_gpu_cc_from_name(k, g->name, &g->cc_major, &g->cc_minor);
    return true;
}

/* The flags that describe (or adjust) the machine. */
static bool apply_flags(const dl_cli *cli, const dl_knowledge *k, dl_plan_machine *m,
                        char **error)
{
    unsigned major, minor;
    bool ft;
    size_t i;
    if (cli->arch)
        snprintf(m->arch, sizeof m->arch, "%s", cli->arch);
    if (cli->python && python_is_version(cli->python, &major, &minor, &ft)) {
        m->py_major = major;
        m->py_minor = minor;
        m->py_free_threaded = ft;
        m->py_bits = !strcmp(m->arch, "x86") ? 32 : 64;
    }
    if (cli->n_gpus)
        m->n_gpus = 0;
    for (i = 0; i < cli->n_gpus; i++)
        if (!parse_gpu(cli->gpus[i], k, &m->gpus[m->n_gpus++])) {
            *error = dl_fmt("--gpu '%s': expected a GPU name, 8.6, sm_86 or 10de:2504",
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

/* The interpreter command the commands use. On this machine the interpreter's own path;
 * a distribution's Python refuses pip (PEP 668), so a venv made from it. */
static const char *python_command(const dl_cli *cli, const dl_plan_machine *m,
                                  const dl_python *py, const char **venv_note, char *buf,
                                  size_t n)
{
    *venv_note = NULL;
    if (py && py->path.value) {
        if (dl_q_text_is(&py->kind, "system") && py->prefix.value &&
            !strcmp(py->prefix.value, "/usr")) {
            snprintf(buf, n, "%s -m venv ~/.venvs/torch   (the system's Python refuses pip "
                             "installs; keep torch in a venv)", py->path.value);
            *venv_note = buf;
            return "~/.venvs/torch/bin/python";
        }
        return dl_q_python_cmd(py); /* quoted for PowerShell when the path has a space */
    }
    (void)cli;
    if (m->os == DL_PLAN_OS_WINDOWS)
        snprintf(buf, n, m->py_major ? "py -%u.%u" : "py", m->py_major, m->py_minor);
    else
        snprintf(buf, n, m->py_major ? "python%u.%u" : "python3", m->py_major, m->py_minor);
    return buf;
}

typedef struct plan_run {
    dl_facts facts;
    bool have_facts;
    dl_plan_machine machine;
    dl_plan plan;
    dl_plan_view view;
    char venv[512];  /* the venv note, or the described machine's Python command */
} plan_run;

static int gather_this_machine(const dl_cli *cli, const dl_knowledge *k, plan_run *r)
{
    dl_cli quiet = *cli;
    unsigned major, minor;
    bool ft;
    int rc;
    quiet.no_runtime = true; /* the plan needs versions, not an import of torch */
    if (cli->python && python_is_version(cli->python, &major, &minor, &ft))
        quiet.python = NULL;
    rc = dl_cli_gather(&quiet, &r->facts);
    r->have_facts = true;
    if (rc != DL_EXIT_OK)
        return rc;
    dl_plan_machine_from_facts(&r->facts, NULL, k, &r->machine);
    return DL_EXIT_OK;
}

static char *render(const dl_cli *cli, plan_run *r, const dl_knowledge *k)
{
    const dl_python *py = r->have_facts && !(cli->python && r->machine.py_major &&
                                             !strchr(cli->python, '/'))
                              ? dl_q_main_python(&r->facts) : NULL;
    const char *python = python_command(cli, &r->machine, py, &r->view.venv_note, r->venv,
                                        sizeof r->venv);
    dl_style style;
    r->view.machine = &r->machine;
    r->view.plan = &r->plan;
    r->view.machine_source = cli->os ? "a machine described by flags" : "this machine";
    r->view.python_path = py ? py->path.value : NULL;
    r->view.why = cli->why;
    r->view.offline = cli->offline;
    if (r->plan.best >= 0)
        dl_plan_commands_make(k, &r->plan, &r->plan.c[r->plan.best], &r->machine, python,
                              cli->index_mirror, &r->view.best);
    if (r->plan.after_driver_update >= 0)
        dl_plan_commands_make(k, &r->plan, &r->plan.c[r->plan.after_driver_update],
                              &r->machine, python, cli->index_mirror, &r->view.after_update);
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
        fprintf(stderr, "dlenv: --for '%s': expected cpu, cuda, rocm, xpu or mps\n",
                cli->for_kind);
        return DL_EXIT_USAGE;
    }
    cons.torch = cli->torch;
    if (cli->os) {
        described(cli, &r->machine);
        if (r->machine.os == DL_PLAN_OS_UNKNOWN) {
            fprintf(stderr, "dlenv: --os '%s': expected windows, linux or macos\n", cli->os);
            return DL_EXIT_USAGE;
        }
    } else if ((rc = gather_this_machine(cli, k, r)) != DL_EXIT_OK) {
        return rc;
    }
    if (!apply_flags(cli, k, &r->machine, &error) ||
        !dl_plan_make(k, &r->machine, &cons, &r->plan, &error)) {
        fprintf(stderr, "dlenv: %s\n", error);
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

int dl_cmd_plan(const dl_cli *cli)
{
    dl_knowledge know;
    plan_run *r;
    char *error = NULL;
    int rc;
    if (!dl_knowledge_load(&know, cli->data_dir, &error)) {
        fprintf(stderr, "dlenv: %s\n", error);
        free(error);
        return DL_EXIT_BAD_INPUT;
    }
    r = calloc(1, sizeof *r);
    if (!r) {
        dl_knowledge_free(&know);
        return DL_EXIT_TOOL;
    }
    rc = plan_with(cli, &know, r);
    dl_plan_commands_free(&r->view.best);
    dl_plan_commands_free(&r->view.after_update);
    dl_plan_free(&r->plan);
    if (r->have_facts)
        dl_facts_free(&r->facts);
    free(r);
    dl_knowledge_free(&know);
    return rc;
}
