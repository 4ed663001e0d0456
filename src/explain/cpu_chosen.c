#include "explain/cpu_chosen.h"

#include "explain/text_cause.h"
#include "explain/text_marks.h"
#include "base/str.h"
#include "facts/query.h"

#include <ctype.h>
#include <string.h>

/* Not a line that picks the device by a condition ("... if torch.cuda.is_available() else
 * 'cpu'") nor a function's default ("def load(..., device='cpu')"); a flag ends where its
 * word does ("--cpu", not "--cpu-threads"). */
static bool chosen_here(const char *low, const char *at, size_t len)
{
    char after = at[len];
    if (at[0] == '-' && (after == '-' || after == '_' || isalnum((unsigned char)after)))
        return false;
    return !strstr(low, "def ") && !strstr(low, " if ") && !strstr(low, "else");
}

long dl_text_cpu_chosen_line(const dl_paste *p)
{
    static const char *const marks[] = {"device=cpu", "device='cpu'", "device=\"cpu\"",
                                        "device = 'cpu'", "device = \"cpu\"", "device = cpu",
                                        "device = torch.device('cpu')",
                                        "device = torch.device(\"cpu\")",
                                        "device=torch.device('cpu')",
                                        "--device cpu", "--device=cpu", "--cpu", "gpu=false",
                                        "use_gpu=false", "use_cuda=false",
                                        "unchecked \"use gpu", "unchecked use gpu",
                                        "unchecked the use gpu", "unchecked \"use gpt",
                                        /* in words: "cpu is being sent as the device" */
                                        "cpu as the device", "cpu is being sent as the device",
                                        "device set to cpu", "device is set to cpu",
                                        "set the device to cpu"};
    return dl_paste_find_any_where(p, marks, sizeof marks / sizeof marks[0], chosen_here);
}

/* The readings of ids step back, and the note says why the program, not the install, is
 * at fault. */
static void step_back_noting(dl_explanation *e, const char *const *ids, size_t n,
                             const char *note)
{
    dl_text_causes_step_back(e, ids, n);
    dl_strv_add_once(&e->notes, note);
}

void dl_explain_cpu_chosen_cuda_asked(dl_explanation *e)
{
    static const char *const asked[] = {"attempting to deserialize object on a cuda device",
                                        "torch not compiled with cuda enabled",
                                        "found no nvidia driver on your system",
                                        /* autocast(device_type='cuda') in the program */
                                        "device_type of 'cuda', but cuda is not available"};
    /* not non_nvidia_gpu: an AMD or Intel GPU named beside it stays the answer to "why no
     * CUDA here" (xinntao/ESRGAN#88: "--cpu" on Intel graphics), the note beside it */
    static const char *const env[] = {"cpu_only_build",      "no_gpu",
                                      "no_gpu_visible",      "no_driver_installed",
                                      "driver_too_old",      "conda_cpu_build_selected",
                                      "no_cuda_on_macos"};
    if ((dl_q_has_nvidia_gpu(&e->facts) && !dl_text_other_vendor_gpu(&e->facts)) ||
        dl_paste_find_any(&e->paste, asked, sizeof asked / sizeof asked[0]) < 0 ||
        dl_text_cpu_chosen_line(&e->paste) < 0)
        return;
    step_back_noting(e, env, sizeof env / sizeof env[0],
                     "the CPU was chosen and the program still asked for CUDA: a torch.load "
                     "without map_location='cpu', or a hard-coded .cuda() / device='cuda' in "
                     "the program, which no install fixes (the program's fault, not the "
                     "environment's)");
    dl_strv_add_once(&e->ask, "the program's device setting, and the line of the program that "
                              "asked for CUDA (the traceback's last line in the program)");
}

/* autocast's warning alone ("User provided device_type of 'cuda', but CUDA is not
 * available. Disabling"), with no GPU named and no error, from torch 1.10's or 1.11's
 * module or on a Mac: those releases printed it
 * wherever a library entered autocast on a machine without CUDA, and the program then runs
 * on the CPU as meant (pytorch/pytorch#67598, removed by #79203). Not a fault to fix. */
void dl_explain_autocast_warning_alone(dl_explanation *e)
{
    static const char *const env[] = {"cpu_only_build", "no_gpu", "no_gpu_visible",
                                      "no_cuda_on_macos", "conda_cpu_build_selected"};
    static const char *const failing[] = {"traceback", "error:", "exception", "is_available()",
                                          "not working", "doesn't work", "does not work",
                                          "slow", "gpu"};
    long line = dl_paste_find(&e->paste, 0, "device_type of 'cuda', but cuda is not available");
    size_t i;
    /* torch 1.12 and later print it only where the program asks for CUDA autocast and torch
     * sees no CUDA (a CPU build on a GPU machine, fluxgym#478): only the old module's path
     * (torch/autocast_mode.py, not torch/amp/) or a Mac, which has no CUDA, says harmless */
    if (line < 0 || dl_q_has_nvidia_gpu(&e->facts) ||
        (dl_paste_find(&e->paste, 0, "torch/autocast_mode.py") < 0 &&
         dl_paste_find(&e->paste, 0, "torch\\autocast_mode.py") < 0 &&
         !dl_q_text_is(&e->facts.os.family, "macos")))
        return;
    for (i = 0; i < e->paste.count; i++)
        if (!strstr(e->paste.lines[i].lower, "device_type") &&
            dl_line_has_any(e->paste.lines[i].lower, failing, sizeof failing / sizeof failing[0]))
            return;
    step_back_noting(e, env, sizeof env / sizeof env[0],
                     "autocast's warning \"User provided device_type of 'cuda', but CUDA is not "
                     "available\" is harmless here: torch 1.10 and 1.11 print it when a library "
                     "enters autocast on a machine without CUDA, and the program runs on the CPU "
                     "as meant; later releases print it only where the program asks for CUDA "
                     "autocast and torch sees no CUDA");
}
