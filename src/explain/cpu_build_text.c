#include "explain/cpu_build_text.h"

#include "explain/message_notes.h"
#include "explain/quote.h"
#include "explain/rocm_text.h"
#include "explain/text_cause.h"
#include "explain/text_marks.h"
#include "explain/unavailable_text.h"
#include "facts/query.h"
#include "plan/gpu_names.h"

#include <ctype.h>
#include <string.h>

/* A CUDA call said to run slowly ("testensor = ...cuda()" and "it is so SLOW") with no
 * error shown: the call ran, which a CPU-only build never lets it do ("Torch not compiled
 * with CUDA enabled" at once). */
static bool cuda_call_ran_slowly(const dl_paste *p)
{
    return !dl_text_shows_error(p) && dl_paste_find(p, 0, "slow") >= 0 &&
           dl_paste_find(p, 0, "not compiled with cuda") < 0 && dl_text_cuda_call_line(p) >= 0;
}

void dl_explain_cpu_build_wanted_cuda(dl_explanation *e)
{
    const dl_facts *f = &e->facts;
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    const dl_torch_install *t = NULL;
    const char *cuda, *version;
    dl_finding *x;
    size_t i;
    bool conda;
    if (!py || dl_text_cause_read(e) || dl_findings_has(&e->findings, "cpu_only_build") ||
        dl_findings_has(&e->findings, "conda_cpu_build_selected") ||
        dl_plan_os_parse(f->os.family.value) == DL_PLAN_OS_MACOS ||
        dl_text_other_vendor_gpu(&e->facts))
        return;
    t = dl_q_listed_torch(f);
    /* torch.version.cuda printed alone ("None") is the torch that ran, version or not */
    cuda = py->runtime.cuda.value ? py->runtime.cuda.value : dl_q_torch_cuda(f);
    /* a ROCm build has no CUDA either, and readings of its own */
    if (!cuda || strcmp(cuda, "none") != 0 || !dl_text_wants_cuda(&e->paste) ||
        dl_text_rocm_build(e))
        return;
    /* the build was read from an untagged version (Windows' PyPI wheels are CPU-only), and
     * the text shows a CUDA call running */
    if (!py->runtime.cuda.value && cuda_call_ran_slowly(&e->paste))
        return;
    version = py->runtime.version.value ? py->runtime.version.value
              : t                       ? dl_text_or(&t->version, "")
                                        : "";
    /* conda's own pick of the CPU variant has conda's fix, not a wheel's */
    conda = dl_text_conda_chose_the_build(&e->paste);
    x = dl_finding_add(&e->findings, conda ? "conda_cpu_build_selected" : "cpu_only_build",
                       DL_SEV_FAILURE,
                       "torch%s%s is %s, and the report is about CUDA", *version ? " " : "",
                       version, conda ? "the CPU variant conda picked" : "a CPU-only build");
    for (i = 0; i < e->where.n; i++)
        if (strstr(e->where.where[i].fact, "version") ||
            strstr(e->where.where[i].fact, "runtime.cuda") ||
            !strcmp(e->where.where[i].fact, "os.family"))
            dl_quote_line(x, &e->paste, e->where.where[i].line);
    dl_finding_fix(x, conda ? "# pin the CUDA build (pytorch-cuda, or a build string with "
                              "cuda) or install torch with pip from download.pytorch.org"
                            : "# the CUDA build from download.pytorch.org (dlenv plan prints "
                              "the command for this machine)");
}

void dl_explain_conda_cpu_row(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "conda_cpu_build_selected",
        "Conda picked the CPU variant: its pytorch's build string is a CPU build",
        "# pin the CUDA build (pytorch-cuda, or a build string with cuda) or "
        "install torch with pip from download.pytorch.org",
        {NULL},
        NULL};
    long line;
    if (dl_text_cause_read(e) || dl_plan_os_parse(e->facts.os.family.value) == DL_PLAN_OS_MACOS ||
        dl_text_other_vendor_gpu(&e->facts) ||
        !dl_text_wants_cuda(&e->paste) || (line = dl_text_conda_cpu_row(&e->paste)) < 0)
        return;
    dl_text_cause_add(e, &cause, line, -1);
}

/* conda's plan moving pytorch from a CUDA build to a CPU one ("pytorch pytorch::pytorch-2.0.1-
 * py3.10_cuda11.7_cudnn8.5.0_0 --> conda-forge::pytorch-2.0.0-cpu_py310h..."), or the writer
 * saying that a conda command did ("This command replaced the CUDA-enabled pytorch with
 * CPU-enabled-only pytorch"); -1 when neither. */
static long conda_swapped_to_cpu(const dl_paste *p)
{
    static const char *const verbs[] = {"replace", "swap", "downgrad", "switched", "overwr",
                                        "changed"};
    long i;
    for (i = dl_paste_find(p, 0, "pytorch"); i >= 0; i = dl_paste_find(p, (size_t)i + 1, "pytorch")) {
        const char *low = p->lines[i].lower, *arrow = strstr(low, "-->"), *cpu;
        size_t k;
        if (arrow && strstr(arrow, "cpu") && (cpu = strstr(low, "cuda")) != NULL && cpu < arrow)
            return i;
        if (!strstr(low, "cpu") || !strstr(low, "cuda"))
            continue;
        for (k = 0; k < sizeof verbs / sizeof verbs[0]; k++)
            if (strstr(low, verbs[k]) && dl_paste_find(p, 0, "conda ") >= 0)
                return i;
    }
    return -1;
}

