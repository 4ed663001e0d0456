#include "explain/memory_text.h"

#include "base/str.h"
#include "explain/text_cause.h"
#include "explain/text_marks.h"
#include "plan/plan.h"
#include "parse/oom.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


void dl_explain_oom_in_words(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "cuda_oom",
        "Genuine out of memory (the GPU's memory is too small for the run)",
        "# a smaller batch, model or image size, mixed precision; a launcher's "
        "low-memory options (--medvram, --lowvram)",
        {"gpu_memory_held_by_other_process"},
        "the whole error (torch's \"CUDA out of memory\" line gives "
        "the GPU's total, free and PyTorch's share) and `nvidia-smi`"};
    static const char *const gpu[] = {"vram", "gpu", "cuda", "gtx", "rtx", "graphics card",
                                      "video card"};
    static const char *const host[] = {"killed process", "exit code 137", "host memory",
                                       "system memory", "system ram", "cpu memory", "cpu ram",
                                       "wsl"};
    /* the run failed otherwise: "OOM" is then what the writer tried to avoid ("the device
     * map to prevent OOM"), not what happened (deepseek-ai/DeepSeek-MoE#4) */
    static const char *const other_failure[] = {"device-side assert", "illegal memory access",
                                                "unspecified launch failure",
                                                "misaligned address"};
    static const char *const avoided[] = {"prevent oom", "avoid oom", "prevent an oom",
                                          "avoid an oom", "avoid the oom", "prevent the oom",
                                          "prevent ooms", "avoid ooms"};
    long line;
    size_t k;
    if (dl_text_cause_read(e) || (line = dl_oom_word_line(&e->paste)) < 0 ||
        dl_paste_find_any(&e->paste, gpu, sizeof gpu / sizeof gpu[0]) < 0 ||
        dl_paste_find_any(&e->paste, host, sizeof host / sizeof host[0]) >= 0 ||
        dl_paste_find_any(&e->paste, other_failure,
                          sizeof other_failure / sizeof other_failure[0]) >= 0)
        return;
    for (k = 0; k < sizeof avoided / sizeof avoided[0]; k++)
        if (strstr(e->paste.lines[line].lower, avoided[k]))
            return;
    dl_text_cause_add(e, &cause, line, -1);
}

void dl_explain_cublas_handle_candidates(dl_explanation *e)
{
    static const char *const failed[] = {"cublas_status_not_initialized",
                                         "cublas_status_alloc_failed",
                                         "cudnn_status_not_initialized",
                                         "cudnn_status_internal_error",
                                         "cudnn_status_alloc_failed"};
    static const char *const ids[] = {"cuda_oom", "gpu_memory_held_by_other_process",
                                      "ld_library_path_conflict"};
    size_t k;
    if (dl_text_cause_read(e) ||
        dl_paste_find_any(&e->paste, failed, sizeof failed / sizeof failed[0]) < 0 ||
        dl_paste_find(&e->paste, 0, "device-side assert") >= 0)
        return;
    for (k = 0; k < sizeof ids / sizeof ids[0]; k++)
        dl_strv_add(&e->alternatives, dl_strdup(ids[k]));
    dl_strv_add(&e->ask, dl_strdup("`nvidia-smi` while the program runs (is the GPU's memory "
                                   "full, and by which processes?) and `echo $LD_LIBRARY_PATH` "
                                   "(a CUDA library of another release found before torch's)"));
}

void dl_explain_oom_share_candidates(dl_explanation *e)
{
    dl_oom oom;
    if (!dl_findings_has(&e->findings, "gpu_memory_held_by_other_process") ||
        !dl_oom_read(&e->paste, &oom) ||
        dl_oom_unexplained_bytes(&oom) >= oom.total_bytes / 2)
        return;
    dl_strv_add(&e->alternatives, dl_strdup("cuda_oom"));
}

/* The line says the job runs there ("works fine", "runs", "no problem"), not that it
 * fails there too. */
