#include "explain/rocm_text.h"

#include "base/str.h"
#include "explain/quote.h"
#include "explain/text_cause.h"
#include "explain/text_marks.h"
#include "facts/query.h"
#include "know/gpu_target.h"
#include "plan/gpu_names.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What decides between ROCm's causes: the GPU's target and the device files' groups. */
static const char rocm_ask[] = "`rocminfo | grep gfx` (the GPU's target) and `groups` (render "
                               "and video: /dev/kfd needs them)";

/* The listed torch's local tag ("rocm6.0" of "2.3.0+rocm6.0"); NULL when it has none. */
static const char *local_tag(const dl_torch_install *t)
{
    const char *plus;
    if (!t)
        return NULL;
    if (t->local_tag.value)
        return t->local_tag.value;
    plus = t->version.value ? strchr(t->version.value, '+') : NULL;
    return plus ? plus + 1 : NULL;
}

/* collect_env's "ROCM used to build PyTorch: 7.0.51831" (a version, not "N/A"). */
static bool rocm_build_line(const dl_paste *p)
{
    long i = dl_paste_find(p, 0, "rocm used to build pytorch:");
    const char *at;
    if (i < 0)
        return false;
    at = strstr(p->lines[i].lower, "rocm used to build pytorch:") + 27;
    at += strspn(at, " \t");
    return isdigit((unsigned char)*at) != 0;
}

/* "HIP error: ..." as torch's ROCm build words its errors: "hip" a word of its own ("chip
 * error" is no HIP). */
static bool hip_error_said(const dl_paste *p)
{
    long i;
    for (i = dl_paste_find(p, 0, "hip error"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "hip error")) {
        const char *low = p->lines[i].lower, *at;
        for (at = strstr(low, "hip error"); at; at = strstr(at + 1, "hip error"))
            if (at == low || !isalnum((unsigned char)at[-1]))
                return true;
    }
    return false;
}

bool dl_text_rocm_build(const dl_explanation *e)
{
    /* HIP's own words come only from a ROCm build of torch */
    static const char *const hip[] = {"+rocm", "no hip gpus are available", "hip initialization",
                                      "hiperror", "hip_error_"};
    const char *tag = local_tag(dl_q_listed_torch(&e->facts));
    return (tag && !strncmp(tag, "rocm", 4)) || rocm_build_line(&e->paste) ||
           dl_paste_find_any(&e->paste, hip, sizeof hip / sizeof hip[0]) >= 0 ||
           hip_error_said(&e->paste);
}

/* An NVIDIA GPU named: its product words, or the facts' GPU of NVIDIA's (collect_env's
 * "Nvidia driver version: No CUDA" on a ROCm machine names no GPU). */
static long nvidia_gpu_line(const dl_explanation *e)
{
    static const char *const names[] = {"geforce", "rtx ", "gtx ", "tesla ", "quadro", "a100",
                                        "h100", "nvidia t4", "gpu=\"t4\"", "gpu='t4'"};
    return dl_text_gpu_line(e, DL_GPU_NVIDIA, true, names, sizeof names / sizeof names[0]);
}

void dl_explain_rocm_build_on_nvidia(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "cpu_only_build",
        "torch here is a ROCm build (AMD's), but the GPU is NVIDIA's: a ROCm build has no "
        "CUDA, so it finds no GPU it can use",
        "# uninstall torch (and torchvision, torchaudio) and install the CUDA build for this "
        "GPU: dlenv plan prints the command (an index URL that ends in a rocm version gives "
        "AMD builds)",
        {NULL},
        NULL};
    /* the web UIs' start-up check of is_available() words it their own way */
    static const char *const symptom[] = {"no hip gpus are available", "hiperrornodevice",
                                          "torch is not able to use gpu"};
    long line, gpu;
    if (dl_text_cause_read(e) || !dl_text_rocm_build(e) || dl_text_other_vendor_gpu(&e->facts) ||
        (gpu = nvidia_gpu_line(e)) < 0 ||
        ((line = dl_paste_find_any(&e->paste, symptom, sizeof symptom / sizeof symptom[0])) < 0 &&
         (line = dl_text_unavailable_line(&e->paste)) < 0))
        return;
    dl_text_cause_add(e, &cause, line, gpu == line ? -1 : gpu);
}

/* lspci's line for a display controller of one of the vendor's names ("01:00.0 VGA
 * compatible controller: NVIDIA Corporation ..."); -1 when the text has none. */