void dl_explain_conda_swapped_to_cpu(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "conda_cpu_build_selected",
        "A conda command replaced the CUDA build of pytorch with a CPU one (its solver took "
        "another channel's pytorch to satisfy a new package)",
        "# install the CUDA build again, pinned (the pytorch-cuda package of your CUDA, or a "
        "build string with cuda), and install the other package with pip or from the same "
        "channels",
        {NULL},
        "`conda list pytorch` (its build string and channel) and the command's planned changes"};
    long line;
    if (dl_text_cause_read(e) || dl_plan_os_parse(e->facts.os.family.value) == DL_PLAN_OS_MACOS ||
        (line = conda_swapped_to_cpu(&e->paste)) < 0)
        return;
    dl_text_cause_add(e, &cause, line, -1);
}

/* "pip install torch" with no other index (no download.pytorch.org, no +cuXYZ) */
static long plain_pip_install(const dl_paste *p)
{
    static const char *const pips[] = {"pip install torch", "pip3 install torch",
                                       "pip install -u torch", "pip install --upgrade torch"};
    size_t k;
    for (k = 0; k < sizeof pips / sizeof pips[0]; k++) {
        long i;
        for (i = dl_paste_find(p, 0, pips[k]); i >= 0;
             i = dl_paste_find(p, (size_t)i + 1, pips[k])) {
            const char *low = p->lines[i].lower;
            const char *after = strstr(low, pips[k]) + strlen(pips[k]);
            if ((*after == ' ' || *after == '\0' || *after == '`') &&
                !strstr(low, "download.pytorch.org") &&
                !strstr(low, "+cu") && !strstr(low, "find-links") && !strstr(low, " -f "))
                return i;
        }
    }
    return -1;
}

/* Words that place the text on a Linux machine the OS fact missed: a hosted notebook or
 * cloud GPU, a server, a container, Linux's own tools. */
static bool linux_elsewhere_hint(const dl_paste *p)
{
    static const char *const tools[] = {"slurm", "!pip", "sudo ", "apt ", "apt-get"};
    return dl_text_hosted_or_remote(p) || dl_text_in_container(p) ||
           dl_paste_find_any(p, tools, sizeof tools / sizeof tools[0]) >= 0;
}

/* On Windows PyPI's torch is the CPU build. Where the text names no OS at all, Windows is
 * still the likeliest reading (most of those who paste a bare "pip install torch" and an
 * unused GPU are on it), said as such: on Linux the same command brings a CUDA build. A
 * driver version in such a text is evidence the driver reading weighs instead. */
void dl_explain_plain_pip_on_windows(dl_explanation *e)
{
    static const dl_text_cause on_windows = {
        "cpu_only_build",
        "\"pip install torch\" on Windows installs PyPI's CPU-only build",
        "# the CUDA build from download.pytorch.org (dlenv plan prints the "
        "command for this machine)",
        {NULL},
        NULL};
    static const dl_text_cause os_unknown = {
        "cpu_only_build",
        "\"pip install torch\" installs PyPI's CPU-only build if this is Windows (the text "
        "does not say the OS; on Linux PyPI's torch is a CUDA build)",
        "# the CUDA build from download.pytorch.org (dlenv plan prints the "
        "command for this machine)",
        {"driver_too_old", NULL},
        "the OS (`ver` on Windows, `uname -a` elsewhere) and `python -m torch.utils.collect_env`"};
    dl_plan_os os = dl_plan_os_parse(e->facts.os.family.value);
    long line;
    if (dl_text_cause_read(e) || (os != DL_PLAN_OS_WINDOWS && os != DL_PLAN_OS_UNKNOWN) ||
        (os == DL_PLAN_OS_UNKNOWN &&
         (linux_elsewhere_hint(&e->paste) || e->facts.nvml.driver_version.value)) ||
        dl_text_other_vendor_gpu(&e->facts) ||
        !dl_text_wants_cuda(&e->paste) || (line = plain_pip_install(&e->paste)) < 0)
        return;
    dl_text_cause_add(e, os == DL_PLAN_OS_WINDOWS ? &on_windows : &os_unknown, line, -1);
}

/* A torch requirement or wheel at `at` ("torch-2.12.0", "torch==2.2.0") whose version has
 * no local tag and no pre-release part: the plain release, which PyPI serves. */
static bool plain_torch_release_at(const char *at)
{
    const char *v = at + 5; /* past "torch" */
    size_t n;
    v += *v == '-' ? 1 : strspn(v, "=");
    if (!isdigit((unsigned char)*v))
        return false;
    n = strspn(v, "0123456789.");
    /* "%2B" is a URL's '+': download.pytorch.org's "torch-2.6.0%2Bcu124-...whl" */
    return v[n] != '+' && v[n] != '%' && !isalnum((unsigned char)v[n]);
}

/* The first place at or after `from` where a plain torch release is named as what came in
 * ("... and replace it with `torch-2.12.0`", "Successfully installed ... torch-2.2.0"):
 * torch at a word's start, never torchvision's or a +cuXYZ build. -1 when none. */
