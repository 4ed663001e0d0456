#include "explain/cpu_build_fix.h"
#include "explain/text_marks.h"

#include "base/str.h"
#include "explain/build_choice.h"
#include "facts/query.h"
#include "know/version.h"
#include "rules/finding.h"
#include "rules/fixes.h"
#include "rules/know_query.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The table's general words for cpu_only_build (the not_compiled_cuda row's fix). */
static const char general[] = "install the CUDA build of torch in place of this one";

/* Any CUDA 12 driver (12.9): what is assumed where the text shows none and names no
 * release, since far more drivers run CUDA 12 than the newest release's CUDA 13. */
static const int cuda12_driver = 12090;

/* The build of torch `release` to name where the text shows no driver: the one PyPI's Linux
 * wheel of that release uses, the one most drivers of its time run. */
static bool pypi_build(const dl_knowledge *k, const char *release, bool windows, char *tag,
                       size_t cap)
{
    const dl_table *rel = dl_knowledge_at(k, DL_TABLE_torch_releases);
    long row = dl_kq_torch_release(k, release);
    const char *pypi;
    if (row < 0)
        return false;
    pypi = dl_table_cell(rel, (size_t)row, DL_COL_torch_releases_pypi_default_cuda_linux);
    if (!pypi || !dl_semicolon_list_has(
                     dl_table_cell(rel, (size_t)row,
                                   windows ? DL_COL_torch_releases_cuda_variants_windows
                                           : DL_COL_torch_releases_cuda_variants_linux),
                     pypi))
        return false;
    snprintf(tag, cap, "%s", pypi);
    return true;
}

/* xformers listed beside the CPU torch ("xformers: 0.0.27", "xformers==0.0.27"): each of its
 * releases is built for one torch, so the new torch alone leaves it behind
 * (Comfy-Org/ComfyUI#5281: uninstall both, then install them together from the index). */
static void xformers_note(const dl_explanation *e, dl_finding *x)
{
    static const char *const listed[] = {"xformers:", "xformers==", "xformers version",
                                         "xformers 0."};
    if (dl_paste_find_any(&e->paste, listed, sizeof listed / sizeof listed[0]) < 0)
        return;
    dl_fix_note(x, "xformers, listed here, is built for one torch release: add xformers to "
                   "that command (from the same index) so it comes for the new torch, or "
                   "uninstall it (python -m pip uninstall -y xformers)");
}

/* xformers' own line names the CUDA build of this release it was made for ("PyTorch
 * 2.0.0+cu118 with CUDA 1108 (you have 2.0.0+cpu)"): that build keeps xformers working, where
 * the release publishes it for the OS. False otherwise. */
static bool build_xformers_wants(const dl_knowledge *k, const dl_paste *p, const char *release,
                                 bool windows, char *tag, size_t cap)
{
    const dl_table *rel = dl_knowledge_at(k, DL_TABLE_torch_releases);
    long line = dl_paste_find(p, 0, "(you have "), row = dl_kq_torch_release(k, release);
    char named[48];
    const char *at;
    size_t n;
    if (line < 0 || row < 0 || dl_paste_find(p, 0, "xformers") < 0)
        return false;
    snprintf(named, sizeof named, "pytorch %s+cu", release);
    if (!(at = strstr(p->lines[line].lower, named)))
        return false;
    at += strlen(named) - 2;
    n = 2 + strspn(at + 2, "0123456789");
    if (n < 4 || n >= cap)
        return false;
    snprintf(tag, cap, "%.*s", (int)n, at);
    return dl_semicolon_list_has(
        dl_table_cell(rel, (size_t)row, windows ? DL_COL_torch_releases_cuda_variants_windows
                                                : DL_COL_torch_releases_cuda_variants_linux),
        tag);
}