static long lspci_display_line(const dl_paste *p, const char *const *vendor, size_t n)
{
    static const char *const kinds[] = {"vga compatible controller", "3d controller",
                                        "display controller"};
    long i;
    for (i = dl_paste_find(p, 0, "controller"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "controller"))
        if (dl_line_has_any(p->lines[i].lower, kinds, sizeof kinds / sizeof kinds[0]) &&
            dl_line_has_any(p->lines[i].lower, vendor, n))
            return i;
    return -1;
}

void dl_explain_webui_rocm_beside_nvidia(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "cpu_only_build",
        "the web UI's webui.sh installed torch's ROCm build (AMD's, without CUDA): lspci "
        "lists an AMD display controller (most often the Ryzen CPU's integrated graphics) "
        "beside the NVIDIA GPU, and older webui.sh scripts chose ROCm whenever AMD showed (newer "
        "ones look for NVIDIA first: update, and let it install torch again)",
        "git pull && rm -rf venv && ./webui.sh",
        {NULL},
        "`venv/bin/python -c \"import torch; print(torch.__version__)\"` (a +rocm version "
        "says webui.sh chose ROCm)"};
    static const dl_text_cause on_igpu = {
        "cpu_only_build",
        "the web UI's webui.sh installed torch's ROCm build (AMD's, without CUDA) because it "
        "saw the AMD integrated graphics: the NVIDIA GPU beside it then gets no CUDA (newer "
        "webui.sh scripts look for NVIDIA first)",
        "git pull && rm -rf venv && ./webui.sh",
        {"non_nvidia_gpu"},
        "`lspci | grep -E \"VGA|3D|Display\"` (is there an NVIDIA GPU beside the AMD "
        "graphics?)"};
    static const char *const nvidia[] = {"nvidia"};
    static const char *const amd[] = {"advanced micro devices", "amd/ati", "[amd]"};
    /* the writer's own words for the AMD part that webui.sh saw */
    static const char *const igpu[] = {"igpu", "integrated gpu", "integrated graphics"};
    long line, gpu;
    if (dl_text_cause_read(e) || dl_q_is_windows(&e->facts) ||
        (line = dl_paste_find(&e->paste, 0, "torch is not able to use gpu")) < 0)
        return;
    if ((gpu = lspci_display_line(&e->paste, nvidia, 1)) >= 0 &&
        lspci_display_line(&e->paste, amd, sizeof amd / sizeof amd[0]) >= 0)
        dl_text_cause_add(e, &cause, line, gpu);
    else if ((dl_text_rocm_build(e) || dl_paste_find(&e->paste, 0, "/whl/rocm") >= 0) &&
             !dl_text_other_vendor_gpu(&e->facts) &&
             (gpu = dl_paste_find_any(&e->paste, igpu, sizeof igpu / sizeof igpu[0])) >= 0)
        dl_text_cause_add(e, &on_igpu, line, gpu);
}

void dl_explain_rocm_build_in_use(dl_explanation *e)
{
    static const char *const amd[] = {"non_nvidia_gpu"};
    static const char *const index[] = {"/whl/rocm", "/whl/nightly/rocm"};
    long at = dl_paste_find(&e->paste, 0, "amdgpu.ids: no such file");
    /* the build is ROCm's already, and the only complaint is libdrm's name table: "CUDA
     * cannot work on AMD" answers nothing (ROCm/legacy-rocm-build#5943) */
    if (at < 0 || (!dl_text_rocm_build(e) &&
                   dl_paste_find_any(&e->paste, index, sizeof index / sizeof index[0]) < 0) ||
        dl_text_unavailable_line(&e->paste) >= 0)
        return;
    dl_text_causes_step_back(e, amd, 1);
}

