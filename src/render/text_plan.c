/* `dlenv plan` as text: the machine in one line, the recommendation with its commands,
 * what a driver update or a newer Python would change, and with --why every candidate. */
#include "render/plan_view.h"

#include "base/str.h"
#include "plan/driver_form.h"

#include <stdio.h>

#include <string.h>

/* A driver minimum as the reader's system shows it: on Windows, NVIDIA's "560.76" with
 * the tail of Windows' form beside it ("*.*.15.6076", what Device Manager prints). */
static const char *driver_text(const dl_plan_view *v, const char *driver, char *buf,
                               size_t n)
{
    char win[32];
    if (v->machine->os == DL_PLAN_OS_WINDOWS && dl_driver_windows_form(driver, win, sizeof win))
        snprintf(buf, n, "%s (Windows: %s)", driver, win);
    else
        snprintf(buf, n, "%s", driver);
    return buf;
}

static void machine_line(dl_buf *b, const dl_plan_view *v, const dl_style *s)
{
    const dl_plan_machine *m = v->machine;
    char drv[80];
    size_t i;
    dl_buf_printf(b, "%sPlan for %s%s: %s %s", dl_style_on(s, DL_TONE_HEAD), v->machine_source,
                  dl_style_off(s, DL_TONE_HEAD), dl_plan_os_name(m->os), m->arch);
    if (m->py_major)
        dl_buf_printf(b, ", Python %u.%u%s%s", m->py_major, m->py_minor,
                      m->py_free_threaded ? "t" : "", m->py_bits == 32 ? " (32-bit)" : "");
    else
        dl_buf_printf(b, ", Python unknown (every version considered)");
    if (v->python_path)
        dl_buf_printf(b, " (%s)", v->python_path);
    dl_buf_printf(b, "\n  GPUs: ");
    if (!m->n_gpus)
        dl_buf_printf(b, "none");
    for (i = 0; i < m->n_gpus; i++) {
        char g[320];
        dl_plan_gpu_describe(&m->gpus[i], g, sizeof g);
        dl_buf_printf(b, "%s%s", i ? "; " : "", g);
    }
    if (m->driver[0])
        dl_buf_printf(b, "\n  NVIDIA driver: %s", driver_text(v, m->driver, drv, sizeof drv));
    if (v->plan->driver_warning[0])
        dl_buf_printf(b, "\n  %swarning: %s%s", dl_style_on(s, DL_TONE_WARN),
                      v->plan->driver_warning, dl_style_off(s, DL_TONE_WARN));
    else if (m->driver_cuda)
        dl_buf_printf(b, "\n  NVIDIA driver: CUDA %d.%d", m->driver_cuda / 1000,
                      m->driver_cuda % 1000 / 10);
    dl_buf_printf(b, "\n\n");
}

static void commands(dl_buf *b, const dl_plan_commands *c, const dl_plan_view *v)
{
    dl_buf_printf(b, "  pip:    %s\n  uv:     %s\n  conda:  %s\n", c->pip, c->uv, c->conda);
    if (!v->offline)
        return;
    dl_buf_printf(b, "  offline, on a machine with internet:\n    %s\n", c->download);
    if (c->torch_wheel)
        dl_buf_printf(b, "    (the torch wheel: %s\n     %s)\n", c->torch_wheel, c->torch_url);
    dl_buf_printf(b, "  then here:\n    %s\n", c->install_downloaded);
}

static void candidate_title(dl_buf *b, const dl_plan_candidate *c)
{
    char what[64];
    dl_plan_variant_describe(c->variant, what, sizeof what);
    dl_buf_printf(b, "torch %s, %s (%s)", c->torch, what, c->variant);
}

