#include "explain/unavailable_text.h"

#include "explain/build_choice.h"
#include "explain/cpu_chosen.h"
#include "explain/rocm_text.h"
#include "explain/text_cause.h"
#include "explain/text_marks.h"
#include "explain/visible_devices_note.h"
#include "base/str.h"
#include "facts/query.h"
#include "plan/gpu_names.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The CUDA of the download.pytorch.org index the text installs from ("whl/cu124" as
 * 12040); 0 when it names none. */
static long index_cuda(const dl_paste *p)
{
    long i = dl_paste_find(p, 0, "/whl/cu");
    char variant[16];
    size_t n;
    const char *at;
    if (i < 0)
        return 0;
    at = strstr(p->lines[i].lower, "/whl/cu") + 5;
    n = strspn(at, "cu0123456789");
    if (n >= sizeof variant)
        return 0;
    memcpy(variant, at, n);
    variant[n] = '\0';
    return dl_variant_cuda(variant);
}

/* The text's driver leaves no room for the "old driver" reading: with torch's CUDA known the
 * doctor's rule has judged the pair, a driver runs the CUDA of the index torch came from,
 * and a driver that runs CUDA 12 runs every wheel but the newest. A driver for CUDA 11 or
 * older with torch's CUDA unknown keeps the reading. */
static bool driver_rules_it_out(const dl_explanation *e, const char *cuda)
{
    const dl_facts *f = &e->facts;
    long asked = cuda ? 0 : index_cuda(&e->paste);
    /* the driver runs the CUDA of the index torch came from */
    if (asked && f->nvml.cuda_driver_version.known &&
        f->nvml.cuda_driver_version.value >= asked)
        return true;
    /* a driver named by its branch alone ("nvidia-driver-535") bounds the CUDA it runs:
     * with torch's CUDA known the rule has judged the pair; without it, the branch says
     * too little (the newest wheels want a newer branch than any "CUDA 12" one) */
    if (!f->nvml.driver_version.value)
        return e->where.driver_branch && f->nvml.cuda_driver_version.known && cuda;
    return cuda || !f->nvml.cuda_driver_version.known ||
           f->nvml.cuda_driver_version.value >= 12000;
}

/* "true" at `at` is what is_available() answered, not what it should answer ("should be
 * True but is False", "== True", "expected True"). */
static bool answered_true(const char *low, const char *at)
{
    static const char *const wanted[] = {"should be ", "should return ", "must be ", "to be ",
                                         "expected ", "expect ", "== ", "==", "is not ", "want "};
    size_t k;
    if ((at > low && (isalnum((unsigned char)at[-1]) || at[-1] == '_')) ||
        isalnum((unsigned char)at[4]) || at[4] == '_')
        return false;
    for (k = 0; k < sizeof wanted / sizeof wanted[0]; k++) {
        size_t n = strlen(wanted[k]);
        if ((size_t)(at - low) >= n && !strncmp(at - n, wanted[k], n))
            return false;
    }
    return true;
}

/* torch.cuda.is_available() answered True somewhere in the text (after the call on its line,
 * or the REPL's True alone on the next): the writer's own check sees the GPU. */
static bool available_somewhere(const dl_paste *p)
{
    long i;
    for (i = dl_paste_find(p, 0, "is_available"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "is_available")) {
        const char *low = p->lines[i].lower, *at = strstr(low, "is_available"), *next;
        if (!strncmp(low + strspn(low, " \t>"), "assert", 6))
            continue;
        for (at = strstr(at, "true"); at; at = strstr(at + 4, "true"))
            if (answered_true(low, at))
                return true;
        if ((size_t)i + 1 >= p->count)
            continue;
        next = p->lines[i + 1].lower + strspn(p->lines[i + 1].lower, " \t");
        if (!strncmp(next, "true", 4) && next[4 + strspn(next + 4, " \t\r")] == '\0')
            return true;
    }
    return false;
}

/* is_available() False in one place and True in another (the terminal and an IDE, python
 * and python3, a console and a script, the user's check and the app), with no update
 * between them: the driver runs CUDA for this torch somewhere, so no driver or build reading holds; what differs between the
 * two places does. Candidates and the question, no root cause. */
bool dl_explain_availability_differs(dl_explanation *e)
{
    static const char *const candidates[] = {"pip_python_mismatch", "cuda_visible_devices",
                                              "ld_library_path_conflict"};
    /* True before an update and False after it is a change of build, which the driver
     * reading covers (the new build's CUDA is newer than the driver runs) */
    static const char *const changed[] = {"updat", "upgrad", "downgrad"};
    /* the True came from another machine (a server, Colab, a colleague's computer): its
     * torch and driver say nothing of this one's; "服务器" server, "另一台" another one */
    static const char *const elsewhere[] = {"another machine",   "other machine",
                                            "another computer",  "other computer",
                                            "different machine", "different computer",
                                            "\xe5\x8f\xa6\xe4\xb8\x80\xe5\x8f\xb0"};
    size_t k;
    if (!available_somewhere(&e->paste) || dl_text_unavailable_line(&e->paste) < 0 ||
        dl_paste_find_any(&e->paste, changed, sizeof changed / sizeof changed[0]) >= 0 ||
        dl_paste_find_any(&e->paste, elsewhere, sizeof elsewhere / sizeof elsewhere[0]) >= 0 ||
        dl_text_hosted_or_remote(&e->paste))
        return false;
    for (k = 0; k < sizeof candidates / sizeof candidates[0]; k++)
        dl_strv_add(&e->alternatives, dl_strdup(candidates[k]));
    dl_strv_add(&e->ask, dl_strdup("in each place that answers differently: "
                                   "`python -c \"import sys, os, torch; print(sys.executable, "
                                   "torch.__file__, torch.version.cuda, "
                                   "os.environ.get('CUDA_VISIBLE_DEVICES'))\"` (which "
                                   "interpreter and torch run there, and what hides the GPU)"));
    return true;
}

bool dl_text_gpu_in_use_said(const dl_explanation *e)
{
    static const char *const said[] = {"running on cuda", "using device: cuda",
                                       "using device cuda", "torch detected gpu:",
                                       "correctly identifies the gpu",
                                       "correctly identifies my gpu",
                                       "correctly detects the gpu", "correctly detects my gpu",
                                       "correctly recognizes the gpu",
                                       "correctly recognizes my gpu",
                                       "seems to be using cuda", "seems to use cuda",
                                       /* Lightning's banner: torch sees the GPU, the
                                        * trainer was not asked to use it */
                                       "gpu available: true"};
    const dl_facts *f = &e->facts;
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    if (dl_text_unavailable_line(&e->paste) >= 0)
        return false;
    return (py && py->runtime.cuda_available.known && py->runtime.cuda_available.value) ||
           available_somewhere(&e->paste) ||
           dl_paste_find_any(&e->paste, said, sizeof said / sizeof said[0]) >= 0;
}

/* The writer says the driver is new ("after moving to the new NVIDIA driver", "updated the
 * driver", "the latest driver"): an old driver is then no reading to put first. */
