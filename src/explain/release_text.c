#include "explain/release_text.h"

#include "base/str.h"
#include "explain/cpu_build_text.h"
#include "explain/quote.h"
#include "explain/text_marks.h"
#include "explain/text_cause.h"
#include "facts/query.h"
#include "know/version.h"
#include "rules/fixes.h"
#include "rules/know_query.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The text's torch as "X.Y.Z": the installed one, else the one the runtime reports
 * (collect_env's "PyTorch version"); false when the text gives none. */
static bool text_torch_release(const dl_facts *f, char *out, size_t n)
{
    const char *v = dl_q_first_torch_version(f);
    dl_torch_version tv;
    if (!v || !dl_torch_version_parse(v, &tv) || tv.pre != DL_PRE_NONE)
        return false;
    snprintf(out, n, "%lu.%lu.%lu", tv.release.part[0], tv.release.part[1],
             tv.release.part[2]);
    return true;
}

/* The build the text's torch is ("cu118" from 2.0.0+cu118 or collect_env's "CUDA used to
 * build PyTorch: 11.8"; "cpu"); "" when the text does not say. */
static void text_variant(const dl_facts *f, char *out, size_t n)
{
    const char *v = dl_q_first_torch_version(f);
    const char *cuda = dl_q_torch_cuda(f);
    dl_torch_version tv;
    unsigned major = 0, minor = 0;
    out[0] = '\0';
    if (v && dl_torch_version_parse(v, &tv) && tv.local[0])
        snprintf(out, n, "%s", tv.local);
    else if (cuda && sscanf(cuda, "%u.%u", &major, &minor) == 2)
        snprintf(out, n, "cu%u%u", major, minor);
}

/* Whether the text's torch can be the row's build (`variant`: "any", "cu102"): a local tag
 * the text shows ("1.8.0+cu111") or the CUDA collect_env says it was built with ("CUDA used
 * to build PyTorch: 11.1") must name it; an untagged torch with no CUDA said is PyPI's
 * default build, which the row's variant describes. */
static bool variant_fits(const dl_facts *f, const char *variant)
{
    char built[64];
    if (!strcmp(variant, "any"))
        return true;
    text_variant(f, built, sizeof built);
    return !built[0] || !strcmp(built, variant);
}

/* The text's GPU can be one the row's "gpu_cc:8.6;8.9" condition names: a capability of
 * the GPU's span is listed. With no GPU in the text, a row of one build decides only where
 * the text shows that build: its message may be any build's ("no kernel image is
 * available" is every build's on a GPU it lacks). */
static bool row_gpu_fits(const dl_table *kb, size_t r, const dl_explanation *e)
{
    const char *cond = dl_table_cell(kb, r, DL_COL_known_bad_releases_condition);
    char built[64];
    if (strncmp(cond, "gpu_cc:", 7) != 0)
        return true;
    if (!e->gpu.hi) {
        text_variant(&e->facts, built, sizeof built);
        return built[0] != '\0';
    }
    for (cond += 7; *cond;) {
        unsigned major, minor, cc;
        int used = 0;
        if (sscanf(cond, "%u.%u%n", &major, &minor, &used) != 2 || !used)
            return false;
        cc = major * 10 + minor;
        if (cc >= e->gpu.lo && cc <= e->gpu.hi)
            return true;
        cond += used;
        cond += *cond == ';';
    }
    return false;
}

/* The first line that shows one of the row's message forms: the `message` cell's forms
 * ("a || b", an "alone: " in front when the message is the release's own), or the
 * condition's "text:"/"message:" form; -1 when none. *alone: the message names the release
 * even where the text gives no version. */
static long row_message_line(const dl_table *kb, size_t r, const dl_paste *p, bool *alone)
{
    const char *cond = dl_table_cell(kb, r, DL_COL_known_bad_releases_condition);
    const char *cell = dl_table_cell(kb, r, DL_COL_known_bad_releases_message);
    long best = -1;
    *alone = !strncmp(cond, "message:", 8);
    if (*alone || !strncmp(cond, "text:", 5))
        return dl_paste_find(p, 0, cond + (*alone ? 8 : 5));
    if (!cell || !*cell)
        return -1;
    if (!strncmp(cell, "alone: ", 7)) {
        *alone = true;
        cell += 7;
    }
    while (*cell) {
        const char *end = strstr(cell, " || ");
        size_t n = end ? (size_t)(end - cell) : strlen(cell);
        char *form = dl_strndup(cell, n);
        long at = dl_paste_find(p, 0, form);
        free(form);
        if (at >= 0 && (best < 0 || at < best))
            best = at;
        cell += n + (end ? 4 : 0);
    }
    return best;
}

/* The text's OS allows the row: the row is for any OS, or for the text's (a Linux row for
 * a text that also names WSL, whose nvidia-smi header reads as Windows); where the text
 * names no OS, the release and its message are enough (*unsure tells the title to say so). */
static bool row_os_fits(const char *row_os, const char *os, const dl_paste *p, bool *unsure)
{
    *unsure = false;
    if (!strcmp(row_os, "any") || (os && !strcmp(row_os, os)) ||
        (!strcmp(row_os, "linux") && dl_paste_find(p, 0, "wsl") >= 0))
        return true;
    *unsure = !os;
    return *unsure;
}

static const char *os_word(const char *os)
{
    return !strcmp(os, "linux") ? "Linux" : !strcmp(os, "windows") ? "Windows" : "macOS";
}

/* The pip command for torch `version` (the release that fixed a known problem) with the
 * torchvision torch_releases.csv pairs with it and the index of the build the text shows
 * where that release has it. On Windows with the build unknown it is said in words, since
 * PyPI's Windows torch is the CPU build and a command would trade a CUDA torch for it. */
static void install_fixed_release(const dl_knowledge *k, dl_explanation *e, dl_finding *x,
                                  const char *version)
{
    const dl_table *rel = dl_knowledge_at(k, DL_TABLE_torch_releases);
    const char *os = e->facts.os.family.value, *vision = NULL;
    bool windows = os && !strcmp(os, "windows");
    char variant[64], index[128] = "";
    long row = rel ? dl_kq_torch_release(k, version) : -1;
    text_variant(&e->facts, variant, sizeof variant);
    if (row >= 0) {
        vision = dl_table_cell(rel, (size_t)row, DL_COL_torch_releases_torchvision);
        if (variant[0] &&
            (!strcmp(variant, "cpu") ||
             dl_semicolon_list_has(dl_table_cell(rel, (size_t)row,
                                                 windows ? DL_COL_torch_releases_cuda_variants_windows
                                                         : DL_COL_torch_releases_cuda_variants_linux),
                                   variant)))
            snprintf(index, sizeof index, " --index-url https://download.pytorch.org/whl/%s",
                     variant);
    }
    /* releases before 1.12 (not in torch_releases.csv) predate the per-build indexes:
     * PyTorch's archive page holds their tagged wheels */
    if (row < 0 && variant[0] && strcmp(variant, "cpu") != 0 && strncmp(variant, "cu", 2) == 0) {
        dl_finding_fix(x, "python -m pip install torch==%s+%s -f "
                          "https://download.pytorch.org/whl/torch_stable.html",
                       version, variant);
        dl_fix_note(x, "PyTorch's archive holds the tagged wheels of releases before 1.12 "
                       "(conda: conda install pytorch==%s -c pytorch)",
                    version);
        return;
    }
    if (row < 0 && (windows || (variant[0] && strcmp(variant, "cpu") != 0))) {
        dl_fix_note(x, "install torch %s of the build you have from PyTorch's archive: python -m "
                       "pip install torch==%s+cu101 -f "
                       "https://download.pytorch.org/whl/torch_stable.html for a CUDA 10.1 "
                       "build (the tag of yours; conda: conda install pytorch==%s -c pytorch)",
                    version, version, version);
        return;
    }
    if (!index[0] && !variant[0] && windows)
        dl_fix_note(x, "install torch %s%s%s from the index of the build you have "
                       "(python -m pip install torch==%s --index-url "
                       "https://download.pytorch.org/whl/cu121 for a CUDA 12.1 build; "
                       "PyPI's torch is CPU-only on Windows)",
                    version, vision && *vision ? " with torchvision " : "",
                    vision && *vision ? vision : "", version);
    else
        dl_finding_fix(x, "python -m pip install torch==%s%s%s%s", version,
                       vision && *vision ? " torchvision==" : "", vision && *vision ? vision : "",
                       index);
    if (!index[0] && variant[0] && strcmp(variant, "cpu") != 0)
        dl_fix_note(x, "keep your build: add the --index-url of the build you have "
                       "(https://download.pytorch.org/whl/cu121 for a +cu121 torch)");
}

/* The fix for row r: the release that fixed it as a pip command, the same release again
 * without pip's cache where the fix was a re-upload, else the row's words; the sources as a
 * note. */
void dl_explain_known_bad_fix(const dl_knowledge *k, const dl_table *kb, size_t r,
                              dl_explanation *e, dl_finding *x)
{
    const char *release = dl_table_cell(kb, r, DL_COL_known_bad_releases_torch_version);
    const char *fixed = dl_table_cell(kb, r, DL_COL_known_bad_releases_fixed_in);
    char version[32];
    size_t len = strspn(fixed, "0123456789.");
    /* fixed_in starts with the release ("2.2.1 (pytorch PR ...)") or is words */
    if (!len || len >= sizeof version || fixed[len - 1] == '.' || !memchr(fixed, '.', len) ||
        (fixed[len] != '\0' && fixed[len] != ' ')) {
        dl_fix_note(x, "install another torch release: %s", fixed);
    } else {
        memcpy(version, fixed, len);
        version[len] = '\0';
        if (!strcmp(version, release)) {
            dl_finding_fix(x, "python -m pip install --force-reinstall --no-cache-dir torch==%s",
                           version);
        } else {
            dl_torch_version fv, rv;
            /* a fixed_in older than the release: no later one fixes it, go back */
            bool back = dl_torch_version_parse(version, &fv) &&
                        dl_torch_version_parse(release, &rv) && dl_torch_version_cmp(&fv, &rv) < 0;
            install_fixed_release(k, e, x, version);
            if (fixed[len] == ' ')
                dl_fix_note(x, back ? "back to %s" : "fixed in %s", fixed);
        }
    }
    dl_fix_note(x, "see %s", dl_table_cell(kb, r, DL_COL_known_bad_releases_source));
}

void dl_explain_known_bad_message(const dl_knowledge *k, dl_explanation *e)
{
    const dl_table *kb = dl_knowledge_at(k, DL_TABLE_known_bad_releases);
    const char *os = e->facts.os.family.value;
    char release[48];
    bool versioned;
    size_t r;
    if (!kb)
        return;
    versioned = text_torch_release(&e->facts, release, sizeof release);
    for (r = 0; r < kb->rows; r++) {
        const char *row_os = dl_table_cell(kb, r, DL_COL_known_bad_releases_os);
        const char *row_release = dl_table_cell(kb, r, DL_COL_known_bad_releases_torch_version);
        bool alone = false, unsure;
        long line;
        dl_finding *x;
        size_t j;
        if ((versioned && strcmp(row_release, release) != 0) ||
            !variant_fits(&e->facts, dl_table_cell(kb, r, DL_COL_known_bad_releases_variant)) ||
            !row_gpu_fits(kb, r, e) ||
            dl_findings_has(&e->findings, "known_bad_release") ||
            (line = row_message_line(kb, r, &e->paste, &alone)) < 0 || (!versioned && !alone) ||
            !row_os_fits(row_os, os, &e->paste, &unsure))
            continue;
        x = dl_finding_add(&e->findings, "known_bad_release", DL_SEV_FAILURE,
                           versioned ? "torch %s has a known problem here%s%s%s: %s"
                                     : "this error is torch %s's known problem%s%s%s: %s",
                           row_release, unsure ? " (if this is " : "",
                           unsure ? os_word(row_os) : "", unsure ? ")" : "",
                           dl_table_cell(kb, r, DL_COL_known_bad_releases_symptom));
        dl_quote_line(x, &e->paste, (size_t)line);
        for (j = 0; j < e->where.n; j++)
            dl_quote_line(x, &e->paste, e->where.where[j].line);
        dl_explain_known_bad_fix(k, kb, r, e, x);
    }
}

dl_finding *dl_explain_known_bad_row(const dl_knowledge *k, const dl_table *kb, size_t r,
                                     dl_explanation *e, size_t line)
{
    dl_finding *x = dl_finding_add(
        &e->findings, "known_bad_release", DL_SEV_FAILURE, "this error is torch %s's known problem: %s",
        dl_table_cell(kb, r, DL_COL_known_bad_releases_torch_version),
        dl_table_cell(kb, r, DL_COL_known_bad_releases_symptom));
    dl_quote_line(x, &e->paste, line);
    dl_explain_known_bad_fix(k, kb, r, e, x);
    return x;
}

void dl_explain_demote_mkl_beside_known_bad(dl_explanation *e)
{
    static const char *const mkl[] = {"mkl_incompatible"};
    if (dl_findings_has_failure(&e->findings, "known_bad_release") &&
        dl_paste_find(&e->paste, 0, "cannot load mkl_") >= 0)
        dl_text_causes_step_back(e, mkl, 1);
}

/* The text shows an error, and nothing of a failing import: no import or loader error, no
 * crash (a FileNotFoundError in the writer's own code, a KeyError). */
static bool error_not_an_import(const dl_paste *p)
{
    static const char *const import_failed[] = {
        "importerror", "oserror", "winerror", ".dll", "import torch", "modulenotfounderror",
        "illegal instruction", "sigill", "segmentation fault", "shared object", "crash"};
    return dl_text_shows_error(p) &&
           dl_paste_find_any(p, import_failed, sizeof import_failed / sizeof import_failed[0]) < 0;
}

void dl_explain_known_bad_import_beside_running_torch(dl_explanation *e)
{
    static const char *const ids[] = {"known_bad_release"};
    size_t i;
    for (i = 0; i < e->findings.items.count; i++) {
        const dl_finding *x = &DL_LIST_AT(e->findings.items, dl_finding, i);
        if (!strcmp(x->id.value, "known_bad_release") && dl_q_failure(x) && x->title.value &&
            strstr(x->title.value, "known problem here: import torch") &&
            (dl_text_torch_ran(e) || error_not_an_import(&e->paste))) {
            dl_text_causes_step_back(e, ids, 1);
            return;
        }
    }
}

void dl_explain_known_bad_beside_extension_kernel(dl_explanation *e)
{
    static const char *const ids[] = {"known_bad_release"};
    size_t i;
    if (e->gpu.hi || !dl_findings_has(&e->findings, "extension_mismatch"))
        return;
    for (i = 0; i < e->findings.items.count; i++) {
        const dl_finding *x = &DL_LIST_AT(e->findings.items, dl_finding, i);
        if (!strcmp(x->id.value, "known_bad_release") && dl_q_failure(x) && x->title.value &&
            strstr(x->title.value, "no kernel image")) {
            dl_text_causes_step_back(e, ids, 1);
            return;
        }
    }
}

/* The version right after a "torch" that is the package itself ("torch 2.8.0.dev20250321+xpu",
 * "torch-2.1.0", "torch==1.13.1+cu117", "PyTorch 0.4.0", "torch version: 2.0.1"), not
 * torchvision's or torchaudio's; its length, 0 when none. */
static size_t version_after_torch(const char *at, const char **version)
{
    const char *c = at + 5;
    unsigned a, b, d;
    int used = 0;
    size_t len;
    if (isalpha((unsigned char)*c) || *c == '_' || *c == '.')
        return 0;
    c += strspn(c, " -=:'\"");
    if (!strncmp(c, "version", 7))
        c += 7 + strspn(c + 7, " -=:'\"");
    if (*c == 'v')
        c++;
    /* "2.1.0", or a minor alone ("PyTorch 2.1 works, 2.2 fails") */
    if ((sscanf(c, "%u.%u.%u%n", &a, &b, &d, &used) != 3 &&
         sscanf(c, "%u.%u%n", &a, &b, &used) != 2) || used <= 0)
        return 0;
    len = (size_t)used;
    while (c[len] && (isalnum((unsigned char)c[len]) || c[len] == '+' ||
                      (c[len] == '.' && isalnum((unsigned char)c[len + 1]))))
        len++;
    *version = c;
    return len;
}

/* How many distinct torch versions the text names (2.8.0.dev20250321+xpu and
 * 2.8.0.dev20250325+xpu are two), up to `most` (at most 4). */
static size_t torch_versions_named(const dl_paste *p, size_t most)
{
    char seen[4][48];
    size_t n = 0;
    long i;
    for (i = dl_paste_find(p, 0, "torch"); i >= 0 && n < most && n < 4;
         i = dl_paste_find(p, (size_t)i + 1, "torch")) {
        const char *at;
        for (at = strstr(p->lines[i].lower, "torch"); at && n < most && n < 4;
             at = strstr(at + 5, "torch")) {
            const char *v = NULL;
            size_t len = version_after_torch(at, &v), k;
            bool dup = false;
            if (!len)
                continue;
            if (len >= sizeof seen[0])
                len = sizeof seen[0] - 1;
            for (k = 0; k < n; k++)
                dup |= strlen(seen[k]) == len && !strncmp(seen[k], v, len);
            if (!dup) {
                memcpy(seen[n], v, len);
                seen[n++][len] = '\0';
            }
        }
    }
    return n;
}

void dl_explain_regression_between_builds(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "known_bad_release",
        "One torch build works here and another does not: the failing build "
        "has a problem of its own (a regression), not the machine",
        "# keep the build that works; look for the failing release in torch's "
        "issue tracker and take the release that fixes it",
        {NULL},
        "the exact torch versions that work and fail, and "
        "`python -m torch.utils.collect_env` under the failing one"};
    static const char *const words[] = {
        "regression", "first build where", "where it broke", "it broke", "broke in",
        "broken in", "stopped working", "no longer works", "worked fine", "worked well",
        "worked with", "worked on", "works fine on", "works well on", "works fine with",
        "works well with", "downgrad", "rolled back", "roll back", "reverting to",
        "reverted to", "went back to", "used to work", "was working", "worked before",
        "but not with", "but not on", "but not in"};
    /* a companion package that fails after torch changed is built for the other torch (a
     * mismatch of the pair), not a broken torch */
    static const char *const companions[] = {"import torchaudio", "import torchvision",
                                             "import torchtext", "torchvision::",
                                             "torchaudio::"};
    long line;
    if (dl_text_cause_read(e) ||
        (line = dl_paste_find_any(&e->paste, words, sizeof words / sizeof words[0])) < 0 ||
        torch_versions_named(&e->paste, 2) < 2 ||
        dl_paste_find_any(&e->paste, companions, sizeof companions / sizeof companions[0]) >= 0)
        return;
    dl_text_cause_add(e, &cause, line, -1);
}