static void recommended(dl_buf *b, const dl_plan_view *v, const dl_style *s)
{
    const dl_plan_candidate *c = &v->plan->c[v->plan->best];
    bool unverified = c->unverified[0] != '\0';
    /* a CUDA build on an unknown driver is a guess, not a checked fit: no ✓ */
    bool driver_unknown = dl_plan_driver_unchecked(v->machine, c);
    char drv[80];
    dl_tone tone = unverified || driver_unknown ? DL_TONE_WARN : DL_TONE_GOOD;
    dl_buf_printf(b, "%s%s %s:%s ", dl_style_on(s, tone),
                  unverified || driver_unknown ? "?" : dl_glyph_ok(s),
                  unverified       ? "Unverified"
                  : driver_unknown ? "Recommended if the driver is new enough"
                                   : "Recommended",
                  dl_style_off(s, tone));
    candidate_title(b, c);
    if (unverified)
        dl_buf_printf(b, "\n  %swarning: %s%s\n  ask:    nvidia-smi --query-gpu=name,compute_cap "
                         "--format=csv (then plan with --gpu set to that capability)",
                      dl_style_on(s, DL_TONE_WARN), c->unverified, dl_style_off(s, DL_TONE_WARN));
    if (driver_unknown)
        dl_buf_printf(b, "\n  %swarning: the NVIDIA driver is not known; this build needs a driver "
                         ">= %s%s%s\n  ask:    nvidia-smi --query-gpu=driver_version --format=csv "
                         "(then plan with --driver set to it)",
                      dl_style_on(s, DL_TONE_WARN), driver_text(v, c->min_driver, drv, sizeof drv),
                      c->min_driver_from_linux ? DL_PLAN_LINUX_FIGURE_NOTE : "",
                      dl_style_off(s, DL_TONE_WARN));
    dl_buf_printf(b, "\n  index:  %s\n", v->best.index_url ? v->best.index_url
                                                          : "PyPI (the default index)");
    if (v->venv_note)
        dl_buf_printf(b, "  first:  %s\n", v->venv_note);
    commands(b, &v->best, v);
    if (c->minor_compat)
        dl_buf_printf(b, "  note: runs through CUDA minor-version compatibility; a driver >= %s "
                         "runs it outright\n", driver_text(v, c->min_driver, drv, sizeof drv));
    if (c->python_unofficial)
        dl_buf_printf(b, "  note: wheels exist for this Python, but torch %s does not list it "
                         "as officially supported\n", c->torch);
    if (c->arch_note[0])
        dl_buf_printf(b, "  note: %s\n", c->arch_note);
    /* torchaudio's releases stopped at 2.11: no pin unless that build is known to be on
     * the index (data/torch_releases.csv) */
    if (c->torchvision[0] && !c->torchaudio[0])
        dl_buf_printf(b, "  note: torchaudio left out: no torchaudio build is known to be on "
                         "this index for torch %s\n", c->torch);
}

static void nothing_fits(dl_buf *b, const dl_plan_view *v, const dl_style *s)
{
    const dl_plan *p = v->plan;
    size_t i;
    unsigned seen = 0;
    dl_buf_printf(b, "%s%s Nothing fits this machine.%s\n", dl_style_on(s, DL_TONE_BAD),
                  dl_glyph_fail(s), dl_style_off(s, DL_TONE_BAD));
    for (i = 0; i < p->n; i++) {
        dl_plan_reason r = dl_plan_first_reason(&p->c[i]);
        if (r < DL_REJ_COUNT && !(seen & (1u << r))) {
            seen |= 1u << r;
            dl_buf_printf(b, "  %s: %s\n", dl_plan_reason_id(r), p->c[i].detail[r]);
        }
    }
}

/* A GPU whose capability is unknown: the build that would use it, never with a check
 * mark, and what to ask for to know. */
static void unverified_gpu(dl_buf *b, const dl_plan_view *v, const dl_style *s)
{
    const dl_plan_candidate *c = &v->plan->c[v->plan->unverified_gpu];
    dl_buf_printf(b, "\n%s? Unverified:%s ", dl_style_on(s, DL_TONE_WARN),
                  dl_style_off(s, DL_TONE_WARN));
    candidate_title(b, c);
    const char *ask =
        !strncmp(c->variant, "rocm", 4)
            ? "rocminfo | grep -m1 -o 'gfx[0-9a-f]*' gives the GPU's target (plan with --gpu "
              "set to it); python -c 'import torch; print(torch.cuda.get_arch_list())' in the "
              "installed build gives the wheel's"
        : !strcmp(c->variant, "xpu")
            ? "sycl-ls, or the GPU's full name from the Device Manager / lspci (then plan "
              "with --gpu set to it)"
            : "nvidia-smi --query-gpu=name,compute_cap --format=csv (then plan with --gpu set "
              "to that capability)";
    dl_buf_printf(b, " would use the GPU if it has kernels for it\n  %swarning: %s%s\n"
                     "  ask:    %s\n",
                  dl_style_on(s, DL_TONE_WARN), c->unverified, dl_style_off(s, DL_TONE_WARN),
                  ask);
}