static long plain_release_installed_line(const dl_paste *p, size_t from, const char *after)
{
    static const char *const marks[] = {"torch-", "torch=="};
    size_t i, k;
    for (i = from; i < p->count; i++) {
        const char *low = p->lines[i].lower;
        const char *start = i == from && after ? after : low;
        if (!strstr(low, "install") && !strstr(low, "replac"))
            continue;
        for (k = 0; k < sizeof marks / sizeof marks[0]; k++) {
            const char *at;
            for (at = strstr(start, marks[k]); at; at = strstr(at + 1, marks[k]))
                if ((at == low || !isalnum((unsigned char)at[-1])) &&
                    plain_torch_release_at(at))
                    return (long)i;
        }
    }
    return -1;
}

/* A CUDA build of torch named as taken away ("Uninstalling torch-2.4.0+cu121:", "it
 * uninstalls the `torch-2.11.0+cu128`"); its +cu tag (the search for what came in starts
 * there), NULL when none. */
static const char *cuda_build_removed(const char *low)
{
    const char *t = strstr(low, "torch"), *cu;
    if (!t || (!strstr(low, "uninstall") && !strstr(low, "replac") && !strstr(low, "remov")))
        return NULL;
    cu = strstr(t, "+cu");
    return cu && isdigit((unsigned char)cu[3]) ? cu : NULL;
}

/* A package install took a CUDA build of torch away and put a plain release in: on Windows
 * the plain release is PyPI's wheel, a CPU build. -1 when the text does not show both, in
 * that order. */
static long cuda_build_replaced_line(const dl_paste *p, long *removed)
{
    long i;
    /* only a line with a +cu tag can name the CUDA build taken away (the index finds them) */
    for (i = dl_paste_find(p, 0, "+cu"); i >= 0; i = dl_paste_find(p, (size_t)i + 1, "+cu")) {
        const char *after = cuda_build_removed(p->lines[i].lower);
        long in;
        if (after && (in = plain_release_installed_line(p, (size_t)i, after)) >= 0) {
            *removed = i;
            return in;
        }
    }
    return -1;
}

void dl_explain_cuda_build_replaced_on_windows(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "cpu_only_build",
        "A CUDA build of torch was replaced by a plain release: on Windows that is PyPI's "
        "CPU-only wheel (a package that requires torch let pip resolve it from PyPI)",
        "# install the CUDA build again from download.pytorch.org (dlenv plan prints the "
        "command), then install the package with --no-deps or a constraint on torch",
        {NULL},
        "`python -c \"import torch; print(torch.__version__, torch.version.cuda)\"`"};
    long line, removed = -1;
    if (dl_text_cause_read(e) ||
        dl_plan_os_parse(e->facts.os.family.value) != DL_PLAN_OS_WINDOWS ||
        dl_text_other_vendor_gpu(&e->facts) ||
        (line = cuda_build_replaced_line(&e->paste, &removed)) < 0)
        return;
    dl_text_cause_add(e, &cause, removed, line != removed ? line : -1);
}

/* The text names a Linux ARM server ("aarch64", NVIDIA's "sbsa" builds, a Grace board) */
static bool linux_arm(const dl_paste *p)
{
    static const char *const marks[] = {"aarch64", "sbsa", "gh200", "gb200", "grace hopper",
                                        "grace blackwell"};
    return dl_paste_find_any(p, marks, sizeof marks / sizeof marks[0]) >= 0;
}

void dl_explain_plain_pip_on_aarch64(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "cpu_only_build",
        "\"pip install torch\" on Linux aarch64 installs PyPI's wheel, a CPU-only "
        "build",
        "# the CUDA build from download.pytorch.org (e.g. pip install torch "
        "--index-url https://download.pytorch.org/whl/cu128)",
        {NULL},
        "`python -c \"import torch; print(torch.__version__, "
        "torch.version.cuda)\"` (a CPU build says None)"};
    long line;
    if (dl_text_cause_read(e) ||
        dl_plan_os_parse(e->facts.os.family.value) == DL_PLAN_OS_MACOS ||
        dl_plan_os_parse(e->facts.os.family.value) == DL_PLAN_OS_WINDOWS || !linux_arm(&e->paste) ||
        !(dl_text_wants_cuda(&e->paste) || dl_paste_find(&e->paste, 0, "cpu version") >= 0 ||
          dl_paste_find(&e->paste, 0, "cpu-only") >= 0 || dl_paste_find(&e->paste, 0, "cpu only") >= 0) ||
        (line = plain_pip_install(&e->paste)) < 0)
        return;
    dl_text_cause_add(e, &cause, line, -1);
}

/* A site-packages inside a conda environment ("/opt/mamba/envs/NAME/lib/python3.10/
 * site-packages", "~/miniconda3/lib/python3.9/site-packages"): torch came with conda's
 * environment. */
static long conda_site_packages(const dl_paste *p)
{
    static const char *const roots[] = {"/envs/", "anaconda3/lib/", "miniconda3/lib/",
                                        "miniforge3/lib/", "mambaforge/lib/"};
    long i;
    for (i = dl_paste_find(p, 0, "site-packages"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "site-packages")) {
        size_t k;
        for (k = 0; k < sizeof roots / sizeof roots[0]; k++)
            if (strstr(p->lines[i].lower, roots[k]))
                return i;
    }
    return -1;
}