static bool driver_said_new(const dl_paste *p)
{
    static const char *const words[] = {"new nvidia driver", "new driver", "newest driver",
                                        "latest driver", "latest nvidia driver",
                                        "updated the driver", "updated my driver",
                                        "updated the nvidia driver", "updated my nvidia driver",
                                        "driver update"};
    return dl_paste_find_any(p, words, sizeof words / sizeof words[0]) >= 0;
}

/* On a Jetson, pip put PyPI's aarch64 torch in (a new venv, a package that requires torch):
 * that wheel has no CUDA for the Jetson's integrated GPU (ultralytics/ultralytics#17345). Its
 * general fix becomes NVIDIA's JetPack wheels (cpu_build_fix.c). */
static bool jetson_pip_wheel(dl_explanation *e, long line)
{
    static const dl_text_cause cause = {
        "cpu_only_build",
        "On a Jetson, pip installed PyPI's aarch64 torch (into a new venv, or as another "
        "package's requirement): that wheel has no CUDA for a Jetson's integrated GPU; only "
        "NVIDIA's JetPack builds (.nv in the version) or a jetson-containers image have it",
        "install the CUDA build of torch in place of this one",
        {NULL},
        "`python3 -c \"import torch; print(torch.__version__, torch.version.cuda)\"` and "
        "`cat /etc/nv_tegra_release` (the L4T release)"};
    static const char *const pip[] = {"pip install", "pip3 install", "-m venv", "virtualenv",
                                      "uv pip install"};
    static const char *const nvidia_build[] = {".nv2", "+nv2", "l4t-pytorch", "l4t-ml",
                                               "jetson-ai-lab", "developer.download.nvidia"};
    long at = dl_paste_find_any(&e->paste, pip, sizeof pip / sizeof pip[0]);
    if (at < 0 || dl_paste_find_any(&e->paste, nvidia_build,
                                    sizeof nvidia_build / sizeof nvidia_build[0]) >= 0)
        return false;
    dl_text_cause_add(e, &cause, line, at == line ? -1 : at);
    return true;
}

/* A Jetson: its driver comes with JetPack (L4T), so an old driver is no reading. What
 * torch sees there turns on the build: pip's aarch64 wheel has no CUDA for the Jetson,
 * NVIDIA's builds for the JetPack release do. Where pip put torch in, that is the
 * cause; else a candidate and the question. */
static bool jetson_unavailable(dl_explanation *e, long line)
{
    if (dl_text_jetson_line(&e->paste) < 0)
        return false;
    if (jetson_pip_wheel(e, line))
        return true;
    dl_strv_add(&e->alternatives, dl_strdup("cpu_only_build"));
    dl_strv_add(&e->ask, dl_strdup("`python3 -c \"import torch; print(torch.__version__, "
                                   "torch.version.cuda)\"` (NVIDIA's Jetson builds carry .nv "
                                   "in the version; pip's wheel has no CUDA there) and "
                                   "`cat /etc/nv_tegra_release` (the L4T release)"));
    return true;
}

/* The text says nothing of the machine: no OS, no driver, no GPU, no torch, no CUDA build
 * named, no CUDA_VISIBLE_DEVICES. Then the commonest cause of a silent False in reports is
 * a torch installed without CUDA, not an old driver (which a driver or a torch named would
 * let the rules judge). */
static bool machine_unknown(const dl_paste *p, const dl_facts *f)
{
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    return !f->os.family.value && !f->nvml.driver_version.value && !f->nvml.gpus.count &&
           !(py && (py->runtime.version.value || py->site_packages.count)) &&
           !dl_text_cuda_build_named(p) && dl_paste_find(p, 0, "cuda_visible_devices") < 0;
}

void dl_explain_silent_unavailable(dl_explanation *e)
{
    static const dl_text_cause unknown_machine = {
        "cpu_only_build",
        "torch sees no GPU and gives no error, and the text says nothing of the machine: "
        "most often torch was installed without its CUDA build",
        "# the CUDA build from download.pytorch.org (dlenv plan prints the command for "
        "this machine)",
        {"driver_too_old", "no_driver_installed"},
        "`python -m torch.utils.collect_env` (a +cpu torch or \"CUDA used to build "
        "PyTorch: None\") and `nvidia-smi`"};
    static const dl_text_cause cause = {
        "driver_too_old",
        "torch sees no GPU and gives no error: most often the driver cannot run "
        "the CUDA torch was built with",
        "# update the driver (nvidia-smi's \"CUDA Version\" must be at least "
        "torch's), or install a wheel for an older CUDA",
        {"no_driver_installed", "cpu_only_build"},
        "`nvidia-smi` (the driver and the newest CUDA it runs) and "
        "`python -m torch.utils.collect_env` (the CUDA torch was "
        "built with)"};
    const dl_facts *f = &e->facts;
    const char *cuda = dl_q_torch_cuda(f);
    dl_plan_os os = dl_plan_os_parse(f->os.family.value);
    long line;
    if (dl_text_cause_read(e) || driver_rules_it_out(e, cuda) || os == DL_PLAN_OS_MACOS ||
        os == DL_PLAN_OS_WINDOWS || (cuda && !strcmp(cuda, "none") && !dl_text_rocm_build(e)) ||
        dl_text_other_vendor_gpu(&e->facts) ||
        dl_text_in_container(&e->paste) || driver_said_new(&e->paste) ||
        (line = dl_text_unavailable_line(&e->paste)) < 0 || dl_explain_availability_differs(e) ||
        jetson_unavailable(e, line) || dl_explain_rocm_candidates(e))
        return;
    dl_text_cause_add(e, machine_unknown(&e->paste, f) ? &unknown_machine : &cause, line, -1);
}

void dl_explain_bundle_unavailable(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "driver_too_old",
        "torch sees no GPU under ComfyUI's NVIDIA launcher, whose bundle ships torch's CUDA "
        "build: most often the driver is older than that build's CUDA",
        "# update the NVIDIA driver: nvidia-smi's \"CUDA Version\" must be at least the "
        "CUDA of the bundle's torch",
        {"cpu_only_build"},
        "`nvidia-smi` (the driver and the newest CUDA it runs) and "
        "`python_embeded\\python.exe -m torch.utils.collect_env` (the bundle's torch)"};
    static const char *const cpu_build[] = {"+cpu", "not compiled with cuda"};
    const char *cuda = dl_q_torch_cuda(&e->facts);
    long line, launcher = dl_text_comfy_nvidia_launcher_line(&e->paste);
    if (dl_text_cause_read(e) || dl_text_gpu_in_use_said(e) || launcher < 0 ||
        dl_text_other_vendor_gpu(&e->facts) || (cuda && !strcmp(cuda, "none")) ||
        dl_paste_find_any(&e->paste, cpu_build, sizeof cpu_build / sizeof cpu_build[0]) >= 0 ||
        (line = dl_text_unavailable_line(&e->paste)) < 0 || dl_explain_availability_differs(e))
        return;
    dl_text_cause_add(e, &cause, line, launcher);
}

