#include "explain/readings.h"

#include "base/str.h"
#include "explain/checkpoint_text.h"
#include "explain/container_text.h"
#include "explain/rocm_text.h"
#include "explain/text_marks.h"
#include "explain/unavailable_text.h"
#include "explain/windows_text.h"

#include "facts/query.h"
#include "know/arch.h"
#include "know/version.h"
#include "rules/know_query.h"
#include "parse/oom.h"
#include "plan/gpu_names.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The version pip was asked for: "requirement torch==1.8.0+cu102", "torch===1.3.0". */
static bool requested_torch(const dl_paste *p, char *out, size_t n)
{
    long i = dl_paste_find(p, 0, "torch==");
    const char *at;
    size_t k = 0;
    if (i < 0)
        return false;
    at = strstr(p->lines[i].lower, "torch==") + 7;
    while (*at == '=')
        at++;
    while (*at && (isalnum((unsigned char)*at) || *at == '.' || *at == '+') && k + 1 < n)
        out[k++] = *at++;
    out[k] = '\0';
    return k > 0 && isdigit((unsigned char)out[0]);
}

static bool known_release(const dl_knowledge *k, const char *version)
{
    return dl_kq_find(dl_knowledge_at(k, DL_TABLE_torch_wheels), DL_COL_torch_wheels_torch_version,
                      version) >= 0;
}

/* "requirement torch>=2.1.0dev (from versions: 2.0.0)": pip found releases for this Python,
 * so the Python is not what is missing; the pre-release asked for (a nightly: "dev", "a",
 * "b", "rc") exists only on the nightly index of one variant, which has no wheel for this
 * platform or was not given. */
static const char *nightly_not_on_index(const dl_paste *p, size_t line, const char *id)
{
    const char *low = p->lines[line].lower, *at = strstr(low, "requirement torch"), *list;
    if (!at || (at[17] != '>' && at[17] != '=') || !(list = strstr(low, "from versions:")))
        return id;
    at += 17;
    while (*at == '>' || *at == '=')
        at++;
    if (!isdigit((unsigned char)*at) || list[14] != ' ' || !isdigit((unsigned char)list[15]))
        return id;
    for (; *at && *at != ' ' && *at != ',' && *at != '('; at++)
        if (isalpha((unsigned char)*at))
            return *at == 'd' || *at == 'a' || *at == 'b' || *at == 'r' ? "wheel_tag_mismatch"
                                                                        : id;
    return id;
}

/* pip's "(from versions: 0.1.2, ..., 1.8.0+cpu, 1.8.0+cu101)" lists what exists for this
 * interpreter. Real releases in it (not only the 0.1.2 source stubs) prove this Python has
 * wheels: then a missing "+cuXYZ" of a listed release is a variant that was never built
 * (wheel_tag_mismatch), and a version no table knows is a typo, not the environment. */
static const char *from_versions(const dl_knowledge *k, const dl_paste *p, const char *id)
{
    long i = dl_paste_find(p, 0, "from versions:");
    dl_strv list = {0};
    char want[64], base[64], *plus, *close;
    const char *verdict = id;
    bool real = false, base_listed = false, below_list = false;
    dl_torch_version wanted, first;
    size_t j;
    if (i >= 0 && !requested_torch(p, want, sizeof want))
        return nightly_not_on_index(p, (size_t)i, id);
    if (i < 0)
        return id;
    close = dl_strdup(strstr(p->lines[i].lower, "from versions:") + 14);
    if (strchr(close, ')'))
        *strchr(close, ')') = '\0';
    dl_strv_split(&list, close, ',');
    free(close);
    snprintf(base, sizeof base, "%s", want);
    if ((plus = strchr(base, '+')) != NULL)
        *plus = '\0';
    for (j = 0; j < list.n; j++) {
        const char *v = dl_trim(list.v[j]);
        /* a release (X.Y.Z) older than the list's first real entry (the 1.8.2 LTS, published
         * only on PyTorch's own index, under a list from 2.0.0): the Python is newer than it;
         * a loose "==2.4" from another package's metadata says less */
        if (!real && strncmp(v, "0.1.", 4) != 0 && strcmp(v, "none") != 0)
            below_list = strchr(base, '.') && strchr(strchr(base, '.') + 1, '.') &&
                         dl_torch_version_parse(base, &wanted) &&
                         dl_torch_version_parse(v, &first) &&
                         dl_torch_version_cmp(&wanted, &first) < 0;
        real |= strncmp(v, "0.1.", 4) != 0 && strcmp(v, "none") != 0;
        base_listed |= !strncmp(v, base, strlen(base)) &&
                       (v[strlen(base)] == '\0' || v[strlen(base)] == '+');
    }
    dl_strv_free(&list);
    if (real && plus && base_listed)
        verdict = "wheel_tag_mismatch";
    else if (real && !known_release(k, base) && !below_list)
        verdict = "";
    return verdict;
}

/* "torch-1.0.0-cp37-cp37m-win_amd64.whl is not a supported wheel on this platform": when the
 * wheel's Python tag is the interpreter's own, a 64-bit Windows wheel fails only on a 32-bit
 * Python. */
static const char *wheel_name(const dl_paste *p, const dl_facts *f, const char *id)
{
    long i = dl_paste_find(p, 0, "is not a supported wheel");
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    const char *at, *v = py ? py->version.value : NULL;
    char tag[16];
    unsigned major, minor;
    if (i < 0 || !v || (at = strstr(p->lines[i].lower, "-cp")) == NULL ||
        sscanf(at + 3, "%1u%2u", &major, &minor) != 2)
        return id;
    snprintf(tag, sizeof tag, "%u.%u", major, minor);
    if (strncmp(v, tag, strlen(tag)) != 0 || (v[strlen(tag)] != '\0' && v[strlen(tag)] != '.'))
        return id;
    if (strstr(p->lines[i].lower, "win_amd64") &&
        (!f->os.family.value || !strcmp(f->os.family.value, "windows")))
        return "python_32bit";
    return id;
}

/* What a GPU of capability key (major * 10 + minor) fails as against one wheel's list:
 * "gpu_arch_dropped", "arch_not_in_wheel", or NULL when the list runs on it. */
static const char *arch_miss(unsigned key, const char *list_text)
{
    dl_arch_list list;
    dl_arch_result r;
    if (!dl_arch_list_parse(list_text, &list) || !list.n)
        return NULL;
    r = dl_arch_check(key / 10, key % 10, &list);
    return r.diagnosis;
}

/* Adds one wheel's verdicts on both ends of the GPU's span to what has been seen: the
 * reading holds only while every failing wheel says the same thing. */
static void judge(const dl_gpu_span *gpu, const char *list_text, const char **seen, bool *split)
{
    const char *ends[2];
    size_t i;
    ends[0] = arch_miss(gpu->lo, list_text);
    ends[1] = arch_miss(gpu->hi, list_text);
    for (i = 0; i < 2; i++) {
        if (!ends[i])
            continue;
        if (*seen && strcmp(*seen, ends[i]) != 0)
            *split = true;
        *seen = ends[i];
    }
}

/* The wheel's list as the text gives it (torch's own "supports CUDA capabilities sm_50
 * ..."), space-separated into buf; false when the text has none. Its machine code only:
 * torch's own check, which printed the list, counts the sm_ entries and not the PTX
 * ("sm_75 compute_37", torch 1.x's cu10x/cu11x wheels), and the warning it printed is
 * what the text shows; a PTX entry would read every newer GPU as running through JIT. */
static bool text_arch_list(const dl_facts *f, char *buf, size_t n)
{
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    size_t i, used = 0;
    if (!py || !py->runtime.arch_list.known || !py->runtime.arch_list.count)
        return false;
    buf[0] = '\0';
    for (i = 0; i < py->runtime.arch_list.count && used + 1 < n; i++) {
        const char *arch = DL_LIST_AT(py->runtime.arch_list, char *, i);
        int w;
        if (!strncmp(arch, "compute_", 8))
            continue;
        w = snprintf(buf + used, n - used, "%s ", arch);
        if (w < 0)
            break;
        used += (size_t)w < n - used ? (size_t)w : n - used - 1;
    }
    return used > 0;
}

/* A row of ARM wheels (linux-arm64: Grace Hopper, Jetson-class servers) for a text that
 * does not say its OS: a desktop GeForce on such a machine is rare, and those wheels lack
 * the consumer architectures (sm_75, sm_86, sm_89), so counting them would read every
 * "no kernel image" on a desktop GPU as a dropped architecture. */
static bool arm_row_unasked(const dl_table *t, size_t r, const char *os)
{
    return !os && !strcmp(dl_table_cell(t, r, DL_COL_wheel_arches_os), "linux-arm64");
}

/* The table reaches back to torch 1.0, but a text that names no torch is judged against
 * the wheels one installs today (1.12 onward, where the table began): a K40 or a GTX 780
 * in a 2024 report runs none of them, whatever torch 1.0's cu80 wheel held. Older rows
 * answer only for a torch the text names. */
static bool row_of_old_torch(const dl_table *t, size_t r)
{
    dl_version v, first;
    return dl_version_parse(dl_table_cell(t, r, DL_COL_wheel_arches_torch_minor), &v) &&
           dl_version_parse("1.12", &first) && dl_version_cmp(&v, &first) < 0;
}

/* Whether the table has rows for the text's OS (false when the text does not say one). */
static bool table_has_os(const dl_table *t, const char *os)
{
    size_t r;
    for (r = 0; os && r < t->rows; r++)
        if (!strcmp(dl_table_cell(t, r, DL_COL_wheel_arches_os), os))
            return true;
    return false;
}

/* A row on the text's OS when the table has rows for it (any_os_row), else any row but the
 * arm64 ones (see arm_row_unasked). */
static bool row_on_os(const dl_table *t, size_t r, const char *os, bool any_os_row)
{
    return any_os_row ? !strcmp(dl_table_cell(t, r, DL_COL_wheel_arches_os), os)
                      : !arm_row_unasked(t, r, os);
}

/* A row of the text's torch minor ("2.3"), or with none (minor ""), of the wheels one
 * installs today (see row_of_old_torch). */
static bool row_of_minor(const dl_table *t, size_t r, const char *minor)
{
    return minor[0] ? !strcmp(dl_table_cell(t, r, DL_COL_wheel_arches_torch_minor), minor)
                    : !row_of_old_torch(t, r);
}

/* The table's rows that count for a text that names no torch: today's wheels on its OS. */
static bool row_counts(const dl_table *t, size_t r, const char *os, bool any_os_row)
{
    return !row_of_old_torch(t, r) && row_on_os(t, r, os, any_os_row);
}

/* judge() over every wheel dlenv knows, on the text's OS when the table has rows for it. */
static void judge_every_wheel(const dl_table *t, const char *os, const dl_gpu_span *gpu,
                              const char **seen, bool *split)
{
    bool any_os_row = t && table_has_os(t, os);
    size_t r;
    for (r = 0; t && r < t->rows; r++)
        if (row_counts(t, r, os, any_os_row))
            judge(gpu, dl_table_cell(t, r, DL_COL_wheel_arches_torch_cuda_arch_list), seen, split);
}

/* The wheel's list from the text: torch's own words, else the table's row for the torch
 * and CUDA the text gives (on its OS; Linux when it does not say). */
static bool wheel_list_of_text(const dl_knowledge *k, const dl_facts *f, char *buf, size_t n)
{
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    const dl_torch_install *t = dl_q_listed_torch(f);
    const char *version = py && py->runtime.version.value ? py->runtime.version.value
                                                          : t ? t->version.value : NULL;
    const char *cuda = dl_q_torch_cuda(f);
    const char *os = f->os.family.value && !strcmp(f->os.family.value, "windows") ? "windows"
                                                                                  : "linux";
    char variant[16];
    long row;
    if (text_arch_list(f, buf, n))
        return true;
    if (!version || !cuda || !dl_cuda_variant_name(cuda, variant, sizeof variant) ||
        (row = dl_kq_wheel_arches(k, version, variant, os)) < 0)
        return false;
    snprintf(buf, n, "%s", dl_table_cell(dl_knowledge_at(k, DL_TABLE_wheel_arches), (size_t)row,
                                         DL_COL_wheel_arches_torch_cuda_arch_list));
    return true;
}

/* No GPU in the text, but the wheel's list: when it has machine code for the newest GPU
 * dlenv knows (cu128 and later reach sm_120), no GPU is newer than the list, so the one that failed is
 * older than it or in a gap: gpu_arch_dropped. Otherwise the two stay candidates, and the
 * signature asks for the GPU's capability. */
