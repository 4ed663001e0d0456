#include "explain/mac_text.h"

#include "explain/text_cause.h"
#include "explain/text_marks.h"
#include "facts/query.h"
#include "plan/gpu_names.h"

#include <stdio.h>
#include <string.h>

/* The line naming a GPU that is not Apple's: the text's first GPU when its vendor is
 * another's, else a vendor's GPU in words ("AMD GPU", "Radeon", "Intel Iris"); -1 when
 * none. Apple silicon's own GPU runs torch through MPS, these do not run CUDA on macOS. */
static long other_gpu_line(const dl_explanation *e)
{
    static const char *const named[] = {"radeon", "intel iris", "iris graphics", "iris pro",
                                        "intel uhd", "intel hd graphics", "amd gpu",
                                        "amd graphics", "amd card", "intel gpu", "nvidia gpu",
                                        "nvidia card", "geforce", "egpu"};
    return dl_text_gpu_line(e, DL_GPU_APPLE, false, named, sizeof named / sizeof named[0]);
}

void dl_explain_mac_other_gpu(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "no_cuda_on_macos",
        "A Mac asks about CUDA or its GPU: macOS has no CUDA (NVIDIA dropped it after "
        "CUDA 10.2), and torch's macOS builds use the GPU only through MPS",
        "# on macOS 12.3 or later torch.device(\"mps\") runs on Apple silicon and AMD "
        "GPUs; an Intel GPU has no torch backend there: run on the CPU",
        {"non_nvidia_gpu"},
        "`python -c \"import torch; print(torch.backends.mps.is_available())\"` and the "
        "macOS version (MPS needs 12.3)"};
    long gpu;
    if (dl_text_cause_read(e) || !dl_q_text_is(&e->facts.os.family, "macos") ||
        dl_text_shows_error(&e->paste) || dl_paste_find(&e->paste, 0, "mps") >= 0 ||
        !dl_text_wants_cuda(&e->paste) || (gpu = other_gpu_line(e)) < 0)
        return;
    dl_text_cause_add(e, &cause, gpu, -1);
}

void dl_explain_mac_cuda_unavailable(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "no_cuda_on_macos",
        "A Mac: torch has no CUDA there, so the code's or a library's check for a CUDA GPU "
        "fails (is_available() is False on every Mac)",
        "# run on torch.device(\"mps\") (Apple silicon, macOS 12.3 or later) or the CPU: the "
        "program's device option, or .to(device) in place of .cuda(); bitsandbytes' 4-bit "
        "and 8-bit quantization needs CUDA, so on a Mac load the model without "
        "quantization_config or load_in_8bit",
        {NULL},
        "`python -c \"import torch; print(torch.backends.mps.is_available())\"` and the "
        "macOS version (MPS needs 12.3)"};
    long line;
    if (dl_text_cause_read(e) || e->findings.items.count ||
        !dl_q_text_is(&e->facts.os.family, "macos") ||
        (line = dl_text_unavailable_line(&e->paste)) < 0 ||
        /* collect_env's "Is CUDA available: False" is every Mac's answer, not a symptom;
         * code already on MPS that meets CUDA is torch's own matter (a compile bug) */
        strstr(e->paste.lines[line].lower, "is cuda available") ||
        (dl_paste_find(&e->paste, 0, "mps") >= 0 && !strstr(e->paste.lines[line].lower, "bitsandbytes") &&
         !strstr(e->paste.lines[line].lower, "quantization")))
        return;
    dl_text_cause_add(e, &cause, line, -1);
}

/* The line where torch says it has no NCCL ("Distributed package doesn't have NCCL built
 * in"), else, when the text shows an error, where the code asks for it
 * (init_process_group("nccl"), "with backend nccl"); -1 when none. */