void dl_explain_rocm_no_gpu(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "no_gpu_visible",
        "torch (a ROCm build) sees no AMD GPU: most often this user may not open /dev/kfd and "
        "/dev/dri (the render and video groups), a container was started without them, or on "
        "WSL2 the AMD driver and wheels are not the ones AMD lists for WSL",
        "# on Linux add the user to the groups, then log out and in: sudo usermod -aG "
        "render,video $USER; a container needs --device=/dev/kfd --device=/dev/dri "
        "--group-add video --group-add render",
        {"device_permission_denied", "docker_no_gpu_passthrough", "arch_not_in_wheel"},
        "`rocminfo | grep -E \"gfx|Unable\"`, `groups` and `ls -l /dev/kfd /dev/dri/render*`"};
    static const char *const symptom[] = {"no hip gpus are available", "hiperrornodevice",
                                          "hip_error_nodevice", "error 101: hiperrorinvaliddevice"};
    static const dl_text_cause on_wsl = {
        "wsl_libcuda_path",
        "ROCm sees no AMD GPU under WSL2: ROCm on WSL runs only with the ROCm release, "
        "Linux distribution, GPU and Windows Adrenalin driver AMD lists for WSL (the ROCm "
        "wheels from pytorch.org cannot reach the GPU there; AMD's WSL wheels use the WSL "
        "runtime, libhsa-runtime64 from /opt/rocm), and HSA_OVERRIDE_GFX_VERSION does not help",
        "# install the Adrenalin driver AMD lists for WSL on Windows, then AMD's WSL torch "
        "wheels (repo.radeon.com) and replace the wheel's torch/lib/libhsa-runtime64.so* "
        "with /opt/rocm's, as AMD's ROCm-on-WSL guide says; RDNA2 cards are not supported "
        "on WSL",
        {"arch_not_in_wheel"},
        "`rocminfo` inside WSL and the Adrenalin driver version on Windows"};
    static const char *const wsl[] = {"wsl environment detected", "microsoft-standard", "wsl2",
                                      "wsl 2", " wsl", "/wsl/tools/rocminfo"};
    static const char *const amd[] = {"non_nvidia_gpu"};
    /* rocminfo's own failures under ROCm's WSL runtime (it prints "WSL environment
     * detected."): this ROCm release, distro, GPU or Windows driver is not one AMD lists
     * for WSL (ROCm/legacy-rocm-build#5106, #3402); natively they have other causes */
    static const char *const wsl_runtime[] = {"hsa_status_error_out_of_resources",
                                              "no wddm adapters found", "rocr: unsupported gpu",
                                              "hsa_init failed"};
    long line, on;
    on = dl_paste_find_any(&e->paste, wsl, sizeof wsl / sizeof wsl[0]);
    if ((line = dl_paste_find_any(&e->paste, symptom, sizeof symptom / sizeof symptom[0])) < 0 &&
        ((dl_paste_find(&e->paste, 0, "wsl environment detected") < 0 &&
          dl_paste_find(&e->paste, 0, "/wsl/tools/rocminfo") < 0) ||
         (line = dl_paste_find_any(&e->paste, wsl_runtime,
                                   sizeof wsl_runtime / sizeof wsl_runtime[0])) < 0))
        return;
    /* the AMD card's name beside HIP's own words says the build is ROCm's already: off WSL,
     * "CUDA cannot work on AMD" is not the question (Fooocus#1079: the render group) */
    if (on < 0 && !dl_q_is_wsl(&e->facts))
        dl_text_causes_step_back(e, amd, 1);
    if (dl_text_cause_read(e))
        return;
    if (on >= 0 || dl_q_is_wsl(&e->facts))
        dl_text_cause_add(e, &on_wsl, line, on >= 0 && on != line ? on : -1);
    else
        dl_text_cause_add(e, &cause, line, -1);
}

void dl_explain_amd_torch_without_rocm(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "cpu_only_build",
        "torch sees no GPU on an AMD card, and nothing shows a ROCm build: pip installed "
        "another build of torch (a CPU one, or PyPI's CUDA one through --extra-index-url), "
        "and only torch's ROCm build uses an AMD GPU",
        "# uninstall torch (and torchvision, torchaudio), then install them from the ROCm "
        "index alone, with --index-url (not --extra-index-url, which lets pip take PyPI's "
        "wheel): https://download.pytorch.org/whl/ followed by the ROCm release, as "
        "pytorch.org's selector prints it",
        {"non_nvidia_gpu", "arch_not_in_wheel"},
        "`python -c \"import torch; print(torch.__version__, torch.version.hip)\"` (a ROCm "
        "build has +rocm in its version and a HIP version)"};
    static const char *const amd[] = {"non_nvidia_gpu"};
    long line;
    if (dl_text_rocm_build(e) || !dl_text_other_vendor_gpu(&e->facts) ||
        dl_gpu_vendor_of_name(DL_LIST_AT(e->facts.nvml.gpus, dl_nvml_gpu, 0).name.value) !=
            DL_GPU_AMD ||
        (dl_paste_find(&e->paste, 0, "/whl/rocm") < 0 &&
         dl_paste_find(&e->paste, 0, "/whl/nightly/rocm") < 0) ||
        dl_q_is_windows(&e->facts) || (line = dl_text_unavailable_line(&e->paste)) < 0)
        return;
    /* the writer knows the GPU is AMD's and asked for ROCm: "CUDA cannot work on AMD"
     * answers no question; which build pip installed does */
    dl_text_causes_step_back(e, amd, 1);
    if (!dl_text_cause_read(e))
        dl_text_cause_add(e, &cause, line, -1);
}