static const char *no_gpu_named(const dl_knowledge *k, const dl_facts *f, const char *id,
                                bool *settled)
{
    const dl_table *t = dl_knowledge_at(k, DL_TABLE_gpu_compute_capability);
    unsigned newest = 0, major, minor;
    char list[512];
    dl_arch_list parsed;
    dl_arch_verdict v;
    size_t r;
    if (!t || !wheel_list_of_text(k, f, list, sizeof list) || !dl_arch_list_parse(list, &parsed) ||
        !parsed.n)
        return id;
    for (r = 0; r < t->rows; r++)
        if (dl_cc_parse(dl_table_cell(t, r, DL_COL_gpu_compute_capability_compute_capability),
                        &major, &minor) && minor < 10 && major * 10 + minor > newest)
            newest = major * 10 + minor;
    v = dl_arch_check(newest / 10, newest % 10, &parsed).verdict;
    /* machine code, not an old PTX left to the driver's JIT */
    if (!newest || v != DL_ARCH_RUNS_SASS)
        return id;
    if (settled)
        *settled = true;
    return "gpu_arch_dropped";
}

static bool gpu_runs_every_wheel(const dl_knowledge *k, const dl_facts *f,
                                 const dl_gpu_span *gpu);

/* A first CUDA call that is slow but works (the driver JIT-compiling the wheel's PTX for a
 * GPU it has no SASS for) and no failure of the architecture family: PTX compiles only
 * upwards, so the GPU is above what the build holds, never below it; the GPU's age
 * against the wheel lists decides nothing here. */
static bool slow_jit_only(const dl_paste *p)
{
    static const char *const failed[] = {"no kernel image", "not compatible with the current",
                                         "invalid device function", "nokernelimage",
                                         "no binary for gpu", "nobinaryforgpu"};
    static const char *const slow[] = {"minute", "takes long", "takes a long", "very slow",
                                       "extremely slow", "so slow", "is slow", "hangs",
                                       "takes forever", "stalls"};
    return dl_paste_find_any(p, failed, sizeof failed / sizeof failed[0]) < 0 &&
           dl_paste_find_any(p, slow, sizeof slow / sizeof slow[0]) >= 0;
}

/* The failure came with a software update on the same GPU ("after updating", "worked
 * before the update"), not with a new card: the GPU ran the old build, so the new build's
 * list no longer holds it (the cu130 wheels left Maxwell, Pascal and Volta). Where the
 * GPU is named, the wheel lists decide instead. */
static bool same_gpu_after_update(const dl_paste *p)
{
    static const char *const updated[] = {"after updating", "after update", "after the update",
                                          "after upgrading", "after an update",
                                          "since the update", "since updating",
                                          "worked before the update", "was working before"};
    static const char *const new_card[] = {"new gpu", "new card", "new graphics card",
                                           "upgraded my gpu", "upgraded from", "bought",
                                           "rtx 50", "blackwell", "sm_120"};
    return dl_paste_find_any(p, updated, sizeof updated / sizeof updated[0]) >= 0 &&
           dl_paste_find_any(p, new_card, sizeof new_card / sizeof new_card[0]) < 0;
}

/* A cause under which torch cannot put a tensor on the GPU at all: a CPU build, no GPU,
 * no driver or one too old for the build. A tensor on a CUDA device in the text rules them
 * out (torch's own "found at least two devices, cpu and cuda:0"). */
static bool gpu_unreachable_cause(const char *id)
{
    static const char *const ids[] = {"cpu_only_build", "conda_cpu_build_selected", "no_gpu",
                                       "no_driver_installed", "driver_not_loaded",
                                       "driver_too_old"};
    size_t k;
    for (k = 0; k < sizeof ids / sizeof ids[0]; k++)
        if (!strcmp(id, ids[k]))
            return true;
    return false;
}

/* The version right after `mark` in a line ("12.1" from "__cuda >=12.1,"); false when the
 * line has no mark or no version after it. */
static bool version_after(const char *low, const char *mark, dl_version *v)
{
    const char *at = strstr(low, mark);
    char buf[32];
    size_t n;
    if (!at)
        return false;
    at += strlen(mark);
    n = strspn(at, "0123456789.");
    while (n && at[n - 1] == '.')
        n--;
    if (!n || n >= sizeof buf)
        return false;
    memcpy(buf, at, n);
    buf[n] = '\0';
    return dl_version_parse(buf, v);
}

/* conda's solver output names the CUDA a package asks for ("__cuda >=12",
 * "__cuda[version='>=10.1']") and the driver's ("conflicting with __cuda-11.4-0",
 * "__cuda==10.2=0"); conda lists the driver's __cuda among the conflicts even where it
 * satisfies the request (its own misleading report, not the cause). True when both are
 * shown and the driver's is at least the one asked for. */
static bool conda_driver_cuda_suffices(const dl_paste *p)
{
    static const char *const asked[] = {"__cuda >=", "__cuda[version='>=", "__cuda[version=\">="};
    static const char *const has[] = {"conflicting with __cuda-", "__cuda=="};
    dl_version need = {0}, have = {0}, v;
    bool need_seen = false, have_seen = false;
    long i;
    size_t k;
    for (i = dl_paste_find(p, 0, "__cuda"); i >= 0; i = dl_paste_find(p, (size_t)i + 1, "__cuda")) {
        for (k = 0; k < sizeof asked / sizeof asked[0]; k++)
            if (version_after(p->lines[i].lower, asked[k], &v) &&
                (!need_seen || dl_version_cmp(&v, &need) > 0)) {
                need = v;
                need_seen = true;
            }
        for (k = 0; k < sizeof has / sizeof has[0]; k++)
            if (!have_seen && version_after(p->lines[i].lower, has[k], &v)) {
                have = v;
                have_seen = true;
            }
    }
    return need_seen && have_seen && dl_version_cmp(&have, &need) >= 0;
}

/* Signature rows whose own words already weigh the build against the GPU, which the wheel
 * lists of today's torch do not decide:
 * - a torch built with CUDA 9 beside a Turing GPU fails in CUDA 9's own libraries (cuBLAS
 *   and cuDNN before CUDA 10 know no Turing);
 * - a program that fails since a newer GPU came brings a torch older than that GPU;
 * - CUFFT_INTERNAL_ERROR from a CUDA 11.7-or-older build is that cuFFT on an Ada or newer
 *   GPU (capability 8.9): a GPU the text names as older than that rules the row out;
 * - NVRTC's "invalid value for --gpu-architecture" is the CUDA release's compiler, which
 *   knows no newer GPU whatever machine code the wheel carries for its major. */
static const struct {
    const char *signature;
    unsigned lowest_gpu; /* capability x10 the row is about; 0: any */
} build_weighed_rows[] = {
    {"cuda9_build_on_turing", 0},
    {"newer_gpu_than_the_app_knew", 0},
    {"cufft_internal_error_old_cuda", 89},
    {"nvrtc_unknown_gpu_arch", 0},
};

/* The row's own reading: id, or "" when the text's GPU is older than the row is about; NULL
 * when the signature is not one of build_weighed_rows. */
static const char *build_weighed_by_row(const char *signature, const dl_gpu_span *gpu,
                                        const char *id)
{
    size_t i;
    for (i = 0; signature && i < sizeof build_weighed_rows / sizeof build_weighed_rows[0]; i++)
        if (!strcmp(signature, build_weighed_rows[i].signature))
            return gpu->hi && gpu->hi < build_weighed_rows[i].lowest_gpu ? "" : id;
    return NULL;
}

/* "no kernel image" and "not compatible" name no GPU's age; the GPU against the wheel's
 * list does. Below the list (or in a gap) is gpu_arch_dropped, above it arch_not_in_wheel
 * (know/arch.c). The list is the text's when it gives one; otherwise every wheel dlenv
 * knows (wheel_arches.csv, on the text's OS when it says): when all the wheels that fail on
 * this GPU fail the same way, that is the reading (a Kepler, Maxwell or Pascal GPU is only
 * ever below or in a gap; an sm_120 only ever above). A name sold on two chips counts
 * when both chips read the same. Otherwise the signature's guess stays, with the other as
 * a candidate and the question that decides. */
static const char *kernel_image(const dl_knowledge *k, const dl_facts *f, const dl_gpu_span *gpu,
                                const char *id, bool *settled)
{
    const dl_table *t = dl_knowledge_at(k, DL_TABLE_wheel_arches);
    const char *os = f->os.family.value, *seen = NULL;
    bool split = false, own_list;
    char list[512];
    if (!gpu->hi)
        return no_gpu_named(k, f, id, settled);
    own_list = wheel_list_of_text(k, f, list, sizeof list);
    if (own_list)
        judge(gpu, list, &seen, &split);
    else
        judge_every_wheel(t, os, gpu, &seen, &split);
    /* the text's own wheel (torch's list, or the table's row for the torch and CUDA the
     * text names), or every wheel of its torch (or every one dlenv knows), runs this GPU:
     * the kernels that are missing are not torch's but those of code built apart from it
     * (an extension, a package's prebuilt ops: vLLM's, mmcv's, xformers') */
    if (!seen && !split && strcmp(id, "arch_not_in_wheel") == 0 &&
        (own_list || gpu_runs_every_wheel(k, f, gpu)))
        return "extension_mismatch";
    if (!seen || split)
        return id;
    /* a GPU above only the oldest lists (an A800 against the cu102 wheels of torch 1.12)
     * runs every recent wheel: with no torch in the text, the wheel is the reading but not
     * a settled one, and code built apart from torch stays a candidate */
    if (settled && !(strcmp(seen, "arch_not_in_wheel") == 0 && !own_list &&
                     !dl_gpu_newer_than_most_wheels(k, f, gpu)))
        *settled = true;
    return seen;
}
/* The text's torch as "2.3" (its release's minor), or "" when the text gives none. */
static void torch_minor_of(const dl_facts *f, char *out, size_t n)
{
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    const char *v = py ? py->runtime.version.value : NULL;
    dl_torch_version tv;
    if (!v && dl_q_listed_torch(f))
        v = dl_q_listed_torch(f)->version.value;
    out[0] = '\0';
    if (v && dl_torch_version_parse(v, &tv))
        snprintf(out, n, "%lu.%lu", tv.release.part[0], tv.release.part[1]);
}

/* Every wheel of the text's torch minor (every wheel dlenv knows when the text gives no
 * torch; on the text's OS when the table has rows for it) has machine code for both ends
 * of the GPU's span. False when the text's torch is one the table does not reach (0.4,
 * 1.8: their lists are not known). */
static bool gpu_runs_every_wheel(const dl_knowledge *k, const dl_facts *f,
                                 const dl_gpu_span *gpu)
{
    const dl_table *t = dl_knowledge_at(k, DL_TABLE_wheel_arches);
    const char *os = f->os.family.value;
    char minor[32];
    bool any_os_row;
    size_t r, judged = 0;
    if (!t || !gpu->lo || !gpu->hi)
        return false;
    torch_minor_of(f, minor, sizeof minor);
    any_os_row = table_has_os(t, os);
    for (r = 0; r < t->rows; r++) {
        dl_arch_list list;
        if (!row_of_minor(t, r, minor) || !row_on_os(t, r, os, any_os_row) ||
            !dl_arch_list_parse(dl_table_cell(t, r, DL_COL_wheel_arches_torch_cuda_arch_list),
                                &list) || !list.n)
            continue;
        if (dl_arch_check(gpu->lo / 10, gpu->lo % 10, &list).verdict != DL_ARCH_RUNS_SASS ||
            dl_arch_check(gpu->hi / 10, gpu->hi % 10, &list).verdict != DL_ARCH_RUNS_SASS)
            return false;
        judged++;
    }
    return judged > 0;
}

bool dl_gpu_below_every_wheel(const dl_knowledge *k, const dl_facts *f, const dl_gpu_span *gpu)
{
    const dl_table *t = dl_knowledge_at(k, DL_TABLE_wheel_arches);
    char minor[32];
    size_t r, judged = 0;
    if (!t || !gpu->hi)
        return false;
    /* capability 1.x: CUDA 7.0 and later compile no code for it, and no torch was ever
     * built with an older CUDA, so no release reaches it whatever the table covers */
    if (gpu->hi < 20)
        return true;
    torch_minor_of(f, minor, sizeof minor);
    for (r = 0; r < t->rows; r++) {
        dl_arch_list list;
        if (!row_of_minor(t, r, minor) ||
            !dl_arch_list_parse(dl_table_cell(t, r, DL_COL_wheel_arches_torch_cuda_arch_list),
                                &list) || !list.n)
            continue;
        if (dl_arch_check(gpu->hi / 10, gpu->hi % 10, &list).verdict != DL_ARCH_TOO_OLD)
            return false;
        judged++;
    }
    return judged > 0;
}

