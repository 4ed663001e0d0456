#include "explain/extension_fix.h"

#include "base/str.h"
#include "facts/query.h"
#include "know/version.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The catalog's general fixes, which this file replaces where it can say more: the plain
 * row's, and that of a package's module that does not load (package_module_dll_load_failed,
 * extension_dll_module_not_found). */
#define GENERAL_FIX "the build of that package that matches torch"
#define GENERAL_DLL_FIX "install that package's build made for the installed torch and CUDA"

typedef enum { PKG_PYG, PKG_MAMBA, PKG_EXLLAMA, PKG_AUTOGPTQ, PKG_VLLM, PKG_APEX,
               PKG_PYTORCH3D, PKG_DETECTRON2, PKG_MMCV, PKG_FLASH_ATTN, PKG_TINYCUDANN,
               PKG_XFORMERS, PKG_NONE } package;

/* What names each package in a path or a module (lower case). The order is the order of
 * trust: a traceback through vLLM into flash-attn's kernels is vLLM's build. */
static const struct {
    package pkg;
    const char *marks[6];
} packages[] = {
    {PKG_PYG, {"torch_scatter", "torch_sparse", "torch_cluster", "torch_spline_conv",
               "pyg_lib", NULL}},
    {PKG_MAMBA, {"selective_scan_cuda", "causal_conv1d", "mamba_ssm", NULL}},
    {PKG_EXLLAMA, {"exllamav2_ext", "exllamav2/", "exllamav2\\", NULL}},
    {PKG_AUTOGPTQ, {"exllama_kernels", "autogptq_cuda", "auto_gptq", NULL}},
    {PKG_VLLM, {"vllm/_c", "vllm\\_c", "vllm/_moe_c", "vllm._c", NULL}},
    {PKG_APEX, {"fused_layer_norm_cuda", "amp_c.cpython", "apex/", "apex\\", NULL}},
    {PKG_PYTORCH3D, {"pytorch3d", NULL}},
    {PKG_DETECTRON2, {"detectron2", NULL}},
    {PKG_MMCV, {"mmcv", NULL}},
    {PKG_FLASH_ATTN, {"flash_attn", NULL}},
    {PKG_TINYCUDANN, {"tinycudann", NULL}},
    {PKG_XFORMERS, {"xformers", NULL}},
};

static bool line_names(const char *low, size_t k)
{
    size_t m;
    for (m = 0; packages[k].marks[m]; m++)
        if (strstr(low, packages[k].marks[m]))
            return true;
    return false;
}

/* The package the finding's own lines name, else the first the text names. */
static package package_named(const dl_explanation *e, const dl_finding *x)
{
    size_t k, i;
    for (k = 0; k < sizeof packages / sizeof packages[0]; k++)
        for (i = 0; i < x->evidence.count; i++) {
            const dl_pair *ev = &DL_LIST_AT(x->evidence, dl_pair, i);
            char *low = ev->value ? dl_ascii_lower(ev->value, strlen(ev->value)) : NULL;
            bool named = low && line_names(low, k);
            free(low);
            if (named)
                return packages[k].pkg;
        }
    for (k = 0; k < sizeof packages / sizeof packages[0]; k++)
        for (i = 0; i < e->paste.count; i++)
            if (line_names(e->paste.lines[i].lower, k))
                return packages[k].pkg;
    return PKG_NONE;
}

/* torch's release and build tag from the text ("2.4.1+cu121" -> "2.4", "cu121"); false
 * when the text gives no version with its tag. */