void dl_explain_colab_runtime_without_gpu(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "no_gpu",
        "A Colab runtime without a GPU (the CPU runtime type): torch there sees "
        "no CUDA device",
        "# in Colab: Runtime > Change runtime type > a GPU accelerator, then run "
        "the notebook again",
        {"cpu_only_build"},
        "the Colab runtime type (Runtime > Change runtime type) and "
        "`!nvidia-smi` in the notebook"};
    dl_plan_os os = dl_plan_os_parse(e->facts.os.family.value);
    long line;
    /* Colab's runtimes are Linux: a Mac or Windows the text shows runs the notebook (a
     * Colab notebook downloaded, its /content paths kept) on the user's own machine */
    if (dl_text_cause_read(e) || !dl_text_colab(&e->paste) || os == DL_PLAN_OS_MACOS ||
        os == DL_PLAN_OS_WINDOWS ||
        ((line = dl_text_unavailable_line(&e->paste)) < 0 &&
         (line = dl_paste_find(&e->paste, 0, "cuda is not available")) < 0))
        return;
    dl_text_cause_add(e, &cause, line, -1);
}

void dl_explain_gpu_unused_on_fresh_windows(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "vc_redist_missing",
        "torch cannot use the GPU on a freshly installed Windows: the Visual C++ "
        "runtime its DLLs need comes with no fresh Windows",
        "# install the latest VC++ 2015-2022 x64 redistributable "
        "(https://aka.ms/vs/17/release/vc_redist.x64.exe)",
        {"no_driver_installed", "cpu_only_build"},
        "`python -c \"import torch\"` in the environment (its error "
        "names the DLL) and `nvidia-smi`"};
    long line;
    if (dl_text_cause_read(e) ||
        dl_plan_os_parse(e->facts.os.family.value) != DL_PLAN_OS_WINDOWS ||
        !dl_text_fresh_windows(&e->paste) ||
        ((line = dl_paste_find(&e->paste, 0, "not able to use gpu")) < 0 &&
         (line = dl_text_unavailable_line(&e->paste)) < 0 && (line = dl_text_gpu_unused_line(&e->paste)) < 0))
        return;
    dl_text_cause_add(e, &cause, line, -1);
}

/* What the value a line assigns to a GPU-selecting variable does ("export
 * CUDA_VISIBLE_DEVICES=1", "os.environ['CUDA_VISIBLE_DEVICES'] = '7'", "set
 * CUDA_VISIBLE_DEVICES=-1"): hides every GPU (empty, -1, NoDevFiles), skips the first (a list
 * that starts past index 0: a one-GPU machine is left with none), or neither. */
typedef enum { HIDES_NONE, HIDES_ALL, HIDES_FIRST } gpu_hiding;

static gpu_hiding hiding_by(const char *low, const char *var)
{
    const char *at = strstr(low, var);
    if (!at)
        return HIDES_NONE;
    at += strlen(var);
    at += strspn(at, "\"'] ");
    if (*at != '=')
        return HIDES_NONE;
    at++;
    /* an empty quoted value before the command: CUDA_VISIBLE_DEVICES="" python ... */
    if ((at[0] == '"' && at[1] == '"') || (at[0] == '\'' && at[1] == '\''))
        return HIDES_ALL;
    at += strspn(at, " \"'");
    if (*at == '\0' || *at == ' ' || *at == '`')
        return HIDES_ALL;
    if (at[0] == '-' && at[1] == '1')
        return HIDES_ALL;
    /* what Grid Engine and some Slurm setups export for a job given no GPU */
    if (!strncmp(at, "nodevfiles", 10))
        return HIDES_ALL;
    return *at >= '1' && *at <= '9' ? HIDES_FIRST : HIDES_NONE;
}

static bool hides_first_gpu(const char *low)
{
    return hiding_by(low, "cuda_visible_devices") != HIDES_NONE;
}

/* The first line where var hides a GPU, and how in *how; -1 when none. */
static long hiding_line(const dl_paste *p, const char *var, gpu_hiding *how)
{
    long i;
    *how = HIDES_NONE;
    for (i = dl_paste_find(p, 0, var); i >= 0; i = dl_paste_find(p, (size_t)i + 1, var))
        if ((*how = hiding_by(p->lines[i].lower, var)) != HIDES_NONE)
            return i;
    return -1;
}

/* AMD's variables: HIP_VISIBLE_DEVICES numbers the GPUs that ROCR_VISIBLE_DEVICES left,
 * from 0, so both set past the first GPU (or either to nothing) hides every one; the line of
 * the first that does, -1 when none. A number in one of them alone is a GPU that may
 * exist. */
static long amd_variable_hiding(const dl_paste *p)
{
    gpu_hiding hip_how, rocr_how;
    long hip = hiding_line(p, "hip_visible_devices", &hip_how),
         rocr = hiding_line(p, "rocr_visible_devices", &rocr_how);
    if (hip >= 0 && rocr >= 0)
        return hip < rocr ? hip : rocr;
    return hip_how == HIDES_ALL ? hip : rocr_how == HIDES_ALL ? rocr : -1;
}

/* A line that prints the variable ("echo $CUDA_VISIBLE_DEVICES", "echo
 * %CUDA_VISIBLE_DEVICES%") followed by a value that hides the first GPU: "-1", "NoDevFiles",
 * an index past 0. An empty line after it is the variable unset, which hides nothing. */
static bool printed_hiding_value(const dl_paste *p, size_t line)
{
    const char *low = p->lines[line].lower, *value;
    char *assignment;
    bool hides;
    if (line + 1 >= p->count ||
        (!strstr(low, "echo $cuda_visible_devices") &&
         !strstr(low, "echo ${cuda_visible_devices}") &&
         !strstr(low, "echo %cuda_visible_devices%")))
        return false;
    value = p->lines[line + 1].lower;
    value += strspn(value, " \t");
    if (!*value)
        return false;
    assignment = dl_fmt("cuda_visible_devices=%s", value);
    hides = hides_first_gpu(assignment);
    free(assignment);
    return hides;
}

/* torch.cuda.is_available() said False near that line (the call and the word within two
 * lines: "the following returns false" above a quoted call counts). */
static bool unavailable_near(const dl_paste *p, size_t line)
{
    size_t lo = line >= 2 ? line - 2 : 0, hi = line + 2 < p->count ? line + 2 : p->count - 1, i;
    for (i = lo; i <= hi; i++)
        if (strstr(p->lines[i].lower, "false"))
            return true;
    return false;
}