/* A gfx id in the text ("gfx1031", rocminfo's "Name: gfx1031"): its line, the id in out. */
static long gfx_in_text(const dl_paste *p, char *out, size_t cap)
{
    long line;
    for (line = dl_paste_find(p, 0, "gfx"); line >= 0;
         line = dl_paste_find(p, (size_t)line + 1, "gfx")) {
        const char *at = p->lines[line].lower;
        while ((at = strstr(at, "gfx")) != NULL) {
            size_t n = 3;
            while (isalnum((unsigned char)at[n]) && n < 8)
                n++;
            if (n >= 6 && n < cap && isdigit((unsigned char)at[3]) &&
                !isalnum((unsigned char)at[n])) {
                memcpy(out, at, n);
                out[n] = '\0';
                return line;
            }
            at += 3;
        }
    }
    return -1;
}

/* The GPU's target: the AMD GPU the facts name, else a gfx id in the text; *line: where it
 * was read (-1: not known). */
static bool amd_target(const dl_knowledge *k, const dl_explanation *e, char *out, size_t cap,
                       long *line)
{
    const dl_nvml_gpu *g = e->facts.nvml.gpus.count
                               ? &DL_LIST_AT(e->facts.nvml.gpus, dl_nvml_gpu, 0) : NULL;
    *line = -1;
    if (g && g->name.value && dl_gpu_vendor_of_name(g->name.value) == DL_GPU_AMD &&
        dl_gpu_target_of_name(k, "amd", g->name.value, out, cap)) {
        *line = dl_text_line_of_fact(e, "nvml.gpus[0].name");
        return true;
    }
    return (*line = gfx_in_text(&e->paste, out, cap)) >= 0;
}

/* The first target of an RDNA target's family (gfx1031 -> gfx1030) into sibling, and the
 * override that names it ("10.3.0") into out. Only the four-digit RDNA targets (gfx10xy,
 * gfx11xy, gfx12xy) that are not their family's first, where the override is the known
 * way to run a sibling's code. */
static bool family_first(const char *target, char *sibling, char *out, size_t cap)
{
    if (strlen(target) != 7 || strncmp(target, "gfx1", 4) || !isdigit((unsigned char)target[4]) ||
        !isdigit((unsigned char)target[5]) || target[6] == '0')
        return false;
    snprintf(sibling, 16, "%.6s0", target);
    snprintf(out, cap, "%c%c.%c.0", sibling[3], sibling[4], sibling[5]);
    return true;
}

/* A target of the same family in the build's list, as HSA_OVERRIDE_GFX_VERSION writes it:
 * gfx1031 beside gfx1030 -> "10.3.0". */
static bool override_for(const char *list, const char *target, char *out, size_t cap)
{
    char sibling[16];
    return family_first(target, sibling, out, cap) && dl_target_in_list(list, sibling);
}

/* "gfx900;gfx906" as "gfx900, gfx906". Caller frees. */
static char *list_for_reading(const char *list)
{
    dl_buf b = {0};
    const char *s;
    for (s = list; *s; s++)
        if (*s == ';')
            dl_buf_add(&b, ", ", 2);
        else
            dl_buf_add(&b, s, 1);
    dl_buf_add(&b, "", 0);
    return dl_buf_take(&b);
}

void dl_explain_rocm_target_not_in_build(const dl_knowledge *k, dl_explanation *e)
{
    const dl_torch_install *t = dl_q_listed_torch(&e->facts);
    const char *list, *tag = local_tag(t);
    char target[16], version[32], override[16], *shown;
    long symptom, gpu_line;
    size_t n;
    dl_finding *x;
    if (dl_text_cause_read(e) || !t || !t->version.value || !tag || strncmp(tag, "rocm", 4) ||
        ((symptom = dl_text_unavailable_line(&e->paste)) < 0 &&
         (symptom = dl_paste_find(&e->paste, 0, "no hip gpus are available")) < 0) ||
        !amd_target(k, e, target, sizeof target, &gpu_line))
        return;
    n = strcspn(t->version.value, "+");
    if (n >= sizeof version)
        return;
    memcpy(version, t->version.value, n);
    version[n] = '\0';
    list = dl_wheel_targets(k, version, tag);
    if (!list || dl_target_in_list(list, target))
        return;
    shown = list_for_reading(list);
    x = dl_finding_add(&e->findings, "arch_not_in_wheel", DL_SEV_FAILURE,
                       "The AMD GPU's target (%s) is not among those torch %s is built for "
                       "(%s), so torch sees no GPU",
                       target, t->version.value, shown);
    free(shown);
    dl_quote_line(x, &e->paste, (size_t)symptom);
    if (gpu_line >= 0 && gpu_line != symptom)
        dl_quote_line(x, &e->paste, (size_t)gpu_line);
    if (override_for(list, target, override, sizeof override)) {
        dl_finding_fix(x, "# before starting Python, so that ROCm runs the build's code for "
                          "the same family's target on this %s:", target);
        dl_finding_fix(x, "export HSA_OVERRIDE_GFX_VERSION=%s", override);
    } else
        dl_finding_fix(x, "# a ROCm build of torch that lists %s (PYTORCH_ROCM_ARCH when "
                          "built from source), or the CPU build", target);
    dl_strv_add(&e->ask, dl_strdup(rocm_ask));
}