/* An AMD or Intel GPU with a CPU plan: why, from the newest ROCm/XPU build's reason (no
 * wheels for the platform, or the GPU is not among its targets); "" when none says. */
static void no_rocm_xpu_fits(dl_buf *b, const dl_plan *p, const dl_plan_machine *m,
                             dl_gpu_vendor vendor, const char *prefix, const char *kind)
{
    static const dl_plan_reason why[] = {DL_REJ_PLATFORM, DL_REJ_ARCH_TOO_NEW};
    size_t i, j;
    for (i = 0; i < m->n_gpus && m->gpus[i].vendor != vendor; i++)
        ;
    if (i == m->n_gpus)
        return;
    bool any = false;
    for (i = 0; i < p->n; i++) {
        const dl_plan_candidate *c = &p->c[i];
        if (strncmp(c->variant, prefix, strlen(prefix)) != 0)
            continue;
        any = true;
        for (j = 0; j < sizeof why / sizeof why[0]; j++)
            if (c->fails & (1u << why[j])) {
                dl_buf_printf(b, "  note: no %s build runs here: %s\n", kind,
                              c->detail[why[j]]);
                return;
            }
    }
    if (!any)
        dl_buf_printf(b, "  note: PyTorch publishes no %s build for this platform\n", kind);
}

/* A CPU plan on a machine with a known NVIDIA GPU says why, in one line. */
static void no_cuda_fits(dl_buf *b, const dl_plan_view *v)
{
    const dl_plan *p = v->plan;
    const dl_plan_machine *m = v->machine;
    size_t i;
    if (p->best >= 0 && !strcmp(p->c[p->best].variant, "cpu")) {
        no_rocm_xpu_fits(b, p, m, DL_GPU_AMD, "rocm", "ROCm");
        no_rocm_xpu_fits(b, p, m, DL_GPU_INTEL, "xpu", "XPU");
    }
    if (p->best < 0 || strcmp(p->c[p->best].variant, "cpu") != 0 || p->unverified_gpu >= 0 ||
        p->after_driver_update >= 0)
        return;
    for (i = 0; i < m->n_gpus; i++)
        if (m->gpus[i].vendor == DL_GPU_NVIDIA && m->gpus[i].cc_major) {
            dl_buf_printf(b, "  note: no CUDA build dlenv knows runs on %s (sm_%u%u) with "
                             "this setup; --why says why for each\n", m->gpus[i].name,
                          m->gpus[i].cc_major, m->gpus[i].cc_minor);
            return;
        }
}

static void guessed_names(dl_buf *b, const dl_plan_machine *m)
{
    size_t i;
    for (i = 0; i < m->n_gpus; i++)
        if (m->gpus[i].guessed[0])
            dl_buf_printf(b, "  note: '%s' is not a name dlenv knows; planned as %s (sm_%u%u). "
                             "Did you mean %s? If not, pass --gpu with its compute "
                             "capability.\n", m->gpus[i].name, m->gpus[i].guessed,
                          m->gpus[i].cc_major, m->gpus[i].cc_minor, m->gpus[i].guessed);
}