static bool runs_there(const char *low)
{
    static const char *const ok[] = {"works", "worked", "work fine", "runs ", "ran ",
                                     "run fine", "no problem", "succeed", "without error"};
    static const char *const also[] = {" too", " also ", "as well", "same error",
                                       "doesn't work", "does not work", "fails"};
    size_t k;
    bool fine = false;
    if (dl_line_has_any(low, also, sizeof also / sizeof also[0]))
        return false;
    for (k = 0; k < sizeof ok / sizeof ok[0]; k++)
        fine |= strstr(low, ok[k]) != NULL;
    return fine;
}

/* Every finding is an out-of-memory one (or there is none). */
static bool only_oom_found(const dl_explanation *e)
{
    size_t i;
    for (i = 0; i < e->findings.items.count; i++)
        if (strcmp(DL_LIST_AT(e->findings.items, dl_finding, i).id.value, "cuda_oom") != 0)
            return false;
    return true;
}

/* The out-of-memory findings become warnings: whose memory it is was read as the cause. */
static void oom_steps_back(dl_explanation *e)
{
    size_t i;
    for (i = 0; i < e->findings.items.count; i++)
        dl_text_set(&DL_LIST_AT(e->findings.items, dl_finding, i).severity,
                    dl_severity_name(DL_SEV_WARNING));
}

void dl_explain_oom_on_one_node(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "gpu_memory_held_by_other_process",
        "The same job runs on other nodes: something on this node holds its GPU's memory "
        "(a stuck process of another run or user)",
        "# on that node: nvidia-smi (and fuser -v /dev/nvidia*) shows the process; end it, "
        "or have the cluster's admin drain the node",
        {"cuda_oom"},
        "`nvidia-smi` on the failing node and on one where the job runs"};
    static const char *const memory[] = {"out of memory", "allocate memory",
                                         "allocate gpu memory", "memory allocation failed"};
    static const char *const elsewhere[] = {"on a different node", "on another node",
                                            "on other nodes", "on the other nodes",
                                            "on a other node", "on different nodes"};
    dl_oom oom;
    long line, node;
    /* only an out-of-memory signature found: the node's words say whose memory it is */
    if (!only_oom_found(e))
        return;
    if (dl_oom_read(&e->paste, &oom) ||
        (line = dl_paste_find_any(&e->paste, memory, sizeof memory / sizeof memory[0])) < 0 ||
        (node = dl_paste_find_any(&e->paste, elsewhere, sizeof elsewhere / sizeof elsewhere[0])) < 0 ||
        !runs_there(e->paste.lines[node].lower))
        return;
    oom_steps_back(e);
    dl_text_cause_add(e, &cause, line, node == line ? -1 : node);
}

/* The writer says other work runs on the same GPU ("I run another code on GPU0", "other
 * jobs fill card 0", "someone else is using the GPU"): whose memory it is, in words. */
/* "I've tried other programs and they worked fine with cuda": the other work named to
 * compare, not running beside this one. */
static bool not_a_comparison(const char *low, const char *at, size_t len)
{
    (void)at;
    (void)len;
    return !strstr(low, "tried ") && !strstr(low, "worked fine") && !strstr(low, "work fine") &&
           !strstr(low, "works fine");
}

static long other_work_on_gpu_line(const dl_paste *p)
{
    static const char *const words[] = {
        "another code", "another program", "another process", "another job",
        "another training", "another model", "another script", "another user",
        "other jobs", "other processes", "other programs", "other users", "someone else",
        "already occupied", "is already in use", "already being used", "already taken",
        /* Chinese: "(is) occupied", "card 0 is full", "a process occupies", "a process ...
         * (ate) all", "ate up"; Korean: "is occupying" */
        "\xe8\xa2\xab\xe5\x8d\xa0\xe7\x94\xa8", "\xe5\x8d\xa1\xe6\x98\xaf\xe7\x88\x86\xe6\xbb\xa1",
        "\xe8\xbf\x9b\xe7\xa8\x8b\xe5\x8d\xa0\xe7\x94\xa8", "\xe8\xbf\x9b\xe7\xa8\x8b\xef\xbc\x8c\xe6\x8a\x8a",
        "\xe5\x90\x83\xe6\x8e\x89", "\xe5\x85\xa8\xe5\x90\x83\xe4\xba\x86",
        "\xec\xb0\xa8\xec\xa7\x80\xed\x95\x98\xea\xb3\xa0 \xec\x9e\x88\xeb\x8a\x94"};
    return dl_paste_find_any_where(p, words, sizeof words / sizeof words[0], not_a_comparison);
}

