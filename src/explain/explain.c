#include "explain/explain.h"

#include "base/str.h"
#include "explain/container_text.h"
#include "explain/cpu_build_text.h"
#include "explain/cpu_chosen.h"
#include "explain/cpu_build_fix.h"
#include "explain/extension_fix.h"
#include "explain/ask_shell.h"
#include "explain/fix_interpreter.h"
#include "explain/requirement_fix.h"
#include "explain/derive.h"
#include "explain/extension_runtime.h"
#include "explain/symbol_owner.h"
#include "explain/gpu_wheel_text.h"
#include "explain/host_compiler_fix.h"
#include "explain/rocm_text.h"
#include "explain/text_marks.h"
#include "explain/torch_pulled.h"
#include "explain/checkpoint_text.h"
#include "explain/install_text.h"
#include "explain/ipex_text.h"
#include "explain/mac_text.h"
#include "explain/memory_text.h"
#include "explain/quote.h"
#include "explain/release_text.h"
#include "explain/unavailable_text.h"
#include "explain/driver_fix.h"
#include "explain/library_path_fix.h"
#include "explain/message_notes.h"
#include "explain/open3d_fix.h"
#include "explain/package_python_text.h"
#include "explain/visible_devices_note.h"
#include "explain/stdlib_shadow.h"
#include "explain/user_site.h"
#include "explain/windows_text.h"
#include "explain/worker_prose.h"
#include "facts/query.h"
#include "parse/signatures.h"
#include "rules/rules.h"

#include <string.h>

/* The rules' failure with this id on the text's facts; NULL when none. A rule that decides
 * between a signature and its alternatives (the GPU's capability against the wheel's list)
 * replaces the signature's guess. */
static const dl_finding *rule_failure(const dl_findings *rules, const char *id)
{
    size_t i;
    for (i = 0; i < rules->items.count; i++) {
        const dl_finding *r = &DL_LIST_AT(rules->items, dl_finding, i);
        if (!strcmp(r->id.value, id) && !strcmp(r->severity.value, "failure"))
            return r;
    }
    return NULL;
}

static bool rule_failed(const dl_findings *rules, const char *id)
{
    return rule_failure(rules, id) != NULL;
}

/* A signature's fix, unless a rule on the text's facts found the same: the rule's fix is
 * written for those facts (the install command for this GPU, driver and Python) where the
 * table's is general. */
static void signature_fix(const dl_table *cat, size_t row, const dl_findings *rules,
                          const char *id, dl_finding *x)
{
    /* rows whose message needs more than the facts' fix: torchaudio 2.9's removed API
     * stays removed in the companion build the rule would install, and memory that grows
     * run by run is the code's to fix before any batch size, so the row's fix comes first
     * and the rule's follows */
    static const char *const own_fix_first[] = {"torchaudio_29_removed_api",
                                                "oom_memory_grows_leak"};
    const dl_finding *r = rule_failure(rules, id);
    const char *signature = dl_table_cell(cat, row, DL_COL_error_signatures_signature);
    size_t j, k;
    for (k = 0; r && k < sizeof own_fix_first / sizeof own_fix_first[0]; k++)
        if (!strcmp(signature, own_fix_first[k]))
            dl_finding_fix(x, "# %s", dl_table_cell(cat, row, DL_COL_error_signatures_fix));
    if (!r || !r->fix.count) {
        if (!x->fix.count)
            dl_finding_fix(x, "# %s", dl_table_cell(cat, row, DL_COL_error_signatures_fix));
        return;
    }
    for (j = 0; j < r->fix.count; j++)
        dl_finding_fix(x, "%s", DL_LIST_AT(r->fix, char *, j));
}

static bool decided_by_rules(const dl_findings *rules, const char *alternatives)
{
    dl_strv alt = {0};
    size_t i;
    bool decided = false;
    dl_strv_split(&alt, alternatives, ';');
    for (i = 0; i < alt.n && !decided; i++)
        decided = rule_failed(rules, alt.v[i]);
    dl_strv_free(&alt);
    return decided;
}