static long nccl_line(const dl_paste *p)
{
    static const char *const asks[] = {"init_process_group(\"nccl\"",
                                       "init_process_group('nccl'", "backend=\"nccl\"",
                                       "backend='nccl'", "with backend nccl"};
    long line = dl_paste_find(p, 0, "have nccl built in");
    if (line >= 0 || !dl_text_shows_error(p))
        return line;
    return dl_paste_find_any(p, asks, sizeof asks / sizeof asks[0]);
}

void dl_explain_mac_nccl(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "no_cuda_on_macos",
        "A Mac runs code that asks for NCCL: NCCL is NVIDIA's CUDA library, and macOS has "
        "neither CUDA nor an NCCL build of torch",
        "# use the gloo backend (or no distributed launch for one process), and run on "
        "torch.device(\"mps\") or the CPU where the code hard-codes CUDA",
        {NULL},
        NULL};
    long line;
    if (dl_text_cause_read(e) || !dl_q_text_is(&e->facts.os.family, "macos") ||
        (line = nccl_line(&e->paste)) < 0)
        return;
    dl_text_cause_add(e, &cause, line, -1);
}

void dl_explain_mac_docker_gpus(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "no_cuda_on_macos",
        "Docker on a Mac asked for the GPU (--gpus): a Mac has no NVIDIA GPU, and Docker "
        "Desktop's Linux VM passes none through",
        "# drop --gpus (and the compose file's GPU reservation) and run on the CPU; for "
        "Apple's GPU run torch on macOS itself with torch.device(\"mps\")",
        {NULL},
        NULL};
    static const char *const ids[] = {"docker_no_gpu_passthrough"};
    static const char *const docker_gpu[] = {"--gpus", "could not select device driver",
                                             "nvidia-container", "runtime=nvidia"};
    long line;
    if (!dl_q_text_is(&e->facts.os.family, "macos") ||
        !dl_findings_has_failure(&e->findings, "docker_no_gpu_passthrough") ||
        (line = dl_paste_find_any(&e->paste, docker_gpu,
                                  sizeof docker_gpu / sizeof docker_gpu[0])) < 0)
        return;
    dl_text_causes_step_back(e, ids, 1);
    dl_text_cause_add(e, &cause, line, -1);
}

/* "12.7.6" right after `at` (past spaces, "-", ":", tabs and a verb: "my MacOS is
 * `12.7.6`"), as major*100 + minor; -1 when no version of a macOS (10 to 99) follows. */
static long version_after(const char *at)
{
    unsigned major = 0, minor = 0;
    at += strspn(at, " -:\t`*");
    if (!strncmp(at, "is ", 3) || !strncmp(at, "version ", 8))
        at += strcspn(at, " ") + 1;
    at += strspn(at, " -:\t`*");
    if (sscanf(at, "%u.%u", &major, &minor) < 1 || major < 10 || major > 99 || minor > 99)
        return -1;
    return (long)(major * 100 + minor);
}

/* The Mac's macOS version as the text gives it (sw_vers' "ProductVersion: 12.7.6",
 * platform's "macOS-12.7.6-arm64", "macOS 13.7.4 (arm64)", "MacOS 12.6.3"), as
 * major*100 + minor; -1 when none. */
static long macos_version(const dl_paste *p, long *line)
{
    static const char *const names[] = {"productversion", "macos", "mac os"};
    size_t k, i;
    for (k = 0; k < sizeof names / sizeof names[0]; k++)
        for (i = 0; i < p->count; i++) {
            const char *at = strstr(p->lines[i].lower, names[k]);
            for (; at; at = strstr(at + 1, names[k])) {
                /* the message's own "supported on MacOS 12.3+" is the need, not the OS */
                long v = at - p->lines[i].lower >= 13 && !strncmp(at - 13, "supported on ", 13)
                             ? -1
                             : version_after(at + strlen(names[k]));
                if (v >= 0) {
                    *line = (long)i;
                    return v;
                }
            }
        }
    return -1;
}

/* The macOS the named torch's MPS needs: 12.3, 13.0 from torch 2.5 on
 * (pytorch/pytorch#139425), 14.0 from 2.9 on (pytorch/pytorch#162921: "in 2.9+ MPS is only
 * supported on MacOS Sonoma+"); 0 when no torch is named. */