static bool torch_release_and_tag(const dl_facts *f, char *minor, size_t mn, char *tag,
                                  size_t tn)
{
    const char *v = dl_q_first_torch_version(f), *plus, *dot;
    const dl_torch_install *listed = dl_q_listed_torch(f);
    if ((!v || !strchr(v, '+')) && listed && listed->version.value)
        v = listed->version.value;
    if (!v || !(plus = strchr(v, '+')) || !(dot = strchr(v, '.')) || dot > plus ||
        !isdigit((unsigned char)v[0]))
        return false;
    dot = strchr(dot + 1, '.');
    if (!dot || dot > plus)
        dot = plus;
    if ((size_t)(dot - v) >= mn || strlen(plus + 1) >= tn || strlen(plus + 1) < 3)
        return false;
    memcpy(minor, v, (size_t)(dot - v));
    minor[dot - v] = '\0';
    snprintf(tag, tn, "%s", plus + 1);
    return true;
}

/* The text's torch (an installed one, else one a package list shows), parsed into tv;
 * false when the text has none that parses. */
static bool text_torch(const dl_explanation *e, dl_torch_version *tv)
{
    const char *v = dl_q_first_torch_version(&e->facts);
    const dl_torch_install *listed = dl_q_listed_torch(&e->facts);
    if (!v && listed)
        v = listed->version.value;
    return v && dl_torch_version_parse(v, tv);
}

/* A torch no wheel page serves: a nightly ("2.1.0.dev20230601+cu117", or "nightly" in
 * words), a source build ("2.1.0a0+git1234") or a release candidate; PyG publishes wheels
 * for releases only. */
static bool torch_prerelease(const dl_explanation *e)
{
    dl_torch_version tv;
    if (text_torch(e, &tv) && (tv.pre != DL_PRE_NONE || !strncmp(tv.local, "git", 3)))
        return true;
    return dl_paste_find(&e->paste, 0, "nightly") >= 0;
}

/* The text is of mmcv's 2.x series: its torch is 2.x or later, or it names mmcv 2.x,
 * mmengine or mmdetection 3.x (whose code needs mmcv 2). False when it shows neither. */
static bool mmcv_2_series(const dl_explanation *e)
{
    static const char *const named[] = {"mmcv v2", "mmcv==2", "mmcv 2.", "mmcv-2.", "mmcv>=2",
                                        "mmengine", "mmdetection v3", "mmdetection 3.",
                                        "mmdet==3", "mmdet 3.", "mmdet-3."};
    dl_torch_version tv;
    return (text_torch(e, &tv) && tv.release.part[0] >= 2) ||
           dl_paste_find_any(&e->paste, named, sizeof named / sizeof named[0]) >= 0;
}

static void mmcv_fix(const dl_explanation *e, dl_finding *x)
{
    dl_finding_fix(x, "python -m pip uninstall -y mmcv mmcv-full");
    dl_finding_fix(x, "python -m pip install -U openmim");
    if (!mmcv_2_series(e)) {
        dl_finding_fix(x, "mim install mmcv-full");
        dl_finding_fix(x, "# mim picks the build for the installed torch and CUDA (mmcv 2.x: "
                          "mim install mmcv)");
        return;
    }
    dl_finding_fix(x, "mim install \"mmcv>=2.0.0\"");
    dl_finding_fix(x, "# mmcv 2.x serves mmdet 3, mmseg 1, mmpose 1 and later; "
                      "code of the older series (mmdet 2) needs mmcv-full 1.x instead (mim "
                      "install mmcv-full); OpenMMLab publishes prebuilt builds for some torch "
                      "releases and CUDA versions only (Linux, its installation page lists "
                      "them): for another torch, or on Windows, mim builds from source, which "
                      "needs nvcc of torch's CUDA; or install a torch it has builds for");
}

/* The text's torch is conda-forge's (a conda list row of pytorch from that channel): built
 * with another C++ ABI and against other libraries than the PyPI torch PyG's wheels are
 * built for. */
static bool conda_forge_torch(const dl_paste *p)
{
    size_t i;
    for (i = 0; i < p->count; i++) {
        const char *low = p->lines[i].lower;
        /* a row of conda list, not a command that names the channel */
        if (strstr(low, "conda-forge") && strstr(low, "pytorch ") && !strstr(low, " install ") &&
            !strstr(low, " -c "))
            return true;
    }
    return false;
}

