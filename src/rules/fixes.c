#include "rules/fixes.h"

#include "base/str.h"
#include "know/version.h"
#include "plan/commands.h"
#include "plan/machine_facts.h"
#include "plan/plan_checks.h"
#include "rules/know_query.h"
#include "rules/query.h"

#include <stdlib.h>
#include <string.h>

long long dl_fix_driver_cuda(const dl_facts *f)
{
    if (f->nvml.cuda_driver_version.known && f->nvml.cuda_driver_version.value > 0)
        return f->nvml.cuda_driver_version.value;
    if (f->cuda_driver.driver_version.known && f->cuda_driver.driver_version.value > 0)
        return f->cuda_driver.driver_version.value;
    return 0;
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

void dl_fix_install_torch(dl_finding *x, const dl_rule_input *in, const dl_python *py,
                          const char *variant)
{
    const char *python = dl_q_python_cmd(py);
    bool in_venv = false;
    dl_plan_want want = variant && !strcmp(variant, "cpu") ? DL_WANT_CPU : DL_WANT_ANY;
    dl_plan p;
    dl_plan_machine m;
    /* `python` is the Microsoft Store's alias with no Python behind it: install one. */
    if (py && dl_q_text_is(&py->kind, "store_stub")) {
        dl_finding_fix(x, "winget install --id Python.Python.3.12 -e   (`python` is the "
                          "Microsoft Store alias; then open a new terminal)");
        python = "py -3.12";
    }
    /* A distribution's own Python refuses pip (PEP 668): work in a venv made from it. */
    if (py && dl_q_text_is(&py->kind, "system") && py->prefix.value &&
        strcmp(py->prefix.value, "/usr") == 0) {
        dl_finding_fix(x, "%s -m venv ~/.venvs/torch   (%s is the system's; keep torch in a "
                          "venv)", python, python);
        python = "~/.venvs/torch/bin/python";
        in_venv = true;
    }
    if (planned(in, py, want, &p, &m)) {
        dl_plan_commands c;
        dl_plan_commands_make(in->know, &p, &p.c[p.best], &m, python, NULL, &c);
        /* pip keeps an installed 2.9.1+cpu when asked for torch==2.9.1: remove it first. */
        if (py && !in_venv && dl_q_static_torch(py))
            dl_finding_fix(x, "%s -m pip uninstall -y torch torchvision torchaudio", python);
        dl_finding_fix(x, "%s", c.pip);
        dl_plan_commands_free(&c);
        if (p.after_driver_update >= 0 && !dl_plan_accelerated(&p.c[p.best], &m)) {
            const dl_plan_candidate *up = &p.c[p.after_driver_update];
            dl_plan_commands_make(in->know, &p, up, &m, python, NULL, &c);
            dl_finding_fix(x, "# for the GPU: update the NVIDIA driver to >= %s, then: %s",
                           up->min_driver, c.pip);
            dl_plan_commands_free(&c);
        }
    } else {
        dl_finding_fix(x, "%s -m pip install --upgrade --force-reinstall torch torchvision "
                          "torchaudio --index-url " DL_TORCH_INDEX "cuXYZ   (see `dlenv plan "
                          "--why`: no build in dlenv's tables fits this machine)",
                       python);
    }
    dl_plan_free(&p);
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