static long mps_floor_of_torch(const dl_explanation *e)
{
    const char *torch = dl_q_first_torch_version(&e->facts);
    unsigned major = 0, minor = 0;
    if (!torch || sscanf(torch, "%u.%u", &major, &minor) != 2)
        return 0;
    if (major > 2 || (major == 2 && minor >= 9))
        return 1400;
    return major == 2 && minor >= 5 ? 1300 : 1203;
}

/* The macOS the running torch's MPS needs, from its message ("The MPS backend is supported
 * on MacOS 12.3+") and the torch named: the messages lagged the need (2.5 to 2.8 kept
 * "12.3+" while needing 13.0, the 2.9 and 2.10 builds said "13.0+" while needing 14.0:
 * pytorch/pytorch#164943), so the higher of the two counts; with no torch named, a 12.x at
 * or above 12.3 can only be behind 13.0. */
static long mps_needs(const dl_explanation *e, const char *low, long os)
{
    long needs = version_after(strstr(low, "supported on macos") + strlen("supported on macos"));
    long floor = mps_floor_of_torch(e);
    if (floor)
        return needs > floor ? needs : floor;
    if (needs != 1203)
        return needs;
    /* no torch named: a 12.x at or above 12.3 gets this message only from a torch that
     * needs 13.0 (or from a Mac without a Metal device, which a 12.x Mac rarely is) */
    return os < 1300 ? 1300 : 0;
}

/* The standard MPS check's answer without torch's message: is_built() True beside
 * is_available() False (or "Is MPS available? False"): its line, -1 when the text does not
 * have both. */
static long mps_built_not_available(const dl_paste *p)
{
    static const char *const unavailable[] = {"mps.is_available()) false", "mps available? false",
                                              "is_available: false", "mps available: false"};
    static const char *const built[] = {"is_built()) true", "mps built? true",
                                        "mps) built? true", "is_built: true", "mps built: true",
                                        "built? true"};
    long line = dl_paste_find_any(p, unavailable, sizeof unavailable / sizeof unavailable[0]);
    return line >= 0 && dl_paste_find_any(p, built, sizeof built / sizeof built[0]) >= 0 ? line
                                                                                        : -1;
}

/* The macOS the named torch's MPS needs when its message is not in the text; 12.3 when no
 * torch is named. */
static long mps_floor(const dl_explanation *e)
{
    long floor = mps_floor_of_torch(e);
    return floor ? floor : 1203;
}

void dl_explain_mps_needs_newer_macos(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "driver_too_old",
        "This macOS is older than the running torch's MPS backend needs (torch 2.5 to 2.8 "
        "need macOS 13.0 though their message says 12.3+; 2.9 and later need 14.0 though "
        "some say 13.0+): torch cannot use the Mac's GPU",
        "# update macOS (14.0 Sonoma or later for torch 2.9+, 13.0 for torch 2.5 to 2.8), or "
        "keep this macOS with the last torch whose MPS runs on it: 2.8.0 on macOS 13, 2.4.1 "
        "on 12.3 to 12.x",
        {NULL},
        "`sw_vers` and `python -c \"import torch; print(torch.__version__)\"`"};
    const dl_paste *p = &e->paste;
    long line = dl_paste_find(p, 0, "mps backend is supported on macos"), os, needs, os_line;
    bool message = line >= 0;
    if (!message)
        line = mps_built_not_available(p);
    if (line < 0 || (os = macos_version(p, &os_line)) < 0)
        return;
    needs = message ? mps_needs(e, p->lines[line].lower, os) : mps_floor(e);
    /* at or above the need the OS is not why: no Metal device (a sandbox, a VM, an SSH
     * session without the GPU) gives the same message */
    if (needs <= 0 || os >= needs)
        return;
    dl_text_cause_add(e, &cause, line, os_line);
}
