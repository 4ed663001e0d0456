#include "explain/windows_text.h"

#include "base/str.h"
#include "facts/query.h"
#include "know/version.h"

#include <stdio.h>
#include <string.h>

/* The text's torch release ("2.3.0"): the installed one, else the one the runtime reports;
 * false when the text gives none. */
static bool torch_release_of(const dl_facts *f, char *out, size_t n)
{
    const dl_python *py = f->pythons.count ? &DL_LIST_AT(f->pythons, dl_python, 0) : NULL;
    const char *v = dl_q_torch_version(py);
    dl_torch_version tv;
    if (!v && py)
        v = py->runtime.version.value;
    if (!v || !dl_torch_version_parse(v, &tv))
        return false;
    snprintf(out, n, "%lu.%lu.%lu", tv.release.part[0], tv.release.part[1], tv.release.part[2]);
    return true;
}

/* torch 2.3.0's Windows wheels load shm.dll with a new MKL dependency that lands where the
 * DLL search does not look (a per-user install, an embedded Python, an install to a target
 * folder): "Error loading ...\torch\lib\shm.dll or one of its dependencies" (pytorch#125109,
 * fixed in 2.3.1). The same line with WinError 1455 is the paging file, with 1114 or 127 an
 * initialisation or symbol failure; those have their own readings. */
long dl_shm_dll_release_line(const dl_paste *p, const dl_facts *f)
{
    static const char *const other_errors[] = {"winerror 1455", "paging file",
                                               "winerror 1114", "winerror 127",
                                               "procedure could not be found"};
    /* another build of torch than 2.3.0's wheels, or a Windows torch 2 no longer runs on */
    static const char *const other_builds[] = {"rocm", "gfx1", "windows 7", "win7", "win 7"};
    char release[48];
    long i;
    if (dl_paste_find_any(p, other_errors, sizeof other_errors / sizeof other_errors[0]) >= 0 ||
        dl_paste_find_any(p, other_builds, sizeof other_builds / sizeof other_builds[0]) >= 0 ||
        (torch_release_of(f, release, sizeof release) && strcmp(release, "2.3.0") != 0))
        return -1;
    for (i = dl_paste_find(p, 0, "shm.dll"); i >= 0; i = dl_paste_find(p, (size_t)i + 1, "shm.dll")) {
        const char *low = p->lines[i].lower;
        if (strstr(low, "error loading") || strstr(low, "winerror 126") ||
            strstr(low, "one of its dependencies") || strstr(low, "could not find module"))
            return i;
    }
    return -1;
}

void dl_explain_shm_dll_release(const dl_knowledge *k, dl_explanation *e)
{
    const dl_table *kb = dl_knowledge_at(k, DL_TABLE_known_bad_releases);
    long line = dl_shm_dll_release_line(&e->paste, &e->facts);
    dl_finding *x;
    char key[32];
    size_t r;
    if (!kb || line < 0 || dl_findings_has(&e->findings, "known_bad_release"))
        return;
    for (r = 0; r < kb->rows; r++)
        if (!strcmp(dl_table_cell(kb, r, DL_COL_known_bad_releases_os), "windows") &&
            strstr(dl_table_cell(kb, r, DL_COL_known_bad_releases_symptom), "shm.dll"))
            break;
    if (r == kb->rows)
        return;
    x = dl_finding_add(&e->findings, "known_bad_release", DL_SEV_FAILURE,
                       "this error is torch %s's known problem: %s",
                       dl_table_cell(kb, r, DL_COL_known_bad_releases_torch_version),
                       dl_table_cell(kb, r, DL_COL_known_bad_releases_symptom));
    snprintf(key, sizeof key, "L%zu", e->paste.lines[line].number);
    dl_finding_evidence(x, key, "%s", e->paste.lines[line].text);
    dl_finding_fix(x, "# install another torch release (fixed in %s; %s)",
                   dl_table_cell(kb, r, DL_COL_known_bad_releases_fixed_in),
                   dl_table_cell(kb, r, DL_COL_known_bad_releases_source));
    dl_strv_add(&e->alternatives, dl_strdup("win_dll_dependency_missing"));
    dl_strv_add(&e->ask, dl_strdup("`python -m pip show torch` (the release: 2.3.0's wheels had "
                                   "this failure) and how torch was installed (--user, an "
                                   "embedded Python, a target folder)"));
}
