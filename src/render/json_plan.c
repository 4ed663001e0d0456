/* `dlenv plan --json` ("schema": "dlenv.plan/1"): machine, recommended (torch, variant,
 * index_url, commands), after_driver_update, alternatives, rejected with reason ids. */
#include "render/plan_view.h"

#include "base/str.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void add_text(cJSON *o, const char *key, const char *value)
{
    if (value && *value)
        cJSON_AddStringToObject(o, key, value);
    else
        cJSON_AddNullToObject(o, key);
}

static cJSON *machine(const dl_plan_view *v)
{
    const dl_plan_machine *m = v->machine;
    cJSON *o = cJSON_CreateObject(), *gpus = cJSON_CreateArray();
    char py[16];
    size_t i;
    cJSON_AddStringToObject(o, "source", v->machine_source);
    cJSON_AddStringToObject(o, "os", dl_plan_os_name(m->os));
    cJSON_AddStringToObject(o, "arch", m->arch);
    snprintf(py, sizeof py, "%u.%u%s", m->py_major, m->py_minor, m->py_free_threaded ? "t" : "");
    add_text(o, "python", m->py_major ? py : NULL);
    add_text(o, "python_tag", v->plan->python_tag);
    add_text(o, "python_path", v->python_path);
    if (m->py_bits)
        cJSON_AddNumberToObject(o, "python_bits", m->py_bits);
    else
        cJSON_AddNullToObject(o, "python_bits");
    add_text(o, "platform", v->plan->platform);
    if (v->plan->cut)
        cJSON_AddBoolToObject(o, "text_cut", true);
    for (i = 0; i < m->n_gpus; i++) {
        static const char *const vendors[] = {"nvidia", "amd", "intel", "apple", "other"};
        cJSON *g = cJSON_CreateObject();
        char cc[16];
        snprintf(cc, sizeof cc, "%u.%u", m->gpus[i].cc_major, m->gpus[i].cc_minor);
        cJSON_AddStringToObject(g, "vendor", vendors[m->gpus[i].vendor]);
        cJSON_AddStringToObject(g, "name", m->gpus[i].name);
        add_text(g, "compute_capability", m->gpus[i].cc_major ? cc : NULL);
        add_text(g, "guessed_as", m->gpus[i].guessed);
        add_text(g, "unknown_why", m->gpus[i].unknown_why);
        add_text(g, "target", m->gpus[i].target);
        cJSON_AddItemToArray(gpus, g);
    }
    cJSON_AddItemToObject(o, "gpus", gpus);
    add_text(o, "driver", m->driver);
    if (v->plan->last_branch)
        cJSON_AddNumberToObject(o, "last_driver_branch", v->plan->last_branch);
    else
        cJSON_AddNullToObject(o, "last_driver_branch");
    add_text(o, "driver_warning", v->plan->driver_warning);
    return o;
}

static cJSON *candidate(const dl_plan_candidate *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "torch", c->torch);
    cJSON_AddStringToObject(o, "variant", c->variant);
    add_text(o, "torchvision", c->torchvision);
    add_text(o, "torchaudio", c->torchaudio);
    return o;
}

static cJSON *with_commands(const dl_plan_view *v, const dl_plan_candidate *c,
                            const dl_plan_commands *cmd, bool offline)
{
    cJSON *o = candidate(c), *cmds = cJSON_CreateObject();
    add_text(o, "index_url", cmd->index_url);
    add_text(o, "min_driver", c->min_driver);
    if (c->min_driver_from_linux) /* Windows, where NVIDIA publishes no minimum */
        cJSON_AddBoolToObject(o, "min_driver_is_linux_figure", true);
    /* false: a CUDA build chosen while the machine's driver is unknown */
    cJSON_AddBoolToObject(o, "driver_checked", !dl_plan_driver_unchecked(v->machine, c));
    add_text(o, "unlock_driver", c->unlock_driver);
    cJSON_AddBoolToObject(o, "unlock_through_minor_version_compatibility", c->unlock_mvc);
    cJSON_AddBoolToObject(o, "minor_version_compatibility", c->minor_compat);
    cJSON_AddBoolToObject(o, "python_officially_supported", !c->python_unofficial);
    add_text(o, "arch_note", c->arch_note);
    /* "verified": false when the GPU's support by this build is unknown. */
    cJSON_AddBoolToObject(o, "verified", c->unverified[0] == '\0');
    if (c->cut) /* a why-text ends in "…": say so to a program too */
        cJSON_AddBoolToObject(o, "text_cut", true);
    add_text(o, "unverified", c->unverified);
    cJSON_AddStringToObject(cmds, "pip", cmd->pip);
    cJSON_AddStringToObject(cmds, "uv", cmd->uv);
    cJSON_AddStringToObject(cmds, "conda", cmd->conda);
    cJSON_AddItemToObject(o, "commands", cmds);
    if (offline) {
        cJSON *off = cJSON_CreateObject();
        cJSON_AddStringToObject(off, "download", cmd->download);
        cJSON_AddStringToObject(off, "install", cmd->install_downloaded);
        add_text(off, "torch_wheel", cmd->torch_wheel);
        add_text(off, "torch_url", cmd->torch_url);
        cJSON_AddItemToObject(o, "offline", off);
    }
    return o;
}