/* Whether the torch version at `v` (len bytes: "2.4.0", "2.4", "2.4.0+cpu") is the
 * published release `release` ("2.4.0"); a pre-release or a source build ("2.4.0a0+git...")
 * is another build. */
static bool names_release(const char *v, size_t len, const char *release)
{
    char buf[48], mine[48];
    dl_torch_version tv;
    if (len >= sizeof buf)
        return false;
    memcpy(buf, v, len);
    buf[len] = '\0';
    if (!dl_torch_version_parse(buf, &tv) || tv.pre != DL_PRE_NONE)
        return false;
    snprintf(mine, sizeof mine, "%lu.%lu.%lu", tv.release.part[0], tv.release.part[1],
             tv.release.part[2]);
    return !strcmp(mine, release);
}

/* A line that says the illegal instruction and the version with it, in words ("Illegal
 * instruction in ARM64 (ver 2.0.0)", "... while importing torch. (version 2.0.0)"): in a
 * report about torch's crash, that version is torch's. -1 when none is `release`. */
static long crash_line_release(const dl_paste *p, const char *release)
{
    static const char *const words[] = {"version ", "ver ", "ver. "};
    long i;
    if (dl_paste_find(p, 0, "torch") < 0)
        return -1;
    for (i = dl_paste_find(p, 0, "illegal instruction"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "illegal instruction")) {
        size_t w;
        for (w = 0; w < sizeof words / sizeof words[0]; w++) {
            const char *at = strstr(p->lines[i].lower, words[w]);
            size_t len;
            if (!at)
                continue;
            at += strlen(words[w]);
            len = strspn(at, "0123456789.");
            while (len && at[len - 1] == '.')
                len--;
            if (len && names_release(at, len, release))
                return i;
        }
    }
    return -1;
}

