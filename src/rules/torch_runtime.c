/* torch at run time: `import torch` fails, crashes or hangs; or it imported, is a CUDA
 * build, and still sees no GPU; or another process holds the GPU's memory. */
#include "base/str.h"
#include "facts/query.h"
#include "know/tables.h"
#include "parse/oom.h"
#include "parse/paste.h"
#include "parse/signatures.h"
#include "rules/fixes.h"
#include "rules/rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dl_rule_no_gpu_visible(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    const dl_python *py = dl_q_main_python(f);
    dl_finding *x;
    if (!py || !dl_q_torch_imported(py) || !dl_q_has_nvidia_gpu(f) ||
        !py->runtime.cuda.value || dl_q_text_is(&py->runtime.cuda, "none") ||
        !py->runtime.cuda_available.known || py->runtime.cuda_available.value)
        return;
    x = dl_finding_add(out, "no_gpu_visible", DL_SEV_FAILURE,
                       "torch (a CUDA %s build) sees no GPU although one is there",
                       py->runtime.cuda.value);
    dl_finding_evidence(x, "pythons[0].runtime.cuda_available", "False");
    if (py->runtime.cuda_warning.value)
        dl_finding_evidence(x, "pythons[0].runtime.cuda_warning", "%s",
                            py->runtime.cuda_warning.value);
    dl_finding_fix(x, "# the layers below say why; if they are all fine, run "
                      "python -c \"import torch; torch.cuda.init()\" to see CUDA's own error");
}

/* Another process holding most of a GPU's memory turns the next allocation into an
 * out-of-memory error that looks like the user's own. The one finding and fix, from NVML's
 * process list (the doctor) or an OOM message's numbers (explain). */
static void held_memory_fix(dl_finding *x, const dl_facts *f, long long pid)
{
    if (pid <= 0) {
        dl_fix_note(x, "find the process that holds the memory (nvidia-smi): end it, or if it "
                       "is not yours to stop, run on another GPU (dlenv run --gpu)");
        dl_finding_fix(x, "nvidia-smi");
        return;
    }
    dl_fix_note(x, "process %lld: end it, or if it is not yours to stop, run on another "
                   "GPU (dlenv run --gpu)", pid);
    dl_finding_fix(x, f && dl_q_is_windows(f) ? "Stop-Process -Id %lld" : "kill %lld", pid);
}

void dl_rule_gpu_memory_held_by_other_process(const dl_rule_input *in, dl_findings *out)
{
    const dl_facts *f = in->facts;
    dl_finding *x = NULL;
    size_t i, j;
    for (i = 0; f->nvml.gpus.known && i < f->nvml.gpus.count; i++) {
        const dl_nvml_gpu *g = &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, i);
        if (!g->memory_total_bytes.known || g->memory_total_bytes.value <= 0)
            continue;
        for (j = 0; g->processes.known && j < g->processes.count; j++) {
            const dl_gpu_process *p = &DL_LIST_AT(g->processes, dl_gpu_process, j);
            if (!p->used_memory_bytes.known ||
                p->used_memory_bytes.value * 2 < g->memory_total_bytes.value)
                continue;
            if (!x)
                x = dl_finding_add(out, "gpu_memory_held_by_other_process", DL_SEV_WARNING,
                                   "Another process holds most of a GPU's memory");
            dl_finding_evidence(x, g->name.value ? g->name.value : "gpu",
                                "process %lld holds %.1f of %.1f GiB", p->pid.value,
                                (double)p->used_memory_bytes.value / (1 << 30),
                                (double)g->memory_total_bytes.value / (1 << 30));
            held_memory_fix(x, f, p->pid.known ? p->pid.value : 0);
        }
    }
}