void dl_explain_gpus_hidden_by_variable(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "cuda_visible_devices",
        "CUDA_VISIBLE_DEVICES is set to a value that hides the first GPU, and "
        "torch sees none",
        "# unset CUDA_VISIBLE_DEVICES or list GPUs that exist (nvidia-smi -L "
        "numbers them from 0); in a cluster job, ask the scheduler for a GPU "
        "(Slurm: --gres=gpu:1), which sets it",
        {NULL},
        "`nvidia-smi -L` (how many GPUs, numbered from 0) and "
        "`echo $CUDA_VISIBLE_DEVICES` where the script runs"};
    static const dl_text_cause amd = {
        "cuda_visible_devices",
        "HIP_VISIBLE_DEVICES or ROCR_VISIBLE_DEVICES hides the GPUs, and torch sees none: HIP "
        "numbers from 0 the GPUs that ROCR_VISIBLE_DEVICES left, so both set to the same GPU "
        "hide it, as an empty value does",
        "# choose the GPU with ROCR_VISIBLE_DEVICES alone (a Slurm job on an AMD cluster has "
        "it set already) and unset HIP_VISIBLE_DEVICES; rocm-smi lists the GPUs",
        {NULL},
        "`rocm-smi` (the GPUs, numbered from 0) and `env | grep VISIBLE_DEVICES` where the "
        "script runs"};
    const dl_paste *p = &e->paste;
    long set = -1, seen, amd_set = amd_variable_hiding(p);
    for (seen = dl_paste_find(p, 0, "cuda_visible_devices"); seen >= 0 && set < 0;
         seen = dl_paste_find(p, (size_t)seen + 1, "cuda_visible_devices"))
        if (printed_hiding_value(p, (size_t)seen))
            set = seen + 1; /* the value's own line */
        else if (hides_first_gpu(p->lines[seen].lower))
            set = seen;
    /* set after CUDA was initialised, the value changed nothing (the note says so) */
    if (dl_text_visible_devices_set_late(p))
        return;
    if (set < 0 && amd_set >= 0)
        set = amd_set;
    else
        amd_set = -1;
    if (set < 0)
        return;
    for (seen = dl_paste_find(p, 0, "is_available"); seen >= 0;
         seen = dl_paste_find(p, (size_t)seen + 1, "is_available"))
        if (unavailable_near(p, (size_t)seen))
            break;
    if (seen < 0)
        return;
    /* the AMD variables decide even where another reading (a CPU build) was guessed */
    if (amd_set >= 0) {
        static const char *const guesses[] = {"cpu_only_build", "no_gpu", "no_gpu_visible"};
        dl_text_causes_step_back(e, guesses, sizeof guesses / sizeof guesses[0]);
        dl_text_cause_add(e, &amd, set, seen);
        return;
    }
    if (dl_text_cause_read(e))
        return;
    dl_text_cause_add(e, &cause, set, seen);
}

/* The version of the WSL2 kernel a line names ("5.10.16.3-microsoft-standard-WSL2", from
 * `uname -r` or /proc/version), as major*1000000 + minor*1000 + patch; -1 when none. */
static long wsl_kernel_version(const char *low)
{
    const char *tag = strstr(low, "-microsoft-standard"), *start = tag;
    long part[3] = {0, 0, 0};
    int n = 0;
    if (!tag)
        return -1;
    while (start > low && (isdigit((unsigned char)start[-1]) || start[-1] == '.'))
        start--;
    while (start < tag && n < 3) {
        if (!isdigit((unsigned char)*start))
            return -1;
        char *end;
        part[n++] = strtol(start, &end, 10);
        start = end;
        if (*start == '.')
            start++;
    }
    return n == 3 ? part[0] * 1000000L + part[1] * 1000L + part[2] : -1;
}

void dl_explain_wsl_kernel_without_gpu(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "driver_not_loaded",
        "The WSL2 kernel is older than 5.10.43, which CUDA on WSL needs: the "
        "Windows driver's GPU is not passed into Linux",
        "# in Windows: wsl --update (then wsl --shutdown); keep the driver on "
        "Windows, never install a Linux driver inside WSL",
        {NULL},
        NULL};
    static const char *const symptoms[] = {
        "found no nvidia driver", "no cuda-capable device is detected",
        "no cuda gpus are available", "cuda driver initialization failed"};
    const dl_paste *p = &e->paste;
    long at, symptom = -1;
    size_t k;
    /* a Windows too old to pass the GPU in is below any kernel */
    if (dl_findings_has(&e->findings, "no_gpu_visible"))
        return;
    for (k = 0; k < sizeof symptoms / sizeof symptoms[0] && symptom < 0; k++)
        symptom = dl_paste_find(p, 0, symptoms[k]);
    if (symptom < 0)
        return;
    for (at = dl_paste_find(p, 0, "-microsoft-standard"); at >= 0;
         at = dl_paste_find(p, (size_t)at + 1, "-microsoft-standard")) {
        long v = wsl_kernel_version(p->lines[at].lower);
        if (v >= 0 && v < 5010043L)
            break;
    }
    if (at < 0)
        return;
    dl_text_cause_add(e, &cause, at, symptom);
}

/* The Windows build a line names: "Microsoft Windows [Version 10.0.19042.1052]",
 * "Win32NT 10.0.20170.0" (10.0. and five digits), or "Windows 10 Version 1909 build 18363"
 * (the word build after Windows on the line); -1 when none. */
static long windows_build(const char *low)
{
    const char *at = strstr(low, "10.0.");
    if (at && (at == low || !isdigit((unsigned char)at[-1])) && strspn(at + 5, "0123456789") == 5)
        return strtol(at + 5, NULL, 10);
    at = strstr(low, "windows");
    at = at ? strstr(at, "build ") : NULL;
    if (at && strspn(at + 6, "0123456789") == 5)
        return strtol(at + 6, NULL, 10);
    return -1;
}

/* The first line naming a Windows build older than 19044 (Windows 10 21H2), the first
 * release build whose WSL2 passes the GPU in; -1 when none. Insider builds from 20145 and
 * Windows 11 (22000) have it, so only the numbers below 19044 count: "Windows 11 and
 * Windows 10, version 21H2 support running existing ML tools ... inside WSL"
 * (https://learn.microsoft.com/windows/ai/directml/gpu-cuda-in-wsl); GPU compute came with
 * build 20150, not 19041 (microsoft/WSL2-Linux-Kernel#126). */
static long windows_without_wsl_gpu_line(const dl_paste *p)
{
    static const char *const marks[] = {"10.0.", "build "};
    long at;
    size_t k;
    for (k = 0; k < sizeof marks / sizeof marks[0]; k++)
        for (at = dl_paste_find(p, 0, marks[k]); at >= 0;
             at = dl_paste_find(p, (size_t)at + 1, marks[k])) {
            long build = windows_build(p->lines[at].lower);
            if (build >= 10000 && build < 19044)
                return at;
        }
    return -1;
}

/* lspci inside WSL lists no GPU ("nothing got by `lspci`", or "lspci" and "got nothing" on
 * the next line): WSL 2 with the GPU shows a Microsoft 3D controller there. -1 when not. */
static long lspci_shows_nothing(const dl_paste *p)
{
    static const char *const empty[] = {"nothing", "no output", "empty"};
    long at;
    size_t k;
    for (at = dl_paste_find(p, 0, "lspci"); at >= 0; at = dl_paste_find(p, (size_t)at + 1, "lspci"))
        for (k = 0; k < sizeof empty / sizeof empty[0]; k++)
            if (strstr(p->lines[at].lower, empty[k]) ||
                ((size_t)at + 1 < p->count && strstr(p->lines[at + 1].lower, empty[k])))
                return at;
    return -1;
}

/* CUDA or nvidia-smi failing inside WSL, the line that says so; -1 when none. */
static long wsl_gpu_symptom(const dl_paste *p)
{
    static const char *const symptoms[] = {
        "couldn't communicate with the nvidia driver", "found no nvidia driver",
        "no cuda-capable device is detected", "no cuda gpus are available",
        "cuda driver version is insufficient", "cudaerrorinsufficientdriver",
        "cuda driver initialization failed", "nvidia-smi has failed",
        "nvidia-smi: command not found", "gpu access blocked by the operating system",
        "unable to determine the device handle", "no devices were found"};
    long symptom = dl_paste_find_any(p, symptoms, sizeof symptoms / sizeof symptoms[0]);
    if (symptom < 0)
        symptom = dl_text_unavailable_line(p);
    return symptom >= 0 ? symptom : lspci_shows_nothing(p);
}