/* The text names its torch (a release), and no wheel of that minor has machine code for
 * the GPU's lowest possible capability: every list stops below the GPU (an sm_120 card
 * under torch 2.6, whose newest wheel stops at sm_90), at most with an old PTX to JIT, as
 * dl_gpu_newer_than_most_wheels counts it. False when the torch
 * or the GPU is unknown, or the table has no row for that minor. */
bool dl_gpu_above_every_wheel_of_torch(const dl_knowledge *k, const dl_facts *f,
                                       const dl_gpu_span *gpu)
{
    const dl_table *t = dl_knowledge_at(k, DL_TABLE_wheel_arches);
    char minor[32];
    size_t r, judged = 0;
    dl_arch_verdict v;
    if (!t || !gpu->lo)
        return false;
    torch_minor_of(f, minor, sizeof minor);
    if (!minor[0])
        return false;
    for (r = 0; r < t->rows; r++) {
        dl_arch_list list;
        if (strcmp(dl_table_cell(t, r, DL_COL_wheel_arches_torch_minor), minor) != 0 ||
            !dl_arch_list_parse(dl_table_cell(t, r, DL_COL_wheel_arches_torch_cuda_arch_list),
                                &list) || !list.n)
            continue;
        v = dl_arch_check(gpu->lo / 10, gpu->lo % 10, &list).verdict;
        if (v != DL_ARCH_TOO_NEW && v != DL_ARCH_RUNS_PTX_JIT)
            return false;
        judged++;
    }
    return judged > 0;
}

/* An out-of-memory message with its numbers: when PyTorch itself holds nearly all that is
 * not free (what the others hold is under a quarter of the GPU), no other process took the
 * memory, so the batch (or model) is too big and "another process" is no candidate. A
 * larger share held elsewhere is gpu_memory_held_by_other_process (rules/torch_runtime.c,
 * above half) or stays a candidate (between a quarter and half). */
static const char *oom_numbers(const dl_paste *p, const char *id, bool *settled)
{
    dl_oom oom;
    if (dl_oom_read(p, &oom) && settled &&
        dl_oom_outside_bytes(&oom) < oom.total_bytes / 4)
        *settled = true;
    return id;
}

bool dl_gpu_newer_than_most_wheels(const dl_knowledge *k, const dl_facts *f,
                                   const dl_gpu_span *gpu)
{
    const dl_table *t = dl_knowledge_at(k, DL_TABLE_wheel_arches);
    const char *os = f->os.family.value;
    bool any_os_row;
    size_t r, judged = 0, runs = 0;
    if (!t || !gpu->lo)
        return false;
    any_os_row = table_has_os(t, os);
    for (r = 0; r < t->rows; r++) {
        dl_arch_list list;
        dl_arch_verdict v;
        if (!row_counts(t, r, os, any_os_row) ||
            !dl_arch_list_parse(dl_table_cell(t, r, DL_COL_wheel_arches_torch_cuda_arch_list),
                                &list) || !list.n)
            continue;
        v = dl_arch_check(gpu->lo / 10, gpu->lo % 10, &list).verdict;
        if (v != DL_ARCH_RUNS_SASS && v != DL_ARCH_RUNS_PTX_JIT && v != DL_ARCH_TOO_NEW)
            return false;
        runs += v == DL_ARCH_RUNS_SASS;
        judged++;
    }
    return judged > 0 && runs * 2 < judged;
}

/* The newest torch minor among the rows that count; false when none parses. */
static bool newest_minor(const dl_table *t, const char *os, bool any_os_row, dl_version *out)
{
    bool found = false;
    size_t r;
    for (r = 0; r < t->rows; r++) {
        dl_version v;
        if (row_counts(t, r, os, any_os_row) &&
            dl_version_parse(dl_table_cell(t, r, DL_COL_wheel_arches_torch_minor), &v) &&
            (!found || dl_version_cmp(&v, out) > 0)) {
            *out = v;
            found = true;
        }
    }
    return found;
}

bool dl_gpu_dropped_by_newest_wheels(const dl_knowledge *k, const dl_facts *f,
                                     const dl_gpu_span *gpu)
{
    const dl_table *t = dl_knowledge_at(k, DL_TABLE_wheel_arches);
    const char *os = f->os.family.value;
    bool any_os_row, dropped = false, runs = false;
    dl_version newest;
    size_t r;
    if (!t || !gpu->hi || gpu->hi < 20)
        return false;
    any_os_row = table_has_os(t, os);
    if (!newest_minor(t, os, any_os_row, &newest))
        return false;
    for (r = 0; r < t->rows; r++) {
        dl_arch_list list;
        dl_version v;
        dl_arch_verdict verdict;
        if (!row_counts(t, r, os, any_os_row) ||
            !dl_arch_list_parse(dl_table_cell(t, r, DL_COL_wheel_arches_torch_cuda_arch_list),
                                &list) || !list.n)
            continue;
        verdict = dl_arch_check(gpu->hi / 10, gpu->hi % 10, &list).verdict;
        runs |= verdict == DL_ARCH_RUNS_SASS;
        if (dl_version_parse(dl_table_cell(t, r, DL_COL_wheel_arches_torch_minor), &v) &&
            !dl_version_cmp(&v, &newest))
            dropped |= verdict == DL_ARCH_TOO_OLD || verdict == DL_ARCH_NOT_COVERED;
    }
    return dropped && runs;
}

/* Interpreters the text lists (`where python`, `which -a python`): distinct paths that end
 * in python.exe or bin/python. */
static size_t interpreters_listed(const dl_paste *p)
{
    dl_strv seen = {0};
    size_t i, n;
    for (i = 0; i < p->count; i++) {
        const char *low = p->lines[i].lower;
        size_t len = strlen(low);
        bool exe = len > 11 && !strcmp(low + len - 11, "\\python.exe") && low[1] == ':';
        bool unix_bin = len > 11 && low[0] == '/' && !strchr(low, ' ') &&
                        (!strcmp(low + len - 11, "/bin/python") ||
                         !strcmp(low + len - 12, "/bin/python3"));
        if ((exe || unix_bin) && !dl_strv_has(&seen, low))
            dl_strv_add(&seen, dl_strdup(low));
    }
    n = seen.n;
    dl_strv_free(&seen);
    return n;
}

/* Windows' `py` launcher runs the newest Python it knows, while a bare `pip` is whichever
 * comes first on PATH: torch installed by `pip install` and code run by `py main.py` often
 * meet two interpreters. A command starts the line or follows a prompt, a quote or a
 * backtick ("`py main.py`", "> py -3 app.py"). */
static bool py_launcher_after_bare_pip(const dl_paste *p)
{
    size_t i;
    if (dl_paste_find(p, 0, "pip install") < 0 && dl_paste_find(p, 0, "pip3 install") < 0)
        return false;
    if (dl_paste_find(p, 0, "-m pip") >= 0)
        return false;
    for (i = 0; i < p->count; i++) {
        const char *low = p->lines[i].lower, *at;
        for (at = strstr(low, "py "); at; at = strstr(at + 1, "py ")) {
            const char *b = at;
            while (b > low && b[-1] == ' ')
                b--;
            /* the command's start: the line's, or right after a prompt, quote or backtick */
            if ((b == low || strchr("`>\"$", b[-1])) &&
                (at[3] == '-' || isalpha((unsigned char)at[3])))
                return true;
        }
    }
    return false;
}

/* pip or uv building a package in an isolated environment (whose own "No module named
 * 'torch'" says nothing of the interpreter the writer runs): pip's subprocess frame and
 * uv's hint. */
static bool isolated_build_shown(const dl_paste *p)
{
    static const char *const marks[] = {"[end of output]", "error originates from a subprocess",
                                        "pip-build-env", "getting requirements to build wheel",
                                        "get_requires_for_build", "declare it as a build dependency",
                                        ".cache/uv/builds", "installing build dependencies"};
    return dl_paste_find_any(p, marks, sizeof marks / sizeof marks[0]) >= 0;
}

/* "No module named 'torch'" from a 32-bit Python is that Python (no torch wheel is 32-bit).
 * Where the text shows torch installed (a pip list row, pip's "Successfully installed
 * torch-...") or two interpreters: torch is in the other one. So
 * with sudo: root's Python has no venv and no user site, so `sudo python` (or torch put
 * there by `sudo pip`) is another interpreter's view. */
static const char *no_module(const dl_paste *p, const dl_facts *f, const char *id)
{
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    const dl_site_packages *site = py && py->site_packages.count
                                       ? &DL_LIST_AT(py->site_packages, dl_site_packages, 0)
                                       : NULL;
    const dl_torch_install *t = site && site->torches.count
                                    ? &DL_LIST_AT(site->torches, dl_torch_install, 0) : NULL;
    /* torch publishes no 32-bit wheels: a 32-bit Python never had one to import */
    if (py && py->bits.known && py->bits.value == 32)
        return "python_32bit";
    if (isolated_build_shown(p))
        return id;
    if ((t && t->version.value && !(py->runtime.version.value)) || interpreters_listed(p) >= 2 ||
        dl_paste_find(p, 0, "sudo python") >= 0 || dl_paste_find(p, 0, "sudo pip") >= 0 ||
        py_launcher_after_bare_pip(p))
        return "pip_python_mismatch";
    return id;
}

/* The text names a Python (3.9 or newer) but not its bits: python.org's Windows installer
 * has offered the 64-bit build by default since 3.9, so such a Python is most likely 64-bit
 * and "from versions: none" more likely means no wheel for that (new) Python version. */
static bool python_64bit_by_default(const dl_python *py)
{
    unsigned major, minor;
    return py && py->version.value && sscanf(py->version.value, "%u.%u", &major, &minor) == 2 &&
           (major > 3 || (major == 3 && minor >= 9));
}

/* "from versions: none" on Windows is a 32-bit Python, unless the banner says 64 bit: then
 * no release has a wheel for this Python (yet). A pinned release ("torch==1.12.1+cu113")
 * that pip cannot find either way is more often one that predates this (64-bit) Python:
 * Python.org's installer has been 64-bit by default since 3.9, and old pins outlive the
 * Pythons they were made for. */
/* The release pip was asked for (its local tag cut) has wheels for the text's Python, and
 * that Python is older than 3.9, when python.org's installer was not yet 64-bit by default. */
static bool pin_built_for_older_python(const dl_knowledge *k, const dl_paste *p,
                                       const dl_python *py)
{
    char want[64], *plus;
    if (python_64bit_by_default(py) || !requested_torch(p, want, sizeof want))
        return false;
    if ((plus = strchr(want, '+')) != NULL)
        *plus = '\0';
    return dl_kq_release_has_python(k, want, py->version.value);
}

/* pip's list holds only the 0.1.2 source releases ("from versions: 0.1.2, 0.1.2.post1,
 * 0.1.2.post2"): it found no wheel at all for this interpreter. When the pinned release was
 * built for the text's Python (before 3.9, when python.org's installer was not yet 64-bit
 * by default) and the machine is not Linux's or a Mac's, the interpreter is a 32-bit one. */
static const char *only_old_sdists_for_built_python(const dl_knowledge *k, const dl_paste *p,
                                                    const dl_facts *f, const char *verdict)
{
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    if (strcmp(verdict, "python_unsupported") != 0 ||
        dl_paste_find(p, 0, "(from versions: 0.1.2") < 0 || !py ||
        (py->bits.known && py->bits.value == 64) || dl_q_text_is(&f->os.family, "linux") ||
        dl_q_text_is(&f->os.family, "macos") || !pin_built_for_older_python(k, p, py))
        return verdict;
    return "python_32bit";
}

static const char *no_wheel_at_all(const dl_knowledge *k, const dl_paste *p, const dl_facts *f,
                                   const char *id)
{
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    char want[64];
    if (py && py->bits.known)
        return py->bits.value == 64 ? "python_unsupported" : id;
    /* the pinned release was built for this Python ("torch==1.4.0+cpu" with Python 3.8.2):
     * pip found nothing for the interpreter's platform, which on Windows is a 32-bit Python
     * (pytorch#35873) */
    if (requested_torch(p, want, sizeof want))
        return py && pin_built_for_older_python(k, p, py) ? id : "python_unsupported";
    if (python_64bit_by_default(py))
        return "python_unsupported";
    return id;
}

/* The writer denies the NVIDIA GPU in the words just before it ("I do not have an nvidia
 * card", "no NVIDIA GPU", "without an nvidia gpu"). */