/* The first line that names torch with a version ("torch 2.4.0", "pytorch 2.4",
 * "torch==2.4.0", "PyTorch version: 2.4.0"), that of `release` when one is given; -1 when
 * none. */
static long torch_named_line(const dl_paste *p, const char *release)
{
    long i;
    for (i = dl_paste_find(p, 0, "torch"); i >= 0; i = dl_paste_find(p, (size_t)i + 1, "torch")) {
        const char *at;
        for (at = strstr(p->lines[i].lower, "torch"); at; at = strstr(at + 5, "torch")) {
            const char *v = NULL;
            size_t len = version_after_torch(at, &v);
            if (len && (!release || names_release(v, len, release)))
                return i;
        }
    }
    return -1;
}

/* The line where the text names torch at `release`, or the text's own torch is that
 * release; -1 when neither. */
static long torch_release_line(const dl_explanation *e, const char *release)
{
    char own[48];
    long i = torch_named_line(&e->paste, release);
    if (i >= 0)
        return i;
    if (text_torch_release(&e->facts, own, sizeof own) && !strcmp(own, release) &&
        e->where.n)
        return (long)e->where.where[0].line;
    return crash_line_release(&e->paste, release);
}

static bool word_at(const char *low, const char *at, size_t len)
{
    return (at == low || at[-1] == ' ' || at[-1] == '\t') &&
           (at[len] == '\0' || at[len] == ' ' || at[len] == '\t');
}

