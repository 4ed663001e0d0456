#include "rules/fixes.h"

#include "base/str.h"
#include "facts/query.h"
#include "know/version.h"
#include "plan/commands.h"
#include "plan/machine_facts.h"
#include "plan/plan_checks.h"
#include "plan/python_command.h"
#include "rules/know_query.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

dl_shell dl_fix_shell(const dl_facts *f)
{
    return dl_q_is_windows(f) ? DL_SHELL_POWERSHELL : DL_SHELL_POSIX;
}

char *dl_fix_python(const dl_facts *f, const dl_python *py)
{
    if (!py || !py->path.value)
        return dl_strdup(dl_q_is_windows(f) ? "python" : "python3");
    return dl_shell_program(dl_fix_shell(f), py->path.value);
}

void dl_fix_note(dl_finding *x, const char *fmt, ...)
{
    va_list ap;
    char *text;
    va_start(ap, fmt);
    text = dl_vfmt(fmt, ap);
    va_end(ap);
    dl_finding_fix(x, "# %s", text);
    free(text);
}

void dl_fix_as_root(dl_finding *x, const dl_facts *f, const char *fmt, ...)
{
    va_list ap;
    char *cmd;
    bool admin = f->user.admin.known && f->user.admin.value;
    bool no_sudo = f->user.sudo.known && !f->user.sudo.value;
    va_start(ap, fmt);
    cmd = dl_vfmt(fmt, ap);
    va_end(ap);
    if (dl_q_is_windows(f)) {
        if (!admin)
            dl_fix_note(x, "in a PowerShell run as administrator:");
        dl_finding_fix(x, "%s", cmd);
    } else if (admin) {
        dl_finding_fix(x, "%s", cmd);
    } else if (no_sudo) {
        dl_fix_note(x, "as root (there is no sudo here):");
        dl_finding_fix(x, "%s", cmd);
    } else {
        dl_finding_fix(x, "sudo %s", cmd);
    }
    free(cmd);
}

/* The planner's answer for this machine and interpreter; want narrows the kind of build
 * ("cpu" for a machine without a usable GPU). */
static bool planned(const dl_rule_input *in, const dl_python *py, dl_plan_want want,
                    dl_plan *p, dl_plan_machine *m)
{
    dl_plan_constraints cons;
    char *error = NULL;
    memset(p, 0, sizeof *p);
    if (!in->know)
        return false;
    cons.want = want;
    cons.torch = NULL;
    dl_plan_machine_from_facts(in->facts, py, in->know, m);
    if (!dl_plan_make(in->know, m, &cons, p, &error)) {
        free(error);
        return false;
    }
    return p->best >= 0;
}

char *dl_fix_cuda_variant(const dl_rule_input *in)
{
    dl_plan p;
    dl_plan_machine m;
    char *variant = NULL;
    if (planned(in, dl_q_main_python(in->facts), DL_WANT_CUDA, &p, &m))
        variant = dl_strdup(p.c[p.best].variant);
    dl_plan_free(&p);
    return variant;
}

/* A distribution's own Python refuses pip installs (PEP 668). */
static bool externally_managed(const dl_python *py)
{
    return py && dl_q_text_is(&py->kind, "system") && py->prefix.value &&
           strcmp(py->prefix.value, "/usr") == 0;
}

/* pip can remove the torch it installed into the interpreter's own packages; one seen
 * through PYTHONPATH, the user site or a base install it refuses ("Not uninstalling ...
 * outside environment"), and a distribution's it must not touch. */
static bool pip_can_uninstall(const dl_python *py)
{
    const dl_py_package *t = dl_q_package(py, "torch");
    return dl_q_own_torch(py) && t &&
           (dl_q_text_is(&t->installer, "pip") || dl_q_text_is(&t->installer, "uv"));
}

/* The installed torch is the planned release in another build ("2.14.1+cu130" for
 * torch==2.14.1 from cu126): "torch==2.14.1" holds for it, so pip would keep it and the
 * command would change nothing. */
static bool same_release_installed(const dl_python *py, const dl_plan_candidate *c)
{
    const char *v = py->runtime.version.value ? py->runtime.version.value : dl_q_torch_version(py);
    const dl_py_package *t = dl_q_package(py, "torch");
    size_t n = strlen(c->torch);
    /* conda's or a distribution's torch is not pip's to remove */
    if (t && t->installer.value && !dl_q_text_is(&t->installer, "pip") &&
        !dl_q_text_is(&t->installer, "uv"))
        return false;
    return v && !strncmp(v, c->torch, n) && (v[n] == '\0' || v[n] == '+') &&
           strcmp(v + n + (v[n] == '+'), c->variant) != 0;
}