void dl_rule_oom_message(const dl_paste *p, dl_findings *out)
{
    static const char *const preallocating[] = {"tensorflow", "torch_xla", "pjrt", "jax",
                                                "keras", "tf.config", " xla ", "xla_"};
    dl_oom oom;
    double other;
    dl_finding *x;
    char key[32];
    if (!dl_oom_read(p, &oom))
        return;
    other = dl_oom_outside_bytes(&oom);
    /* Half the GPU held elsewhere, and more than a process's own CUDA context and a
     * desktop take (on a 1 GB card those alone are most of it). */
    if (other <= oom.total_bytes / 2 || dl_oom_unexplained_bytes(&oom) <= 0)
        return;
    /* on a card of 2 GiB or so the desktop and the CUDA context of this process take a
     * share that looks like another process's: the card is too small, not shared */
    if (oom.total_bytes <= 2.5 * (1 << 30))
        return;
    if (dl_paste_find_any(p, preallocating, sizeof preallocating / sizeof preallocating[0]) >= 0) {
        /* TensorFlow, JAX or torch_xla beside torch: their allocator takes the GPU up front,
         * inside this very program */
        x = dl_finding_add(out, "gpu_memory_held_by_other_process", DL_SEV_FAILURE,
                           "%.1f GiB of this GPU's %.1f GiB is held outside PyTorch, most likely "
                           "by TensorFlow, JAX or torch_xla in the same program (their "
                           "allocators take the GPU up front); PyTorch itself holds %.1f GiB",
                           other / (1 << 30), oom.total_bytes / (1 << 30),
                           oom.torch_bytes / (1 << 30));
        dl_fix_note(x, "let the other framework allocate as it goes, set before the program "
                       "starts: TF_FORCE_GPU_ALLOW_GROWTH=true (TensorFlow), "
                       "XLA_PYTHON_CLIENT_PREALLOCATE=false (JAX), "
                       "PJRT_ALLOCATOR_PREALLOCATE=false (torch_xla); or keep it off the GPU");
    } else {
        x = dl_finding_add(out, "gpu_memory_held_by_other_process", DL_SEV_FAILURE,
                           "Another process holds %.1f GiB of this GPU's %.1f GiB; PyTorch "
                           "itself holds %.1f GiB",
                           other / (1 << 30), oom.total_bytes / (1 << 30),
                           oom.torch_bytes / (1 << 30));
        held_memory_fix(x, NULL, 0);
        dl_fix_note(x, "if nvidia-smi lists only your own program, the memory is held inside "
                       "it: another framework's allocator (TensorFlow, JAX), or more processes "
                       "of it on this GPU than meant (torch.cuda.set_device per rank)");
    }
    snprintf(key, sizeof key, "L%zu", p->lines[oom.line].number);
    dl_finding_evidence(x, key, "%s", p->lines[oom.line].text);
}

/* ---- torch_import_failed ------------------------------------------------------------- */

/* The CUDA wheels that bring each library torch loads at import, by file-name prefix
 * (longest first where one prefix holds another). */
static const struct {
    const char *prefix;
    const char *wheel;   /* nvidia-<wheel>-cuNN */
} library_wheels[] = {
    {"libcudnn", "cudnn"},        {"libcublas", "cublas"},     {"libcufft", "cufft"},
    {"libcurand", "curand"},      {"libcusolver", "cusolver"}, {"libcusparseLt", "cusparselt"},
    {"libcusparse", "cusparse"},  {"libnccl", "nccl"},         {"libnvJitLink", "nvjitlink"},
    {"libcudart", "cuda-runtime"}, {"libnvrtc", "cuda-nvrtc"}, {"libcupti", "cuda-cupti"},
    {"libnvToolsExt", "nvtx"},    {"libcufile", "cufile"},     {"libnvshmem", "nvshmem"},
};

static bool import_broken(const dl_python *py)
{
    const dl_text *s = &py->runtime.status;
    if (dl_q_text_is(s, "import_failed"))
        return !dl_q_says_no_torch(py->runtime.error.value);
    return dl_q_text_is(s, "crashed") || dl_q_text_is(s, "timed_out") ||
           dl_q_text_is(s, "failed");
}

/* "libcudnn.so.9" out of "...: libcudnn.so.9: cannot open shared object file: ..." (or of
 * a full path to it). */
static char *missing_library(const char *error)
{
    const char *end = error ? strstr(error, ": cannot open shared object file") : NULL;
    const char *start = end;
    while (start && start > error && !strchr(" :'\"/\\", start[-1]))
        start--;
    return end && end > start ? dl_strndup(start, (size_t)(end - start)) : NULL;
}

/* "12" of torch's CUDA ("12.1", or the local tag cu121), for the nvidia-*-cuNN names. */
static char *cuda_major(const dl_python *py)
{
    const dl_torch_install *t = dl_q_static_torch(py);
    const char *v = dl_q_torch_version(py), *tag = v ? strstr(v, "+cu") : NULL;
    if (t && t->cuda.value && strcmp(t->cuda.value, "none") != 0)
        return dl_strndup(t->cuda.value, strcspn(t->cuda.value, "."));
    if (tag && strlen(tag + 3) >= 3)
        return dl_strndup(tag + 3, strlen(tag + 3) - 1);
    return NULL;
}

/* Who should bring the missing library: an nvidia-* wheel (installed or not), torch itself,
 * or the driver (libcuda: the signatures' libcuda_not_found covers it). */