/* One of the signature's alternatives was already decided from the text's numbers. */
static bool alternative_found(const dl_findings *f, const char *alternatives)
{
    dl_strv alt = {0};
    size_t i;
    bool found = false;
    dl_strv_split(&alt, alternatives, ';');
    for (i = 0; i < alt.n && !found; i++)
        found = dl_findings_has(f, alt.v[i]);
    dl_strv_free(&alt);
    return found;
}

/* The catalog row that describes finding `id` (its title, fix and question). */
/* The row that reads a finding plainly, for the findings whose first row is one case of
 * them (ROCm's /dev/kfd for device_permission_denied, a 32-bit ARM board for python_32bit):
 * a reading that reaches the finding from another signature takes this row's title and
 * fix, not the first case's. */
static const struct {
    const char *id, *signature;
} plain_rows[] = {
    {"device_permission_denied", "dev_nvidia_denied"},
    {"docker_no_gpu_passthrough", "docker_run_no_gpus"},
    {"cpu_only_build", "not_compiled_cuda"},
    {"no_gpu_visible", "no_cuda_gpus"},
    {"wsl_libcuda_path", "wsl_libcuda"},
    {"non_nvidia_gpu", "amd_intel_with_cuda"},
    {"win_dll_dependency_missing", "winerror_126"},
    {"vc_redist_missing", "vc_redist_message"},
    {"gpu_arch_dropped", "gpu_too_old"},
    {"cuda_visible_devices", "cuda_visible_devices"},
    {"arch_not_in_wheel", "sm_not_compatible"},
    {"no_python", "python_not_found"},
    {"python_32bit", "versions_none_windows"},
    {"torch_not_installed", "no_module_torch"},
    {"pip_python_mismatch", "pip_lists_torch"},
    {"libcuda_not_found", "libcuda_missing"},
    {"cuda_oom", "cuda_oom"},
    {"gpu_memory_held_by_other_process", "gpu_memory_kept_after_exit"},
    {"suspend_resume_uvm", "error_999"},
    {"no_driver_installed", "torch_no_driver"},
    {"driver_not_loaded", "smi_no_driver"},
    {"driver_library_mismatch", "nvml_mismatch"},
    {"nouveau_loaded", "nouveau"},
    {"no_cuda_on_macos", "macos_cuda"},
    {"extension_mismatch", "package_module_dll_load_failed"},
    {"index_unreachable", "pip_ssl_module_missing"},
    {"torchvision_mismatch", "torchvision_nms"},
    {"omp_duplicate_runtime", "omp_15"},
    {"wheel_tag_mismatch", "wheel_tag"},
};

static size_t row_of(const dl_table *cat, const char *id, size_t fallback)
{
    size_t r, k;
    for (k = 0; k < sizeof plain_rows / sizeof plain_rows[0]; k++)
        if (!strcmp(plain_rows[k].id, id))
            for (r = 0; r < cat->rows; r++)
                if (!strcmp(dl_table_cell(cat, r, DL_COL_error_signatures_signature),
                            plain_rows[k].signature))
                    return r;
    for (r = 0; r < cat->rows; r++)
        if (!strcmp(dl_table_cell(cat, r, DL_COL_error_signatures_finding), id))
            return r;
    return fallback;
}

/* The row of finding `id` written right after row `from` for the same message (its first
 * words: "no kernel image is a..." read as code the user built is the next row's, the one
 * for the user's build), when row `from` names `id` as its alternative; else the first row
 * of `id`. */
static size_t row_of_same_message(const dl_table *cat, const char *id, size_t from)
{
    const char *mine = dl_table_cell(cat, from, DL_COL_error_signatures_all_of);
    dl_strv alt = {0};
    bool next;
    dl_strv_split(&alt, dl_table_cell(cat, from, DL_COL_error_signatures_alternatives), ';');
    next = dl_strv_has(&alt, id) && from + 1 < cat->rows && strlen(mine) >= 20 &&
           !strcmp(dl_table_cell(cat, from + 1, DL_COL_error_signatures_finding), id) &&
           !strncmp(dl_table_cell(cat, from + 1, DL_COL_error_signatures_all_of), mine, 20);
    dl_strv_free(&alt);
    return next ? from + 1 : row_of(cat, id, from);
}

