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
    size_t n = strlen(variant), i;
    if (n < 4 || strncmp(variant, "cu", 2) != 0 || strspn(variant + 2, "0123456789") != n - 2)
        return false;
    *minor = (unsigned)(variant[n - 1] - '0');
    *major = 0;
    for (i = 2; i + 1 < n; i++)
        *major = *major * 10 + (unsigned)(variant[i] - '0');
    return true;
}

/* The build to name from a ';'-list of CUDA builds (ascending): with the driver's newest
 * CUDA known (`driver_major`, 0 when not), the newest build of a CUDA major the driver runs
 * (CUDA's minor-version compatibility lets a driver run every runtime of its major); else
 * the list's first, the one older drivers still run. NULL when none fits. */
static const char *pick_variant(const char *list, unsigned driver_major, char *buf, size_t n)
{
    const char *s = list;
    bool found = false;
    while (s && *s) {
        size_t len = strcspn(s, ";");
        unsigned major, minor;
        char one[16];
        if (len && len < sizeof one) {
            memcpy(one, s, len);
            one[len] = '\0';
            if (cuda_of_variant(one, &major, &minor) && len < n &&
                (!driver_major || major <= driver_major)) {
                memcpy(buf, one, len + 1);
                found = true;
                if (!driver_major)
                    break;
            }
        }
        s += len + (s[len] == ';');
    }
    return found ? buf : NULL;
}

/* The release row to name: the text's release, else the newest released one that has a
 * build the driver runs on the text's OS and wheels for the text's Python (when shown). */
static long release_row(const dl_knowledge *k, const dl_table *rel, const char *text_release,
                        unsigned driver_major, bool windows, const char *python, char *variant,
                        size_t vn)
{
    dl_column_id list = windows ? DL_COL_torch_releases_cuda_variants_windows
                                : DL_COL_torch_releases_cuda_variants_linux;
    dl_torch_version best, v;
    long row = -1;
    size_t r;
    if (text_release) {
        const char *pypi;
        if ((row = dl_kq_torch_release(k, text_release)) < 0)
            return -1;
        /* no driver shown: the build PyPI's Linux wheel of that release uses, the one most
         * drivers of its time run */
        pypi = dl_table_cell(rel, (size_t)row, DL_COL_torch_releases_pypi_default_cuda_linux);
        if (!driver_major && pypi && dl_semicolon_list_has(dl_table_cell(rel, (size_t)row, list), pypi)) {
            snprintf(variant, vn, "%s", pypi);
            return row;
        }
        return pick_variant(dl_table_cell(rel, (size_t)row, list), driver_major, variant, vn)
                   ? row
                   : -1;
    }
    for (r = 0; r < rel->rows; r++) {
        const char *status = dl_table_cell(rel, r, DL_COL_torch_releases_status);
        char fits[16];
        if (!status || strcmp(status, "released") != 0 ||
            !dl_torch_version_parse(dl_table_cell(rel, r, DL_COL_torch_releases_torch_version),
                                    &v) ||
            !pick_variant(dl_table_cell(rel, r, list), driver_major, fits, sizeof fits) ||
            (python && !dl_kq_release_has_python(
                           k, dl_table_cell(rel, r, DL_COL_torch_releases_torch_version), python)) ||
            (row >= 0 && dl_torch_version_cmp(&v, &best) <= 0))
            continue;
        best = v;
        row = (long)r;
        snprintf(variant, vn, "%s", fits);
    }
    return row;
}

void dl_explain_cpu_build_fix(const dl_knowledge *k, dl_explanation *e)
{
    const dl_table *rel = dl_knowledge_at(k, DL_TABLE_torch_releases);
    dl_finding *x = dl_findings_get(&e->findings, "cpu_only_build");
    const char *v = dl_q_first_torch_version(&e->facts), *vision, *audio;
    const dl_int *driver = &e->facts.nvml.cuda_driver_version;
    unsigned driver_major = driver->known && driver->value > 0 ? (unsigned)(driver->value / 1000) : 0;
    char release[32], variant[16];
    unsigned major, minor;
    dl_torch_version tv;
    long row;
    if (!x || !rel || !dl_finding_fix_is_only(x, general) ||
        dl_q_text_is(&e->facts.os.family, "macos") ||
        (v && (!dl_torch_version_parse(v, &tv) || tv.pre != DL_PRE_NONE)))
        return;
    if (v)
        snprintf(release, sizeof release, "%lu.%lu.%lu", tv.release.part[0], tv.release.part[1],
                 tv.release.part[2]);
    /* no driver shown and no release: a CUDA 12 build, which far more drivers run than
     * the newest release's CUDA 13 */
    row = release_row(k, rel, v ? release : NULL, driver_major ? driver_major : (v ? 0 : 12),
                      dl_q_is_windows(&e->facts),
                      e->facts.pythons.count
                          ? DL_LIST_AT(e->facts.pythons, dl_python, 0).version.value
                          : NULL,
                      variant, sizeof variant);
    if (row < 0 || !cuda_of_variant(variant, &major, &minor))
        return;
    if (!v)
        snprintf(release, sizeof release, "%s",
                 dl_table_cell(rel, (size_t)row, DL_COL_torch_releases_torch_version));
    vision = dl_table_cell(rel, (size_t)row, DL_COL_torch_releases_torchvision);
    audio = dl_table_cell(rel, (size_t)row, DL_COL_torch_releases_torchaudio);
    dl_finding_fix_clear(x);
    dl_finding_fix(x, "python -m pip install --force-reinstall torch==%s%s%s%s%s --index-url "
                      "https://download.pytorch.org/whl/%s",
                   release, vision && *vision ? " torchvision==" : "", vision ? vision : "",
                   audio && *audio ? " torchaudio==" : "", audio ? audio : "", variant);
    if (driver_major)
        dl_fix_note(x, "torch %s's CUDA %u.%u build, which this driver (CUDA %ld.%ld at most) "
                       "runs",
                    release, major, minor, (long)(driver->value / 1000),
                    (long)(driver->value % 1000 / 10));
    else
        dl_fix_note(x, "torch %s's CUDA %u.%u build: it needs a driver whose nvidia-smi shows "
                       "CUDA Version %u.%u or newer; dlenv plan, run on that machine, picks the "
                       "build by its GPU and driver",
                    release, major, minor, major, minor);
}