static void alternatives(dl_buf *b, const dl_plan_view *v)
{
    const dl_plan *p = v->plan;
    if (p->after_driver_update >= 0) {
        const dl_plan_candidate *c = &p->c[p->after_driver_update];
        char drv[80];
        dl_buf_printf(b, "\nAfter a driver update to >= %s: ",
                      driver_text(v, c->unlock_driver[0] ? c->unlock_driver : c->min_driver,
                                  drv, sizeof drv));
        candidate_title(b, c);
        if (c->unlock_mvc)
            dl_buf_printf(b, "\n  (through CUDA minor-version compatibility; >= %s runs it "
                             "outright)", driver_text(v, c->min_driver, drv, sizeof drv));
        dl_buf_printf(b, "\n  %s\n", v->after_update.pip);
    }
    if (p->cpu_alternative >= 0) {
        dl_buf_printf(b, "\nNewer, without the GPU: ");
        candidate_title(b, &p->c[p->cpu_alternative]);
        dl_buf_printf(b, "\n");
    }
    if (p->gpu_blocked_by_python >= 0) {
        const dl_plan_candidate *c = &p->c[p->gpu_blocked_by_python];
        dl_buf_printf(b, "\nWith another Python: ");
        candidate_title(b, c);
        dl_buf_printf(b, " runs on this GPU\n  (%s)\n", c->detail[DL_REJ_PYTHON]);
    } else if (p->newer_python >= 0) {
        const dl_plan_candidate *c = &p->c[p->newer_python];
        dl_buf_printf(b, "\nA newer Python would unlock ");
        candidate_title(b, c);
        dl_buf_printf(b, "\n  (%s)\n", c->detail[DL_REJ_PYTHON]);
    }
}

/* An older patch that fails exactly as a newer one of its minor adds nothing to read. */
static bool repeats_newer_patch(const dl_plan *p, size_t i)
{
    const dl_plan_candidate *c = &p->c[i];
    size_t j;
    for (j = 0; j < i; j++) {
        const dl_plan_candidate *d = &p->c[j];
        const char *cd = strrchr(c->torch, '.'), *dd = strrchr(d->torch, '.');
        if (cd && dd && cd - c->torch == dd - d->torch &&
            !strncmp(c->torch, d->torch, (size_t)(cd - c->torch)) &&
            !strcmp(c->variant, d->variant) && c->fails == d->fails && (long)i != p->best)
            return true;
    }
    return false;
}

static void why(dl_buf *b, const dl_plan_view *v, const dl_style *s)
{
    const dl_plan *p = v->plan;
    size_t i;
    unsigned r;
    dl_buf_printf(b, "\nEvery candidate (older patches shown where they differ):\n");
    for (i = 0; i < p->n; i++) {
        const dl_plan_candidate *c = &p->c[i];
        const char *mark = c->fails ? dl_glyph_fail(s) : c->unverified[0] ? "?" : dl_glyph_ok(s);
        if (repeats_newer_patch(p, i))
            continue;
        dl_buf_printf(b, "  %s %-7s %-9s", mark, c->torch, c->variant);
        if (!c->fails && c->unverified[0])
            dl_buf_printf(b, " unverified: %s\n", c->unverified);
        else if (!c->fails)
            dl_buf_printf(b, " fits%s\n", (long)i == p->best ? " (recommended)" : "");
        /* every reason, not the first: a GTX 1060 on an old driver fails cu130 for both */
        for (r = 0; r < DL_REJ_COUNT; r++)
            if (c->fails & (1u << r))
                dl_buf_printf(b, "%s %s: %s\n", r == dl_plan_first_reason(c) ? "" : "                    ",
                              dl_plan_reason_id((dl_plan_reason)r), c->detail[r]);
    }
}

char *dl_render_plan_text(const dl_plan_view *v, const dl_style *s)
{
    dl_buf b = {0};
    machine_line(&b, v, s);
    if (v->plan->best >= 0)
        recommended(&b, v, s);
    else
        nothing_fits(&b, v, s);
    guessed_names(&b, v->machine);
    no_cuda_fits(&b, v);
    if (v->plan->unverified_gpu >= 0)
        unverified_gpu(&b, v, s);
    alternatives(&b, v);
    if (v->why)
        why(&b, v, s);
    else
        dl_buf_printf(&b, "\n(--why lists every candidate and why it was rejected)\n");
    return dl_buf_take(&b);
}