static void pyg_fix(const dl_explanation *e, dl_finding *x)
{
    char minor[32], tag[32];
    dl_finding_fix(x, "python -m pip uninstall -y torch-scatter torch-sparse torch-cluster "
                      "torch-spline-conv pyg-lib");
    if (conda_forge_torch(&e->paste)) {
        dl_finding_fix(x, "conda install -c conda-forge pytorch_scatter pytorch_sparse "
                          "pytorch_cluster");
        dl_finding_fix(x, "# PyG's wheels are built against PyPI's torch; conda-forge's torch is "
                          "built with another C++ ABI, so take PyG's packages from conda-forge "
                          "too, or torch from pip (dlenv plan prints the command)");
    } else if (torch_prerelease(e)) {
        dl_finding_fix(x, "python -m pip install --no-build-isolation --no-cache-dir "
                          "torch-scatter torch-sparse");
        dl_finding_fix(x, "# a nightly or source-built torch has no page of PyG wheels: this "
                          "builds them against the installed torch (the CUDA toolkit of torch's "
                          "CUDA and a C++ compiler needed); PyG 2.3 or newer runs most models "
                          "without these packages");
    } else if (torch_release_and_tag(&e->facts, minor, sizeof minor, tag, sizeof tag)) {
        dl_finding_fix(x, "python -m pip install --no-cache-dir torch-scatter torch-sparse -f "
                          "https://data.pyg.org/whl/torch-%s.0+%s.html",
                       minor, tag);
        dl_finding_fix(x, "# the wheels of PyG's page for torch %s and %s; PyG 2.3 or newer runs "
                          "most models without these packages",
                       minor, tag);
    } else {
        dl_finding_fix(x, "# then the wheels of PyG's page for the installed torch's release and "
                          "CUDA (python -c \"import torch; print(torch.__version__)\"): python -m "
                          "pip install torch-scatter torch-sparse -f "
                          "https://data.pyg.org/whl/torch-2.4.0+cu121.html is the page for torch "
                          "2.4 with CUDA 12.1");
    }
}

static void xformers_fix(const dl_explanation *e, dl_finding *x)
{
    char minor[32], tag[32];
    if (torch_release_and_tag(&e->facts, minor, sizeof minor, tag, sizeof tag) &&
        !strncmp(tag, "cu", 2)) {
        dl_finding_fix(x, "# each xformers release is built for one torch release: install the "
                          "two together from PyTorch's index for torch's CUDA (%s), or uninstall "
                          "xformers: most programs run without it",
                       tag);
        dl_finding_fix(x, "python -m pip install -U torch xformers --index-url "
                          "https://download.pytorch.org/whl/%s",
                       tag);
    } else {
        dl_finding_fix(x, "# each xformers release is built for one torch release: install the "
                          "two together from PyTorch's index for torch's CUDA (python -m pip "
                          "install -U torch xformers --index-url "
                          "https://download.pytorch.org/whl/cu124 for CUDA 12.4), or uninstall "
                          "xformers: most programs run without it");
    }
}