static bool nvidia_denied(const char *low, const char *at)
{
    static const char *const denials[] = {"not have", "n't have", "no ", "without", "not a",
                                          "not an"};
    size_t from = (size_t)(at - low) > 16 ? (size_t)(at - low) - 16 : 0, k;
    for (k = 0; k < sizeof denials / sizeof denials[0]; k++) {
        const char *d = strstr(low + from, denials[k]);
        if (d && d < at)
            return true;
    }
    return false;
}

/* nvidia_denied as a dl_paste_accept_fn: the NVIDIA word at `at` stands undenied. */
static bool nvidia_not_denied(const char *low, const char *at, size_t len)
{
    (void)len;
    return !nvidia_denied(low, at);
}

/* A word naming an NVIDIA GPU ("GeForce", "RTX", "nvidia card", nvidia-smi) that the
 * writer does not deny. */
static bool nvidia_named(const dl_paste *p)
{
    static const char *const nvidia[] = {"geforce", "rtx", "gtx", "quadro", "tesla", "nvidia-smi",
                                         "nvidia gpu", "nvidia card", "nvidia graphics"};
    return dl_paste_find_any_where(p, nvidia, sizeof nvidia / sizeof nvidia[0],
                                   nvidia_not_denied) >= 0;
}

/* The text's (first) GPU is an NVIDIA one. */
static bool nvidia_gpu_named(const dl_facts *f)
{
    const dl_nvml_gpu *g = f->nvml.gpus.count ? &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, 0) : NULL;
    return g && g->name.value && dl_gpu_vendor_of_name(g->name.value) == DL_GPU_NVIDIA;
}

/* The text's GPU is another vendor's (an Intel or AMD name the reader found) and no
 * NVIDIA GPU is named anywhere: "Torch not compiled with CUDA" there is no CPU build on an
 * NVIDIA machine, the machine has no NVIDIA GPU for any build. */
static bool other_vendor_only(const dl_paste *p, const dl_facts *f)
{
    const dl_nvml_gpu *g = f->nvml.gpus.count ? &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, 0) : NULL;
    if (!g || !g->name.value || dl_gpu_vendor_of_name(g->name.value) == DL_GPU_NVIDIA ||
        dl_gpu_vendor_of_name(g->name.value) == DL_GPU_APPLE)
        return false;
    return !nvidia_named(p);
}

/* The writer names only another vendor's GPU in words ("I have a AMD GPU (RX 580)",
 * "Intel Xe graphics") where no GPU model was read, and no NVIDIA word. */
/* A word that is no folder's name ("/home/radeon/", "C:\\Users\\iris\\"). */
static bool outside_path(const char *low, const char *at, size_t len)
{
    return !dl_str_in_path(low, at, len);
}

static bool other_vendor_in_words(const dl_paste *p)
{
    static const char *const other[] = {"amd gpu", "amd graphics", "amd card", "amd video card",
                                        "amd videocard", "amd graphic card", "radeon",
                                        "intel arc", "intel xe", "iris xe", "intel uhd",
                                        "intel hd graphics", "intel gpu"};
    return dl_paste_find_any_where(p, other, sizeof other / sizeof other[0], outside_path) >= 0 &&
           !nvidia_named(p);
}

/* The code runs on the Mac's GPU ("mps") and the CUDA error comes out of torch.compile
 * ("BackendCompilerFailed", torch._inductor): torch's compiler took a CUDA path on its own,
 * a bug of that torch, not a CUDA call of the user's on a Mac. */
static bool compiler_asks_cuda_on_mps(const dl_paste *p)
{
    static const char *const compiler[] = {"backendcompilerfailed", "torch._inductor",
                                           "torch/_inductor", "torch._dynamo.exc"};
    return dl_paste_find(p, 0, "mps") >= 0 &&
           dl_paste_find_any(p, compiler, sizeof compiler / sizeof compiler[0]) >= 0;
}

/* "Torch not compiled with CUDA enabled", "Found no NVIDIA driver", "No CUDA GPUs": on a Mac
 * (the text's OS, however it was named: "M1 Mac", "MacBook", a /Users/ path) no build of
 * torch has CUDA, so the Mac is the cause, not the build or the driver. Other signs of a
 * CPU build (a missing _cuda_* attribute) keep their own reading: there a library on the
 * path can be the cause. */
static const char *cuda_on_a_mac(const dl_paste *p, const dl_facts *f, const char *id)
{
    /* a CPU build asked for CUDA (not XPU: an Intel GPU wants the XPU build); on a Mac
     * the Mac is the cause whatever its GPU's brand */
    if (!strcmp(id, "cpu_only_build") && dl_paste_find(p, 0, "not compiled with cuda") >= 0 &&
        !dl_q_text_is(&f->os.family, "macos") &&
        (other_vendor_only(p, f) ||
         ((other_vendor_in_words(p) || (dl_text_amd_gpu_line(p) >= 0 && !nvidia_named(p))) &&
          !nvidia_gpu_named(f))))
        return "non_nvidia_gpu";
    /* ... or a checkpoint saved on CUDA loaded without map_location: on a Mac, no build
     * has CUDA to put it on */
    if (!dl_q_text_is(&f->os.family, "macos") ||
        (!strcmp(id, "cpu_only_build") && dl_paste_find(p, 0, "not compiled with cuda") < 0 &&
         dl_paste_find(p, 0, "deserialize object on a cuda device") < 0))
        return id;
    return compiler_asks_cuda_on_mps(p) ? "" : "no_cuda_on_macos";
}

/* torch ran on the CPU and said so (whisper's "FP16 is not supported on CPU"), or the
 * writer says the GPU goes unused: on a Mac that is the Mac (no build there has CUDA);
 * elsewhere the bare warning, in a run given the CPU or in a text that expects no GPU,
 * is no fault (unavailable_text.c names the candidates); beside another vendor's GPU it is
 * that GPU. The words of a GPU left idle keep the CPU build. */
static const char *cpu_run_reported(const dl_paste *p, const dl_facts *f, const char *id)
{
    bool warning = dl_text_cpu_run_warning_line(p) >= 0;
    if ((!warning && dl_text_gpu_unused_line(p) < 0) ||
        dl_paste_find(p, 0, "not compiled with cuda") >= 0)
        return id;
    if (dl_q_text_is(&f->os.family, "macos"))
        return "no_cuda_on_macos";
    if (!warning || dl_text_gpu_unused_line(p) >= 0)
        return id;
    if (dl_text_chose_cpu(p) || !dl_text_expects_gpu(p, f))
        return "";
    return dl_text_other_vendor_gpu(f) ? "non_nvidia_gpu" : id;
}

/* pip was pointed at one of PyTorch's CUDA indexes alone ("--index-url
 * https://download.pytorch.org/whl/cu118", also nightly/cu128): an --extra-index-url (pip's
 * "Looking in indexes: https://pypi.org/simple, ...") keeps PyPI, whose macOS wheels would
 * still be found, so it does not count. */
static bool cuda_index_only(const dl_paste *p)
{
    long at;
    for (at = dl_paste_find(p, 0, "pytorch.org/whl/"); at >= 0;
         at = dl_paste_find(p, (size_t)at + 1, "pytorch.org/whl/")) {
        const char *low = p->lines[at].lower;
        if ((strstr(low, "/whl/cu") || strstr(low, "/whl/nightly/cu")) &&
            !strstr(low, "extra-index-url") && !strstr(low, "pypi.org"))
            return true;
    }
    return false;
}

/* pip finds no torch "+cuXYZ" on a Mac, or none at all on PyTorch's CUDA index alone: the
 * CUDA index has no macOS wheels at all, so the Mac is the cause, not the Python version or
 * platform tag of one wheel. */
static bool mac_host_named(const dl_paste *p);

static const char *cuda_wheel_on_a_mac(const dl_paste *p, const dl_facts *f, const char *id)
{
    long at = dl_paste_find(p, 0, "satisfies the requirement torch");
    if (at < 0)
        at = dl_paste_find(p, 0, "distribution found for torch");
    /* the Mac named in words ("Apple M2", "MacBook") where no other OS was read */
    if (at < 0 ||
        !(dl_q_text_is(&f->os.family, "macos") || (!f->os.family.value && mac_host_named(p))) ||
        (!strstr(p->lines[at].lower, "+cu") && !cuda_index_only(p)))
        return id;
    return "no_cuda_on_macos";
}

/* A shell script launched the run ("bash scripts/train.sh", "sh run.sh", "./dist_train.sh"):
 * such launch scripts are where CUDA_VISIBLE_DEVICES is usually exported, for the author's
 * GPU numbering. */
static bool launch_script(const dl_paste *p)
{
    static const char *const runners[] = {"bash ", "sh ", "./"};
    size_t k;
    for (k = 0; k < sizeof runners / sizeof runners[0]; k++) {
        long i;
        for (i = dl_paste_find(p, 0, runners[k]); i >= 0;
             i = dl_paste_find(p, (size_t)i + 1, runners[k])) {
            const char *at = strstr(p->lines[i].lower, runners[k]), *dot;
            if (!at || (at > p->lines[i].lower && isalnum((unsigned char)at[-1])))
                continue;
            dot = strstr(at, ".sh");
            if (dot && !isalnum((unsigned char)dot[3]) &&
                (size_t)(dot - at) < 80 && !memchr(at, '|', (size_t)(dot - at)))
                return true;
        }
    }
    return false;
}

/* The text runs inside a container it names and shows no option that passes GPUs into it:
 * torch there sees no driver and no GPU because the container was started without them. */
static bool container_without_gpus(const dl_paste *p)
{
    return dl_container_named(p) && !dl_container_given_gpus(p);
}

/* The text's GPU is one sold only on NVSwitch boards (HGX/DGX: H20, H800, H200, B200, the
 * SXM parts, the H100 "80GB HBM3"): there CUDA finds no device until the fabric manager
 * has set up the fabric, while nvidia-smi lists every GPU. */
static bool nvswitch_gpu(const dl_facts *f)
{
    static const char *const marks[] = {"h20", "h800", "h200", "b200", "b300", "sxm", "hbm3"};
    const dl_nvml_gpu *g = f->nvml.gpus.count ? &DL_LIST_AT(f->nvml.gpus, dl_nvml_gpu, 0) : NULL;
    char low[96];
    size_t i;
    bool found = false;
    if (!g || !g->name.value || strlen(g->name.value) >= sizeof low)
        return false;
    for (i = 0; g->name.value[i]; i++)
        low[i] = (char)tolower((unsigned char)g->name.value[i]);
    low[i] = '\0';
    if (strstr(low, "pcie") || strstr(low, "nvl"))
        return false;
    for (i = 0; i < sizeof marks / sizeof marks[0]; i++)
        found |= strstr(low, marks[i]) != NULL;
    return found;
}

/* A Slurm job (sbatch, srun, salloc named) that asks for no GPU (no --gres, no --gpus):
 * the job's cgroup shows it none of the node's GPUs, and Slurm sets CUDA_VISIBLE_DEVICES only
 * for GPUs it gave (signature slurm_job_without_gpu). */
static const char *const slurm_words[] = {"sbatch", "srun ", "salloc", "slurm"};
static const char *const slurm_gpu_asked[] = {"--gres", "gres=", "--gpus", "gpus-per",
                                              "gpus_per", "--gpu=", "gpu:1", "gpu:2", "gpu:4",
                                              "gpu:8"};

static bool slurm_job_without_gpu_request(const dl_paste *p)
{
    return dl_paste_find_any(p, slurm_words, sizeof slurm_words / sizeof slurm_words[0]) >= 0 &&
           dl_paste_find_any(p, slurm_gpu_asked,
                             sizeof slurm_gpu_asked / sizeof slurm_gpu_asked[0]) < 0;
}

/* A Slurm job that asks for a GPU in its #SBATCH lines and sees none: Slurm set
 * CUDA_VISIBLE_DEVICES to what it granted, so the request is what to look at (signature
 * slurm_job_gpu_requested_none_seen), not the variable. */
static bool slurm_batch_job_with_gpu_request(const dl_paste *p)
{
    return dl_paste_find(p, 0, "#sbatch") >= 0 &&
           dl_paste_find_any(p, slurm_gpu_asked,
                             sizeof slurm_gpu_asked / sizeof slurm_gpu_asked[0]) >= 0;
}

/* "No CUDA GPUs are available" after a launch script: the script's CUDA_VISIBLE_DEVICES is
 * the likely reason (the machine's GPUs stay a candidate). Outside a container the same
 * holds for torch's own sentence: torch raises it only after its driver check passed ("Found
 * no NVIDIA driver" comes first), so a driver answered and counted no device, which on a
 * machine with a GPU is the device list the process was given. Where collect_env
 * wrote "No CUDA" for the driver and the GPU models, nvidia-smi itself answered nothing, which
 * no CUDA_VISIBLE_DEVICES causes: the machine has no NVIDIA GPU it can drive. */