void dl_explain_conda_env_without_cuda(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "conda_cpu_build_selected",
        "torch in a conda environment sees no CUDA and gives no error: conda "
        "most often picked pytorch's CPU variant",
        "# pin the CUDA build (pytorch-cuda, or a build string with cuda) or "
        "install torch with pip from download.pytorch.org",
        {"driver_too_old", "cpu_only_build"},
        "`conda list pytorch` (does the build string say cpu or "
        "cuda?) and `nvidia-smi`"};
    dl_plan_os os = dl_plan_os_parse(e->facts.os.family.value);
    long line, env;
    if (dl_text_cause_read(e) || os == DL_PLAN_OS_WINDOWS || os == DL_PLAN_OS_MACOS ||
        dl_text_other_vendor_gpu(&e->facts) ||
        dl_text_in_container(&e->paste) ||
        dl_text_cuda_build_named(&e->paste) || (env = conda_site_packages(&e->paste)) < 0 ||
        (line = dl_text_unavailable_line(&e->paste)) < 0)
        return;
    dl_text_cause_add(e, &cause, line, env);
}

/* After separators, the number 0 (not 0.5, not 01). */
static bool zero_at(const char *c)
{
    c += strspn(c, " \t:=");
    return *c == '0' && !isdigit((unsigned char)c[1]) && c[1] != '.';
}

/* torch counts no GPU, in a form a program prints: Hugging Face's example scripts log
 * "device: cpu, n_gpu: 0" (n_gpu is torch.cuda.device_count()), and the REPL answers 0 on
 * the line after torch.cuda.device_count(); -1 when none. */
static long no_gpu_counted_line(const dl_paste *p)
{
    long i;
    for (i = dl_paste_find(p, 0, "n_gpu"); i >= 0; i = dl_paste_find(p, (size_t)i + 1, "n_gpu")) {
        const char *at = strstr(p->lines[i].lower, "n_gpu") + 5;
        if ((*at == ':' || *at == '=' || *at == ' ') && zero_at(at))
            return i;
    }
    for (i = dl_paste_find(p, 0, "device_count()"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "device_count()")) {
        const char *next;
        if ((size_t)i + 1 >= p->count)
            break;
        /* the next line is the REPL's answer: 0 alone */
        next = p->lines[i + 1].lower;
        next += strspn(next, " \t");
        if (next[0] == '0' && next[1 + strspn(next + 1, " \t\r")] == '\0')
            return i + 1;
    }
    return -1;
}

/* Stable Diffusion web UI's launch check (torch.cuda.is_available() at start): "RuntimeError:
 * Torch is not able to use GPU; add --skip-torch-cuda-test"; -1 when absent, or on a freshly
 * installed Windows, where the missing VC++ runtime is the better reading
 * (dl_explain_gpu_unused_on_fresh_windows). */
static long webui_gpu_check_line(const dl_paste *p)
{
    return dl_text_fresh_windows(p) ? -1 : dl_paste_find(p, 0, "torch is not able to use gpu");
}

/* The web UI's launch check is the text's only error: its RuntimeError (or the older
 * launch.py's AssertionError) says is_available() was False, and nothing else failed. */
static bool webui_check_only_error(const dl_paste *p)
{
    size_t i;
    if (webui_gpu_check_line(p) < 0)
        return false;
    for (i = 0; i < p->count; i++)
        if (strstr(p->lines[i].lower, "error:") &&
            !strstr(p->lines[i].lower, "torch is not able to use gpu"))
            return false;
    return true;
}

/* A program's bare "No GPU found" where the text names the NVIDIA GPU, or says the machine
 * has one: the GPU is there, so torch is what did not find it; -1 otherwise. */
static long app_no_gpu_on_nvidia_line(const dl_explanation *e)
{
    if (!e->facts.nvml.gpus.count && dl_text_nvidia_owned_line(&e->paste) < 0)
        return -1;
    return dl_text_app_no_gpu_bare_line(&e->paste);
}

static long gpu_not_seen_line(const dl_paste *p);

/* The CPU does the work by design, not for want of a CUDA build: a data-loading or
 * preprocessing phase (nnU-Net's, a DataLoader's), or code that turns CUDA off for one part
 * (use_cuda=False) or runs it in a native engine (whisper.cpp). */
static bool cpu_work_by_design(const dl_paste *p)
{
    static const char *const words[] = {"preprocessing", "the preprocess", "train_loader",
                                        "data loading", "dataloader is", "data loader is",
                                        "use_cuda=false", "use_gpu=false", "use_cuda = false",
                                        "use_gpu = false", "whisper.cpp"};
    return dl_paste_find_any(p, words, sizeof words / sizeof words[0]) >= 0;
}

void dl_explain_gpu_unused_on_windows(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "cpu_only_build",
        "torch does not use the GPU and gives no error: on Windows, PyPI's torch "
        "is a CPU-only build",
        "# the CUDA build from download.pytorch.org (dlenv plan prints the "
        "command for this machine)",
        {"driver_too_old"},
        "`python -m torch.utils.collect_env` (a +cpu torch or "
        "\"CUDA used to build PyTorch: None\")"};
    long line;
    if (dl_text_cause_read(e) || dl_text_gpu_in_use_said(e) || cpu_work_by_design(&e->paste) ||
        dl_plan_os_parse(e->facts.os.family.value) != DL_PLAN_OS_WINDOWS ||
        dl_text_other_vendor_gpu(&e->facts) ||
        dl_paste_find(&e->paste, 0, "docker") >= 0 || dl_text_cuda_build_named(&e->paste) ||
        ((line = dl_text_unavailable_line(&e->paste)) < 0 && (line = dl_text_gpu_unused_line(&e->paste)) < 0 &&
         (line = gpu_not_seen_line(&e->paste)) < 0 && (line = no_gpu_counted_line(&e->paste)) < 0 && (line = webui_gpu_check_line(&e->paste)) < 0 &&
         (line = dl_text_app_no_gpu_line(&e->paste)) < 0 &&
         (line = app_no_gpu_on_nvidia_line(e)) < 0) ||
        dl_explain_availability_differs(e))
        return;
    dl_text_cause_add(e, &cause, line, -1);
}