/* The line where the text puts the machine on an ARMv8.0 aarch64 CPU, one without LSE
 * atomics: a board or core that is one (Raspberry Pi 3/4, Cortex-A35/A53/A57/A72/A73, AWS
 * a1 / Graviton1), else aarch64 or arm64 named with no newer core beside it; -1 when the
 * text names none, names a newer core (Cortex-A55/A7x from A75, Neoverse, Graviton2+, a
 * Jetson, a Raspberry Pi 5), or lists "atomics" among the CPU's features. */
static long armv8_0_line(const dl_paste *p)
{
    static const char *const cores[] = {
        "raspberry pi 4", "raspberry pi 3", "raspberry pi", "raspberrypi", "rpi-v8", "rpi 4",
        "rpi4", "cortex-a35", "cortex-a53", "cortex-a57", "cortex-a72", "cortex-a73",
        "bcm2711", "bcm2837", "a1.medium", "a1.large", "a1.xlarge", "a1.2xlarge",
        "a1.4xlarge", "a1.metal", "graviton1"};
    static const char *const generic[] = {"aarch64", "arm64"};
    static const char *const newer[] = {
        "cortex-a55", "cortex-a65", "cortex-a75", "cortex-a76", "cortex-a77", "cortex-a78",
        "cortex-x", "neoverse", "graviton2", "graviton3", "graviton4", "raspberry pi 5",
        "jetson", "tegra", "orin", "xavier", "altra", "gh200", "grace hopper",
        /* a Mac's arm64 (Apple silicon, Rosetta's "illegal hardware instruction") */
        "macos", "darwin", "apple m", "apple silicon", "rosetta"};
    long line, f;
    if (dl_paste_find_any(p, newer, sizeof newer / sizeof newer[0]) >= 0)
        return -1;
    /* an lscpu or /proc/cpuinfo feature line ("fp asimd ... atomics ...") that lists LSE */
    for (f = dl_paste_find_where(p, 0, "atomics", word_at); f >= 0;
         f = dl_paste_find_where(p, (size_t)f + 1, "atomics", word_at))
        if (strstr(p->lines[f].lower, "asimd"))
            return -1;
    line = dl_paste_find_any(p, cores, sizeof cores / sizeof cores[0]);
    return line >= 0 ? line : dl_paste_find_any(p, generic, sizeof generic / sizeof generic[0]);
}