/* The row for a signature read as another finding: a row of that finding the text also
 * matched says it in the text's own terms; else the row of the same message. */
static size_t row_for_reading(const dl_table *cat, const dl_signature_hits *hits,
                              const char *read, size_t from)
{
    size_t i;
    for (i = 0; i < hits->n; i++)
        if (!strcmp(dl_table_cell(cat, hits->v[i].row, DL_COL_error_signatures_finding), read))
            return hits->v[i].row;
    return row_of_same_message(cat, read, from);
}

static void add_signature(const dl_knowledge *k, const dl_table *cat,
                          const dl_signature_hits *hits, const dl_signature_hit *h,
                          dl_explanation *e, const dl_findings *rules)
{
    const char *id = dl_table_cell(cat, h->row, DL_COL_error_signatures_finding);
    const char *signed_id = id, *ask;
    size_t row = h->row;
    int layer;
    dl_finding *x;
    size_t i;
    bool settled = false;
    /* The text's facts may read the signature otherwise (unless a rule confirmed it). */
    if (!rule_failed(rules, id)) {
        const char *read = dl_reading_for(
            k, &e->paste, &e->facts, &e->gpu,
            dl_table_cell(cat, h->row, DL_COL_error_signatures_signature), id, &settled);
        /* a rule on the text's facts found the same: its finding says it better (the
         * capability against the wheel's list, and the install command) */
        if (!*read || (strcmp(read, id) != 0 && rule_failed(rules, read)))
            return;
        if (strcmp(read, id) != 0)
            row = row_for_reading(cat, hits, read, h->row);
        id = read;
    }
    layer = dl_layer_of_name(dl_table_cell(cat, row, DL_COL_error_signatures_layer));
    /* A second row for the same finding (c10.dll's row and WinError 1114's) knows its own
     * candidates: they stay candidates, unless the text's facts settled the finding. */
    if (dl_findings_has(&e->findings, id) && !settled && !rule_failed(rules, id))
        dl_strv_split(&e->alternatives,
                      dl_table_cell(cat, row, DL_COL_error_signatures_alternatives), ';');
    if (dl_findings_has(&e->findings, id) || layer < 0 ||
        decided_by_rules(rules, dl_table_cell(cat, row, DL_COL_error_signatures_alternatives)) ||
        alternative_found(&e->findings,
                          dl_table_cell(cat, row, DL_COL_error_signatures_alternatives)))
        return;
    x = dl_finding_add(&e->findings, id, DL_SEV_FAILURE, "%s",
                       dl_table_cell(cat, row, DL_COL_error_signatures_title));
    for (i = 0; i < h->n_lines; i++)
        dl_quote_line(x, &e->paste, h->lines[i]);
    signature_fix(cat, row, rules, id, x);
    if (rule_failed(rules, id) || settled) {
        /* The facts of the text confirm it (a capability against a list): the other
         * candidates are ruled out, and the facts' lines are evidence too. */
        for (i = 0; i < e->where.n; i++)
            dl_quote_line(x, &e->paste, e->where.where[i].line);
        return;
    }
    dl_strv_split(&e->alternatives, dl_table_cell(cat, row, DL_COL_error_signatures_alternatives),
                  ';');
    /* read otherwise by a guess the facts did not settle (the words around the message,
     * not a capability against a list): the signature's own finding, its candidates and
     * the question that decides between them stay */
    if (row != h->row) {
        dl_strv_add(&e->alternatives, dl_strdup(signed_id));
        dl_strv_split(&e->alternatives,
                      dl_table_cell(cat, h->row, DL_COL_error_signatures_alternatives), ';');
    }
    ask = dl_table_cell(cat, row, DL_COL_error_signatures_ask);
    if (!*ask)
        ask = dl_table_cell(cat, h->row, DL_COL_error_signatures_ask);
    if (*ask)
        dl_strv_add(&e->ask, dl_strdup(ask));
}