/* The text says torch does not see the GPU or cannot run on it (not a feeling that training
 * is slow, "I am not sure it uses the GPU"), in English, Chinese ("识别显卡": recognise the
 * graphics card, "用显卡": use the graphics card) or Russian ("использовать видеокарту":
 * use the video card, "видеокарту не видит": does not see the video card). */
static long gpu_not_seen_line(const dl_paste *p)
{
    static const char *const words[] = {
        "can't run on cuda", "cannot run on cuda", "can not run on cuda", "recognize my gpu",
        "recognise my gpu", "recognize the gpu", "recognise the gpu", "detect my gpu",
        "detect the gpu", "doesn't see my gpu", "does not see my gpu",
        "\xe8\xaf\x86\xe5\x88\xab\xe6\x98\xbe\xe5\x8d\xa1",
        "\xe7\x94\xa8\xe6\x98\xbe\xe5\x8d\xa1",
        /* one phrase over several lines: parenthesised, so no compiler takes it for a
         * missing comma */
        ("\xd0\xb8\xd1\x81\xd0\xbf\xd0\xbe\xd0\xbb\xd1\x8c\xd0\xb7\xd0\xbe\xd0\xb2\xd0"
         "\xb0\xd1\x82\xd1\x8c\x20\xd0\xb2\xd0\xb8\xd0\xb4\xd0\xb5\xd0\xbe\xd0\xba\xd0"
         "\xb0\xd1\x80\xd1\x82\xd1\x83"),
        ("\xd0\xb2\xd0\xb8\xd0\xb4\xd0\xb5\xd0\xbe\xd0\xba\xd0\xb0\xd1\x80\xd1\x82\xd1"
         "\x83\x20\xd0\xbd\xd0\xb5\x20\xd0\xb2\xd0\xb8\xd0\xb4\xd0\xb8\xd1\x82")};
    return dl_paste_find_any(p, words, sizeof words / sizeof words[0]);
}

/* The availability check's answer told in words ("it prints False", "the second line
 * writes False", "returns false") in a text about CUDA: torch said no to CUDA; -1 when
 * none. */
static long false_in_words_line(const dl_paste *p)
{
    static const char *const verbs[] = {"prints", "printed", "writes", "wrote", "returns",
                                        "returned", "outputs", "gives", "gave", "says",
                                        "shows", "gives me", "get", "got"};
    long i;
    if (dl_paste_find(p, 0, "cuda") < 0)
        return -1;
    for (i = dl_paste_find(p, 0, "false"); i >= 0; i = dl_paste_find(p, (size_t)i + 1, "false")) {
        const char *low = p->lines[i].lower, *at;
        for (at = strstr(low, "false"); at; at = strstr(at + 1, "false")) {
            size_t k;
            for (k = 0; k < sizeof verbs / sizeof verbs[0]; k++) {
                size_t n = strlen(verbs[k]);
                if ((size_t)(at - low) >= n + 1 && at[-1] == ' ' &&
                    !strncmp(at - 1 - n, verbs[k], n) &&
                    (at - 1 - n == low || !isalnum((unsigned char)at[-2 - n])))
                    return i;
            }
        }
    }
    return -1;
}

/* The words of a GPU left idle count as a fact: not hedged ("I am not sure it uses CUDA"),
 * in a text that is not about another framework's GPU (onnxruntime's providers decide its
 * GPU, not torch's build). */
static bool idle_words_count(const dl_paste *p)
{
    static const char *const hedges[] = {"not sure", "unsure", "i wonder", "don't know if",
                                         "do not know if", "whether it uses"};
    return !dl_text_other_framework(p) &&
           dl_paste_find_any(p, hedges, sizeof hedges / sizeof hedges[0]) < 0;
}

/* The writer's own GPU, named, goes unused ("I have a 4080 but it only uses the CPU, GPU
 * usage 0%"); -1 when none. */
static long gpu_named_unused_line(const dl_paste *p)
{
    return idle_words_count(p) ? dl_text_gpu_unused_line(p) : -1;
}

/* With no GPU named, the words of a GPU left idle count only where the same line says the
 * CPU does the work ("it only runs on the CPU", "only the CPU is used"): "make it run on the
 * GPU" or "the GPU stays idle" alone is a wish or a code question as often as a build's
 * doing; -1 when none. */
static long cpu_run_said_line(const dl_paste *p)
{
    return idle_words_count(p) ? dl_text_gpu_unused_cpu_line(p) : -1;
}

/* The writer says other work in the same code runs on the GPU ("the model gets loaded on
 * GPU", "Nemo in the same code runs fine on the GPU"): torch's build has CUDA, and the one
 * call left on the CPU is the program's. */
static bool gpu_works_beside(const dl_paste *p)
{
    static const char *const words[] = {"fine on the gpu", "fine on gpu", "loaded on gpu",
                                        "loaded on the gpu", "loaded on cuda", "loaded to gpu",
                                        "loaded to the gpu", "loaded onto the gpu",
                                        "loaded onto gpu"};
    return dl_paste_find_any(p, words, sizeof words / sizeof words[0]) >= 0;
}