static const char *gpus_hidden(const dl_paste *p, const dl_facts *f, const char *id)
{
    return slurm_job_without_gpu_request(p) || slurm_batch_job_with_gpu_request(p) ? id
           : launch_script(p)              ? "cuda_visible_devices"
           : container_without_gpus(p) ? "docker_no_gpu_passthrough"
           : nvswitch_gpu(f)           ? "fabricmanager_missing"
           : dl_paste_find(p, 0, "nvidia driver version: no cuda") >= 0 &&
                   dl_paste_find(p, 0, "gpu models and configuration: no cuda") >= 0
               ? "no_gpu"
           : dl_paste_find(p, 0, "no cuda gpus are available") >= 0 ? "cuda_visible_devices"
                                       : id;
}

/* A shell prompt of a container: Docker names a container by 12 hex digits, so its prompt is
 * "root@3f1c9a2b7d4e:/app#". */
static bool container_prompt(const dl_paste *p)
{
    long i;
    for (i = dl_paste_find(p, 0, "root@"); i >= 0; i = dl_paste_find(p, (size_t)i + 1, "root@")) {
        const char *at = strstr(p->lines[i].lower, "root@") + 5;
        size_t n = 0;
        while (n < 12 && isxdigit((unsigned char)at[n]))
            n++;
        if (n == 12 && at[12] == ':')
            return true;
    }
    return false;
}

/* The container was started through NVIDIA's runtime ("--runtime=nvidia", nvidia-docker):
 * before --gpus, that runtime gave an image that set no NVIDIA_DRIVER_CAPABILITIES the
 * utility libraries only. (A "--gpus" start that still finds no driver stays a driver
 * reading: there the toolkit mounts the compute libraries by default.) */
static bool container_given_gpus(const dl_paste *p)
{
    static const char *const given[] = {"--runtime=nvidia", "--runtime nvidia",
                                        "nvidia-docker"};
    return dl_paste_find_any(p, given, sizeof given / sizeof given[0]) >= 0;
}

/* No driver, seen from a container's prompt: the container was started without the GPU;
 * or one started through NVIDIA's runtime finds no driver all the same: the runtime mounted
 * no CUDA library into it (NVIDIA_DRIVER_CAPABILITIES without compute). */
static const char *driver_in_container(const dl_paste *p, const char *id)
{
    return container_prompt(p) || container_without_gpus(p) || container_given_gpus(p)
               ? "docker_no_gpu_passthrough"
               : id;
}

/* "No module named 'torch._C'" (or Python 2's "name '_C' is not defined") from a
 * torch/__init__.py outside any site-packages: a source checkout (or another folder named
 * torch) is imported instead of the installed torch. */
static const char *core_missing(const dl_paste *p, const char *id)
{
    long i;
    if (dl_paste_find(p, 0, "no module named 'torch._c'") < 0 &&
        dl_paste_find(p, 0, "no module named torch._c") < 0 &&
        dl_paste_find(p, 0, "name '_c' is not defined") < 0)
        return id;
    for (i = dl_paste_find(p, 0, "__init__.py"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "__init__.py")) {
        const char *low = p->lines[i].lower;
        if ((strstr(low, "torch/__init__.py") || strstr(low, "torch\\__init__.py")) &&
            !strstr(low, "-packages"))
            return "torch_shadowed";
    }
    return id;
}

static const char *dll_on_fresh_windows(const dl_paste *p, const char *id)
{
    /* DLLs whose missing dependency is MSVC's OpenMP (libomp140), not the redistributable */
    static const char *const openmp_users[] = {"fbgemm.dll", "shm.dll", "libomp"};
    if (dl_paste_find_any(p, openmp_users, sizeof openmp_users / sizeof openmp_users[0]) >= 0)
        return id;
    /* ZLUDA's torch forwards its CUDA DLLs to the AMD HIP SDK: that SDK is what a fresh
     * machine lacks (ComfyUI-Zluda's caffe2_nvrtc.dll) */
    if (dl_paste_find(p, 0, "zluda") >= 0)
        return id;
    return dl_text_fresh_windows(p) ? "vc_redist_missing" : id;
}

/* A "cuda" at `at` that is one of the dispatcher's keys ("AutogradCUDA", "SparseCUDA") or
 * sits in its list of backends ("... is only available for these backends: [CPU, CUDA,
 * ...]"): torch prints those on every "Could not run 'aten::...'" error, whatever the
 * device, so they ask nothing of CUDA. */
static bool dispatch_key_cuda(const char *low, const char *at)
{
    static const char *const keys[] = {"autograd", "autocast", "sparsecsr", "sparse",
                                       "quantized", "nestedtensor"};
    const char *list = strstr(low, "these backends");
    size_t k;
    if (list && at > list)
        return true;
    for (k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        size_t n = strlen(keys[k]);
        if ((size_t)(at - low) >= n && !strncmp(at - n, keys[k], n))
            return true;
    }
    return false;
}

/* The line names CUDA other than as a dispatcher's key (dispatch_key_cuda). */
static bool cuda_named_on_line(const char *low)
{
    const char *at;
    for (at = strstr(low, "cuda"); at; at = strstr(at + 4, "cuda"))
        if (!dispatch_key_cuda(low, at))
            return true;
    return false;
}

/* A line that names CUDA other than collect_env's own labels ("CUDA used to build
 * PyTorch: N/A", "Is CUDA available", "CUDA runtime version"), which a Mac's report prints
 * too, or the dispatcher's keys (dispatch_key_cuda): only such a line asks anything of
 * CUDA. */
static bool cuda_beyond_labels(const dl_paste *p)
{
    /* with the values a Mac's report gives them ("GPU models and configuration: No CUDA") */
    static const char *const labels[] = {"cuda used to build", "is cuda available",
                                         "cuda runtime version", "cuda_module_loading",
                                         ": no cuda"};
    long i;
    for (i = dl_paste_find(p, 0, "cuda"); i >= 0; i = dl_paste_find(p, (size_t)i + 1, "cuda")) {
        bool label = false;
        size_t k;
        for (k = 0; k < sizeof labels / sizeof labels[0]; k++)
            label |= strstr(p->lines[i].lower, labels[k]) != NULL;
        if (!label && cuda_named_on_line(p->lines[i].lower))
            return true;
    }
    return false;
}

/* The text shows CUDA at work on a GPU: the caching allocator's out-of-memory message with
 * the GPU's numbers ("GPU 0; 2.00 GiB total capacity") comes only from a process that
 * reached a CUDA device. A Mac named beside it ("I also have a MacBook") is another
 * machine, not the one that failed. */
static bool cuda_ran(const dl_paste *p)
{
    dl_oom oom;
    return dl_paste_find(p, 0, "cuda out of memory") >= 0 && dl_oom_read(p, &oom);
}

/* The code ran on the Mac's GPU and failed there: an error of torch's MPS backend (an
 * operator not implemented for MPS, float64, its allocator), with no CUDA call failing
 * beside it. "I switched from cuda to mps" then names CUDA in prose only: the error is
 * MPS's, a library limit or the Mac's memory, not a Mac asked for CUDA. */
static bool mps_failed_not_cuda(const dl_paste *p)
{
    static const char *const mps[] = {"for the mps device", "mps backend", "mps framework",
                                      "mps tensor", "'mps' backend", "'sparsemps' backend",
                                      "allocated on mps device", "on the mps device"};
    static const char *const cuda[] = {"not compiled with cuda", "no nvidia driver",
                                       "no cuda gpus", "cuda error", "cuda driver",
                                       "cuda is not available", "attribute '_cuda",
                                       "cuda_home", "'cuda' backend"};
    return dl_paste_find_any(p, mps, sizeof mps / sizeof mps[0]) >= 0 &&
           dl_paste_find_any(p, cuda, sizeof cuda / sizeof cuda[0]) < 0;
}

/* The requirement pip could not resolve on `low` ("... requirement torch==2.4.1 (from ...",
 * "found for torch==2.4.1") is a plain torch release: no local tag such as +cu118. */
static bool plain_torch_unresolved(const char *low, const char *at, size_t len)
{
    const char *req = at + len, *end;
    (void)low;
    req += strspn(req, " ");
    if (strncmp(req, "torch", 5) != 0 || isalnum((unsigned char)req[5]) || req[5] == '-' ||
        req[5] == '_')
        return false;
    end = req + strcspn(req, " )`'\"");
    return !memchr(req, '+', (size_t)(end - req));
}

/* pip stopped at resolving a plain torch release ("No matching distribution found for
 * torch==2.4.1" with Intel macOS's list that ends at 2.2.2) and nothing asks for a CUDA
 * build (no +cuXYZ, no CUDA index): the install failed before any CUDA, so a Mac's
 * "CUDA" in a template's GPU field or in prose is not what failed. */
static bool install_failed_before_cuda(const dl_paste *p)
{
    static const char *const unresolved[] = {"no matching distribution found for",
                                             "satisfies the requirement"};
    static const char *const cuda_build[] = {"+cu", "whl/cu", "pytorch-cuda", "cudatoolkit"};
    return dl_paste_find_any_where(p, unresolved, sizeof unresolved / sizeof unresolved[0],
                                   plain_torch_unresolved) >= 0 &&
           dl_paste_find_any(p, cuda_build, sizeof cuda_build / sizeof cuda_build[0]) < 0;
}

/* "macOS ... CUDA": a Mac's collect_env names CUDA in its labels whatever the error is; the
 * Mac is the cause only when something else in the text asks for CUDA, and pip got as far
 * as a torch to install. */
static const char *mac_asks_cuda(const dl_paste *p, const char *id)
{
    return cuda_beyond_labels(p) && !cuda_ran(p) && !compiler_asks_cuda_on_mps(p) &&
                   !mps_failed_not_cuda(p) && !install_failed_before_cuda(p)
               ? id
               : "";
}

/* torch-directml missing on Linux (it has Windows and WSL wheels only), or Intel's XPU
 * build counting no device ("Number of dpcpp devices should be greater than zero"). */
static bool other_vendor_stack_refused(const dl_paste *p, const dl_facts *f)
{
    return dl_paste_find(p, 0, "number of dpcpp devices should be greater than zero") >= 0 ||
           (dl_paste_find(p, 0, "no module named 'torch_directml'") >= 0 &&
            dl_q_text_is(&f->os.family, "linux") && !dl_q_is_wsl(f));
}

/* "Intel Arc ... CUDA": a text about torch's XPU build ("2.8.0+xpu", torch.xpu) that names
 * CUDA only by collect_env's labels ("CUDA used to build PyTorch: N/A") asks nothing of
 * CUDA: the Intel GPU runs its own backend, and "no NVIDIA GPU" is no cause. When CUDA's
 * out-of-memory message shows a GPU at work, the other vendor's card is not the one that
 * failed either. */
static const char *other_vendor_asks_cuda(const dl_paste *p, const char *id)
{
    /* SYCL's own words for a kernel the Intel GPU cannot run are an XPU run's too */
    static const char *const xpu[] = {"+xpu", "torch.xpu", "whl/xpu", "required aspect fp64",
                                      "uses-fp64-math"};
    if (cuda_ran(p))
        return "";
    if (dl_paste_find_any(p, xpu, sizeof xpu / sizeof xpu[0]) >= 0 && !cuda_beyond_labels(p))
        return "";
    return id;
}

/* A traceback that runs torch's own __init__.py from a site-packages: the interpreter that
 * failed found torch, so torch is not in another one; the error is torch's import. */
static const char *torch_found(const dl_paste *p, const char *id)
{
    long i;
    for (i = dl_paste_find(p, 0, "__init__.py"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "__init__.py")) {
        const char *low = p->lines[i].lower;
        while (*low == ' ' || *low == '\t' || *low == '\'')
            low++;
        /* a bare path, as print(torch.__file__) shows it, is where torch is in an
         * interpreter the writer tried, not a frame of the one that failed */
        if ((low[0] == '/' || (isalpha((unsigned char)low[0]) && low[1] == ':')) &&
            (dl_ends_with(low, "__init__.py") || dl_ends_with(low, "__init__.py'")))
            continue;
        if (strstr(low, "-packages") &&
            (strstr(low, "/torch/__init__.py") || strstr(low, "\\torch\\__init__.py")))
            return "";
    }
    return id;
}

/* A Mac under the container or VM the text runs in: Docker Desktop, OrbStack or Colima on
 * a Mac, a Mac's /Users/ path. */
static bool mac_host_named(const dl_paste *p)
{
    static const char *const host[] = {"orbstack", "colima", "docker desktop",
                                       "/users/", "apple silicon", "apple m", "macbook",
                                       "mac mini", "mac studio", "imac", "darwin"};
    return dl_paste_find_any(p, host, sizeof host / sizeof host[0]) >= 0;
}