/* The rules' failures on the text's facts, with the lines those facts came from. */
static void add_rules(const dl_findings *rules, dl_explanation *e)
{
    size_t i, j;
    for (i = 0; i < rules->items.count; i++) {
        const dl_finding *r = &DL_LIST_AT(rules->items, dl_finding, i);
        dl_finding *x;
        int layer = dl_layer_of_name(r->layer.value);
        if (strcmp(r->severity.value, "failure") != 0 || dl_findings_has(&e->findings, r->id.value) ||
            layer < 0)
            continue;
        /* "No wheel for this Python" is a guess from tables: it never beats an error the
         * text shows; it stays a candidate. */
        if (!strcmp(r->id.value, "python_unsupported") && e->findings.items.count) {
            dl_strv_add(&e->alternatives, dl_strdup(r->id.value));
            continue;
        }
        x = dl_finding_add(&e->findings, r->id.value, DL_SEV_FAILURE, "%s",
                           r->title.value);
        for (j = 0; j < e->where.n; j++)
            dl_quote_line(x, &e->paste, e->where.where[j].line);
        for (j = 0; j < r->fix.count; j++)
            dl_finding_fix(x, "%s", DL_LIST_AT(r->fix, char *, j));
    }
}

/* Alternatives that are themselves findings, or the root, are not "other candidates". */
static void prune_alternatives(dl_explanation *e)
{
    dl_strv kept = {0};
    /* Conda's CPU-variant pick is a candidate only where the text shows conda at all; beside
     * a CPU build, a companion library's variant mismatch only where the text names one
     * (an undefined symbol may be torchvision's unnamed, a +cpu tag is not). */
    static const char *const companions[] = {"torchvision", "torchaudio", "torchtext"};
    bool conda = dl_paste_find(&e->paste, 0, "conda") >= 0;
    bool companion =
        dl_paste_find_any(&e->paste, companions, sizeof companions / sizeof companions[0]) >= 0;
    size_t i;
    for (i = 0; i < e->alternatives.n; i++) {
        const char *a = e->alternatives.v[i];
        if ((e->findings.root_cause.value && !strcmp(a, e->findings.root_cause.value)) ||
            dl_strv_has(&kept, a) || (!conda && !strcmp(a, "conda_cpu_build_selected")) ||
            (!companion && !strcmp(a, "torchvision_mismatch") &&
             dl_q_text_is(&e->findings.root_cause, "cpu_only_build")))
            continue;
        dl_strv_add(&kept, dl_strdup(a));
    }
    for (i = 0; i < e->findings.items.count; i++) {
        const char *id = DL_LIST_AT(e->findings.items, dl_finding, i).id.value;
        if ((!e->findings.root_cause.value || strcmp(id, e->findings.root_cause.value)) &&
            !dl_strv_has(&kept, id))
            dl_strv_add(&kept, dl_strdup(id));
    }
    dl_strv_free(&e->alternatives);
    e->alternatives = kept;
}

/* A signature's question already asks for that command. */
static bool asked(const dl_explanation *e, const char *command)
{
    size_t i;
    for (i = 0; i < e->ask.n; i++)
        if (strstr(e->ask.v[i], command))
            return true;
    return false;
}

/* A CUDA kernel's own assertion as it prints it before the device-side assert error:
 * "Loss.cu:240: nll_loss_forward...: block: [0,0,0], thread: [17,0,0] Assertion `t >= 0 &&
 * t < n_classes` failed." */
static bool kernel_assertion(const char *low, const char *at, size_t len)
{
    (void)len;
    return strstr(at, "failed") && (strstr(low, ".cu:") || strstr(low, "block: ["));
}

/* A notebook's kernel said to have died or restarted, with no traceback of its own. */
static bool notebook_kernel_died(const dl_paste *p)
{
    static const char *const died[] = {"kernel appears to have died", "kernel restarting",
                                       "canceled future for execute_request",
                                       "kernel crashed while executing", "kernel restart",
                                       "kernel died"};
    return dl_paste_find_any(p, died, sizeof died / sizeof died[0]) >= 0;
}

