#include "explain/open3d_fix.h"

#include "base/str.h"
#include "explain/build_choice.h"
#include "facts/query.h"
#include "know/version.h"
#include "rules/finding.h"
#include "rules/know_query.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define NEEDS "needs pytorch version "
#define INSTALLED "but version "
/* words of open3d_ml_torch_version's fix in error_signatures.csv, which this replaces */
#define ROW_FIX "install the torch release Open3D names"

/* The digits and dots at s, without a trailing dot ("1.12.*" -> "1.12"); false unless it
 * has the form major.minor. */
static bool minor_at(const char *s, char *out, size_t cap)
{
    size_t n = strspn(s, "0123456789.");
    while (n && s[n - 1] == '.')
        n--;
    if (!n || n >= cap || !isdigit((unsigned char)s[0]) || !memchr(s, '.', n))
        return false;
    memcpy(out, s, n);
    out[n] = '\0';
    return true;
}

/* The local tag of the installed version the line names after "but version " ("cu116"
 * from "1.13.1+cu116 is installed"); "" when it has none. */
static void installed_tag(const char *low, char *tag, size_t cap)
{
    const char *at = strstr(low, INSTALLED), *plus;
    size_t n;
    tag[0] = '\0';
    if (!at || !(plus = strchr(at + strlen(INSTALLED), '+')) ||
        plus > at + strlen(INSTALLED) + strcspn(at + strlen(INSTALLED), " !,"))
        return;
    n = strspn(plus + 1, "abcdefghijklmnopqrstuvwxyz0123456789.");
    if (n < cap) {
        memcpy(tag, plus + 1, n);
        tag[n] = '\0';
    }
}

/* The newest released torch of `minor` whose variant `tag` exists on the OS (on both Linux
 * and Windows when the OS is unknown): its row of torch_releases.csv; -1 when none. */
static long release_with_variant(const dl_knowledge *k, const char *minor, const char *tag,
                                 dl_plan_os os)
{
    const dl_table *t = dl_knowledge_at(k, DL_TABLE_torch_releases);
    dl_torch_version best, v;
    long row = -1;
    size_t r, n = strlen(minor);
    for (r = 0; t && r < t->rows; r++) {
        const char *release = dl_table_cell(t, r, DL_COL_torch_releases_torch_version);
        const char *status = dl_table_cell(t, r, DL_COL_torch_releases_status);
        const char *linux_list = dl_table_cell(t, r, DL_COL_torch_releases_cuda_variants_linux);
        const char *win_list = dl_table_cell(t, r, DL_COL_torch_releases_cuda_variants_windows);
        if (!release || strncmp(release, minor, n) != 0 || release[n] != '.' || !status ||
            strcmp(status, "released") != 0 || !dl_torch_version_parse(release, &v) ||
            (os != DL_PLAN_OS_WINDOWS && !(linux_list && dl_semicolon_list_has(linux_list, tag))) ||
            (os != DL_PLAN_OS_LINUX && !(win_list && dl_semicolon_list_has(win_list, tag))) ||
            (row >= 0 && dl_torch_version_cmp(&v, &best) <= 0))
            continue;
        best = v;
        row = (long)r;
    }
    return row;
}

void dl_explain_open3d_fix(const dl_knowledge *k, dl_explanation *e)
{
    dl_finding *x = dl_findings_get(&e->findings, "extension_mismatch");
    const dl_table *t = dl_knowledge_at(k, DL_TABLE_torch_releases);
    char minor[16], tag[16];
    const char *low;
    long line, row;
    if (!x || !t || !dl_finding_fix_is_only(x, ROW_FIX))
        return;
    /* the message's line, not the source line above it ("version {}, but ") */
    for (line = 0; (line = dl_paste_find(&e->paste, (size_t)line, NEEDS)) >= 0; line++) {
        low = e->paste.lines[line].lower;
        if (minor_at(strstr(low, NEEDS) + strlen(NEEDS), minor, sizeof minor))
            break;
    }
    if (line < 0)
        return;
    installed_tag(low, tag, sizeof tag);
    row = dl_variant_cuda(tag)
              ? release_with_variant(k, minor, tag, dl_plan_os_parse(e->facts.os.family.value))
              : -1;
    dl_finding_fix_clear(x);
    if (dl_q_is_windows(&e->facts))
        dl_finding_fix(x, "# Open3D's pip wheels for Windows carry no PyTorch ops: in WSL 2 with "
                          "Linux's wheels, or:");
    if (row >= 0) {
        dl_fix_install_build(x, t, row, tag);
        dl_finding_fix(x, "# torch %s, the release Open3D's ops are built for, with the CUDA "
                          "(%s) of the torch now installed; or an Open3D release built for the "
                          "installed torch",
                       minor, tag);
        return;
    }
    dl_finding_fix(x, "python -m pip install \"torch==%s.*\"", minor);
    dl_finding_fix(x, "# torch %s, the release Open3D's ops are built for: PyPI's build, or "
                      "the one for your CUDA from PyTorch's index (pytorch.org's "
                      "previous-versions page gives the command for each release and CUDA); "
                      "or an Open3D release built for the installed torch",
                   minor);
}