void dl_explain_gpu_unused_os_unknown(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "cpu_only_build",
        "torch does not see the GPU and the text shows no error: most often "
        "torch was installed without its CUDA build",
        "# the CUDA build from download.pytorch.org (dlenv plan prints the "
        "command for this machine)",
        {"driver_too_old", "no_driver_installed"},
        "`python -m torch.utils.collect_env` (a +cpu torch or "
        "\"CUDA used to build PyTorch: None\") and `nvidia-smi`"};
    /* the GPU goes unnamed: the writer may have none of NVIDIA's ("my GPU" on a laptop
     * with Intel graphics), so that stays a candidate beside the build */
    static const dl_text_cause gpu_unnamed = {
        "cpu_only_build",
        "torch does not use the GPU and the text shows no error: most often "
        "torch was installed without its CUDA build (or the GPU is not NVIDIA's)",
        "# the CUDA build from download.pytorch.org (dlenv plan prints the "
        "command for this machine)",
        {"non_nvidia_gpu", "driver_too_old"},
        "`nvidia-smi` (an NVIDIA GPU and its driver) and `python -m torch.utils.collect_env` "
        "(a +cpu torch or \"CUDA used to build PyTorch: None\")"};
    const dl_facts *f = &e->facts;
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    long line;
    if (dl_text_cause_read(e) || dl_text_gpu_in_use_said(e) || f->os.family.value ||
        f->nvml.driver_version.value || gpu_works_beside(&e->paste) ||
        cpu_work_by_design(&e->paste) ||
        (py && (py->runtime.version.value || py->site_packages.count)) ||
        dl_text_other_vendor_gpu(&e->facts) ||
        dl_paste_find(&e->paste, 0, "docker") >= 0 || dl_text_unified_memory_unreported(&e->paste) ||
        (dl_text_shows_error(&e->paste) && !webui_check_only_error(&e->paste)) ||
        dl_text_cuda_build_named(&e->paste) ||
        ((line = gpu_not_seen_line(&e->paste)) < 0 && (line = webui_gpu_check_line(&e->paste)) < 0 &&
         (f->nvml.gpus.count ? ((line = false_in_words_line(&e->paste)) < 0 &&
                                (line = dl_text_app_no_gpu_line(&e->paste)) < 0 &&
                                (line = gpu_named_unused_line(&e->paste)) < 0)
                             : (line = cpu_run_said_line(&e->paste)) < 0) &&
         (line = app_no_gpu_on_nvidia_line(e)) < 0) ||
        dl_explain_availability_differs(e))
        return;
    dl_text_cause_add(e, f->nvml.gpus.count ? &cause : &gpu_unnamed, line, -1);
}

/* A mark at `at` starts a word ("patch = " and "dispatch::" hold no crate). */
static bool at_word_start(const char *low, const char *at, size_t len)
{
    (void)len;
    return at == low || !isalnum((unsigned char)at[-1]);
}

/* A word at `at` stands alone (no letter or digit on either side). */
static bool word_alone(const char *low, const char *at, size_t len)
{
    return at_word_start(low, at, len) && !isalnum((unsigned char)at[len]);
}

/* The first line where one of n marks occurs at a place accept takes; -1 when none. */
static long first_accepted_line(const dl_paste *p, const char *const *marks, size_t n,
                                dl_paste_accept_fn accept, long found)
{
    size_t k;
    for (k = 0; k < n; k++) {
        long i = dl_paste_find_where(p, 0, marks[k], accept);
        if (i >= 0 && (found < 0 || i < found))
            found = i;
    }
    return found;
}

/* The Rust crate tch (tch-rs) named with Rust's own marks: its build script downloads a
 * CPU-only libtorch unless TORCH_CUDA_VERSION asks for a CUDA one or LIBTORCH points at
 * one (tch-rs README, "Libtorch Manual Install"); -1 when the text is not about tch. */
static long tch_crate_line(const dl_paste *p)
{
    /* each after a word's start: "patch = ", "dispatch::" are no crate */
    /* "TorchError { c_error: ..." is tch's own error printed by Rust's Debug */
    static const char *const crate[] = {"tch-rs", "tch::", "torch-sys", "tch crate", "tch =",
                                        "tch=\"", "torcherror { c_error"};
    static const char *const after[] = {"use tch", "with tch", "using tch"};
    static const char *const rust[] = {"cargo", "rustc", "rustup", "::is_available()",
                                       "println!", "torch-sys", "torcherror { c_error"};
    /* the earliest line with a crate's mark at a word's start, or a "use tch" alone */
    long found = first_accepted_line(p, crate, sizeof crate / sizeof crate[0], at_word_start, -1);
    found = first_accepted_line(p, after, sizeof after / sizeof after[0], word_alone, found);
    if (found < 0 || dl_paste_find_any(p, rust, sizeof rust / sizeof rust[0]) < 0)
        return -1;
    return found;
}

/* The text shows a CUDA libtorch chosen (the download's +cuXYZ tag, a /cuXYZ/ folder of
 * download.pytorch.org/libtorch, TORCH_CUDA_VERSION set): then the CPU download is out. */
static bool cuda_libtorch_named(const dl_paste *p)
{
    static const char *const marks[] = {"torch_cuda_version", "libtorch/cu", "%2bcu", "+cu"};
    return dl_paste_find_any(p, marks, sizeof marks / sizeof marks[0]) >= 0;
}