/* "Found no NVIDIA driver" in a Colab notebook: the runtime is Google's VM, whose driver
 * exists only when a GPU is attached (Runtime > Change runtime type); the user's own GPU,
 * Mac or driver does not take part, so the cause is a runtime without a GPU. */
static const char *colab_without_gpu(const dl_paste *p, const char *id)
{
    /* hosts that never have a GPU: AWS Lambda (its /var/task and /var/lang), Google Cloud
     * Run, Azure Functions, Heroku */
    static const char *const gpuless_host[] = {"aws lambda", "/var/task/", "/var/lang/",
                                               "cloud run", "azure functions", "heroku"};
    /* torch's "Found no NVIDIA driver", or Triton's count of GPU drivers */
    static const char *const no_driver[] = {"found no nvidia driver", "0 active drivers"};
    if (strcmp(id, "no_driver_installed") != 0 && strcmp(id, "non_nvidia_gpu") != 0 &&
        strcmp(id, "no_cuda_on_macos") != 0)
        return id;
    if (dl_paste_find_any(p, no_driver, 2) < 0)
        return id;
    return dl_text_colab(p) || dl_paste_find_any(p, gpuless_host, sizeof gpuless_host /
                                                                     sizeof gpuless_host[0]) >= 0
               ? "no_gpu"
               : id;
}

/* The text runs in WSL: its kernel ("5.15.153.1-microsoft-standard-WSL2", WSL1's
 * "4.4.0-19041-Microsoft") or the word itself. */
static bool text_in_wsl(const dl_paste *p, const dl_facts *f)
{
    long i;
    if (dl_q_is_wsl(f) || dl_text_wsl_line(p) >= 0)
        return true;
    for (i = dl_paste_find(p, 0, "-microsoft"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "-microsoft")) {
        const char *at = strstr(p->lines[i].lower, "-microsoft");
        if (at > p->lines[i].lower && isdigit((unsigned char)at[-1]))
            return true;
    }
    return false;
}

/* The text says it runs in WSL 1, which has no GPU at all ("I'm using wsl 1"), and not WSL 2:
 * no driver, Windows' or Linux', can help there until the distribution runs as WSL 2. */
static const char *wsl1_without_gpu(const dl_paste *p, const char *id)
{
    static const char *const wsl1[] = {"wsl 1", "wsl1", "wsl version: 1", "wsl version 1"};
    static const char *const wsl2[] = {"wsl 2", "wsl2", "wsl version: 2", "microsoft-standard"};
    static const char *const driver_ids[] = {"no_driver_installed", "driver_not_loaded",
                                             "kernel_module_not_built", "wsl_libcuda_path",
                                             "secure_boot_blocks_module"};
    size_t k;
    for (k = 0; k < sizeof driver_ids / sizeof driver_ids[0]; k++)
        if (!strcmp(id, driver_ids[k]))
            break;
    if (k == sizeof driver_ids / sizeof driver_ids[0] ||
        dl_paste_find_any(p, wsl1, sizeof wsl1 / sizeof wsl1[0]) < 0 ||
        dl_paste_find_any(p, wsl2, sizeof wsl2 / sizeof wsl2[0]) >= 0)
        return id;
    return "no_gpu_visible";
}

/* A driver whose kernel part does not run (not built, not loaded, refused by Secure Boot)
 * in WSL: WSL has no NVIDIA kernel module at all, the Windows driver reaches Linux through
 * /usr/lib/wsl/lib. A module that nvidia-smi or DKMS complain about there belongs to a
 * Linux driver installed inside WSL, which is the fault: it shadows WSL's libraries and
 * can never load. */
static const char *driver_inside_wsl(const dl_paste *p, const dl_facts *f, const char *id)
{
    if (strcmp(id, "kernel_module_not_built") != 0 && strcmp(id, "driver_not_loaded") != 0 &&
        strcmp(id, "secure_boot_blocks_module") != 0)
        return id;
    return text_in_wsl(p, f) ? "wsl_libcuda_path" : id;
}

/* An undefined symbol names a free function of the global namespace ("_Z27points_in_boxes_cpu_
 * forwardN2at6TensorES0_S0_": "_Z", the name's length, the name) other than torch's C API
 * (THP..., THC..., TH...). torch's C++ API lives in namespaces (at::, c10::, torch::, caffe2::;
 * "_ZN2at", "_ZNK3c10"), so such a function is the package's own: its binary lacks a function
 * its own code calls, a fault of that build of the package, not a torch it was not built for.
 * True when every undefined symbol of the text is of that kind. */
static bool own_function_symbols_only(const dl_paste *p)
{
    long i;
    bool seen = false;
    for (i = dl_paste_find(p, 0, "undefined symbol: _z"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "undefined symbol: _z")) {
        const char *at = strstr(p->lines[i].lower, "undefined symbol: _z") + 20;
        while (isdigit((unsigned char)*at))
            at++;
        if (at == strstr(p->lines[i].lower, "undefined symbol: _z") + 20 ||
            !strncmp(at, "th", 2))
            return false;
        seen = true;
    }
    return seen;
}

/* A statement that imports torch itself ("import torch", "import torch.nn as nn", "from
 * torch import nn"; not "import torchvision"). */
static bool imports_torch(const char *low)
{
    static const char *const marks[] = {"import torch", "from torch"};
    size_t k;
    for (k = 0; k < sizeof marks / sizeof marks[0]; k++) {
        const char *at;
        for (at = strstr(low, marks[k]); at; at = strstr(at + 1, marks[k])) {
            char next = at[strlen(marks[k])];
            if (!isalnum((unsigned char)next) && next != '_')
                return true;
        }
    }
    return false;
}

/* An extension imported before torch: torch's own libraries (libc10.so, libtorch.so,
 * libtorch_python.so, in every torch) are found once "import torch" has loaded them, not
 * through the extension's own search path, so "libc10.so: cannot open shared object file"
 * from "import causal_conv1d_cuda" or "from pytorch3d import _C" with no torch imported
 * before it is the import order, not a package built for another torch (import torch
 * first); torchvision imports torch before its own libraries, so it cannot fail so either.
 * Another torch's symbol ("undefined symbol") anywhere in the text is that mismatch, and
 * torch's own __init__.py failing is torch's import. */
bool dl_text_extension_before_torch(const dl_paste *p)
{
    static const char *const libs[] = {"libc10.so: cannot open", "libtorch.so: cannot open",
                                       "libtorch_python.so: cannot open"};
    long err = dl_paste_find_any(p, libs, sizeof libs / sizeof libs[0]), i;
    /* Python's loader error, not a program's ("error while loading shared libraries") */
    if (err < 0 || (!strstr(p->lines[err].lower, "importerror") &&
                    !strstr(p->lines[err].lower, "oserror")) ||
        dl_paste_find(p, 0, "undefined symbol") >= 0 ||
        dl_paste_find(p, 0, "torch/__init__.py") >= 0 ||
        dl_paste_find(p, 0, "torch\\__init__.py") >= 0)
        return false;
    for (i = 0; i <= err; i++)
        if (imports_torch(p->lines[i].lower))
            return false;
    return true;
}

static const char *own_symbol(const dl_paste *p, const char *id)
{
    if (strcmp(id, "extension_mismatch") != 0)
        return id;
    return own_function_symbols_only(p) ? "" : id;
}

/* The writer says the machine has no (NVIDIA) GPU ("a CPU only computer", "running without
 * CUDA/Nvidia", "I don't have a GPU"): a driver, a CPU build or a wedged module cannot be
 * the fault where no GPU exists, so a CUDA error there means code that asks for CUDA on a
 * machine without a GPU. torch.load's own hint ("If you are running on a CPU-only machine,
 * please use torch.load with map_location") is the message, not the writer: it is skipped. */
/* "without a gpu driver": what is missing is the driver, not the GPU; "compiled without
 * GPU support" (bitsandbytes' CPU library) names a build, not the machine */
static bool names_driver_next(const char *after)
{
    while (*after == ' ' || *after == '-')
        after++;
    return !strncmp(after, "driver", 6) || !strncmp(after, "support", 7) ||
           !strncmp(after, "acceleration", 12);
}

static bool writer_has_no_gpu(const dl_paste *p)
{
    static const char *const says[] = {
        "cpu only computer", "cpu-only computer", "cpu only machine", "cpu-only machine",
        "cpu only laptop", "cpu-only laptop", "cpu only pc", "cpu-only pc",
        "cpu only server", "cpu-only server", "without cuda/nvidia", "without nvidia",
        "without an nvidia gpu", "without a gpu", "without any gpu",
        "don't have a gpu", "do not have a gpu", "don't have an nvidia", "do not have an nvidia",
        "don't have any gpu", "i have no gpu", "has no gpu", "have no nvidia gpu",
        "no cuda gpu installed", "no gpu installed", "there is no gpu", "doesn't have a gpu",
        "does not have a gpu", "doesn't have nvidia gpu", "doesn't have an nvidia gpu",
        "does not have an nvidia gpu", "don't have an nvdia", "don't have an nvida",
        "do not have an nvdia", "do not have an nvida", "laptop with cpu", "laptop with only cpu",
        "laptop with only a cpu", "without gpu", "without a graphics card",
        "without graphics card", "without a dedicated gpu", "without dedicated gpu",
        "no dedicated gpu", "no discrete gpu", "without a discrete gpu", "non gpu laptop",
        "non-gpu laptop", "non gpu machine", "non-gpu machine", "non gpu pc", "non-gpu pc"};
    size_t s;
    long i;
    for (s = 0; s < sizeof says / sizeof says[0]; s++)
        for (i = dl_paste_find(p, 0, says[s]); i >= 0;
             i = dl_paste_find(p, (size_t)i + 1, says[s]))
            if (!strstr(p->lines[i].lower, "map_location") &&
                !names_driver_next(strstr(p->lines[i].lower, says[s]) + strlen(says[s])))
                return true;
    return false;
}

static const char *machine_without_gpu(const dl_paste *p, const dl_gpu_span *gpu,
                                       const char *id)
{
    static const char *const gpu_side[] = {"no_driver_installed", "driver_too_old",
                                           "driver_not_loaded", "suspend_resume_uvm",
                                           "no_gpu_visible", "cpu_only_build",
                                           "wsl_libcuda_path", "libcuda_not_found"};
    size_t i;
    for (i = 0; i < sizeof gpu_side / sizeof gpu_side[0]; i++)
        if (!strcmp(id, gpu_side[i]))
            /* a GPU the text names contradicts the words */
            return !(gpu && gpu->hi) && writer_has_no_gpu(p) ? "no_gpu" : id;
    return id;
}

/* The wish at `at` is not denied just before it ("I don't want the CPU version" wants the
 * other). */
static bool wish_not_denied(const char *low, const char *at, size_t len)
{
    (void)len;
    return !((at - low >= 6 && !strncmp(at - 6, "don't ", 6)) ||
             (at - low >= 7 && !strncmp(at - 7, "do not ", 7)) ||
             (at - low >= 5 && !strncmp(at - 5, "dont ", 5)));
}

/* The writer sets out to install the CPU build ("I'm trying to install the cpu version",
 * "I want the CPU version"; not "the solver tries to install the CPU-only build"): conda
 * choosing the CPU variant is then what was asked for, not the fault. */
static bool writer_wants_cpu_build(const dl_paste *p)
{
    static const char *const wants[] = {
        "trying to install cpu", "trying to install the cpu", "want to install cpu",
        "want to install the cpu", "want the cpu version", "want the cpu-only",
        "need the cpu version", "need the cpu-only", "should i install the cpu",
        "should i install cpu", "should i use the cpu version", "should i get the cpu"};
    return dl_paste_find_any_where(p, wants, sizeof wants / sizeof wants[0], wish_not_denied) >=
           0;
}

/* The writer asks which build to install or says they want the CPU one, and tells of no
 * install that gave it ("it installed the cpu version", "ended up with"): a CPU build is
 * then the plan, not the fault. */
static bool cpu_build_only_wanted(const dl_paste *p)
{
    static const char *const got[] = {"installed the cpu", "installs the cpu",
                                      "installed cpu", "installs cpu", "ended up with",
                                      "resulted in", "+cpu", "is_available", "was cpu",
                                      "is cpu"};
    return writer_wants_cpu_build(p) && dl_paste_find_any(p, got, sizeof got / sizeof got[0]) < 0;
}

/* The text is a docker build's (a build command, BuildKit's "#0 1.23" step lines, its
 * "failed to solve"), not a running container's. */