/* nvidia-smi answers only where the text is about NVIDIA's stack: not a ROCm build, not a
 * Mac, not another vendor's GPU or backend (Intel's XPU, DirectML, ZLUDA). */
/* A non-NVIDIA accelerator's torch plugin named (Ascend's torch_npu, TPU's torch_xla,
 * Moore Threads' torch_musa, Cambricon's torch_mlu, Gaudi's habana_frameworks, AWS
 * Neuron): its own tools, not nvidia-smi, tell its runtime apart. */
static bool accelerator_plugin_named(const dl_paste *p)
{
    static const char *const plugins[] = {"torch_npu", "torch-npu", "npu-smi", "torch_xla",
                                          "torch-xla", "libtpu", "pjrt_device", "torch_musa",
                                          "torch_mlu", "habana_frameworks", "hl-smi",
                                          "torch_neuron", "torch-neuron", "neuronx"};
    return dl_paste_find_any(p, plugins, sizeof plugins / sizeof plugins[0]) >= 0;
}

static bool nvidia_question_fits(const dl_explanation *e)
{
    static const char *const others[] = {"xpu", "intel_extension_for_pytorch", "mps device",
                                         "mps backend", "mps tensor", "mps framework",
                                         "directml", "zluda"};
    return !dl_text_rocm_build(e) && !dl_q_text_is(&e->facts.os.family, "macos") &&
           !dl_text_other_vendor_gpu(&e->facts) && !accelerator_plugin_named(&e->paste) &&
           dl_paste_find_any(&e->paste, others, sizeof others / sizeof others[0]) < 0;
}

/* What would tell the candidates apart, from what the text did not say. */
static void ask_for_missing(dl_explanation *e)
{
    const dl_facts *f = &e->facts;
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    bool torch_known = py && (py->runtime.version.value || py->site_packages.count);
    if (!e->alternatives.n && e->findings.root_cause.value)
        return;
    /* a note already says the environment is fine and what the program should change */
    if (!e->alternatives.n && e->notes.n)
        return;
    /* the import order (readings.c) dropped the build mismatch: the run that decides */
    if (!e->findings.root_cause.value && dl_text_extension_before_torch(&e->paste))
        dl_strv_add(&e->ask, dl_strdup("`python -c \"import torch; import EXTENSION\"`: torch's "
                                       "libraries (libc10.so) load with torch, so an extension "
                                       "imported before torch cannot find them"));
    /* torch said it sees the GPU: where the program puts its model and data decides */
    if (!e->findings.root_cause.value && py && py->runtime.cuda_available.known &&
        py->runtime.cuda_available.value && dl_text_gpu_unused_line(&e->paste) >= 0 &&
        !asked(e, "parameters()).device"))
        dl_strv_add(&e->ask, dl_strdup("`print(next(model.parameters()).device)` where the program "
                                       "runs, and whether its inputs are moved with .to(device): "
                                       "torch sees the GPU, so the program decides what runs "
                                       "on it"));
    /* is_available() answers False and hides why; init() raises CUDA's own error */
    if (!e->findings.root_cause.value && dl_paste_find(&e->paste, 0, "is_available") >= 0 &&
        !(py && py->runtime.cuda_available.known && py->runtime.cuda_available.value) &&
        !asked(e, "torch.cuda.init()"))
        dl_strv_add(&e->ask, dl_strdup("`python -c \"import torch; torch.cuda.init()\"`: the "
                                       "error behind is_available() False, in CUDA's own words"));
    /* a kernel's own bounds check: the failing line, not the driver, is what to ask for */
    if (!e->findings.root_cause.value &&
        (dl_paste_find(&e->paste, 0, "device-side assert triggered") >= 0 ||
         dl_paste_find_where(&e->paste, 0, "assertion `", kernel_assertion) >= 0)) {
        dl_strv_add(&e->ask, dl_strdup("the run again with `CUDA_LAUNCH_BLOCKING=1` (or one batch "
                                       "on the CPU): the kernel whose check failed; a "
                                       "device-side assert is most often a label or index out "
                                       "of range (labels.min() >= 0, labels.max() < "
                                       "num_classes), not the environment"));
        return;
    }
    /* a notebook's kernel that died says nothing of why: its server's log does (OpenMP's
     * "Error #15", a missing DLL), and the interpreter and the memory it had */
    if (!e->findings.root_cause.value && notebook_kernel_died(&e->paste))
        dl_strv_add(&e->ask, dl_strdup("the Jupyter server's console (VS Code: Output, Jupyter): "
                                       "a native crash such as OpenMP's \"OMP: Error #15\" is "
                                       "printed there, not in the notebook; "
                                       "`import sys; print(sys.executable)` run in the "
                                       "notebook; and the free memory while it runs (free -h, "
                                       "Task Manager), since a kernel killed for memory dies "
                                       "silently"));
    if (!f->nvml.driver_version.value && !asked(e, "`nvidia-smi") && nvidia_question_fits(e))
        dl_strv_add(&e->ask, dl_strdup("`nvidia-smi`: the driver version and the GPU decide "
                                       "between driver, build and hardware causes"));
    if (accelerator_plugin_named(&e->paste)) {
        dl_strv_add(&e->ask, dl_strdup("the accelerator's own tool and runtime version "
                                       "(Ascend: `npu-smi info` and the CANN version; Gaudi: "
                                       "`hl-smi`; AWS Neuron: `neuron-ls`; Moore Threads: "
                                       "`musa_version_query`; TPU: PJRT_DEVICE and the libtpu "
                                       "version) and `python -m pip list` (torch and its "
                                       "plugin, whose releases come in pairs)"));
        return;
    }
    if (!torch_known && !asked(e, "collect_env"))
        dl_strv_add(&e->ask, dl_strdup("`python -m torch.utils.collect_env`: torch's version, "
                                       "its CUDA and whether it sees the GPU"));
}