void dl_explain_rocm_override_fix(const dl_knowledge *k, dl_explanation *e)
{
    dl_finding *x = dl_findings_get(&e->findings, "arch_not_in_wheel");
    char target[16], sibling[16], override[16];
    long line;
    /* the variable is the Linux runtime's (ROCm on Windows takes no override); the
     * families whose first target every ROCm build of torch lists (gfx1030, gfx1100) */
    if (!x || !dl_finding_fix_is_only(x, "HSA_OVERRIDE_GFX_VERSION set to a supported target") ||
        dl_q_is_windows(&e->facts) || !amd_target(k, e, target, sizeof target, &line) ||
        (strncmp(target, "gfx103", 6) && strncmp(target, "gfx110", 6)) ||
        !family_first(target, sibling, override, sizeof override))
        return;
    dl_finding_fix_clear(x);
    dl_finding_fix(x, "# before starting Python, so that ROCm runs the build's code for the same "
                      "family's first target on this %s:", target);
    dl_finding_fix(x, "export HSA_OVERRIDE_GFX_VERSION=%s", override);
}

bool dl_explain_rocm_candidates(dl_explanation *e)
{
    if (!dl_text_rocm_build(e))
        return false;
    dl_strv_add(&e->alternatives, dl_strdup("arch_not_in_wheel"));
    dl_strv_add(&e->alternatives, dl_strdup("device_permission_denied"));
    dl_strv_add(&e->ask, dl_strdup(rocm_ask));
    return true;
}

bool dl_text_zluda_in_use(const dl_paste *p)
{
    static const char *const in_use[] = {"[zluda]", "zluda detected", "\\zluda\\", "/zluda/",
                                         "comfyui-zluda", "patchzluda", "zluda.exe",
                                         "using zluda", "zluda device", "zluda:"};
    return dl_paste_find_any(p, in_use, sizeof in_use / sizeof in_use[0]) >= 0;
}

void dl_explain_zluda_rules(const dl_paste *p, dl_findings *rules)
{
    size_t i;
    if (!dl_text_zluda_in_use(p))
        return;
    for (i = 0; i < rules->items.count; i++) {
        dl_finding *x = &DL_LIST_AT(rules->items, dl_finding, i);
        if (!strcmp(x->id.value, "non_nvidia_gpu") && dl_q_failure(x))
            dl_text_set(&x->severity, dl_severity_name(DL_SEV_WARNING));
    }
}

/* Every line the finding quotes is the failing message ("Found no NVIDIA driver") or
 * collect_env's "ROCM used to build PyTorch: N/A", which collect_env prints for every CUDA
 * and CPU build, and the latter is among them. */
static bool only_rocm_na_quoted(const dl_finding *x)
{
    size_t i;
    bool na = false, other = false;
    for (i = 0; i < x->evidence.count; i++) {
        const dl_pair *ev = &DL_LIST_AT(x->evidence, dl_pair, i);
        char *low = ev->value ? dl_ascii_lower(ev->value, strlen(ev->value)) : NULL;
        if (low && strstr(low, "rocm used to build pytorch") && strstr(low, "n/a"))
            na = true;
        else if (!low || !strstr(low, "found no nvidia driver"))
            other = true;
        free(low);
    }
    return na && !other;
}

void dl_explain_rocm_na_is_no_amd(dl_explanation *e)
{
    static const char *const other_gpu[] = {"non_nvidia_gpu"};
    dl_finding *x = dl_findings_get(&e->findings, "non_nvidia_gpu");
    if (!x || !dl_q_failure(x) || !only_rocm_na_quoted(x))
        return;
    dl_text_causes_step_back(e, other_gpu, 1);
}