static bool docker_build_step(const dl_paste *p)
{
    static const char *const build[] = {"docker build", "docker-compose up --build",
                                        "docker compose build", "docker compose up --build",
                                        "failed to solve", "executor failed running"};
    long i = dl_paste_find_any(p, build, sizeof build / sizeof build[0]);
    if (i >= 0)
        return true;
    for (i = dl_paste_find(p, 0, "#0 "); i >= 0; i = dl_paste_find(p, (size_t)i + 1, "#0 "))
        if (!strncmp(p->lines[i].lower, "#0 ", 3) && isdigit((unsigned char)p->lines[i].lower[3]))
            return true;
    return false;
}

/* An extension's build asked torch for the GPU and got none: "No CUDA runtime is found",
 * or the empty architecture list that follows ("arch_list[-1] += '+PTX'"). */
static bool build_step_asked_gpu(const dl_paste *p)
{
    return dl_paste_find(p, 0, "no cuda runtime is found") >= 0 ||
           dl_paste_find(p, 0, "arch_list[-1] += '+ptx'") >= 0;
}

/* A laptop's GPU switcher in the mode that turns the NVIDIA GPU off. */
static bool gpu_switcher_named(const dl_paste *p)
{
    static const char *const switchers[] = {"envycontrol", "supergfxctl", "supergfxd",
                                            "50-remove-nvidia.rules", "blacklist-nvidia.conf",
                                            "eco mode", "igpu-only mode", "igpu only mode",
                                            "select only integrated", "gpu toggle"};
    return dl_paste_find_any(p, switchers, sizeof switchers / sizeof switchers[0]) >= 0;
}

/* A system container (LXD, LXC, Incus, Proxmox) named: its device list, not the host's
 * driver, decides which GPU nodes the program sees. */
static bool system_container(const dl_paste *p)
{
    static const char *const words[] = {"lxd", "lxc", "incus", "proxmox"};
    return dl_paste_find_any(p, words, sizeof words / sizeof words[0]) >= 0;
}

/* The writer installed from PyTorch's CPU index themselves ("pip3 install torch
 * --extra-index-url https://download.pytorch.org/whl/cpu") and asks nothing of CUDA or the
 * GPU: the CPU build is what they chose, and their trouble is another. */
static bool cpu_index_chosen(const dl_paste *p)
{
    static const char *const indexes[] = {"download.pytorch.org/whl/cpu", "cpu wheel index",
                                          "cpu index"};
    size_t k;
    long i;
    for (k = 0; k < sizeof indexes / sizeof indexes[0]; k++)
        for (i = dl_paste_find(p, 0, indexes[k]); i >= 0;
             i = dl_paste_find(p, (size_t)i + 1, indexes[k]))
            if (strstr(p->lines[i].lower, "install"))
                return !dl_text_wants_cuda(p) && dl_text_gpu_unused_line(p) < 0 &&
                       dl_text_unavailable_line(p) < 0;
    return false;
}

/* The causes that a passed GPU self-check disproves when the text's only trouble is the
 * driver's library: Paddle's loader lines all name libcuda (a missing cuDNN or cuBLAS would
 * still fail later, beyond the self-check's small program). */
static bool libcuda_cause_disproved(const dl_paste *p, const char *signature, const char *id)
{
    long i;
    if (!dl_text_gpu_self_check_passed(p))
        return false;
    if (!strcmp(id, "wsl_libcuda_path") || !strcmp(id, "libcuda_not_found"))
        return true;
    if (!signature || strcmp(signature, "paddle_dynload_libs_missing") != 0)
        return false;
    for (i = dl_paste_find(p, 0, "paddle depends on"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "paddle depends on"))
        if (!strstr(p->lines[i].lower, "libcuda."))
            return false;
    return true;
}

/* torch_python.dll, of all torch's DLLs, fails to load from a torch an add-on keeps for its
 * host app (Blender's .python_dependencies): the others loaded, and this one needs the
 * Python DLL of the version it was built for, which the app's Python is not
 * (carson-katri/dream-textures#293: the add-on installed from a newer Blender, run in 3.0). */
static bool vendored_torch_for_other_python(const dl_paste *p)
{
    static const char *const vendored[] = {".python_dependencies", "blender foundation"};
    long line = dl_paste_find(p, 0, "torch_python.dll");
    return line >= 0 && strstr(p->lines[line].lower, "error loading") &&
           dl_paste_find_any(p, vendored, sizeof vendored / sizeof vendored[0]) >= 0;
}

/* One collect_env shows both the GPU ("GPU models and configuration: GPU 0: NVIDIA GH200
 * 480GB", nvidia-smi's list, so the driver answered where it ran) and a torch built without
 * CUDA: the place that runs this torch sees the GPU, and the build is the fault. A host's
 * report beside a container's error keeps the container reading (its torch is a CUDA one). */
static bool collect_env_gpu_beside_cpu_torch(const dl_paste *p)
{
    static const char *const cpu_torch[] = {"cuda used to build pytorch: none",
                                            "cuda used to build pytorch: could not collect"};
    long i = dl_paste_find(p, 0, "gpu models and configuration:");
    if (i < 0 || dl_paste_find_any(p, cpu_torch, sizeof cpu_torch / sizeof cpu_torch[0]) < 0)
        return false;
    if (strstr(p->lines[i].lower, "gpu 0: nvidia"))
        return true;
    return (size_t)i + 1 < p->count && !strncmp(p->lines[i + 1].lower, "gpu 0: nvidia", 13);
}

/* ptxas refusing "--gpu-name=sm_121a" ("Value 'sm_121a' is not defined for option
 * 'gpu-name'") names the architecture the build asked for: one that new (sm_90 and above) is
 * the GPU's, newer than that ptxas (Triton's bundled one); the wheel lists of torch do not
 * enter (triton-lang/triton#8539: a DGX Spark, CUDA 13's ptxas fixed it). */
static const char *ptxas_gpu_name(const dl_paste *p, const char *id)
{
    long i = dl_paste_find(p, 0, "value 'sm_");
    unsigned sm = 0;
    if (i < 0 || sscanf(strstr(p->lines[i].lower, "value 'sm_") + 10, "%u", &sm) != 1)
        return id;
    /* below sm_50 the build asked for an architecture the toolkit dropped (a project's
     * hard-coded sm_30, an old apt toolkit first on PATH), which says nothing of the GPU
     * (utcs-scea/altis#19 on a GTX 1650, NVlabs/instant-ngp#747): no reading */
    return sm >= 90 ? "arch_not_in_wheel" : sm < 50 ? "" : id;
}

/* torch_wheels' platform for a wheel tag in uv's hint ("macosx_15_0_arm64"); NULL when none. */
static const char *wheel_platform_of_tag(const char *tag)
{
    bool arm = strstr(tag, "arm64") || strstr(tag, "aarch64");
    if (!strncmp(tag, "macosx_", 7))
        return arm ? "macos-arm64" : "macos-x86_64";
    if (strstr(tag, "linux"))
        return arm ? "linux-arm64" : "linux-x86_64";
    if (!strncmp(tag, "win_amd64", 9))
        return "windows-x86_64";
    return NULL;
}

/* uv's hint "You're on macOS (`macosx_15_0_arm64`), but `torch` (v2.5.1) only has wheels
 * for the following platform: `manylinux1_x86_64`" lists the wheels for the Python it
 * resolves for: where that release has wheels for this platform for other Pythons but not
 * for this one (torch 2.5.1 had cp313 wheels on Linux x86_64 only), the Python is the
 * cause, not the platform. */
static bool uv_hint_python_without_wheel(const dl_knowledge *k, const dl_paste *p,
                                         const dl_facts *f)
{
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    long i = dl_paste_find(p, 0, "you're on ");
    const char *low, *tag, *platform, *v;
    char release[32], tagbuf[48], other[16];
    int minor;
    if (i < 0 || !py || !py->version.value)
        return false;
    low = p->lines[i].lower;
    tag = strchr(low, '`');
    v = strstr(low, "(v");
    if (!tag || !v || sscanf(tag + 1, "%47[a-z0-9_]", tagbuf) != 1 ||
        !(platform = wheel_platform_of_tag(tagbuf)) ||
        !dl_torch_version_after(v, "(v", release, sizeof release) ||
        dl_kq_release_has_python_on(k, release, py->version.value, platform))
        return false;
    for (minor = 8; minor <= 14; minor++) {
        snprintf(other, sizeof other, "3.%d", minor);
        if (dl_kq_release_has_python_on(k, release, other, platform))
            return true;
    }
    return false;
}

/* A program the writer froze into an executable: the bundler named in their own words
 * (not only in PyInstaller's loader frames, which every frozen app's traceback shows, the
 * ones vendors ship too), or a bundle's dist folder: a DLL torch misses there is one the
 * bundler left out (frozen_app_missing_torch_files), not one the machine lacks. */
static bool frozen_here(const dl_paste *p)
{
    static const char *const bundlers[] = {"cx_freeze", "cx-freeze", "nuitka", "py2exe",
                                           "auto-py-to-exe", "\\dist\\", "/dist/"};
    long i;
    for (i = dl_paste_find(p, 0, "pyinstaller"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "pyinstaller")) {
        const char *at = strstr(p->lines[i].lower, "pyinstaller");
        for (; at; at = strstr(at + 1, "pyinstaller"))
            if (strncmp(at + 11, "\\loader", 7) != 0 && strncmp(at + 11, "/loader", 7) != 0)
                return true;
    }
    return dl_paste_find_any(p, bundlers, sizeof bundlers / sizeof bundlers[0]) >= 0;
}