static void python_command(const dl_rule_input *in, const dl_python *py,
                           const dl_plan_machine *m, dl_python_command *cmd)
{
    dl_python_command_make(dl_fix_shell(in->facts), py && py->path.value ? py->path.value : NULL,
                           externally_managed(py),
                           py && dl_q_text_is(&py->kind, "conda") ? py->prefix.value : NULL, m,
                           cmd);
}

/* Among the candidates of the best one's torch release that pass every check and use the
 * GPU, the one whose driver minimum is lowest; the best one when none is lower. */
static long oldest_driver_build(const dl_plan *p, const dl_plan_machine *m)
{
    size_t i;
    long pick = p->best;
    for (i = 0; i < p->n; i++) {
        const dl_plan_candidate *c = &p->c[i];
        int cmp;
        if (c->fails || strcmp(c->torch, p->c[pick].torch) != 0 ||
            !dl_plan_accelerated(c, m) || !c->min_driver[0] || !p->c[pick].min_driver[0] ||
            !dl_driver_cmp(c->min_driver, p->c[pick].min_driver, &cmp) || cmp >= 0)
            continue;
        pick = (long)i;
    }
    return pick;
}

/* A pasted report that shows a CUDA or ROCm torch but names no GPU: the planner, rightly,
 * offers the CPU build (an unknown GPU never gets a GPU plan). Say so, or the user who had
 * a GPU build is moved to a CPU one without a word. */
static void note_gpu_build_unknown(dl_finding *x, const dl_rule_input *in, const dl_python *py,
                                   const dl_plan *p, const dl_plan_machine *m)
{
    const char *version = dl_q_torch_version(py), *plus = version ? strchr(version, '+') : NULL;
    dl_variant_kind kind = plus ? dl_torch_variant(plus + 1).kind : DL_VARIANT_NONE;
    if (in->facts->gpus.known || m->n_gpus || strcmp(p->c[p->best].variant, "cpu") != 0 ||
        (kind != DL_VARIANT_CUDA && kind != DL_VARIANT_ROCM))
        return;
    dl_fix_note(x, "that is the CPU build: nothing here names the GPU that torch %s was for; "
                   "%s gives the GPU build", version,
                kind == DL_VARIANT_CUDA ? "`dlenv plan --gpu NAME --driver VERSION` (nvidia-smi's "
                                          "values)"
                                        : "`dlenv plan --gpu NAME --for rocm`");
}