/* CUDA said to be missing: "Cuda::is_available() ... false", "cuda not available",
 * "CUDA not working", libtorch's "Cannot initialize CUDA without ATen_cuda library". */
static long cuda_missing_line(const dl_paste *p)
{
    static const char *const words[] = {"not available", "not availble", "not working",
                                        "unavailable", "false", "without aten_cuda"};
    long i;
    for (i = 0; (size_t)i < p->count; i++) {
        size_t k;
        if (!strstr(p->lines[i].lower, "cuda"))
            continue;
        for (k = 0; k < sizeof words / sizeof words[0]; k++)
            if (strstr(p->lines[i].lower, words[k]))
                return i;
    }
    return dl_text_unavailable_line(p);
}

void dl_explain_tch_cpu_libtorch(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "cpu_only_build",
        "tch (the Rust crate) sees no CUDA: its build downloads a CPU-only "
        "libtorch unless told otherwise, whatever Python's torch can do",
        "# export TORCH_CUDA_VERSION=cu121, then cargo clean and cargo build (the "
        "crate then downloads a CUDA libtorch)",
        {NULL},
        "where libtorch came from (LIBTORCH, TORCH_CUDA_VERSION, or the crate's "
        "own download) and `ldd` of the binary (is libtorch_cuda.so there?)"};
    long line, missing;
    if (dl_text_cause_read(e) ||
        dl_plan_os_parse(e->facts.os.family.value) == DL_PLAN_OS_MACOS ||
        dl_text_other_vendor_gpu(&e->facts) || cuda_libtorch_named(&e->paste) ||
        (line = tch_crate_line(&e->paste)) < 0 || (missing = cuda_missing_line(&e->paste)) < 0)
        return;
    dl_text_cause_add(e, &cause, missing, line);
}

/* Ultralytics' (and YOLOv5's) banner names the torch that runs and the device it chose:
 * "Python-3.10.5 torch-2.2.1+cpu CPU (Intel ...)"; `after` is what must follow the
 * version ("+cpu cpu" for a CPU wheel, " cpu" for an untagged one that chose the CPU);
 * -1 when no such line. */
static long cpu_banner_line(const dl_paste *p, const char *after)
{
    long i;
    for (i = dl_paste_find(p, 0, "torch-"); i >= 0; i = dl_paste_find(p, (size_t)i + 1, "torch-")) {
        const char *low = p->lines[i].lower, *at = strstr(low, " torch-");
        if (!at || !strstr(low, "python-") || !isdigit((unsigned char)at[7]))
            continue;
        at += 7 + strspn(at + 7, "0123456789.");
        if (!strncmp(at, after, strlen(after)))
            return i;
    }
    return -1;
}

/* The banner's torch without a local tag, on Windows: PyPI's Windows wheels are CPU-only,
 * so "torch-1.12.1 CPU" is that wheel unless conda installed it (conda's untagged Windows
 * build has CUDA, and then the banner's CPU is a GPU torch did not see). On Linux the
 * untagged PyPI wheel is a CUDA build: the banner alone cannot say why it chose the CPU. */
static long windows_untagged_cpu_banner(const dl_explanation *e)
{
    if (dl_plan_os_parse(e->facts.os.family.value) != DL_PLAN_OS_WINDOWS ||
        dl_paste_find(&e->paste, 0, "conda") >= 0)
        return -1;
    return cpu_banner_line(&e->paste, " cpu");
}

void dl_explain_cpu_banner(dl_explanation *e)
{
    static const dl_text_cause tagged = {
        "cpu_only_build",
        "The program's banner names a CPU-only torch (+cpu), and it chose the "
        "CPU as its device",
        "# the CUDA build from download.pytorch.org (dlenv plan prints the "
        "command for this machine)",
        {NULL},
        "`nvidia-smi` (is there an NVIDIA GPU to use?)"};
    static const dl_text_cause untagged = {
        "cpu_only_build",
        "The program's banner names a torch without a CUDA tag on Windows, and it chose "
        "the CPU: PyPI's Windows wheels are CPU-only",
        "# the CUDA build from download.pytorch.org (dlenv plan prints the "
        "command for this machine)",
        {NULL},
        "`python -c \"import torch; print(torch.__version__, torch.version.cuda)\"` and "
        "`nvidia-smi`"};
    long line;
    if (dl_text_cause_read(e) ||
        dl_plan_os_parse(e->facts.os.family.value) == DL_PLAN_OS_MACOS ||
        dl_text_other_vendor_gpu(&e->facts))
        return;
    if ((line = cpu_banner_line(&e->paste, "+cpu cpu")) >= 0)
        dl_text_cause_add(e, &tagged, line, -1);
    else if ((line = windows_untagged_cpu_banner(e)) >= 0)
        dl_text_cause_add(e, &untagged, line, -1);
}

/* Where the text fetched a CPU-only torch or libtorch from: PyTorch's CPU index
 * ("--index-url https://download.pytorch.org/whl/cpu", a requirements file's
 * "--extra-index-url .../whl/cpu"), its CPU libtorch ("download.pytorch.org/libtorch/cpu/",
 * "libtorch-...-2.1.0%2Bcpu.zip") or a +cpu wheel's file name ("torch-2.3.1+cpu-cp311-...");
 * -1 when none. */
static long cpu_download_line(const dl_paste *p)
{
    static const char *const marks[] = {"download.pytorch.org/whl/cpu",
                                        "download.pytorch.org/libtorch/cpu", "%2bcpu.zip",
                                        "+cpu.zip", "%2bcpu-cp", "+cpu-cp"};
    return dl_paste_find_any(p, marks, sizeof marks / sizeof marks[0]);
}