/* WSL, a Windows build too old to pass the GPU in, and CUDA or nvidia-smi failing: the
 * build's line in *at and the symptom's in *symptom. */
static bool wsl_on_old_windows_fails(const dl_paste *p, long *at, long *symptom)
{
    *symptom = -1;
    if (dl_paste_find(p, 0, "wsl") < 0 || (*at = windows_without_wsl_gpu_line(p)) < 0)
        return false;
    *symptom = wsl_gpu_symptom(p);
    return *symptom >= 0;
}

/* The GPU in TCC mode: nvidia-smi's driver-model column says TCC on the GPU's row ("| 0
 * NVIDIA L40S   TCC |", not the header's "TCC/WDDM"), or the writer says "TCC mode". */
static long tcc_mode_line(const dl_paste *p)
{
    long at;
    for (at = dl_paste_find(p, 0, "tcc"); at >= 0; at = dl_paste_find(p, (size_t)at + 1, "tcc")) {
        const char *low = p->lines[at].lower, *t = strstr(low, "tcc");
        if (strstr(low, "tcc mode") || strstr(low, "tcc driver mode"))
            return at;
        if (strchr(low, '|') && t > low && t[-1] == ' ' && (t[3] == ' ' || t[3] == '|') &&
            !strstr(low, "tcc/wddm"))
            return at;
    }
    return -1;
}

/* WSL, the GPU in TCC mode and CUDA or nvidia-smi failing: the lines in *tcc, *symptom. */
static bool wsl_tcc_fails(const dl_paste *p, long *tcc, long *symptom)
{
    return dl_text_wsl_line(p) >= 0 && (*tcc = tcc_mode_line(p)) >= 0 &&
           (*symptom = wsl_gpu_symptom(p)) >= 0;
}

void dl_explain_wsl_gpu_in_tcc_mode(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "no_gpu_visible",
        "The GPU runs in TCC mode on Windows: WSL 2 passes in only GPUs in WDDM mode, so "
        "nvidia-smi and CUDA inside WSL find no device",
        "# in an administrator PowerShell on Windows switch the GPU to WDDM (nvidia-smi -i 0 "
        "-dm 0) and reboot; a card without WDDM (H100 PCIe) needs native Linux or a virtual "
        "machine with the GPU passed through",
        {"wsl_libcuda_path", "driver_not_loaded"},
        "`nvidia-smi` in Windows' PowerShell (its Driver-Model column: TCC or WDDM)"};
    long tcc, symptom;
    if (!dl_findings_has_failure(&e->findings, "no_gpu_visible") &&
        wsl_tcc_fails(&e->paste, &tcc, &symptom))
        dl_text_cause_add(e, &cause, tcc, symptom);
}

void dl_explain_wsl_on_windows_without_gpu(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "no_gpu_visible",
        "WSL on a Windows build older than 19044 (Windows 10 21H2): that Windows does not "
        "pass the GPU into WSL, so nvidia-smi and CUDA find no driver or device there",
        "# update Windows to Windows 11 or Windows 10 21H2 (build 19044) or later, then "
        "wsl --update and use WSL 2; keep the driver on Windows, never install a Linux "
        "driver inside WSL",
        {"wsl_libcuda_path", "driver_not_loaded"},
        "`winver` (the Windows build) and `wsl -l -v` (WSL 1 or 2)"};
    long at, symptom;
    if (wsl_on_old_windows_fails(&e->paste, &at, &symptom))
        dl_text_cause_add(e, &cause, at, symptom);
}

void dl_explain_demote_beside_old_windows(dl_explanation *e)
{
    /* what the signatures read from the same symptom inside WSL */
    static const char *const above[] = {"wsl_libcuda_path", "driver_not_loaded",
                                        "no_driver_installed", "driver_too_old",
                                        "libcuda_not_found", "kernel_module_not_built"};
    long at, symptom;
    if (dl_findings_has_failure(&e->findings, "no_gpu_visible") &&
        (wsl_on_old_windows_fails(&e->paste, &at, &symptom) ||
         wsl_tcc_fails(&e->paste, &at, &symptom)))
        dl_text_causes_step_back(e, above, sizeof above / sizeof above[0]);
}

/* "amd" as a word at `at` in `low` that names the GPU side: not amd64 / x86-amd, and not
 * followed by one of AMD's CPU lines or the word CPU. */
static bool amd_gpu_word(const char *low, const char *at, size_t len)
{
    static const char *const cpu_next[] = {"ryzen", "epyc", "threadripper", "athlon",
                                           "phenom", "opteron", "cpu", "processor",
                                           "fx-", "a10", "a8-", "64"};
    const char *next = at + len;
    size_t k;
    /* "amd64", "x86-amd", "_amd": an architecture or a name, not the vendor's GPU; nor a
     * folder ("/home/amd/") */
    if ((at > low && (isalnum((unsigned char)at[-1]) || at[-1] == '_' || at[-1] == '-')) ||
        isalnum((unsigned char)*next) || *next == '_' || dl_str_in_path(low, at, len))
        return false;
    next += strspn(next, " ");
    /* "AMD(R) Ryzen", "AMD® EPYC" */
    next += !strncmp(next, "(r)", 3) ? 3 : !strncmp(next, "\xc2\xae", 2) ? 2 : 0;
    next += strspn(next, " ");
    for (k = 0; k < sizeof cpu_next / sizeof cpu_next[0]; k++)
        if (!strncmp(next, cpu_next[k], strlen(cpu_next[k])))
            return false;
    return true;
}

long dl_text_amd_gpu_line(const dl_paste *p)
{
    return dl_paste_find_where(p, 0, "amd", amd_gpu_word);
}

void dl_explain_amd_named_without_cuda(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "non_nvidia_gpu",
        "The writer's GPU is AMD's: CUDA runs on NVIDIA GPUs only, so torch's CUDA sees none",
        "# on Linux the ROCm wheels for a supported AMD GPU "
        "(https://pytorch.org/get-started/locally/); on Windows DirectML or ZLUDA; else the CPU",
        {"cpu_only_build", "no_driver_installed"},
        "`lspci -nn | grep -i -e vga -e 3d` or Task Manager's GPU page (which GPUs the machine "
        "has: an NVIDIA one beside the AMD one would be the one to use)"};
    /* an NVIDIA GPU, or a build that already targets AMD (ROCm, DirectML, ZLUDA) */
    static const char *const elsewhere[] = {"geforce", "rtx", "gtx", "quadro", "tesla",
                                            "nvidia", "driver version", "a100", "h100",
                                            "v100", "+rocm", "hip error", "hiperror",
                                            "directml", "zluda"};
    const dl_paste *p = &e->paste;
    long amd, symptom;
    if (dl_text_cause_read(e) ||
        dl_paste_find_any(p, elsewhere, sizeof elsewhere / sizeof elsewhere[0]) >= 0 ||
        ((symptom = dl_text_unavailable_line(p)) < 0 &&
         (symptom = dl_paste_find(p, 0, "invalid cuda 'device=")) < 0 &&
         (symptom = dl_paste_find(p, 0, "not compiled with cuda enabled")) < 0) ||
        (amd = dl_text_amd_gpu_line(p)) < 0)
        return;
    dl_text_cause_add(e, &cause, amd, symptom);
}