/* The crash on an ARMv8.0 core where the text names no torch release: the releases whose
 * aarch64 wheels need newer instructions are the likely cause, and pip can leave them
 * all out ("torch!=2.0.0,!=2.4.0"). A candidate: the text does not show which it has. */
static void known_bad_arm_release_unnamed(const dl_table *kb, dl_explanation *e, long crash,
                                          long arm)
{
    char releases[256] = "", spec[256] = "";
    size_t r, n = 0;
    dl_finding *x;
    if (dl_q_first_torch_version(&e->facts) || torch_named_line(&e->paste, NULL) >= 0)
        return;
    for (r = 0; r < kb->rows; r++) {
        const char *release = dl_table_cell(kb, r, DL_COL_known_bad_releases_torch_version);
        if (strncmp(dl_table_cell(kb, r, DL_COL_known_bad_releases_condition), "aarch64_lacks:",
                    14) != 0 ||
            strlen(releases) + strlen(release) + 8 >= sizeof releases)
            continue;
        snprintf(releases + strlen(releases), sizeof releases - strlen(releases), "%s%s",
                 n ? ", " : "", release);
        snprintf(spec + strlen(spec), sizeof spec - strlen(spec), "%s!=%s", n ? "," : "",
                 release);
        n++;
    }
    if (!n)
        return;
    x = dl_finding_add(&e->findings, "known_bad_release", DL_SEV_FAILURE,
                       "torch dies with SIGILL on this ARMv8.0 core: the aarch64 wheels of "
                       "torch %s use instructions it lacks (the text does not say which torch "
                       "it has)", releases);
    dl_quote_line(x, &e->paste, (size_t)crash);
    dl_quote_line(x, &e->paste, (size_t)arm);
    dl_finding_fix(x, "pip install \"torch%s\"", spec);
    dl_strv_add(&e->alternatives, dl_strdup("torch_import_failed"));
    dl_strv_add(&e->ask, dl_strdup("`python -m pip show torch` (the release) and `lscpu` (the "
                                   "CPU's cores and their features)"));
}