void dl_explain(const dl_knowledge *k, const char *text, size_t len, dl_explanation *out)
{
    const dl_table *cat = dl_knowledge_at(k, DL_TABLE_error_signatures);
    dl_signature_hits hits;
    dl_findings rules;
    dl_rule_input in;
    size_t i;
    memset(out, 0, sizeof *out);
    dl_paste_read(text, len, &out->paste);
    dl_facts_init(&out->facts);
    dl_text_facts_read(&out->paste, &out->facts, &out->where);
    dl_explain_derive_facts(k, out);
    memset(&rules, 0, sizeof rules);
    in.facts = &out->facts;
    in.know = k;
    dl_rules_run(&in, NULL, &rules);
    dl_explain_directml_rules(&out->paste, &rules);
    dl_explain_zluda_rules(&out->paste, &rules);
    dl_rule_oom_message(&out->paste, &out->findings);
    dl_explain_known_bad_message(k, out);
    dl_explain_known_bad_on_old_arm(k, out);
    dl_explain_known_bad_package_message(k, out);
    dl_explain_known_bad_ctypes_dll(k, out);
    dl_explain_shm_dll_release(k, out);
    dl_explain_directml_python(out);
    dl_explain_release_without_platform_wheel(out);
    dl_explain_versions_end_at_intel_mac(out);
    dl_explain_index_without_torch(k, out);
    dl_explain_tagged_pin_without_index(k, out);
    dl_explain_launcher_torch_for_other_python(k, out);
    dl_explain_user_site_torch(out);
    dl_explain_user_site_dependency(out);
    dl_explain_wsl_on_windows_without_gpu(out);
    dl_explain_wsl_gpu_in_tcc_mode(out);
    dl_explain_mps_needs_newer_macos(out);
    dl_explain_wsl_kernel_without_gpu(out);
    dl_signatures_match(cat, &out->paste, &hits);
    out->signatures = hits.n;
    for (i = 0; i < hits.n; i++)
        if (!dl_signature_yields(cat, &hits, i))
            add_signature(k, cat, &hits, &hits.v[i], out, &rules);
    add_rules(&rules, out);
    dl_explain_collect_env_without_complaint(out);
    dl_explain_python_check_beside_running_torch(out);
    dl_explain_demote_mkl_beside_known_bad(out);
    dl_explain_known_bad_import_beside_running_torch(out);
    dl_explain_known_bad_beside_extension_kernel(out);
    dl_explain_own_torch_py(out);
    dl_explain_installer_on_intel_mac(k, out);
    dl_explain_own_file_hides_stdlib(out);
    dl_explain_own_torch_py_beside_running_torch(out);
    dl_explain_demote_beside_old_windows(out);
    dl_explain_driver_behind_container(out);
    dl_explain_demote_dll_beside_release(k, out);
    dl_explain_fbgemm_release_candidate(k, out);
    dl_explain_torchvision_dll_beside_nightly(out);
    dl_explain_extension_runtime(out);
    dl_explain_dyld_torch_symbol(out);
    dl_explain_package_library_symbol(out);
    dl_explain_torch_symbol_unplaced(out);
    dl_explain_extension_symbol_unplaced(out);
    dl_explain_domain_library_just_installed(out);
    dl_explain_torchvision_c_fails_to_load(out);
    dl_explain_torchvision_image_warning_beside_error(out);
    dl_explain_torchvision_pair_from_table(k, out);
    dl_explain_wheel_for_other_torch(out);
    dl_explain_torch_pulled_by_xformers(out);
    dl_explain_domain_requirement_warning(out);
    dl_explain_lcuda_flag_named(out);
    dl_explain_oom_in_words(out);
    dl_explain_oom_share_candidates(out);
    dl_explain_cublas_handle_candidates(out);
    dl_explain_oom_on_one_node(out);
    dl_explain_oom_beside_other_work(out);
    dl_explain_cpu_allocator_commit_limit(out);
    dl_explain_ipex_beside_other_torch(out);
    dl_explain_conda_cpu_row(out);
    dl_explain_conda_swapped_to_cpu(out);
    dl_explain_cpu_build_wanted_cuda(out);
    dl_explain_tch_cpu_libtorch(out);
    dl_explain_cpu_banner(out);
    dl_explain_cpu_download_named(out);
    dl_explain_gpu_below_every_wheel(k, out);
    dl_explain_amd_below_every_rocm_wheel(k, out);
    dl_explain_rocm_build_in_use(out);
    dl_explain_rocm_build_on_nvidia(out);
    dl_explain_webui_rocm_beside_nvidia(out);
    dl_explain_rocm_target_not_in_build(k, out);
    dl_explain_rocm_no_gpu(out);
    dl_explain_rocm_na_is_no_amd(out);
    dl_explain_amd_torch_without_rocm(out);
    dl_explain_capability_outside_torch_range(out);
    dl_explain_gpu_newer_than_most_wheels(k, out);
    dl_explain_gpu_newer_than_text_torch(k, out);
    dl_explain_cuda9_build_on_turing(out);
    dl_explain_device_line_arch_below_gpu(out);
    dl_explain_gpu_dropped_by_newest_wheels(k, out);
    dl_explain_container_gpu_reached(out);
    dl_explain_gpu_passthrough_in_kubernetes(out);
    dl_explain_gpus_hidden_by_variable(out);
    dl_explain_plain_pip_on_windows(out);
    dl_explain_cuda_build_replaced_on_windows(out);
    dl_explain_plain_pip_on_aarch64(out);
    dl_explain_colab_runtime_without_gpu(out);
    dl_explain_conda_env_without_cuda(out);
    dl_explain_amd_named_without_cuda(out);
    dl_explain_uvm_missing_unknown_error(out);
    dl_explain_driver_cannot_be_updated(out);
    dl_explain_checkpoint_where_cuda_unavailable(out);
    dl_explain_silent_unavailable(out);
    dl_explain_container_sees_gpu_torch_does_not(out);
    dl_explain_container_gpus_given_unavailable(out);
    dl_explain_insufficient_driver_in_container(out);
    dl_explain_insufficient_driver_without_gpu_runtime(out);
    dl_explain_driver_answers_in_container(out);
    dl_explain_jetson_image_newer_than_l4t(out);
    dl_explain_bundle_unavailable(out);
    dl_explain_gpu_unused_on_windows(out);
    dl_explain_gpu_unused_on_fresh_windows(out);
    dl_explain_portable_bare_pip(out);
    dl_explain_pip_of_another_python(out);
    dl_explain_two_executables(out);
    dl_explain_silent_exit_on_import(out);
    dl_explain_dataloader_worker_start(out);
    dl_explain_workers_fail_in_words(out);
    dl_explain_gpu_unused_os_unknown(out);
    dl_explain_cpu_device_logged(out);
    dl_explain_mac_other_gpu(out);
    dl_explain_mac_cuda_unavailable(out);
    dl_explain_mac_nccl(out);
    dl_explain_mac_docker_gpus(out);
    dl_explain_windows_nccl(out);
    dl_explain_cpu_run_warning_alone(out);
    dl_explain_other_vendor_gpu_question(out);
    dl_explain_writer_without_gpu(out);
    dl_explain_no_driver_nothing_of_nvidia(out);
    dl_explain_regression_between_builds(out);
    dl_explain_own_torch_py_when_alone(out);
    dl_explain_cpu_chosen_cuda_asked(out);
    dl_explain_autocast_warning_alone(out);
    dl_explain_message_notes(out);
    dl_explain_program_file_locked_note(out);
    dl_explain_unified_memory_note(out);
    dl_explain_cuda_ipc_note(out);
    dl_explain_cuda_in_forked_worker_note(out);
    dl_explain_half_on_cpu_note(out);
    dl_explain_notebook_restart_note(out);
    dl_explain_paddle_libcuda_warning_note(out);
    dl_explain_visible_devices_in_code(out);
    dl_explain_extension_package_fix(out);
    dl_explain_host_compiler_fix(out);
    dl_explain_cuda_runtime_symbol_fix(out);
    dl_explain_tagged_pin_fix(k, out);
    dl_explain_cpu_build_fix(k, out);
    dl_explain_open3d_fix(k, out);
    dl_explain_index_stops_before_version(k, out);
    dl_explain_uv_index_stops_before_version(k, out);
    dl_explain_dropped_gpu_fix(k, out);
    dl_explain_driver_too_old_fix(k, out);
    dl_explain_mismatch_inside_container(out);
    dl_explain_library_path_fix(out);
    dl_explain_oom_while_loading(out);
    dl_explain_oom_held_by_own_ranks(out);
    dl_explain_oom_on_rocm(out);
    dl_explain_oom_on_xpu(out);
    dl_explain_oom_at_batch_one(out);
    dl_explain_rocm_override_fix(k, out);
    dl_explain_requirement_fix(out);
    dl_explain_companions_left_behind_note(out);
    dl_explain_other_package_for_python(out);
    dl_explain_arch_list_fix(out);
    dl_explain_wheel_example_fix(out);
    dl_explain_driver_fix_beside_dropped_gpu(out);
    dl_explain_fix_interpreter(out);
    dl_explain_cpu_build_fix_for_uv(out);
    dl_signature_hits_free(&hits);
    dl_findings_free(&rules);
    dl_findings_mark_root(&out->findings);
    prune_alternatives(out);
    ask_for_missing(out);
    dl_explain_asks_for_shell(out);
}

void dl_explanation_free(dl_explanation *e)
{
    dl_paste_free(&e->paste);
    dl_facts_free(&e->facts);
    dl_findings_free(&e->findings);
    dl_strv_free(&e->alternatives);
    dl_strv_free(&e->ask);
    dl_strv_free(&e->notes);
    memset(e, 0, sizeof *e);
}

const dl_finding *dl_explanation_root(const dl_explanation *e, size_t *index)
{
    size_t i;
    for (i = 0; e->findings.root_cause.value && i < e->findings.items.count; i++)
        if (!strcmp(DL_LIST_AT(e->findings.items, dl_finding, i).id.value,
                    e->findings.root_cause.value)) {
            if (index)
                *index = i;
            return &DL_LIST_AT(e->findings.items, dl_finding, i);
        }
    return NULL;
}
