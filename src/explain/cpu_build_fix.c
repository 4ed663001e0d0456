#include "explain/cpu_build_fix.h"

#include "base/str.h"
#include "facts/query.h"
#include "know/version.h"
#include "rules/finding.h"
#include "rules/fixes.h"
#include "rules/know_query.h"

#include <stdio.h>
#include <string.h>

/* The table's general words for cpu_only_build (the not_compiled_cuda row's fix). */
static const char general[] = "install the CUDA build of torch in place of this one";

/* "cu126" as 12.6, "cu92" as 9.2: the last digit is the minor. */
static bool cuda_of_variant(const char *variant, unsigned *major, unsigned *minor)
{
    size_t n = strlen(variant);
    if (n < 4 || strncmp(variant, "cu", 2) != 0 || strspn(variant + 2, "0123456789") != n - 2)
        return false;
    *minor = (unsigned)(variant[n - 1] - '0');
    *major = 0;
    for (n = 2; variant[n + 1]; n++)
        *major = *major * 10 + (unsigned)(variant[n] - '0');
    return true;
}

/* The first entry of a ';'-list ("cu130;cu132" -> "cu130") into buf; NULL when empty. */
static const char *first_variant(const char *list, char *buf, size_t n)
{
    size_t len = list ? strcspn(list, ";") : 0;
    if (!len || len >= n)
        return NULL;
    memcpy(buf, list, len);
    buf[len] = '\0';
    return buf;
}

void dl_explain_cpu_build_fix(const dl_knowledge *k, dl_explanation *e)
{
    const dl_table *rel = dl_knowledge_at(k, DL_TABLE_torch_releases);
    dl_finding *x = dl_findings_get(&e->findings, "cpu_only_build");
    const char *v = dl_q_first_torch_version(&e->facts), *variant, *vision, *audio;
    bool windows = dl_q_is_windows(&e->facts);
    dl_torch_version tv;
    char release[32], first[16];
    unsigned major, minor;
    long row;
    bool pinned = v != NULL;
    if (!x || !rel || !dl_finding_fix_is_only(x, general))
        return;
    /* no release in the text: the newest one's build, its packages left unpinned */
    if (pinned) {
        if (!dl_torch_version_parse(v, &tv) || tv.pre != DL_PRE_NONE)
            return;
        snprintf(release, sizeof release, "%lu.%lu.%lu", tv.release.part[0],
                 tv.release.part[1], tv.release.part[2]);
        row = dl_kq_torch_release(k, release);
    } else if ((row = dl_kq_newest_torch(k)) >= 0) {
        snprintf(release, sizeof release, "%s",
                 dl_table_cell(rel, (size_t)row, DL_COL_torch_releases_torch_version));
    }
    if (row < 0)
        return;
    variant = dl_table_cell(rel, (size_t)row, DL_COL_torch_releases_pypi_default_cuda_linux);
    if (!pinned) /* the newest release's oldest CUDA: the one older drivers still run */
        variant = first_variant(dl_table_cell(rel, (size_t)row,
                                              windows ? DL_COL_torch_releases_cuda_variants_windows
                                                      : DL_COL_torch_releases_cuda_variants_linux),
                                first, sizeof first);
    vision = dl_table_cell(rel, (size_t)row, DL_COL_torch_releases_torchvision);
    audio = dl_table_cell(rel, (size_t)row, DL_COL_torch_releases_torchaudio);
    /* the build must exist for the text's OS (a Mac has none, and its OS is another reading) */
    if (!variant || !cuda_of_variant(variant, &major, &minor) ||
        dl_q_text_is(&e->facts.os.family, "macos") ||
        !dl_semicolon_list_has(
            dl_table_cell(rel, (size_t)row, windows ? DL_COL_torch_releases_cuda_variants_windows
                                                    : DL_COL_torch_releases_cuda_variants_linux),
            variant))
        return;
    dl_finding_fix_clear(x);
    if (pinned)
        dl_finding_fix(x, "python -m pip install --force-reinstall torch==%s%s%s%s%s "
                          "--index-url https://download.pytorch.org/whl/%s",
                       release, vision && *vision ? " torchvision==" : "", vision ? vision : "",
                       audio && *audio ? " torchaudio==" : "", audio ? audio : "", variant);
    else
        dl_finding_fix(x, "python -m pip install --force-reinstall torch torchvision "
                          "torchaudio --index-url https://download.pytorch.org/whl/%s",
                       variant);
    dl_fix_note(x, "torch %s's CUDA %u.%u build: it needs a driver whose nvidia-smi shows "
                   "CUDA Version %u.%u or newer; dlenv plan, run on that machine, picks the "
                   "build by its GPU and driver",
                release, major, minor, major, minor);
}