void dl_explain_known_bad_on_old_arm(const dl_knowledge *k, dl_explanation *e)
{
    static const char *const sigill[] = {"illegal instruction", "illegal hardware instruction",
                                         "sigill"};
    const dl_table *kb = dl_knowledge_at(k, DL_TABLE_known_bad_releases);
    long crash, arm;
    size_t r;
    /* the rows are Linux aarch64 wheels */
    if (!kb || dl_findings_has(&e->findings, "known_bad_release") ||
        (e->facts.os.family.value && strcmp(e->facts.os.family.value, "linux") != 0) ||
        (crash = dl_paste_find_any(&e->paste, sigill, sizeof sigill / sizeof sigill[0])) < 0 ||
        (arm = armv8_0_line(&e->paste)) < 0)
        return;
    for (r = 0; r < kb->rows; r++) {
        const char *release = dl_table_cell(kb, r, DL_COL_known_bad_releases_torch_version);
        const char *fixed = dl_table_cell(kb, r, DL_COL_known_bad_releases_fixed_in);
        long named;
        dl_finding *x;
        if (strncmp(dl_table_cell(kb, r, DL_COL_known_bad_releases_condition), "aarch64_lacks:",
                    14) != 0 ||
            (named = torch_release_line(e, release)) < 0)
            continue;
        x = dl_finding_add(&e->findings, "known_bad_release", DL_SEV_FAILURE,
                           "torch %s has a known problem here: %s", release,
                           dl_table_cell(kb, r, DL_COL_known_bad_releases_symptom));
        dl_quote_line(x, &e->paste, (size_t)crash);
        dl_quote_line(x, &e->paste, (size_t)named);
        dl_quote_line(x, &e->paste, (size_t)arm);
        dl_finding_fix(x, "# fixed in %s (or keep the release before %s):", fixed, release);
        dl_finding_fix(x, "pip install \"torch>=%s\"", fixed);
        dl_finding_fix(x, "# %s", dl_table_cell(kb, r, DL_COL_known_bad_releases_source));
        return;
    }
    known_bad_arm_release_unnamed(kb, e, crash, arm);
}