void dl_explain_uvm_missing_unknown_error(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "driver_not_loaded",
        "CUDA's \"unknown error\" on a system where nothing loads the nvidia_uvm module on "
        "demand (NixOS, a Flatpak sandbox): the module is not loaded, so CUDA cannot start",
        "# load it (`sudo modprobe nvidia_uvm`, or `nvidia-modprobe -u -c=0`, which also "
        "creates /dev/nvidia-uvm) and make it load at boot (NixOS: boot.kernelModules = "
        "[ \"nvidia_uvm\" ])",
        {"suspend_resume_uvm"},
        "`lsmod | grep nvidia_uvm` and `ls -l /dev/nvidia-uvm` (is the module loaded?), and "
        "whether the error began after a suspend or resume"};
    static const char *const unknown[] = {"cuda unknown error", "cuda error: unknown error",
                                          "cuda_error_unknown", "error 999", "error (999)",
                                          "error=999", "returned 999", "error: 999"};
    long line;
    if (dl_text_cause_read(e) || !dl_text_uvm_not_loaded_on_demand(&e->paste) ||
        (line = dl_paste_find_any(&e->paste, unknown, sizeof unknown / sizeof unknown[0])) < 0)
        return;
    dl_text_cause_add(e, &cause, line, -1);
}

long dl_text_cpu_run_warning_line(const dl_paste *p)
{
    /* whisper's; GFPGAN's inference script when torch.cuda.is_available() is False; RVC's
     * when it finds no CUDA device */
    static const char *const warnings[] = {"fp16 is not supported on cpu",
                                           "is slow on cpu. we do not use it",
                                           "no supported nvidia gpu found"};
    return dl_paste_find_any(p, warnings, sizeof warnings / sizeof warnings[0]);
}

bool dl_text_chose_cpu(const dl_paste *p)
{
    return dl_text_cpu_chosen_line(p) >= 0;
}

bool dl_text_expects_gpu(const dl_paste *p, const dl_facts *f)
{
    static const char *const words[] = {"gpu", "cuda", "nvidia", "geforce", "radeon", "graphics",
                                        "video card", "vram", "hardware acceleration",
                                        "accelerat", "\xe6\x98\xbe\xe5\x8d\xa1" /* 显卡 */};
    return f->nvml.gpus.count || dl_paste_find_any(p, words, sizeof words / sizeof words[0]) >= 0;
}

void dl_explain_cpu_run_warning_alone(dl_explanation *e)
{
    static const char *const candidates[] = {"cpu_only_build", "no_gpu_visible"};
    size_t i;
    if (dl_text_cause_read(e) || dl_text_cpu_run_warning_line(&e->paste) < 0 ||
        dl_q_text_is(&e->facts.os.family, "macos") || dl_text_chose_cpu(&e->paste))
        return;
    for (i = 0; i < sizeof candidates / sizeof candidates[0]; i++)
        dl_strv_add(&e->alternatives, dl_strdup(candidates[i]));
    dl_strv_add(&e->ask, dl_strdup("whether the machine has an NVIDIA GPU torch should use, and "
                                   "`python -c \"import torch; print(torch.__version__, "
                                   "torch.cuda.is_available())\"` (a \"+cpu\" version or False "
                                   "says why torch ran on the CPU)"));
}

/* The line naming a GPU that is not NVIDIA's: the text's GPU where the reader found it
 * (not Apple's: a Mac has its own reading), else AMD's GPU side as a word, else Intel's
 * graphics in words; -1 when none. */
/* 「A卡」 as a word of its own (not the end of "nvidia卡"); -1 when none. */
static long a_card_line(const dl_paste *p)
{
    static const char *const a_card = "a\xe5\x8d\xa1";
    long i;
    for (i = dl_paste_find(p, 0, a_card); i >= 0; i = dl_paste_find(p, (size_t)i + 1, a_card)) {
        const char *low = p->lines[i].lower, *at;
        for (at = strstr(low, a_card); at; at = strstr(at + 1, a_card))
            if (at == low || !isalnum((unsigned char)at[-1]))
                return i;
    }
    return -1;
}

static long other_vendor_gpu_line(const dl_explanation *e)
{
    static const char *const intel[] = {"intel hd graphics", "intel uhd", "intel(r) uhd",
                                        "intel(r) hd graphics", "iris xe", "iris graphics",
                                        "iris pro", "intel arc", "intel(r) arc", "intel gpu",
                                        "intel graphics", "intel integrated graphics"};
    const dl_nvml_gpu *g =
        e->facts.nvml.gpus.count ? &DL_LIST_AT(e->facts.nvml.gpus, dl_nvml_gpu, 0) : NULL;
    long line;
    if (g && g->name.value && dl_gpu_vendor_of_name(g->name.value) != DL_GPU_APPLE &&
        dl_text_other_vendor_gpu(&e->facts) &&
        (line = dl_text_line_of_fact(e, "nvml.gpus[0].name")) >= 0)
        return line;
    /* AMD's card in other languages: 「A卡」 (the everyday Chinese for an AMD card, 「N卡」
     * NVIDIA's), AMD显卡, 라데온, ラデオン, Радеон */
    static const char *const amd_words[] = {"amd\xe6\x98\xbe\xe5\x8d\xa1",
                                            "amd\xe5\x8d\xa1",
                                            "\xeb\x9d\xbc\xeb\x8d\xb0\xec\x98\xa8",
                                            "\xe3\x83\xa9\xe3\x83\x87\xe3\x82\xaa\xe3\x83\xb3",
                                            "\xd0\xa0\xd0\xb0\xd0\xb4\xd0\xb5\xd0\xbe\xd0\xbd"};
    line = dl_text_amd_gpu_line(&e->paste);
    if (line < 0)
        line = dl_paste_find_any(&e->paste, amd_words, sizeof amd_words / sizeof amd_words[0]);
    if (line < 0)
        line = a_card_line(&e->paste);
    return line >= 0 ? line : dl_paste_find_any(&e->paste, intel, sizeof intel / sizeof intel[0]);
}

/* The writer asks whether or how a GPU can do the work: a question about a GPU ("can AMD
 * 6000 cards run this?", "how do I make it use the GPU?"), support asked about on a line
 * that names a GPU, or the CPU doing the work in words; -1 when none. */