/* nvidia-smi's memory cell ("15514MiB / 16130MiB") shows a GPU almost full (90% or more):
 * its line, or -1. */
static long full_gpu_in_table(const dl_paste *p)
{
    long i;
    for (i = dl_paste_find(p, 0, "mib /"); i >= 0; i = dl_paste_find(p, (size_t)i + 1, "mib /")) {
        const char *at = strstr(p->lines[i].lower, "mib /"), *d = at;
        double used, total;
        while (d > p->lines[i].lower && (unsigned char)(d[-1] - '0') <= 9)
            d--;
        if (d == at)
            continue;
        used = strtod(d, NULL);
        total = strtod(at + 5, NULL);
        if (total > 0 && used >= 0.9 * total)
            return i;
    }
    return -1;
}

void dl_explain_oom_beside_other_work(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "gpu_memory_held_by_other_process",
        "Out of memory on a GPU that other work uses at the same time: its memory is taken "
        "by that process, not by this run",
        "# run on a GPU that nothing else uses (CUDA_VISIBLE_DEVICES set before the program "
        "starts, and no option of the program that resets it), or end the other process "
        "(nvidia-smi lists it)",
        {"cuda_oom"},
        "`nvidia-smi` while the other work runs (the memory each process holds)"};
    static const char *const memory[] = {"out of memory", "outofmemoryerror"};
    static const char *const gpu[] = {"gpu", "cuda", "vram", "graphics card"};
    dl_oom oom;
    long line, other;
    /* only an out-of-memory finding, and no numbers that would say whose memory it is */
    if (!only_oom_found(e))
        return;
    if (dl_oom_read(&e->paste, &oom) ||
        (line = dl_paste_find_any(&e->paste, memory, sizeof memory / sizeof memory[0])) < 0 ||
        ((other = other_work_on_gpu_line(&e->paste)) < 0 &&
         (other = full_gpu_in_table(&e->paste)) < 0) ||
        dl_paste_find_any(&e->paste, gpu, sizeof gpu / sizeof gpu[0]) < 0)
        return;
    oom_steps_back(e);
    dl_text_cause_add(e, &cause, line, other == line ? -1 : other);
}

/* The bytes in "you tried to allocate 26214400 bytes" on line `line`; -1 when not there. */
static double allocation_bytes(const char *low)
{
    const char *at = strstr(low, "tried to allocate ");
    char *end;
    double bytes;
    if (!at)
        return -1;
    bytes = strtod(at + strlen("tried to allocate "), &end);
    return end != at + strlen("tried to allocate ") && !strncmp(end, " bytes", 6) ? bytes : -1;
}