const char *dl_reading_for(const dl_knowledge *k, const dl_paste *p, const dl_facts *f,
                           const dl_gpu_span *gpu, const char *signature, const char *id,
                           bool *settled)
{
    const char *row_reading;
    if (settled)
        *settled = false;
    if (gpu_unreachable_cause(id) && dl_text_cuda_tensor_line(p) >= 0)
        return "";
    if (libcuda_cause_disproved(p, signature, id))
        return "";
    if (!strcmp(id, "win_dll_dependency_missing") && vendored_torch_for_other_python(p))
        return "wheel_tag_mismatch";
    if ((!strcmp(id, "win_dll_dependency_missing") || !strcmp(id, "vc_redist_missing")) &&
        frozen_here(p))
        return "frozen_app_incomplete";
    if (!strcmp(id, "frozen_app_incomplete") && !frozen_here(p))
        return "";
    if (!strcmp(id, "wheel_tag_mismatch") && signature &&
        !strcmp(signature, "uv_no_wheel_platform") && uv_hint_python_without_wheel(k, p, f))
        return "python_unsupported";
    if (signature && !strcmp(signature, "conda_virtual_cuda_too_old") &&
        conda_driver_cuda_suffices(p))
        return "";
    if (strcmp(colab_without_gpu(p, id), id) != 0)
        return "no_gpu";
    /* "macOS" only in what the text quotes (a README's table of install commands) where the
     * text's own machine is another system: no Mac ran it */
    if (!strcmp(id, "no_cuda_on_macos") && signature && !strcmp(signature, "macos_cuda") &&
        f->os.family.value && !dl_q_text_is(&f->os.family, "macos") && !mac_host_named(p))
        return "";
    if (strcmp(wsl1_without_gpu(p, id), id) != 0)
        return "no_gpu_visible";
    if (strcmp(driver_inside_wsl(p, f, id), id) != 0)
        return "wsl_libcuda_path";
    /* a program that wants CUDA's libraries (CTranslate2's cuDNN 8) on a machine the writer
     * says has no NVIDIA GPU: the GPU, as for the driver's and the loader's findings */
    if (signature && !strncmp(signature, "ctranslate2_", 12) &&
        strcmp(machine_without_gpu(p, gpu, "libcuda_not_found"), "libcuda_not_found") != 0)
        return "no_gpu";
    /* "no NVIDIA GPU here" on a Mac: the Mac, which no NVIDIA GPU would help; beside the
     * GPU the writer has ("I do not have an nvidia card (I have an Intel HD graphics
     * 530)"): that other vendor's GPU */
    if (strcmp(machine_without_gpu(p, gpu, id), id) != 0)
        return dl_q_text_is(&f->os.family, "macos") ? "no_cuda_on_macos"
               : other_vendor_only(p, f)           ? "non_nvidia_gpu"
                                                   : "no_gpu";
    /* a CPU build beside a GPU no wheel has kernels for: a CUDA build would not run there
     * either, so the GPU is the cause (the CPU build stays a candidate) */
    if (!strcmp(id, "cpu_only_build") && dl_gpu_below_every_wheel(k, f, gpu))
        return "gpu_arch_dropped";
    if (!strcmp(id, "conda_cpu_build_selected") && writer_wants_cpu_build(p))
        return "";
    if (!strcmp(id, "cpu_only_build") && (cpu_build_only_wanted(p) || cpu_index_chosen(p)))
        return "";
    if (!strcmp(id, "cpu_only_build") && dl_text_conda_chose_the_build(p))
        return "conda_cpu_build_selected";
    if (strcmp(own_symbol(p, id), id) != 0)
        return "";
    if ((!strcmp(id, "extension_mismatch") || !strcmp(id, "torch_import_failed") ||
         !strcmp(id, "torchvision_mismatch")) &&
        dl_text_extension_before_torch(p))
        return "";
    if (!strcmp(id, "arch_not_in_wheel") && slow_jit_only(p))
        return id;
    /* FlashAttention's "Ampere or newer" (or vLLM's XFormers fallback refusing soft-capping)
     * beside a named GPU of 8.0 or newer is no old GPU: a build that refuses a GPU it should
     * run, or a backend chosen by hand (Blackwell has its own row); no reading */
    if (!strcmp(id, "gpu_arch_dropped") && signature &&
        (!strcmp(signature, "flash_attn_gpu_too_old") ||
         !strcmp(signature, "vllm_attention_needs_ampere")) &&
        gpu->hi && gpu->lo >= 80)
        return "";
    /* cuDNN refuses only GPUs below compute capability 3.0: beside a named GPU of 3.0 or
     * newer, the cuDNN loaded lacks its architecture: torch's own for a Kepler GPU (3.x),
     * which the cuDNN of newer builds dropped (a K80 on cu12x; cu118 ran it), else another
     * cuDNN found first (pytorch#20202: a stray cudnn64_7.dll in System32) or a library
     * built without it (dlib#1263) */
    if (!strcmp(id, "gpu_arch_dropped") && signature &&
        !strcmp(signature, "cudnn_arch_mismatch") && gpu->hi && gpu->lo >= 30)
        return dl_gpu_below_every_wheel(k, f, gpu) || gpu->hi < 50 ? id
                                                                     : "ld_library_path_conflict";
    if (!strcmp(id, "arch_not_in_wheel") && signature &&
        !strcmp(signature, "ptxas_gpu_name_unknown"))
        return ptxas_gpu_name(p, id);
    if (!strcmp(id, "arch_not_in_wheel") && (row_reading = build_weighed_by_row(signature, gpu, id)))
        return row_reading;
    if (!strcmp(id, "arch_not_in_wheel") && !gpu->hi && same_gpu_after_update(p))
        return "gpu_arch_dropped";
    /* a Jetson Thor named in words (sm_110, which cu128's list skips between sm_100 and
     * sm_120) is no old GPU: the wheel's own list decides nothing about its age */
    if (!strcmp(id, "arch_not_in_wheel") && !gpu->hi && dl_text_jetson_line(p) >= 0 &&
        dl_paste_find(p, 0, "thor") >= 0)
        return id;
    if (!strcmp(id, "arch_not_in_wheel"))
        return kernel_image(k, f, gpu, id, settled);
    if (!strcmp(id, "cuda_oom"))
        return oom_numbers(p, id, settled);
    /* Windows has no ulimit, and its torch shares tensors through files, not descriptors:
     * an Errno 24 there is the C runtime's own limit or handles another process holds */
    if (!strcmp(id, "open_files_limit") && dl_q_text_is(&f->os.family, "windows"))
        return "";
    if ((!strcmp(id, "python_unsupported") || !strcmp(id, "python_32bit")) &&
        (dl_directml_python_covered(p, f) || dl_selector_command_on_32bit(p, f)))
        return "python_32bit";
    if (!strcmp(id, "python_unsupported") &&
        !strcmp(from_versions(k, p, id), "wheel_tag_mismatch"))
        return cuda_wheel_on_a_mac(p, f, "wheel_tag_mismatch");
    /* a "+cuXYZ" torch asked for on a Mac: the CUDA index has no macOS wheel at all */
    if (!strcmp(id, "python_unsupported") && strcmp(cuda_wheel_on_a_mac(p, f, id), id) != 0)
        return "no_cuda_on_macos";
    if (!strcmp(id, "python_unsupported"))
        return only_old_sdists_for_built_python(k, p, f, from_versions(k, p, id));
    if (!strcmp(id, "wheel_tag_mismatch") && strcmp(cuda_wheel_on_a_mac(p, f, id), id) != 0)
        return "no_cuda_on_macos";
    if (!strcmp(id, "wheel_tag_mismatch"))
        return wheel_name(p, f, id);
    if (!strcmp(id, "python_32bit"))
        return no_wheel_at_all(k, p, f, id);
    if (!strcmp(id, "torch_not_installed"))
        return no_module(p, f, id);
    if (!strcmp(id, "torch_import_failed"))
        return core_missing(p, id);
    /* nvidia_uvm, the module a suspend leaves wedged, is Linux's: on Windows the same
     * "unknown error" has other causes, which this reading cannot name */
    if (!strcmp(id, "suspend_resume_uvm") && dl_q_text_is(&f->os.family, "windows"))
        return "";
    /* docker build runs its steps without a GPU by design: no driver, an old driver's
     * answer (35) or no CUDA runtime there is no fault of the host or of torch's build */
    if ((!strcmp(id, "no_driver_installed") || !strcmp(id, "driver_too_old") ||
         (!strcmp(id, "cpu_only_build") && build_step_asked_gpu(p))) &&
        docker_build_step(p))
        return "docker_no_gpu_passthrough";
    /* a laptop's GPU switcher turned the GPU off (gpu_switched_off's rows): the driver
     * is off by design, not missing or broken */
    if ((!strcmp(id, "driver_not_loaded") || !strcmp(id, "kernel_module_not_built") ||
         !strcmp(id, "no_driver_installed") || !strcmp(id, "suspend_resume_uvm") ||
         !strcmp(id, "nouveau_loaded")) &&
        gpu_switcher_named(p))
        return "";
    /* where nothing loads nvidia_uvm on demand, unavailable_text.c reads its absence; a
     * system container (LXD, Incus, Proxmox) lacks the node rather than a wedged module */
    if (!strcmp(id, "suspend_resume_uvm") &&
        (dl_text_uvm_not_loaded_on_demand(p) || system_container(p)))
        return "";
    /* ZLUDA in use: the vendor's rows ("CUDA cannot work on AMD") say nothing; ZLUDA's own
     * rows do */
    if (!strcmp(id, "non_nvidia_gpu") && signature && strncmp(signature, "zluda_", 6) != 0 &&
        dl_text_zluda_in_use(p))
        return "";
    /* the other vendor's own stack refusing the GPU (DirectML asked for on Linux, Intel's
     * XPU build finding no GPU it supports): that GPU, as the signature says */
    if (!strcmp(id, "non_nvidia_gpu") && other_vendor_stack_refused(p, f))
        return id;
    /* DirectML failing: a CPU torch and an AMD or Intel GPU are its intended setup */
    if ((!strcmp(id, "non_nvidia_gpu") || !strcmp(id, "cpu_only_build")) && dl_directml_failed(p))
        return "";
    /* one release's known shm.dll failure (windows_text.c) names it; the DLL stays a
     * candidate there */
    if (!strcmp(id, "win_dll_dependency_missing") && dl_shm_dll_release_line(p, f) >= 0)
        return "";
    if (!strcmp(id, "win_dll_dependency_missing"))
        return dll_on_fresh_windows(p, id);
    if (!strcmp(id, "no_driver_installed") && strcmp(cuda_on_a_mac(p, f, id), id) == 0)
        return driver_in_container(p, id);
    /* the Container Toolkit's own error: the GPUs were asked for (container_text.c) */
    if (!strcmp(id, "no_gpu_visible") && dl_container_toolkit_ran(p))
        return id;
    /* Intel's XPU build finding no device: CUDA's own variables and scripts are no reading */
    if (!strcmp(id, "no_gpu_visible") && dl_paste_find(p, 0, "xpu") >= 0)
        return id;
    /* nvidia-smi failing inside a Slurm job that asked for no GPU: the job sees no device
     * file, the node's driver is not the question (slurm_job_without_gpu reads it); a
     * message that names the nvidia_uvm module is the node's own (enroot#106) */
    if (!strcmp(id, "driver_not_loaded") && slurm_job_without_gpu_request(p) &&
        !(signature && strstr(signature, "uvm")))
        return "";
    if (!strcmp(id, "no_gpu_visible") && strcmp(cuda_on_a_mac(p, f, id), id) == 0)
        return gpus_hidden(p, f, id);
    if (!strcmp(id, "pip_python_mismatch"))
        return torch_found(p, id);
    /* a checkpoint saved on CUDA, in a text that shows no GPU: checkpoint_text.c reads it */
    if (!strcmp(id, "cpu_only_build") && !dl_q_text_is(&f->os.family, "macos") &&
        dl_text_checkpoint_without_gpu_evidence(p, f))
        return "";
    if (!strcmp(id, "no_cuda_on_macos") && dl_q_text_is(&f->os.family, "windows"))
        return "";
    /* torchrun's "not supported in Windows or MacOs" names Windows on a Mac too; there
     * mac_text.c reads the missing NCCL as the Mac's */
    if (!strcmp(id, "nccl_on_windows") && dl_q_text_is(&f->os.family, "macos"))
        return "";
    if (!strcmp(id, "no_cuda_on_macos"))
        return mac_asks_cuda(p, id);
    /* "no NVIDIA GPU here" where the text names the GPU it has, another vendor's ("a
     * laptop with Intel i5 Graphics"): that GPU, as its name in the signature's words reads */
    if (!strcmp(id, "no_gpu") && !dl_q_text_is(&f->os.family, "macos") && other_vendor_only(p, f))
        return "non_nvidia_gpu";
    /* a CPU run that still asks for CUDA, on a Mac: the Mac, where no build has CUDA */
    if (!strcmp(id, "no_gpu") && dl_q_text_is(&f->os.family, "macos") &&
        dl_paste_find(p, 0, "not compiled with cuda") >= 0)
        return mac_asks_cuda(p, "no_cuda_on_macos");
    /* a Mac asking for CUDA is the Mac, whatever its GPU's brand (an Intel Mac's AMD) */
    if (!strcmp(id, "non_nvidia_gpu") && dl_q_text_is(&f->os.family, "macos"))
        return mac_asks_cuda(p, "no_cuda_on_macos");
    /* the text's GPU is NVIDIA's (a laptop's "dedicated 4070" beside its integrated
     * Radeon): the other vendor's GPU there is not the one that fails */
    if (!strcmp(id, "non_nvidia_gpu") && nvidia_gpu_named(f))
        return "";
    if (!strcmp(id, "non_nvidia_gpu"))
        return other_vendor_asks_cuda(p, id);
    if (!strcmp(id, "cpu_only_build") && strcmp(cpu_run_reported(p, f, id), id) != 0)
        return cpu_run_reported(p, f, id);
    /* a Mac's collect_env says "CUDA used to build PyTorch: None" and "Is CUDA available:
     * False" whatever failed: no build there has CUDA, so only a text that asks for CUDA
     * makes it the Mac's cause (pytorch/pytorch#164943: an MPS error) */
    if (!strcmp(id, "cpu_only_build") && signature && !strcmp(signature, "collect_env_cpu") &&
        dl_q_text_is(&f->os.family, "macos") && !nvidia_gpu_named(f) &&
        dl_paste_find(p, 0, "not compiled with cuda") < 0)
        return mac_asks_cuda(p, "no_cuda_on_macos");
    if (!strcmp(id, "cpu_only_build") || !strcmp(id, "no_driver_installed") ||
        !strcmp(id, "no_gpu_visible"))
        return cuda_on_a_mac(p, f, id);
    /* the machine's only GPU is another vendor's ("Intel Xe Graphics", a Radeon): --gpus
     * all cannot help where no NVIDIA GPU exists, the GPU is the cause */
    if (!strcmp(id, "docker_no_gpu_passthrough") &&
        (other_vendor_only(p, f) || other_vendor_in_words(p)))
        return "non_nvidia_gpu";
    /* collect_env listed the GPU beside a torch without CUDA: whatever container the text
     * names, the GPU reached it (pytorch/pytorch#123835: PyPI's aarch64 torch on a GH200) */
    if (!strcmp(id, "docker_no_gpu_passthrough") && collect_env_gpu_beside_cpu_torch(p))
        return "";
    /* a Jetson's container with pip's torch reads cpu_only_build (container_text.c) */
    if (!strcmp(id, "docker_no_gpu_passthrough"))
        return dl_container_jetson_torch(p, f, id);
    return id;
}