void dl_fix_install_torch(dl_finding *x, const dl_rule_input *in, const dl_python *py,
                          const char *variant)
{
    dl_plan_want want = variant && !strcmp(variant, "cpu") ? DL_WANT_CPU : DL_WANT_ANY;
    dl_python_command cmd;
    dl_plan p;
    dl_plan_machine m;
    if (py && dl_q_text_is(&py->kind, "store_stub"))
        return; /* no Python to install into: no_python says how to get one */
    if (!planned(in, py, want, &p, &m)) {
        if (m.os == DL_PLAN_OS_UNKNOWN && m.n_gpus && m.gpus[0].cc_major)
            /* a pasted report that names no OS: no wheel can be chosen, which is not "none
             * fits"; the GPU goes by its capability, which needs no quoting and is what the
             * planner reads */
            dl_fix_note(x, "the text does not say the machine's OS, so no install command is "
                           "chosen here: `dlenv plan` on that machine, or `dlenv plan --os linux "
                           "--gpu sm_%u%u --driver VERSION` elsewhere (--os windows for Windows; "
                           "the driver's version from nvidia-smi)",
                        m.gpus[0].cc_major, m.gpus[0].cc_minor);
        else if (m.os == DL_PLAN_OS_UNKNOWN)
            dl_fix_note(x, "the text does not say the machine's OS, so no install command is "
                           "chosen here: `dlenv plan` on that machine, or `dlenv plan --os linux` "
                           "elsewhere (--os windows for Windows; --gpu and --driver from "
                           "nvidia-smi)");
        else
            dl_fix_note(x, "no torch build in dlenv's tables fits this machine: `dlenv plan "
                           "--why` says why");
        dl_plan_free(&p);
        return;
    }
    if (variant && !strcmp(variant, "gpu") && !strcmp(p.c[p.best].variant, "cpu") && m.n_gpus &&
        m.gpus[0].cc_major) {
        /* the GPU is known and no CUDA build of the tables runs on it with this driver */
        dl_fix_note(x, "no CUDA build in dlenv's tables runs on this GPU with driver %s: update "
                       "the driver (`dlenv plan --why` lists the builds and what each needs)",
                    m.driver[0] ? m.driver : "unknown");
        dl_plan_free(&p);
        return;
    }
    if (variant && !strcmp(variant, "gpu") && !strcmp(p.c[p.best].variant, "cpu")) {
        /* the finding is that a GPU is there and the torch is a CPU build: the CPU build
         * the planner offers for a GPU it cannot name would be the same mistake again */
        dl_fix_note(x, "install a CUDA build of torch that this driver runs, not the CPU build: "
                       "which one depends on the GPU, which is not named here; `dlenv plan --gpu "
                       "NAME --driver %s` (nvidia-smi's values) prints the command",
                    m.driver[0] ? m.driver : "VERSION");
        dl_plan_free(&p);
        return;
    }
    python_command(in, py, &m, &cmd);
    if (cmd.make_venv) {
        dl_fix_note(x, "%s is the system's Python, which refuses pip (PEP 668): keep torch in "
                       "a venv", py->path.value);
        dl_finding_fix(x, "%s", cmd.make_venv);
    } else if (py && (pip_can_uninstall(py) || same_release_installed(py, &p.c[p.best]))) {
        /* pip keeps an installed 2.9.1+cpu when asked for torch==2.9.1: remove it first. */
        dl_finding_fix(x, "%s -m pip uninstall -y torch torchvision torchaudio", cmd.run);
    }
    {
        dl_plan_commands c;
        /* the driver unread: of the best release's builds for this GPU, the one the oldest
         * driver runs (the release's oldest CUDA for the GPU, not its newest) */
        if (!m.driver[0])
            p.best = oldest_driver_build(&p, &m);
        dl_plan_commands_make(in->know, &p, &p.c[p.best], &m, &cmd, NULL, &c);
        dl_finding_fix(x, "%s", c.pip);
        dl_plan_commands_free(&c);
        note_gpu_build_unknown(x, in, py, &p, &m);
        if (!m.driver[0] && p.c[p.best].min_driver[0])
            /* the driver was not read: the build needs one that the machine may not have */
            dl_fix_note(x, "that build needs an NVIDIA driver >= %s%s, and the driver here is "
                           "unknown (nvidia-smi shows it; `dlenv plan --driver VERSION` picks "
                           "the build for an older one)",
                        p.c[p.best].min_driver,
                        p.c[p.best].min_driver_from_linux ? " (Linux's number; on Windows "
                                                            "the driver of the same CUDA)"
                                                          : "");
        if (p.after_driver_update >= 0 && !dl_plan_accelerated(&p.c[p.best], &m)) {
            const dl_plan_candidate *up = &p.c[p.after_driver_update];
            dl_plan_commands_make(in->know, &p, up, &m, &cmd, NULL, &c);
            dl_fix_note(x, "for the GPU: update the NVIDIA driver to %s or newer, then:",
                        up->min_driver);
            dl_finding_fix(x, "%s", c.pip);
            dl_plan_commands_free(&c);
        }
    }
    dl_python_command_free(&cmd);
    dl_plan_free(&p);
}

/* The index a torch with this local tag came from: +cu121 -> .../whl/cu121; none: PyPI. */
static char *index_of_tag(const char *version)
{
    const char *plus = version ? strchr(version, '+') : NULL;
    if (!plus || !plus[1])
        return NULL;
    return dl_fmt(DL_TORCH_INDEX "%s", plus + 1);
}

void dl_fix_reinstall_torch(dl_finding *x, const dl_rule_input *in, const dl_python *py,
                            bool with_dependencies)
{
    const char *version = dl_q_torch_version(py);
    dl_plan_machine m;
    dl_python_command cmd;
    char *index, *quoted;
    if (!version) {
        dl_fix_install_torch(x, in, py, NULL);
        return;
    }
    if (externally_managed(py)) {
        const char *d = dl_fix_distro(in->facts);
        if (!strcmp(d, "debian") || !strcmp(d, "ubuntu"))
            dl_fix_as_root(x, in->facts, "apt-get install -y --reinstall python3-torch");
        else
            dl_fix_note(x, "reinstall the distribution's torch package");
        return;
    }
    memset(&m, 0, sizeof m);
    python_command(in, py, &m, &cmd);
    index = index_of_tag(version);
    quoted = index ? dl_shell_quote(dl_fix_shell(in->facts), index) : NULL;
    dl_finding_fix(x, "%s -m pip install --force-reinstall%s torch==%s%s%s", cmd.run,
                   with_dependencies ? "" : " --no-deps", version, quoted ? " --index-url " : "",
                   quoted ? quoted : "");
    free(quoted);
    free(index);
    dl_python_command_free(&cmd);
}