void dl_explain_cpu_allocator_commit_limit(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "pagefile_too_small",
        "Windows refused torch an allocation of host memory: RAM and the paging file together "
        "(the commit limit) are used up",
        "# set the paging file to system-managed (or raise its maximum) on a drive with free "
        "space, then restart; close other programs, or lower the batch size or use a launcher's "
        "low-memory options",
        {NULL},
        "the RAM and the paging file's size (System > Advanced system settings > Performance > "
        "Virtual memory), and what else was running"};
    /* torch's CPU allocator on Windows says "not enough memory" when _aligned_malloc fails;
     * on Linux it says "can't allocate memory ... Error code 12" (c10/core/impl/alloc_cpu.cpp),
     * where the kernel's overcommit, not a paging file, decides. */
    static const char *const refused[] = {"defaultcpuallocator: not enough memory",
                                          "not enough memory: you tried to allocate"};
    /* an allocation beyond any desktop's RAM and paging file is a size gone wrong (a shape,
     * a batch), which no paging file serves */
    const double beyond_any_commit = 64.0 * 1024 * 1024 * 1024;
    dl_plan_os os = dl_plan_os_parse(e->facts.os.family.value);
    long line = -1;
    size_t k;
    if (dl_text_cause_read(e) || os == DL_PLAN_OS_LINUX || os == DL_PLAN_OS_MACOS ||
        dl_text_in_container(&e->paste))
        return;
    /* the paste's index finds the lines: a long log is not scanned line by line */
    for (k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        long i;
        for (i = dl_paste_find(&e->paste, 0, refused[k]); i >= 0;
             i = dl_paste_find(&e->paste, (size_t)i + 1, refused[k])) {
            double bytes = allocation_bytes(e->paste.lines[i].lower);
            if (bytes >= beyond_any_commit)
                return;
            if (line < 0 || bytes >= 0)
                line = i;
        }
    }
    if (line >= 0)
        dl_text_cause_add(e, &cause, line, -1);
}

void dl_explain_oom_while_loading(dl_explanation *e)
{
    static const char *const restoring[] = {"_cuda_deserialize", "default_restore_location"};
    dl_finding *x = dl_findings_get(&e->findings, "cuda_oom");
    dl_strv rest = {0};
    size_t i;
    if (!x || !dl_q_failure(x) ||
        dl_paste_find_any(&e->paste, restoring, sizeof restoring / sizeof restoring[0]) < 0 ||
        dl_paste_find(&e->paste, 0, "map_location=") >= 0)
        return;
    for (i = 0; i < x->fix.count; i++)
        dl_strv_add(&rest, dl_strdup(DL_LIST_AT(x->fix, char *, i)));
    dl_finding_fix_clear(x);
    dl_finding_fix(x, "# the memory ran out while torch.load put the checkpoint's tensors back on "
                      "the GPU they were saved from (beside the model already there): load it "
                      "onto the CPU with torch.load's map_location=\"cpu\", then load the state "
                      "dict into the model and move the model to the GPU; in DDP, map it to "
                      "the process's own GPU instead");
    for (i = 0; i < rest.n; i++)
        dl_finding_fix(x, "%s", rest.v[i]);
    dl_strv_free(&rest);
}

/* The sizes in GiB of the "Process N has X GiB memory in use" entries of the text (MiB ones
 * converted), up to cap; their count. */
static size_t process_sizes(const dl_paste *p, double *gib, size_t cap)
{
    size_t n = 0;
    long i;
    for (i = dl_paste_find(p, 0, "memory in use"); i >= 0 && n < cap;
         i = dl_paste_find(p, (size_t)i + 1, "memory in use")) {
        const char *at;
        for (at = strstr(p->lines[i].lower, "process "); at && n < cap;
             at = strstr(at + 8, "process ")) {
            char *end;
            const char *has;
            double size;
            if (!isdigit((unsigned char)at[8]) || !(has = strstr(at + 8, " has ")) ||
                has - at > 20)
                continue;
            size = strtod(has + 5, &end);
            if (end == has + 5)
                continue;
            if (!strncmp(end, " gib", 4))
                gib[n++] = size;
            else if (!strncmp(end, " mib", 4))
                gib[n++] = size / 1024;
        }
    }
    return n;
}