static void name_provider(dl_finding *x, const dl_python *py, const char *lib)
{
    char *major = cuda_major(py), *wheel;
    const dl_py_package *p;
    size_t i;
    for (i = 0; i < sizeof library_wheels / sizeof library_wheels[0]; i++)
        if (dl_starts_with(lib, library_wheels[i].prefix))
            break;
    if (i == sizeof library_wheels / sizeof library_wheels[0]) {
        dl_finding_evidence(x, "provided by", "torch's own files (torch/lib): the torch "
                                              "install is incomplete");
        free(major);
        return;
    }
    wheel = dl_fmt("nvidia-%s-cu%s", library_wheels[i].wheel, major ? major : "12");
    p = dl_q_package(py, wheel);
    if (p)
        dl_finding_evidence(x, "provided by", "the %s wheel: %s is installed, yet the "
                                              "loader did not find %s in it", wheel,
                            p->version.value ? p->version.value : "a version", lib);
    else
        dl_finding_evidence(x, "provided by", "the %s wheel, which is not installed", wheel);
    free(wheel);
    free(major);
}

/* Where the machine's own facts answered what a signature guesses, the facts decide: the
 * Windows rules read the VC++ runtime's registry record and every DLL torch imports. */
static bool facts_decide(const dl_facts *f, const char *id)
{
    const dl_torch_install *t = dl_q_static_torch(dl_q_main_python(f));
    if (!strcmp(id, "vc_redist_missing"))
        return f->os.windows.vc_runtime_version.value != NULL;
    if (!strcmp(id, "win_dll_dependency_missing"))
        return t && t->missing_dlls.known;
    return false;
}

/* The catalog's signatures on the error text: a cause in a lower layer (the driver's
 * libcuda, a library path, a Windows DLL, MKL) is the root cause, as `explain` would name
 * it for the same text. Returns whether one was added. */
static bool lower_causes(const dl_rule_input *in, const char *error, dl_findings *out)
{
    const dl_table *cat = in->know ? dl_knowledge_at(in->know, DL_TABLE_error_signatures) : NULL;
    dl_signature_hits hits;
    dl_paste paste;
    bool added = false;
    size_t i;
    if (!cat || !error)
        return false;
    dl_paste_read(error, strlen(error), &paste);
    dl_signatures_match(cat, &paste, &hits);
    for (i = 0; i < hits.n; i++) {
        const char *id = dl_table_cell(cat, hits.v[i].row, DL_COL_error_signatures_finding);
        int layer =
            dl_layer_of_name(dl_table_cell(cat, hits.v[i].row, DL_COL_error_signatures_layer));
        dl_finding *x;
        if (layer < 0 || layer >= DL_LAYER_TORCH_RUNTIME || dl_findings_has(out, id) ||
            dl_signature_yields(cat, &hits, i) || facts_decide(in->facts, id))
            continue;
        x = dl_finding_add(out, id, DL_SEV_FAILURE, "%s",
                           dl_table_cell(cat, hits.v[i].row, DL_COL_error_signatures_title));
        dl_finding_evidence(x, "pythons[0].runtime.error", "%s", error);
        dl_fix_note(x, "%s", dl_table_cell(cat, hits.v[i].row, DL_COL_error_signatures_fix));
        added = true;
    }
    dl_signature_hits_free(&hits);
    dl_paste_free(&paste);
    return added;
}

static char *import_title(const dl_python *py, const char *lib)
{
    const dl_torch_runtime *r = &py->runtime;
    if (lib)
        return dl_fmt("import torch fails: %s is missing", lib);
    if (dl_q_text_is(&r->status, "crashed"))
        return dl_strdup("import torch crashes the interpreter");
    if (dl_q_text_is(&r->status, "timed_out"))
        return dl_strdup("import torch hangs: it did not finish in time");
    if (dl_q_text_is(&r->status, "failed"))
        return dl_strdup("The interpreter gave no answer to import torch");
    return dl_fmt("import torch fails: %.160s", r->error.value ? r->error.value : "?");
}

void dl_rule_torch_import_failed(const dl_rule_input *in, dl_findings *out)
{
    const dl_python *py = dl_q_main_python(in->facts);
    char *lib, *title, *python;
    dl_finding *x;
    if (!py || !import_broken(py))
        return;
    lower_causes(in, py->runtime.error.value, out);
    lib = missing_library(py->runtime.error.value);
    title = import_title(py, lib);
    x = dl_finding_add(out, "torch_import_failed", DL_SEV_FAILURE, "%s",
                       title);
    dl_finding_evidence(x, "pythons[0].runtime.status", "%s", py->runtime.status.value);
    dl_finding_evidence(x, "pythons[0].runtime.error", "%s",
                        py->runtime.error.value ? py->runtime.error.value : "no message");
    if (lib)
        name_provider(x, py, lib);
    if (dl_q_text_is(&py->runtime.status, "timed_out")) {
        python = dl_fix_python(in->facts, py);
        dl_fix_note(x, "see which module it stops in:");
        dl_finding_fix(x, "%s -X importtime -c \"import torch\"", python);
        free(python);
    } else {
        dl_fix_reinstall_torch(x, in, py, true);
    }
    free(title);
    free(lib);
}