/* conda's record of torch ("pytorch", from conda-meta or a pasted `conda list`) when conda
 * installed the torch that runs; NULL when pip did (pip's torch over a conda one runs). */
static const dl_py_package *conda_torch(const dl_python *py)
{
    const dl_py_package *rec = dl_q_package(py, "pytorch"), *t = dl_q_package(py, "torch");
    if (!rec || !dl_q_text_is(&rec->installer, "conda") || !rec->version.value)
        return NULL;
    if (t && (dl_q_text_is(&t->installer, "pip") || dl_q_text_is(&t->installer, "uv")))
        return NULL;
    return rec;
}

/* The companion made for a conda torch, from conda: pip's torchvision in a conda
 * environment would pull another torch from PyPI, and conda cannot mend pip's files. */
static void conda_companion_fix(dl_finding *x, const dl_rule_input *in, const dl_python *py,
                                const dl_py_package *rec, const char *name, const char *paired)
{
    dl_shell sh = dl_fix_shell(in->facts);
    const dl_py_package *had = dl_q_package(py, name);
    char *spec = dl_q_conda_spec(rec), *torch_q = dl_shell_quote(sh, spec);
    char *want = dl_fmt("%s==%s", name, paired), *want_q = dl_shell_quote(sh, want);
    char *prefix = py->prefix.value && dl_q_text_is(&py->kind, "conda")
                       ? dl_shell_quote(sh, py->prefix.value) : NULL;
    dl_strv channels = {0};
    dl_buf options = {0};
    bool named = dl_q_conda_channels(rec, &channels);
    size_t i;
    for (i = 0; i < channels.n; i++) {
        char *c = dl_shell_quote(sh, channels.v[i]);
        dl_buf_printf(&options, " -c %s", c);
        free(c);
    }
    /* torch pinned to its version and build: conda changes neither torch nor its variant */
    dl_fix_note(x, "the %s made for torch %s, from the conda channel torch came from%s "
                   "(torch stays):", name, dl_q_torch_version(py),
                named ? "" : " (add the -c options you installed torch with)");
    if (had && (dl_q_text_is(&had->installer, "pip") || dl_q_text_is(&had->installer, "uv"))) {
        dl_plan_machine m;
        dl_python_command cmd;
        memset(&m, 0, sizeof m);
        python_command(in, py, &m, &cmd);
        dl_finding_fix(x, "%s -m pip uninstall -y %s", cmd.run, name);
        dl_python_command_free(&cmd);
    }
    dl_finding_fix(x, "conda install -y%s%s%s %s %s", prefix ? " --prefix " : "",
                   prefix ? prefix : "", options.len ? options.data : "", torch_q, want_q);
    dl_buf_free(&options);
    dl_strv_free(&channels);
    free(prefix);
    free(want_q);
    free(want);
    free(torch_q);
    free(spec);
}

bool dl_fix_match_companion(dl_finding *x, const dl_rule_input *in, const dl_python *py,
                            const char *name)
{
    const dl_table *t = in->know ? dl_knowledge_at(in->know, DL_TABLE_torch_releases) : NULL;
    const char *version = dl_q_torch_version(py), *paired;
    dl_plan_machine m;
    dl_python_command cmd;
    char *index, *quoted;
    long row;
    size_t len = version ? strcspn(version, "+") : 0;
    if (!t || !len || externally_managed(py))
        return false;
    row = dl_kq_torch_release(in->know, version);
    if (row < 0) {
        /* a release older or newer than the table: a new torch would be the wrong answer to
         * a companion's mismatch */
        dl_fix_note(x, "install the %s release made for torch %s, from the index or conda "
                       "channel torch came from (the pairs: https://github.com/pytorch/vision"
                       "#installation, https://pytorch.org/audio/main/installation.html)",
                    name, version);
        return true;
    }
    paired = dl_table_cell(t, (size_t)row, !strcmp(name, "torchvision")
                                               ? DL_COL_torch_releases_torchvision
                                               : DL_COL_torch_releases_torchaudio);
    if (!*paired)
        return false;
    if (conda_torch(py)) {
        conda_companion_fix(x, in, py, conda_torch(py), name, paired);
        return true;
    }
    memset(&m, 0, sizeof m);
    python_command(in, py, &m, &cmd);
    index = index_of_tag(version);
    quoted = index ? dl_shell_quote(dl_fix_shell(in->facts), index) : NULL;
    /* the exact build, with torch's own tag: pip keeps an installed 0.16.0+cpu when asked
     * for 0.16.0, and --no-deps keeps it from touching torch */
    dl_fix_note(x, "the %s made for torch %s, from the index torch came from (torch stays):",
                name, version);
    dl_finding_fix(x, "%s -m pip install --force-reinstall --no-deps %s==%s%s%s%s", cmd.run,
                   name, paired, version[len] ? version + len : "",
                   quoted ? " --index-url " : "", quoted ? quoted : "");
    free(quoted);
    free(index);
    dl_python_command_free(&cmd);
    return true;
}