void dl_explain_oom_held_by_own_ranks(dl_explanation *e)
{
    dl_finding *x = dl_findings_get(&e->findings, "gpu_memory_held_by_other_process");
    double gib[64], lo, hi;
    size_t n, i;
    if (!x || !dl_q_failure(x) || (n = process_sizes(&e->paste, gib, 64)) < 2)
        return;
    lo = hi = gib[0];
    for (i = 1; i < n; i++) {
        lo = gib[i] < lo ? gib[i] : lo;
        hi = gib[i] > hi ? gib[i] : hi;
    }
    /* a CUDA context and a little more each, all alike: one job's ranks */
    if (hi > 3.0 || lo <= 0 || hi > 1.25 * lo)
        return;
    dl_finding_fix_clear(x);
    dl_finding_fix(x, "# the %u other processes each hold about %.2f GiB of this GPU: these look "
                      "like the other ranks of this distributed job, each opening a CUDA context "
                      "on GPU 0; ending them ends the job", (unsigned)n, hi);
    dl_finding_fix(x, "# call torch.cuda.set_device with the process's local rank (LOCAL_RANK "
                      "from torchrun) first in each process, before init_process_group, any "
                      ".cuda() and any torch.load (load checkpoints with map_location set to "
                      "that GPU or the CPU)");
}

void dl_explain_oom_on_rocm(dl_explanation *e)
{
    static const char *const ids[] = {"cuda_oom", "gpu_memory_held_by_other_process"};
    size_t i, k;
    if (dl_paste_find(&e->paste, 0, "hip out of memory") < 0)
        return;
    for (i = 0; i < e->findings.items.count; i++) {
        dl_finding *x = &DL_LIST_AT(e->findings.items, dl_finding, i);
        bool memory = false;
        for (k = 0; k < sizeof ids / sizeof ids[0]; k++)
            memory = memory || !strcmp(x->id.value, ids[k]);
        for (k = 0; memory && k < x->fix.count; k++) {
            char **line = &DL_LIST_AT(x->fix, char *, k);
            char *a = dl_str_replace(*line, "PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_HIP_ALLOC_CONF");
            char *b = a ? dl_str_replace(a, "nvidia-smi", "rocm-smi --showpids --showmeminfo vram") : NULL;
            free(a);
            if (b) {
                free(*line);
                *line = b;
            }
        }
    }
}

/* The GPU the text names is an Arc A-series card ("Intel(R) Arc(TM) A770 Graphics"), or
 * none is named and the message's total fits one (16 GB at most: the A770's shows as
 * 15.11-15.56 GiB; Lunar Lake's Arc 140V shares more of the RAM). */
static bool arc_a_series(const dl_explanation *e, const dl_oom *oom)
{
    const dl_nvml_gpu *g = e->facts.nvml.gpus.count
                               ? &DL_LIST_AT(e->facts.nvml.gpus, dl_nvml_gpu, 0) : NULL;
    const char *at;
    char low[128];
    size_t k;
    if (!g || !g->name.value)
        return oom->total_bytes <= 16.0 * 1024.0 * 1024.0 * 1024.0;
    snprintf(low, sizeof low, "%s", g->name.value);
    for (k = 0; low[k]; k++)
        low[k] = (char)tolower((unsigned char)low[k]);
    for (at = strchr(low, 'a'); at; at = strchr(at + 1, 'a'))
        if ((at == low || !isalnum((unsigned char)at[-1])) && isdigit((unsigned char)at[1]) &&
            isdigit((unsigned char)at[2]) && isdigit((unsigned char)at[3]) &&
            strstr(low, "arc"))
            return true;
    return false;
}

/* One request of 4 GiB or more that the GPU could hold: under its total, with as much
 * free where the message says what is free, else with what PyTorch holds beside it; not
 * a cap the program set (set_per_process_memory_fraction: "8.27 GiB allowed"). */
static bool single_allocation_refused(const dl_explanation *e, const dl_oom *oom)
{
    const double four_gib = 4.0 * 1024.0 * 1024.0 * 1024.0;
    if (oom->requested_bytes < four_gib || oom->requested_bytes >= oom->total_bytes ||
        strstr(e->paste.lines[oom->line].lower, " allowed"))
        return false;
    if (oom->free_bytes >= 0)
        return oom->free_bytes >= oom->requested_bytes;
    return oom->torch_bytes < 0 || oom->torch_bytes + oom->requested_bytes <= oom->total_bytes;
}