void dl_explain_cpu_build_fix(const dl_knowledge *k, dl_explanation *e)
{
    const dl_table *rel = dl_knowledge_at(k, DL_TABLE_torch_releases);
    dl_finding *x = dl_findings_get(&e->findings, "cpu_only_build");
    const char *v = dl_q_first_torch_version(&e->facts), *vision, *audio;
    const char *python =
        e->facts.pythons.count ? DL_LIST_AT(e->facts.pythons, dl_python, 0).version.value : NULL;
    const dl_int *shown = &e->facts.nvml.cuda_driver_version;
    int driver = shown->known && shown->value > 0 ? (int)shown->value : 0, cuda;
    dl_plan_os os = dl_plan_os_parse(e->facts.os.family.value);
    char release[32], variant[16], runs[16];
    dl_torch_version tv;
    long row;
    if (!x || !rel || !dl_finding_fix_is_only(x, general) || os == DL_PLAN_OS_MACOS)
        return;
    /* PyTorch's aarch64 CUDA wheels are built for servers (GH200), not for a Jetson's
     * JetPack: NVIDIA's own wheels are the fix there */
    if (dl_text_jetson_line(&e->paste) >= 0) {
        dl_finding_fix_clear(x);
        dl_fix_note(x, "install NVIDIA's torch for the JetPack release (https://docs.nvidia.com/"
                       "deeplearning/frameworks/install-pytorch-jetson-platform/index.html; "
                       "JetPack 6: python3 -m pip install torch torchvision --index-url "
                       "https://pypi.jetson-ai-lab.io/jp6/cu126), or run an l4t-pytorch or "
                       "jetson-containers image: PyTorch's own aarch64 CUDA wheels are for "
                       "servers such as GH200, not for Jetson; on Jetson Thor (JetPack 7) their CUDA 13 "
                       "build carries its sm_110: --index-url https://download.pytorch.org/whl/"
                       "cu130");
        return;
    }
    /* a pre-release (a nightly, NVIDIA's own 2.1.0a0 builds) names no published build */
    if (v && (!dl_torch_version_parse(v, &tv) || tv.pre != DL_PRE_NONE))
        return;
    if (v) {
        snprintf(release, sizeof release, "%lu.%lu.%lu", tv.release.part[0],
                 tv.release.part[1], tv.release.part[2]);
        if ((row = dl_kq_torch_release(k, release)) < 0 ||
            !(driver ? dl_build_for_release(k, &e->gpu, release, os, driver, variant,
                                            sizeof variant)
                     : build_xformers_wants(k, &e->paste, release, os == DL_PLAN_OS_WINDOWS,
                                            variant, sizeof variant) ||
                           pypi_build(k, release, os == DL_PLAN_OS_WINDOWS, variant,
                                      sizeof variant)))
            return;
    } else {
        if ((row = dl_newest_build_for(k, &e->gpu, driver ? driver : cuda12_driver, os, python,
                                       variant, sizeof variant)) < 0)
            return;
        snprintf(release, sizeof release, "%s",
                 dl_table_cell(rel, (size_t)row, DL_COL_torch_releases_torch_version));
    }
    if (!(cuda = dl_variant_cuda(variant)))
        return;
    dl_cuda_version_from_int(cuda, runs, sizeof runs);
    vision = dl_table_cell(rel, (size_t)row, DL_COL_torch_releases_torchvision);
    audio = dl_table_cell(rel, (size_t)row, DL_COL_torch_releases_torchaudio);
    dl_finding_fix_clear(x);
    dl_finding_fix(x, "python -m pip install --force-reinstall torch==%s%s%s%s%s --index-url "
                      "https://download.pytorch.org/whl/%s",
                   release, vision && *vision ? " torchvision==" : "", vision ? vision : "",
                   audio && *audio ? " torchaudio==" : "", audio ? audio : "", variant);
    xformers_note(e, x);
    if (driver) {
        char have[16];
        dl_cuda_version_from_int(driver, have, sizeof have);
        dl_fix_note(x, "torch %s's CUDA %s build, which this driver (CUDA %s at most) runs",
                    release, runs, have);
    } else {
        dl_fix_note(x, "torch %s's CUDA %s build: it needs a driver whose nvidia-smi shows "
                       "CUDA Version %s or newer; dlenv plan, run on that machine, picks the "
                       "build by its GPU and driver",
                    release, runs, runs);
    }
}

/* A uv project: its commands, its tables in pyproject.toml, or a uv.lock package row with its
 * source and marker ("{ name = "torch", version = "2.11.0", source = pypi.org, marker =
 * ..."), which a pip command would not keep. */
static bool uv_project(const dl_paste *p)
{
    static const char *const uv_marks[] = {"uv sync", "uv run",  "uv pip",   "uv.lock",
                                           "uv add",  "[tool.uv", "uv lock"};
    long i;
    if (dl_paste_find_any(p, uv_marks, sizeof uv_marks / sizeof uv_marks[0]) >= 0)
        return true;
    for (i = dl_paste_find(p, 0, "{ name = "); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "{ name = "))
        if (strstr(p->lines[i].lower, "source = ") && strstr(p->lines[i].lower, "marker = "))
            return true;
    return false;
}

void dl_explain_cpu_build_fix_for_uv(dl_explanation *e)
{
    static const char pip[] = "python -m pip install ";
    dl_finding *x = dl_findings_get(&e->findings, "cpu_only_build");
    size_t i;
    bool changed = false;
    if (!x || !uv_project(&e->paste))
        return;
    for (i = 0; i < x->fix.count; i++) {
        char **line = &DL_LIST_AT(x->fix, char *, i);
        const char *rest = *line + strlen(pip);
        char *uv;
        if (strncmp(*line, pip, strlen(pip)) != 0)
            continue;
        if (!strncmp(rest, "--force-reinstall ", 18))
            rest += 18;
        uv = dl_fmt("uv pip install --reinstall %s", rest);
        free(*line);
        *line = uv;
        changed = true;
    }
    if (changed)
        dl_fix_note(x, "that lasts only until the next uv sync or uv run (or use uv run "
                       "--no-sync): for good, add that index to pyproject.toml ([[tool.uv.index]] "
                       "with explicit = true, and torch in [tool.uv.sources] with this OS in its "
                       "marker), then uv lock and uv sync");
}