void dl_explain_known_bad_package_message(const dl_knowledge *k, dl_explanation *e)
{
    const dl_table *kb = dl_knowledge_at(k, DL_TABLE_known_bad_releases);
    size_t r;
    for (r = 0; kb && r < kb->rows && !dl_findings_has(&e->findings, "known_bad_release");
         r++) {
        const char *cond = dl_table_cell(kb, r, DL_COL_known_bad_releases_condition);
        const char *release = dl_table_cell(kb, r, DL_COL_known_bad_releases_torch_version);
        size_t name = strcspn(release, " ");
        long line;
        dl_finding *x;
        if (strncmp(cond, "package_message:", 16) != 0 || !release[name] ||
            (line = dl_paste_find(&e->paste, 0, cond + 16)) < 0)
            continue;
        x = dl_finding_add(&e->findings, "known_bad_release", DL_SEV_FAILURE,
                           "this message is %s's known problem: %s", release,
                           dl_table_cell(kb, r, DL_COL_known_bad_releases_symptom));
        dl_quote_line(x, &e->paste, (size_t)line);
        dl_finding_fix(x, "# fixed in %s:", dl_table_cell(kb, r, DL_COL_known_bad_releases_fixed_in));
        dl_finding_fix(x, "pip install --upgrade %.*s", (int)name, release);
        dl_finding_fix(x, "# %s", dl_table_cell(kb, r, DL_COL_known_bad_releases_source));
    }
}

/* The line where one of torch's own DLLs fails to load through ctypes.CDLL on Python 3.8 or
 * later: "FileNotFoundError: Could not find module '...\torch\lib\caffe2_nvrtc.dll' (or one
 * of its dependencies). Try using the full path with constructor syntax." Only torch 1.5.0's
 * __init__ loaded torch\lib's DLLs that way (1.5.1 went to LoadLibraryExW, whose failure
 * reads "[WinError 126] ... Error loading"); a DLL of torchaudio's or torchvision's folder is
 * theirs, not torch's. -1 when none. */
static long torch_dll_by_ctypes_line(const dl_paste *p)
{
    static const char *const folders[] = {"\\torch\\lib\\", "\\\\torch\\\\lib\\\\",
                                          "/torch/lib/"};
    long i;
    for (i = dl_paste_find(p, 0, "could not find module"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "could not find module")) {
        const char *low = p->lines[i].lower;
        if (!strstr(low, ".dll"))
            continue;
        if (dl_line_has_any(low, folders, sizeof folders / sizeof folders[0]))
            return i;
    }
    return -1;
}

void dl_explain_known_bad_ctypes_dll(const dl_knowledge *k, dl_explanation *e)
{
    /* a torch built here loads its DLLs the way its checkout does, not as a release */
    static const char *const source_build[] = {"setup.py install", "setup.py develop",
                                               "pip, source): source", "built from source",
                                               "build from source", "compiled from source"};
    const dl_table *kb = dl_knowledge_at(k, DL_TABLE_known_bad_releases);
    const char *os = e->facts.os.family.value;
    char own[48];
    long line;
    size_t r;
    if (!kb || dl_findings_has(&e->findings, "known_bad_release") ||
        (os && strcmp(os, "windows") != 0) || (line = torch_dll_by_ctypes_line(&e->paste)) < 0 ||
        dl_paste_find_any(&e->paste, source_build, sizeof source_build / sizeof source_build[0]) >= 0)
        return;
    for (r = 0; r < kb->rows; r++)
        if (!strcmp(dl_table_cell(kb, r, DL_COL_known_bad_releases_condition), "ctypes_dll_load"))
            break;
    /* another release named is another loader (a source build of 1.4 or a nightly did the
     * same, and has no row) */
    if (r == kb->rows ||
        (text_torch_release(&e->facts, own, sizeof own) &&
         strcmp(own, dl_table_cell(kb, r, DL_COL_known_bad_releases_torch_version)) != 0))
        return;
    dl_explain_known_bad_row(k, kb, r, e, (size_t)line);
    dl_strv_add(&e->ask, dl_strdup("`python -m pip show torch` and `python --version` (torch "
                                   "1.5.0 on Python 3.8 or later fails this way)"));
}