static void package_fix(const dl_explanation *e, dl_finding *x, package pkg)
{
    switch (pkg) {
    case PKG_PYG:
        pyg_fix(e, x);
        break;
    case PKG_MAMBA:
        dl_finding_fix(x, "python -m pip install --no-build-isolation --no-cache-dir "
                          "--force-reinstall mamba-ssm causal-conv1d");
        dl_finding_fix(x, "# that builds them against the installed torch (nvcc of torch's CUDA "
                          "needed); or the release wheel whose name has this torch, its CUDA and "
                          "cxx11abiTRUE or FALSE");
        break;
    case PKG_EXLLAMA:
        dl_finding_fix(x, "# an exllamav2 wheel built for this torch and CUDA (its release page "
                          "names both), or its build against the installed torch:");
        dl_finding_fix(x, "python -m pip install --no-build-isolation --no-cache-dir "
                          "--force-reinstall exllamav2");
        break;
    case PKG_AUTOGPTQ:
        dl_finding_fix(x, "# an auto-gptq wheel built for this torch and CUDA (its index names "
                          "both), or its build against the installed torch:");
        dl_finding_fix(x, "python -m pip install --no-build-isolation --no-cache-dir "
                          "--force-reinstall auto-gptq");
        break;
    case PKG_VLLM:
        dl_finding_fix(x, "# each vLLM release is built for the one torch release it pins: "
                          "reinstall vLLM so that it brings that torch (a source checkout: python "
                          "use_existing_torch.py, then pip install -e . --no-build-isolation)");
        dl_finding_fix(x, "python -m pip install --force-reinstall vllm");
        break;
    case PKG_APEX:
        dl_finding_fix(x, "python -m pip uninstall -y apex");
        dl_finding_fix(x, "# torch has its own AMP and fused LayerNorm; code that needs apex "
                          "rebuilds it from its source folder against this torch");
        break;
    case PKG_PYTORCH3D:
        dl_finding_fix(x, "python -m pip install --no-build-isolation --force-reinstall "
                          "\"git+https://github.com/facebookresearch/pytorch3d.git@stable\"");
        break;
    case PKG_DETECTRON2:
        dl_finding_fix(x, "python -m pip install --no-build-isolation --force-reinstall "
                          "\"git+https://github.com/facebookresearch/detectron2.git\"");
        dl_finding_fix(x, "# in a source checkout, delete its build folder first");
        break;
    case PKG_MMCV:
        mmcv_fix(e, x);
        break;
    case PKG_FLASH_ATTN:
        /* flash-attn publishes no Windows wheels and a build there takes hours: the
         * programs that import it run on PyTorch's own attention (sdpa) without it */
        if (dl_q_is_windows(&e->facts)) {
            dl_finding_fix(x, "python -m pip uninstall -y flash-attn");
            dl_finding_fix(x, "# most programs run on PyTorch's own attention (sdpa) without "
                              "it; to keep it, a Windows wheel built for this torch, its CUDA "
                              "and this Python's cpXY (flash-attn itself publishes none)");
            break;
        }
        /* flash-attn's setup fetches a prebuilt wheel made for PyPI's torch of the same
         * minor unless told to build: an NVIDIA container's 2.x.0a0 torch is not that one
         * (Dao-AILab/flash-attention#734) */
        dl_finding_fix(x, "FLASH_ATTENTION_FORCE_BUILD=TRUE MAX_JOBS=4 python -m pip install "
                          "--no-build-isolation --no-cache-dir --force-reinstall flash-attn");
        dl_finding_fix(x, "# that compiles it against the installed torch (nvcc of torch's CUDA "
                          "needed) instead of fetching a prebuilt wheel made for PyPI's torch; "
                          "or the release wheel whose name has this torch, its CUDA, cxx11abi "
                          "and this Python's cpXY");
        break;
    case PKG_TINYCUDANN:
        dl_finding_fix(x, "python -m pip install --no-build-isolation --force-reinstall "
                          "\"git+https://github.com/NVlabs/tiny-cuda-nn/#subdirectory=bindings/"
                          "torch\"");
        break;
    case PKG_XFORMERS:
        xformers_fix(e, x);
        break;
    case PKG_NONE:
        break;
    }
}

void dl_explain_extension_package_fix(dl_explanation *e)
{
    dl_finding *x = dl_findings_get(&e->findings, "extension_mismatch");
    package pkg;
    if (!x ||
        (!dl_finding_fix_is_only(x, GENERAL_FIX) && !dl_finding_fix_is_only(x, GENERAL_DLL_FIX)))
        return;
    pkg = package_named(e, x);
    if (pkg == PKG_NONE)
        return;
    dl_finding_fix_clear(x);
    package_fix(e, x, pkg);
}