void dl_explain_cpu_download_named(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "cpu_only_build",
        "The text fetches torch (or libtorch) from PyTorch's CPU-only downloads, "
        "and the report is about CUDA",
        "# the CUDA build instead of the CPU download (dlenv plan prints the "
        "command for this machine)",
        {NULL},
        "`python -c \"import torch; print(torch.__version__, torch.version.cuda)\"` "
        "(a CPU build says +cpu and None)"};
    long line, want;
    if (dl_text_cause_read(e) ||
        dl_plan_os_parse(e->facts.os.family.value) == DL_PLAN_OS_MACOS ||
        dl_text_other_vendor_gpu(&e->facts) || dl_text_cuda_build_named(&e->paste) ||
        (line = cpu_download_line(&e->paste)) < 0)
        return;
    want = dl_text_unavailable_line(&e->paste);
    if (want < 0)
        want = dl_text_gpu_unused_line(&e->paste);
    if (want < 0)
        want = cuda_missing_line(&e->paste);
    if (want < 0 && !dl_text_wants_cuda(&e->paste))
        return;
    dl_text_cause_add(e, &cause, line, want);
}

/* The device's value at `at` as a whole word ("device=cpu," not "device=cpu_offload", nor
 * "map_device=cpu") on a line that does not choose it ("device = 'cuda' if ..."). */
static bool device_value_alone(const char *low, const char *at, size_t len)
{
    const char *end = at + len;
    return (at == low || (!isalnum((unsigned char)at[-1]) && at[-1] != '_')) &&
           !isalnum((unsigned char)*end) && *end != '_' && !strstr(low, " if ");
}

/* A program's log says torch's device is the CPU ("Torch generator: device=cpu", "Using
 * device: cpu", "device = cpu"): the value alone, not code that picks it ("device='cpu'",
 * "device = 'cuda' if ... else 'cpu'"); -1 when none. */
long dl_text_cpu_device_logged_line(const dl_paste *p)
{
    static const char *const forms[] = {"device=cpu", "device: cpu", "device = cpu",
                                        "device cpu"};
    return dl_paste_find_any_where(p, forms, sizeof forms / sizeof forms[0], device_value_alone);
}

/* The text names another GPU stack than CUDA (AMD's, DirectML, ZLUDA, Intel's): a CPU device
 * there has causes of its own. */
static bool other_gpu_stack_named(const dl_paste *p)
{
    static const char *const marks[] = {"rocm", "zluda", "directml", "radeon", "amd gpu",
                                        "ipex", "openvino", "intel arc", " rx "};
    return dl_paste_find_any(p, marks, sizeof marks / sizeof marks[0]) >= 0;
}

void dl_explain_cpu_device_logged(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "cpu_only_build",
        "the program's log says torch runs on the CPU, with no error, on a machine with an "
        "NVIDIA GPU: most often torch was installed without its CUDA build (on Windows, "
        "PyPI's torch is CPU-only)",
        "# the CUDA build from download.pytorch.org (dlenv plan prints the "
        "command for this machine)",
        {"driver_too_old", "no_gpu_visible"},
        "`python -c \"import torch; print(torch.__version__, torch.version.cuda, "
        "torch.cuda.is_available())\"` (a +cpu torch says None) and `nvidia-smi`"};
    dl_plan_os os = dl_plan_os_parse(e->facts.os.family.value);
    long line;
    if (dl_text_cause_read(e) || (os != DL_PLAN_OS_WINDOWS && os != DL_PLAN_OS_UNKNOWN) ||
        dl_text_other_vendor_gpu(&e->facts) || other_gpu_stack_named(&e->paste) ||
        dl_text_in_container(&e->paste) || dl_text_cuda_build_named(&e->paste) ||
        !(e->facts.nvml.gpus.count || dl_paste_find(&e->paste, 0, "nvidia") >= 0) ||
        (line = dl_text_cpu_device_logged_line(&e->paste)) < 0)
        return;
    dl_text_cause_add(e, &cause, line, -1);
}

void dl_explain_collect_env_without_complaint(dl_explanation *e)
{
    static const char *const block_only[] = {"cpu_only_build", "no_cuda_on_macos"};
    static const char *const nvidia[] = {"nvidia", "geforce", "rtx", "gtx", "tesla", "quadro"};
    size_t i, k;
    if (dl_paste_find(&e->paste, 0, "is cuda available:") < 0 ||
        dl_paste_find(&e->paste, 0, "cuda used to build pytorch:") < 0 ||
        dl_text_wants_cuda(&e->paste) || e->facts.nvml.gpus.count)
        return;
    /* an NVIDIA GPU outside collect_env's package rows is a machine a CPU build wastes */
    for (i = 0; i < e->paste.count; i++) {
        const char *low = e->paste.lines[i].lower;
        if (strstr(low, "[pip") || strstr(low, "[conda]") ||
            (strstr(low, "nvidia driver version:") &&
             (strstr(low, "no cuda") || strstr(low, "could not collect") || strstr(low, "n/a"))))
            continue;
        for (k = 0; k < sizeof nvidia / sizeof nvidia[0]; k++)
            if (strstr(low, nvidia[k]))
                return;
    }
    dl_text_causes_step_back(e, block_only, sizeof block_only / sizeof block_only[0]);
}