/* Whether the text shows the DLL a Windows row of the release the text names describes
 * ("Error loading torch\lib\fbgemm.dll" in 2.4.0's row, and the text's torch is 2.4.0). */
static bool release_dll_shown(const dl_knowledge *k, const dl_explanation *e)
{
    const dl_table *kb = dl_knowledge_at(k, DL_TABLE_known_bad_releases);
    char own[48], dll[48];
    size_t r;
    if (!kb || !text_torch_release(&e->facts, own, sizeof own))
        return false;
    for (r = 0; r < kb->rows; r++) {
        const char *sym = dl_table_cell(kb, r, DL_COL_known_bad_releases_symptom);
        const char *at = strstr(sym, "torch\\lib\\");
        size_t len;
        if (!at || strcmp(dl_table_cell(kb, r, DL_COL_known_bad_releases_os), "windows") != 0 ||
            strcmp(dl_table_cell(kb, r, DL_COL_known_bad_releases_torch_version), own) != 0)
            continue;
        at += 10;
        len = strcspn(at, " ,;");
        if (len < 5 || len >= sizeof dll || strncmp(at + len - 4, ".dll", 4) != 0)
            continue;
        memcpy(dll, at, len);
        dll[len] = '\0';
        if (dl_paste_find(&e->paste, 0, dll) >= 0)
            return true;
    }
    return false;
}

void dl_explain_demote_dll_beside_release(const dl_knowledge *k, dl_explanation *e)
{
    static const char *const dll[] = {"win_dll_dependency_missing", "vc_redist_missing"};
    if (dl_findings_has_failure(&e->findings, "known_bad_release") &&
        (torch_dll_by_ctypes_line(&e->paste) >= 0 || release_dll_shown(k, e)))
        dl_text_causes_step_back(e, dll, sizeof dll / sizeof dll[0]);
}

void dl_explain_fbgemm_release_candidate(const dl_knowledge *k, dl_explanation *e)
{
    const dl_table *kb = dl_knowledge_at(k, DL_TABLE_known_bad_releases);
    char own[48], ask[160];
    long line = dl_paste_find(&e->paste, 0, "fbgemm.dll");
    size_t r;
    if (!kb || line < 0 || !dl_findings_has(&e->findings, "win_dll_dependency_missing") ||
        dl_findings_has(&e->findings, "known_bad_release"))
        return;
    for (r = 0; r < kb->rows; r++)
        if (!strcmp(dl_table_cell(kb, r, DL_COL_known_bad_releases_os), "windows") &&
            strstr(dl_table_cell(kb, r, DL_COL_known_bad_releases_symptom), "fbgemm.dll"))
            break;
    /* the text's own torch, when it names one, settles it either way: the rules read the
     * row where it is that release, and another release has not that problem */
    if (r == kb->rows || text_torch_release(&e->facts, own, sizeof own))
        return;
    dl_strv_add(&e->alternatives, dl_strdup("known_bad_release"));
    /* the fix names that release's cause beside the general one: the text cannot say which */
    dl_finding_fix(dl_findings_get(&e->findings, "win_dll_dependency_missing"),
                   "# fbgemm.dll needs libomp140.x86_64.dll, which torch %s's Windows wheels "
                   "lack: where pip show torch says %s, install %s or newer (dlenv plan)",
                   dl_table_cell(kb, r, DL_COL_known_bad_releases_torch_version),
                   dl_table_cell(kb, r, DL_COL_known_bad_releases_torch_version),
                   dl_table_cell(kb, r, DL_COL_known_bad_releases_fixed_in));
    snprintf(ask, sizeof ask, "`python -m pip show torch` (torch %s's Windows wheels lack "
                              "fbgemm.dll's OpenMP runtime; fixed in %s)",
             dl_table_cell(kb, r, DL_COL_known_bad_releases_torch_version),
             dl_table_cell(kb, r, DL_COL_known_bad_releases_fixed_in));
    dl_strv_add(&e->ask, dl_strdup(ask));
}