/* Every reason's words, in the order of "reasons". */
static cJSON *details(const dl_plan_candidate *c)
{
    cJSON *arr = cJSON_CreateArray();
    unsigned r;
    for (r = 0; r < DL_REJ_COUNT; r++)
        if (c->fails & (1u << r))
            cJSON_AddItemToArray(arr, cJSON_CreateString(c->detail[r]));
    return arr;
}

static cJSON *rejected(const dl_plan *p)
{
    cJSON *arr = cJSON_CreateArray();
    size_t i;
    unsigned r;
    for (i = 0; i < p->n; i++) {
        const dl_plan_candidate *c = &p->c[i];
        cJSON *o, *reasons;
        if (!c->fails)
            continue;
        o = candidate(c);
        reasons = cJSON_CreateArray();
        cJSON_AddStringToObject(o, "reason", dl_plan_reason_id(dl_plan_first_reason(c)));
        cJSON_AddStringToObject(o, "detail", c->detail[dl_plan_first_reason(c)]);
        for (r = 0; r < DL_REJ_COUNT; r++)
            if (c->fails & (1u << r))
                cJSON_AddItemToArray(reasons,
                                     cJSON_CreateString(dl_plan_reason_id((dl_plan_reason)r)));
        cJSON_AddItemToObject(o, "reasons", reasons);
        cJSON_AddItemToObject(o, "details", details(c));
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

static void add_index(cJSON *doc, const char *key, const dl_plan *p, long i)
{
    if (i >= 0)
        cJSON_AddItemToObject(doc, key, candidate(&p->c[i]));
    else
        cJSON_AddNullToObject(doc, key);
}

char *dl_render_plan_json(const dl_plan_view *v)
{
    const dl_plan *p = v->plan;
    cJSON *doc = cJSON_CreateObject();
    char *text, *out;
    cJSON_AddStringToObject(doc, "schema", "dlenv.plan/1");
    cJSON_AddItemToObject(doc, "machine", machine(v));
    if (p->best >= 0)
        cJSON_AddItemToObject(doc, "recommended", with_commands(v, &p->c[p->best], &v->best,
                                                                v->offline));
    else
        cJSON_AddNullToObject(doc, "recommended");
    if (p->after_driver_update >= 0)
        cJSON_AddItemToObject(doc, "after_driver_update",
                              with_commands(v, &p->c[p->after_driver_update], &v->after_update,
                                            false));
    else
        cJSON_AddNullToObject(doc, "after_driver_update");
    add_index(doc, "cpu_alternative", p, p->cpu_alternative);
    if (p->unverified_gpu >= 0) {
        cJSON *u = candidate(&p->c[p->unverified_gpu]);
        cJSON_AddStringToObject(u, "unverified", p->c[p->unverified_gpu].unverified);
        const char *variant = p->c[p->unverified_gpu].variant;
        cJSON_AddStringToObject(u, "ask",
                                !strncmp(variant, "rocm", 4)
                                    ? "rocminfo | grep -m1 -o 'gfx[0-9a-f]*'"
                                : !strcmp(variant, "xpu")
                                    ? "sycl-ls"
                                    : "nvidia-smi --query-gpu=name,compute_cap --format=csv");
        cJSON_AddItemToObject(doc, "unverified_gpu", u);
    } else {
        cJSON_AddNullToObject(doc, "unverified_gpu");
    }
    add_index(doc, "gpu_with_other_python", p, p->gpu_blocked_by_python);
    add_index(doc, "newer_python_unlocks", p, p->newer_python);
    add_text(doc, "venv_note", v->venv_note);
    cJSON_AddItemToObject(doc, "rejected", rejected(p));
    text = cJSON_Print(doc);
    cJSON_Delete(doc);
    out = dl_strdup(text);
    cJSON_free(text);
    return out;
}