/* `tag` ("cu121") among the ';'-separated variants of a torch_releases.csv cell. */
static bool variant_in(const char *cell, const char *tag)
{
    dl_strv v = {0};
    size_t i;
    bool found = false;
    dl_strv_split(&v, cell ? cell : "", ';');
    for (i = 0; i < v.n && !found; i++)
        found = !strcmp(v.v[i], tag);
    dl_strv_free(&v);
    return found;
}

bool dl_fix_install_fixed_release(dl_finding *x, const dl_rule_input *in, const dl_python *py,
                                  const char *release)
{
    const dl_table *t = in->know ? dl_knowledge_at(in->know, DL_TABLE_torch_releases) : NULL;
    const char *version = dl_q_torch_version(py), *plus = version ? strchr(version, '+') : NULL;
    const char *vision;
    dl_plan_machine m;
    dl_python_command cmd;
    long row;
    if (!t || !plus || !release || externally_managed(py) || conda_torch(py) ||
        dl_torch_variant(plus + 1).kind != DL_VARIANT_CUDA ||
        (row = dl_kq_torch_release(in->know, release)) < 0 ||
        !variant_in(dl_table_cell(t, (size_t)row, dl_q_is_windows(in->facts)
                                                      ? DL_COL_torch_releases_cuda_variants_windows
                                                      : DL_COL_torch_releases_cuda_variants_linux),
                    plus + 1))
        return false;
    vision = dl_table_cell(t, (size_t)row, DL_COL_torch_releases_torchvision);
    memset(&m, 0, sizeof m);
    python_command(in, py, &m, &cmd);
    dl_fix_note(x, "torch %s, the release that fixes it, in the same %s build (the driver that "
                   "runs %s runs it):", release, plus + 1, version);
    dl_finding_fix(x, "%s -m pip install torch==%s%s%s --index-url %s%s", cmd.run, release,
                   vision && *vision ? " torchvision==" : "", vision && *vision ? vision : "",
                   DL_TORCH_INDEX, plus + 1);
    dl_python_command_free(&cmd);
    return true;
}

static bool listed(const dl_strv *v, const char *s)
{
    size_t i;
    for (i = 0; v && i < v->n; i++)
        if (!strcmp(v->v[i], s))
            return true;
    return false;
}

char *dl_fix_list_without(const char *list, char sep, const dl_strv *drop, const char *drop_part)
{
    dl_buf b = {0};
    const char *p = list;
    char seps[2];
    seps[0] = sep;
    seps[1] = '\0';
    while (p && *p) {
        size_t n = strcspn(p, seps);
        char *entry = dl_strndup(p, n);
        if (*entry && !listed(drop, entry) && !(drop_part && strstr(entry, drop_part)))
            dl_buf_printf(&b, "%s%s", b.len ? seps : "", entry);
        free(entry);
        p += n;
        if (*p)
            p++;
    }
    return b.len ? dl_buf_take(&b) : dl_strdup("");
}

void dl_fix_set_env(dl_finding *x, const dl_facts *f, const char *name, const char *value)
{
    char *cmd = value && *value ? dl_shell_set_env(dl_fix_shell(f), name, value)
                                : dl_shell_unset_env(dl_fix_shell(f), name);
    dl_finding_fix(x, "%s", cmd);
    free(cmd);
}

const char *dl_fix_distro(const dl_facts *f)
{
    const char *id = f->os.distro_id.value;
    if (!id)
        return "other";
    if (strcmp(id, "ubuntu") == 0 || strcmp(id, "pop") == 0 || strcmp(id, "linuxmint") == 0)
        return "ubuntu";
    if (strcmp(id, "debian") == 0)
        return "debian";
    if (strcmp(id, "fedora") == 0 || strcmp(id, "rhel") == 0 || strcmp(id, "rocky") == 0 ||
        strcmp(id, "almalinux") == 0 || strcmp(id, "centos") == 0)
        return "fedora";
    if (strcmp(id, "arch") == 0 || strcmp(id, "manjaro") == 0 || strcmp(id, "endeavouros") == 0)
        return "arch";
    return "other";
}