static long gpu_use_asked(const dl_paste *p)
{
    static const char *const gpu_words[] = {"gpu", "graphics", "card", "cuda", "radeon",
                                            "\xe6\x98\xbe\xe5\x8d\xa1" /* 显卡 */,
                                            "\xe5\x8d\xa1" /* 卡 */};
    /* a question or support in Chinese: the full-width "？", 支持, 能跑, 可以跑, 只能跑 */
    static const char *const asks[] = {"\xef\xbc\x9f", "\xe6\x94\xaf\xe6\x8c\x81",
                                       "\xe8\x83\xbd\xe8\xb7\x91",
                                       "\xe5\x8f\xaf\xe4\xbb\xa5\xe8\xb7\x91",
                                       "\xe5\x8f\xaa\xe8\x83\xbd\xe8\xb7\x91"};
    size_t i, k;
    for (i = 0; i < p->count; i++) {
        const char *low = p->lines[i].lower;
        bool gpu = false, asked = strchr(low, '?') || strstr(low, "support");
        for (k = 0; k < sizeof asks / sizeof asks[0] && !asked; k++)
            asked = strstr(low, asks[k]) != NULL;
        if (!asked)
            continue;
        for (k = 0; k < sizeof gpu_words / sizeof gpu_words[0] && !gpu; k++)
            gpu = strstr(low, gpu_words[k]) != NULL;
        if (gpu)
            return (long)i;
    }
    return dl_text_gpu_unused_line(p);
}

void dl_explain_other_vendor_gpu_question(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "non_nvidia_gpu",
        "The writer's GPU is AMD's or Intel's and the question is whether torch can use it: "
        "CUDA runs on NVIDIA GPUs only",
        "# on Linux the ROCm wheels for a supported AMD GPU, the XPU wheels for Intel Arc "
        "(https://pytorch.org/get-started/locally/); on Windows DirectML; else the CPU",
        {"no_gpu"},
        "which GPUs the machine has (`lspci -nn | grep -i -e vga -e 3d` or Task Manager's GPU "
        "page): an NVIDIA one beside it would be the one to use"};
    /* an NVIDIA GPU named, or a backend that already targets the other vendor */
    static const char *const elsewhere[] = {"geforce", "rtx", "gtx", "quadro", "tesla",
                                            "nvidia-smi", "driver version", "a100", "h100",
                                            "v100", "+rocm", "directml", "zluda", "+xpu",
                                            "torch.xpu", "rocm", "ipex", "required aspect fp64",
                                            "uses-fp64-math"};
    const dl_paste *p = &e->paste;
    long gpu, asked;
    if (dl_text_cause_read(e) || dl_q_text_is(&e->facts.os.family, "macos") ||
        dl_text_shows_error(p) ||
        dl_paste_find_any(p, elsewhere, sizeof elsewhere / sizeof elsewhere[0]) >= 0 ||
        dl_text_nvidia_owned_line(p) >= 0 ||
        (gpu = other_vendor_gpu_line(e)) < 0 || (asked = gpu_use_asked(p)) < 0)
        return;
    dl_text_cause_add(e, &cause, gpu, asked == gpu ? -1 : asked);
}

/* The nearest of words that ends before `end` and starts at most `reach` bytes before it,
 * in the line `low`; NULL when none. */
static const char *word_before(const char *low, const char *end, size_t reach,
                               const char *const *words, size_t n)
{
    const char *best = NULL;
    const char *from = (size_t)(end - low) > reach ? end - reach : low;
    size_t k;
    for (k = 0; k < n; k++) {
        const char *at;
        size_t len = strlen(words[k]);
        for (at = strstr(from, words[k]); at && at + len <= end; at = strstr(at + 1, words[k]))
            if (!best || at > best)
                best = at;
    }
    return best;
}

/* "driver" at `at` is the object of an update the writer cannot make ("I can't update nvidia
 * drivers", "no permission to install a newer cuda driver", "not convenient for me to
 * upgrade the driver"); installing a driver at all ("can't install drivers") is another
 * trouble. */
static bool driver_stuck_at(const char *low, const char *at, size_t len)
{
    static const char *const update[] = {"update", "upgrade", "updating", "upgrading"};
    static const char *const install[] = {"install a newer", "install newer", "install a new",
                                          "install the latest", "install a higher",
                                          "install a upper", "install an upper",
                                          "install a more recent"};
    static const char *const cannot[] = {"can't", "can\xe2\x80\x99t", "cant ", "cannot",
                                         "can not", "unable to", "not able to",
                                         "not allowed to", "no permission", "not permitted",
                                         "not convenient", "impossible to", "not possible to",
                                         "no rights to", "no root", "no sudo", "no admin"};
    const char *verb;
    (void)len;
    verb = word_before(low, at, 40, update, sizeof update / sizeof update[0]);
    if (!verb)
        verb = word_before(low, at, 40, install, sizeof install / sizeof install[0]);
    return verb && word_before(low, verb, 36, cannot, sizeof cannot / sizeof cannot[0]);
}

void dl_explain_driver_cannot_be_updated(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "driver_too_old",
        "The writer cannot update the driver, and what they install needs a newer one: a "
        "torch built for a newer CUDA than the driver runs",
        "# keep the driver and install builds for the CUDA it runs (nvidia-smi's \"CUDA "
        "Version\"): the matching torch index (e.g. https://download.pytorch.org/whl/cu118) "
        "and the packages' builds for it",
        {NULL},
        "`nvidia-smi` (the newest CUDA the driver runs) and `python -m torch.utils.collect_env` "
        "(the CUDA torch was built with)"};
    long line;
    if (dl_text_cause_read(e) || dl_paste_find(&e->paste, 0, "cuda") < 0 ||
        (line = dl_paste_find_where(&e->paste, 0, "driver", driver_stuck_at)) < 0)
        return;
    dl_text_cause_add(e, &cause, line, -1);
}

/* After "without" or "no": up to two of the words a writer puts before "GPU" ("any cuda",
 * "a dedicated", "an nvidia"), then the GPU itself ("gpu", "gpus", "graphics card"); not a
 * GPU's driver ("without a gpu driver"). */
static bool gpu_after(const char *s)
{
    static const char *const fill[] = {"any ", "a ", "an ", "cuda ", "nvidia ", "dedicated ",
                                       "discrete ", "cuda-capable ", "cuda capable ",
                                       "cuda-enabled ", "proper ", "real "};
    size_t words, k;
    bool moved = true;
    while (*s == ' ')
        s++;
    for (words = 0; words < 2 && moved; words++)
        for (moved = false, k = 0; k < sizeof fill / sizeof fill[0] && !moved; k++)
            if (!strncmp(s, fill[k], strlen(fill[k]))) {
                s += strlen(fill[k]);
                moved = true;
            }
    if (strncmp(s, "gpu", 3) != 0 && strncmp(s, "graphics card", 13) != 0)
        return false;
    s += strncmp(s, "gpu", 3) ? 13 : 3;
    if (*s == 's')
        s++;
    if (isalnum((unsigned char)*s))
        return false;
    while (*s == ' ' || *s == '-')
        s++;
    return strncmp(s, "driver", 6) != 0;
}

/* The line where the writer says the machine has no GPU: "without (any cuda) GPUs", "does
 * not have a GPU", "have no GPU", "no dedicated GPU"; -1 when none. */
static long no_gpu_said_line(const dl_paste *p)
{
    static const char *const before[] = {"without", "doesn't have", "does not have",
                                         "don't have", "do not have", "have no", "has no",
                                         "there is no", "there's no"};
    long best = -1;
    size_t k;
    for (k = 0; k < sizeof before / sizeof before[0]; k++) {
        long i;
        for (i = dl_paste_find(p, 0, before[k]); i >= 0 && (best < 0 || i < best);
             i = dl_paste_find(p, (size_t)i + 1, before[k])) {
            const char *low = p->lines[i].lower, *at;
            bool said = false;
            for (at = strstr(low, before[k]); at && !said; at = strstr(at + 1, before[k]))
                said = (at == low || !isalnum((unsigned char)at[-1])) &&
                       gpu_after(at + strlen(before[k]));
            if (said) {
                best = i;
                break;
            }
        }
    }
    return best;
}