/* Intel's Arc A-series GPUs refuse any one allocation of 4 GiB or more, with the memory
 * free (intel-extension-for-pytorch#325). Elsewhere an XPU's out-of-memory is a plain
 * one, for which the CUDA allocator's settings (PYTORCH_CUDA_ALLOC_CONF) do nothing. */
void dl_explain_oom_on_xpu(dl_explanation *e)
{
    dl_finding *x = dl_findings_get(&e->findings, "cuda_oom");
    dl_oom oom;
    size_t i;
    if (!x || dl_paste_find(&e->paste, 0, "xpu out of memory") < 0 ||
        !dl_finding_fix_is_only(x, "PYTORCH_CUDA_ALLOC_CONF"))
        return;
    /* the other processes on an Intel GPU: xpu-smi (Linux), Task Manager (Windows) */
    for (i = 0; i < e->ask.n; i++)
        if (strstr(e->ask.v[i], "`nvidia-smi` (other processes")) {
            free(e->ask.v[i]);
            e->ask.v[i] = dl_strdup("the other programs on the GPU: `xpu-smi ps` on Linux, "
                                    "Task Manager's GPU memory on Windows");
        }
    dl_finding_fix_clear(x);
    if (dl_oom_read_request(&e->paste, &oom) && single_allocation_refused(e, &oom) &&
        arc_a_series(e, &oom)) {
        dl_text_set(&x->title, "One allocation of 4 GiB or more on an Intel Arc A-series GPU "
                               "that has the memory: these GPUs cannot hold a single buffer "
                               "that large, so one tensor is too big, not the GPU full");
        dl_finding_fix(x, "# make the one big tensor smaller (a smaller batch, image or sequence, "
                          "tiled VAE decoding, attention slicing); allocator settings do not lift "
                          "this limit, and Arc B-series GPUs do not have it");
        return;
    }
    dl_finding_fix(x, "# a smaller batch (or smaller inputs) and mixed precision "
                      "(torch.autocast(\"xpu\")); torch.xpu.empty_cache() returns cached memory "
                      "to the GPU; the CUDA allocator's PYTORCH_CUDA_ALLOC_CONF does not apply "
                      "to XPU");
}

/* "batch size 1" as a number alone ("batch_size=1", "--batch-size 1", not "batch size 16"). */
static bool batch_of_one(const char *low, const char *at, size_t len)
{
    const char *v = at + len;
    (void)low;
    v += strspn(v, " =:\"'");
    if (!strncmp(v, "of ", 3))
        v += 3;
    return v[0] == '1' && !isdigit((unsigned char)v[1]) && v[1] != '.';
}

void dl_explain_oom_at_batch_one(dl_explanation *e)
{
    static const char *const forms[] = {"batch size", "batch_size", "batch-size", "batchsize",
                                        "bs=", "batch="};
    dl_finding *x = dl_findings_get(&e->findings, "cuda_oom");
    if (!x || !dl_finding_fix_is_only(x, "a smaller batch (or smaller inputs)") ||
        dl_paste_find_any_where(&e->paste, forms, sizeof forms / sizeof forms[0],
                                batch_of_one) < 0)
        return;
    dl_finding_fix_clear(x);
    dl_finding_fix(x, "# the batch is already 1: make the model and its inputs smaller in "
                      "memory: load it in half precision or 8/4-bit (torch_dtype=torch.float16, "
                      "a quantized checkpoint), shorter sequences or smaller images, gradient "
                      "checkpointing when training, CPU offload (device_map=\"auto\", "
                      "enable_model_cpu_offload), or a GPU with more memory; where much memory "
                      "is reserved but unallocated, PYTORCH_CUDA_ALLOC_CONF="
                      "expandable_segments:True before the program starts (Linux, torch 2.1 or "
                      "newer)");
}