/* The program fails in words, or the writer asks to run it on the CPU; -1 when neither. */
static long run_fails_or_cpu_asked(const dl_paste *p)
{
    static const char *const words[] = {"not working", "not to be working", "doesn't work",
                                        "does not work", "didn't work", "won't run",
                                        "can't run", "cannot run", "fails", "failed",
                                        "run on the cpu", "run on cpu", "run it on the cpu",
                                        "run it on cpu", "run on a cpu", "on cpu only",
                                        "cpu only?", "on the cpu as well", "with cpu only",
                                        "run it with cpu", "run with cpu",
                                        "run it with the cpu"};
    long at = dl_paste_find_any(p, words, sizeof words / sizeof words[0]);
    return at >= 0 ? at : dl_text_unavailable_line(p);
}

void dl_explain_writer_without_gpu(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "no_gpu",
        "The writer's machine has no GPU for CUDA: torch's CUDA needs an NVIDIA GPU, so the "
        "program runs only if it has a CPU path",
        "# run on the CPU (the program's CPU option; dlenv plan --for cpu for the install), "
        "or on a machine with an NVIDIA GPU",
        {"non_nvidia_gpu"},
        "which GPU the machine has, if any (`nvidia-smi`, `lspci | grep -i -e vga -e 3d`, or "
        "Task Manager's GPU page), and whether the program has a CPU option"};
    static const char *const nvidia[] = {"nvidia-smi", "driver version", "geforce", "rtx ",
                                         "gtx", "quadro", "tesla"};
    const dl_paste *p = &e->paste;
    long said, fails;
    if (dl_text_cause_read(e) || dl_q_text_is(&e->facts.os.family, "macos") ||
        e->facts.nvml.gpus.count || e->gpu.hi || dl_text_in_container(p) || dl_text_colab(p) ||
        dl_paste_find_any(p, nvidia, sizeof nvidia / sizeof nvidia[0]) >= 0 ||
        (said = no_gpu_said_line(p)) < 0 || (fails = run_fails_or_cpu_asked(p)) < 0)
        return;
    dl_text_cause_add(e, &cause, said, fails == said ? -1 : fails);
}

/* A Linux NVIDIA driver's three-part version ("460.91.03", "535.104.05") on a line: the
 * writer names the driver they have without the word ("however mine is 460.91.03"). */
static bool driver_version_form(const char *low)
{
    const char *q;
    for (q = low; *q; q++) {
        size_t a = 0, b, c;
        if (q > low && (isalnum((unsigned char)q[-1]) || q[-1] == '.'))
            continue;
        while (isdigit((unsigned char)q[a]))
            a++;
        if (a != 3 || q[0] < '3' || q[0] > '5' || q[a] != '.')
            continue;
        b = strspn(q + a + 1, "0123456789");
        if ((b != 2 && b != 3) || q[a + 1 + b] != '.')
            continue;
        c = strspn(q + a + 2 + b, "0123456789");
        if (c == 2 && !isalnum((unsigned char)q[a + 2 + b + c]) && q[a + 2 + b + c] != '.')
            return true;
    }
    return false;
}

/* torch's "Found no NVIDIA driver" and nothing else of NVIDIA's: no GPU named, no driver
 * version, no nvidia-smi, no word of a driver beside the message's own, no other vendor's
 * GPU, no WSL, no container started with the GPUs and no cloud GPU instance. */
static bool nothing_of_nvidia(const dl_explanation *e)
{
    static const char *const nvidia[] = {"nvidia-smi", "driver version", "geforce", "rtx",
                                         "gtx", "quadro", "tesla", "cuda version"};
    /* another vendor's GPU or WSL has readings of its own (non_nvidia_gpu, the WSL
     * driver); torch's message itself names an NVIDIA GPU, so these are words alone */
    static const char *const elsewhere[] = {"wsl", "microsoft-standard", "rocm", "amd gpu",
                                            "amd graphics", "amd card", "radeon", "intel arc",
                                            "intel xe", "iris", "intel uhd", "intel hd",
                                            "intel gpu", "intel graphics", "directml"};
    /* a GPU the writer has or asked for: a container started with the GPUs, a cloud GPU
     * instance, a driver in the writer's own words (Chinese, Japanese) */
    static const char *const has_gpu[] = {"--gpus", "--nv", "docker", "container", "apptainer",
                                          "singularity", "gpu instance", "gpu node", "g4dn",
                                          "g5.", "p3.", "p4d", "a10g", "gpu server",
                                          "\xe9\xa9\xb1\xe5\x8a\xa8",
                                          "\xe3\x83\x89\xe3\x83\xa9\xe3\x82\xa4\xe3\x83\x90"};
    const dl_paste *p = &e->paste;
    long i;
    if (e->facts.nvml.gpus.count || e->facts.nvml.driver_version.value ||
        dl_paste_find_any(p, nvidia, sizeof nvidia / sizeof nvidia[0]) >= 0 ||
        dl_paste_find_any(p, elsewhere, sizeof elsewhere / sizeof elsewhere[0]) >= 0 ||
        dl_paste_find_any(p, has_gpu, sizeof has_gpu / sizeof has_gpu[0]) >= 0)
        return false;
    for (i = 0; (size_t)i < p->count; i++)
        if (driver_version_form(p->lines[i].lower))
            return false;
    for (i = dl_paste_find(p, 0, "driver"); i >= 0; i = dl_paste_find(p, (size_t)i + 1, "driver")) {
        const char *low = p->lines[i].lower;
        if (!strstr(low, "found no nvidia driver") && !strstr(low, "installed a driver from"))
            return false; /* the writer talks of a driver: one was installed, or meant to be */
    }
    return true;
}

void dl_explain_no_driver_nothing_of_nvidia(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "no_gpu",
        "torch finds no NVIDIA driver, and nothing in the text shows an NVIDIA GPU: most likely "
        "the machine has none (integrated graphics, a CPU server or runtime), and the code asks "
        "for CUDA anyway",
        "# run on the CPU (the program's CPU option; dlenv plan --for cpu for the install); if "
        "the machine does have an NVIDIA GPU, install its driver until nvidia-smi lists it",
        {NULL},
        "which GPU the machine has, if any (`nvidia-smi`, `lspci | grep -i -e vga -e 3d`, or "
        "Task Manager's GPU page)"};
    static const char *const ids[] = {"no_driver_installed"};
    long line;
    /* the message read alone: no other reading took it (a container, a Mac, a CPU run) */
    if (e->findings.items.count != 1 || !dl_findings_has_failure(&e->findings, ids[0]) ||
        (line = dl_paste_find(&e->paste, 0, "found no nvidia driver")) < 0 ||
        !nothing_of_nvidia(e))
        return;
    dl_text_causes_step_back(e, ids, 1);
    dl_text_cause_add(e, &cause, line, -1);
}
