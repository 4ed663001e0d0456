#include "explain/install_text.h"

#include "base/str.h"
#include "explain/quote.h"
#include "explain/text_cause.h"
#include "facts/query.h"
#include "know/version.h"
#include "rules/fixes.h"
#include "rules/know_query.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The requirement uv names right before "has no wheels" ("torch==2.6.0", "torch>=2.7.0",
 * "...'x86_64'}==2.11.0+cpu") is a plain release: no local version tag, and torch named
 * before it on the line. */
static bool plain_release_before(const char *low, const char *at)
{
    const char *end = at, *start;
    while (end > low && end[-1] == ' ')
        end--;
    start = end;
    while (start > low && start[-1] != ' ')
        start--;
    return end > start && !memchr(start, '+', (size_t)(end - start)) &&
           strstr(low, "torch") != NULL && strstr(low, "torch") < end;
}

static long plain_release_without_wheel_line(const dl_paste *p)
{
    static const char *const says[] = {"has no wheels with a matching platform tag",
                                       "have no wheels with a matching platform tag"};
    size_t k;
    for (k = 0; k < sizeof says / sizeof says[0]; k++) {
        long i;
        for (i = dl_paste_find(p, 0, says[k]); i >= 0; i = dl_paste_find(p, (size_t)i + 1, says[k]))
            if (plain_release_before(p->lines[i].lower, strstr(p->lines[i].lower, says[k])))
                return i;
    }
    return -1;
}

void dl_explain_release_without_platform_wheel(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "python_unsupported",
        "This torch release has no wheel for this interpreter's platform (the platform tag "
        "uv names): torch does not support this Python on this machine",
        "# a torch release with wheels for this platform (an Intel Mac: torch 2.2.2 at "
        "most), or a 64-bit Python of the machine's own architecture",
        {"wheel_tag_mismatch"},
        "`python -c \"import platform, sys; print(platform.machine(), sys.version)\"` (an "
        "Intel Mac, or an x86_64 Python under Rosetta on Apple silicon)"};
    long line;
    if (dl_findings_has(&e->findings, "python_unsupported") ||
        (line = plain_release_without_wheel_line(&e->paste)) < 0)
        return;
    dl_text_cause_add(e, &cause, line, -1);
}

/* pip's "Could not find a version that satisfies the requirement torch... (from versions:
 * ..., 2.2.2)": a list that ends at 2.2.2, the last release with macOS x86_64 wheels. */
static long versions_end_at_last_intel_mac_release(const dl_paste *p)
{
    long i;
    for (i = dl_paste_find(p, 0, "from versions:"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "from versions:")) {
        const char *low = p->lines[i].lower, *close = strchr(strstr(low, "from versions:"), ')');
        /* a pinned CUDA build ("torch==2.0.1+cu118") asks a Mac for CUDA: mac_text.c */
        if (!strstr(low, "requirement torch") || strstr(low, "requirement torchvision") ||
            strstr(low, "+cu") ||
            strstr(low, "requirement torchaudio") || !close || close - low < 7 ||
            strncmp(close - 7, ", 2.2.2", 7) != 0)
            continue;
        return i;
    }
    return -1;
}

void dl_explain_versions_end_at_intel_mac(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "python_unsupported",
        "pip's list of torch releases ends at 2.2.2, the last release with wheels for macOS on "
        "x86_64: this is an Intel Mac, or an x86_64 Python under Rosetta on Apple silicon",
        "# on Apple silicon: an arm64 Python (python.org's universal2 installer, Miniforge "
        "arm64, Homebrew in /opt/homebrew), then install again; on an Intel Mac: torch 2.2.2 "
        "with torchvision 0.17.2 and torchaudio 2.2.2, or conda-forge's builds",
        {"wheel_tag_mismatch"},
        "`python -c \"import platform; print(platform.machine())\"` (x86_64 on an Apple "
        "silicon Mac is Rosetta) and the Mac's chip"};
    static const dl_text_cause rosetta = {
        "python_unsupported",
        "pip's list of torch releases ends at 2.2.2, the last release with wheels for macOS on "
        "x86_64, on an Apple silicon Mac: this Python is an x86_64 one, run under Rosetta",
        "# install an arm64 Python (python.org's universal2 installer, Miniforge arm64, "
        "Homebrew in /opt/homebrew), make the environment with it, then install torch again",
        {"wheel_tag_mismatch"},
        "`python -c \"import platform; print(platform.machine())\"` (x86_64 here is Rosetta)"};
    static const char *const apple_silicon[] = {"apple silicon", "apple m", " m1", " m2", " m3",
                                                " m4", "arm64"};
    /* a Linux text's list that ends at 2.2.2 is the date it was written (March 2024): a new
     * Python whose first wheels came with 2.2.0 */
    static const char *const linux_words[] = {"manylinux", "linux_x86_64", "linux_aarch64",
                                              "ubuntu", "debian", "/home/"};
    static const char *const mac_words[] = {"macos", "darwin", "/users/", "macosx_", "mac os",
                                            "macbook"};
    long line, chip;
    if (dl_findings_has(&e->findings, "python_unsupported") ||
        (line = versions_end_at_last_intel_mac_release(&e->paste)) < 0 ||
        (dl_paste_find_any(&e->paste, linux_words, sizeof linux_words / sizeof linux_words[0]) >= 0 &&
         dl_paste_find_any(&e->paste, mac_words, sizeof mac_words / sizeof mac_words[0]) < 0))
        return;
    /* what the Rosetta signature row reads as x86_64 shown (rosetta_python_on_apple_silicon) */
    static const char *const x86[] = {"rosetta", "prints x86_64", "says x86_64", "returns x86_64",
                                      "gives x86_64", "shows x86_64", "i386", "(x86_64)",
                                      "osx-64", "macosx_10_9_x86_64", "macosx_10_15_x86_64"};
    chip = dl_paste_find_any(&e->paste, apple_silicon,
                             sizeof apple_silicon / sizeof apple_silicon[0]);
    /* the machine shown as x86_64 beside the chip: the Rosetta row names the wheels' tag */
    if (chip >= 0 && dl_paste_find_any(&e->paste, x86, sizeof x86 / sizeof x86[0]) >= 0)
        return;
    if (chip >= 0)
        dl_text_cause_add(e, &rosetta, line, chip == line ? -1 : chip);
    else
        dl_text_cause_add(e, &cause, line, -1);
}

/* A release X.Y from 2.3 on (the first without macOS x86_64 wheels) at `v`, ended by
 * `end` ("2.4.1)", "2.5.1 @"); a local tag (+cpu, +cu121) is another reading: that build
 * exists for few platforms. */
static bool release_after_intel_mac(const char *v, char end)
{
    unsigned major, minor;
    size_t n = strspn(v, "0123456789.");
    return v[n] == end && sscanf(v, "%u.%u", &major, &minor) == 2 &&
           (major > 2 || (major == 2 && minor >= 3));
}

/* poetry's "Unable to find installation candidates for torch (2.4.1)"; -1 when none. */
static long poetry_torch_after_intel_mac_line(const dl_paste *p)
{
    static const char form[] = "installation candidates for torch (";
    long i;
    for (i = dl_paste_find(p, 0, form); i >= 0; i = dl_paste_find(p, (size_t)i + 1, form))
        if (release_after_intel_mac(strstr(p->lines[i].lower, form) + sizeof form - 1, ')'))
            return i;
    return -1;
}

/* uv's "Distribution `torch==2.5.1 @ registry+https://pypi.org/simple` can't be installed
 * because it doesn't have a source distribution or wheel for the current platform": the
 * line, and the release in `release`; -1 when none. */
static long uv_torch_after_intel_mac_line(const dl_paste *p, char *release, size_t n)
{
    static const char form[] = "wheel for the current platform";
    long i;
    for (i = dl_paste_find(p, 0, form); i >= 0; i = dl_paste_find(p, (size_t)i + 1, form)) {
        const char *low = p->lines[i].lower, *at = strstr(low, "torch==");
        size_t k;
        if (!at || at == low || (at[-1] != '`' && at[-1] != ' ') ||
            !release_after_intel_mac(at + 7, ' '))
            continue;
        k = strspn(at + 7, "0123456789.");
        snprintf(release, n, "%.*s", (int)(k < n ? k : n - 1), at + 7);
        return i;
    }
    return -1;
}

/* The words that show an x86_64 Mac (or an x86_64 Python on one): pip's and uv's failures on
 * a Mac are the Intel Mac's last wheels only beside one of them. */
static const char *const intel_mac_words[] = {"intel", "x86_64", "osx-64", "rosetta", "i386"};
static const size_t n_intel_mac_words = sizeof intel_mac_words / sizeof intel_mac_words[0];

/* pip's "No matching distribution found" / "Could not find a version that satisfies the
 * requirement" (or "no wheels with a matching platform tag") where the text asks for a torch
 * from 2.3 on ("torch>=2.5.1", "torch==2.4.0") and names an x86_64 Mac: the line; -1 when
 * none. The Intel words are required, as pip's message on Apple silicon is the Python's. */
static long pip_torch_after_intel_mac_line(const dl_paste *p)
{
    static const char *const failed[] = {"no matching distribution", "could not find a version",
                                          "matching platform tag"};
    static const char *const asks[] = {"torch>=", "torch=="};
    long line = dl_paste_find_any(p, failed, sizeof failed / sizeof failed[0]), i;
    size_t k;
    if (line < 0 || dl_paste_find_any(p, intel_mac_words, n_intel_mac_words) < 0)
        return -1;
    for (i = 0; i < (long)p->count; i++)
        for (k = 0; k < sizeof asks / sizeof asks[0]; k++) {
            const char *at = strstr(p->lines[i].lower, asks[k]), *v;
            size_t n;
            if (!at || (at > p->lines[i].lower && isalnum((unsigned char)at[-1])))
                continue;
            v = at + strlen(asks[k]);
            n = strspn(v, "0123456789.");
            if (n && v[n] != '+' && release_after_intel_mac(v, v[n]))
                return line;
        }
    return -1;
}

/* uv's message on a Mac is an Intel Mac's only where the Python is not the reason: the
 * text shows an x86_64 machine, or a Python that release has Mac wheels for (3.9 under
 * torch 2.5: Apple silicon would have got one); a Python too new for it (3.13 under 2.5) is
 * the Python's reading. */
static bool uv_platform_is_intel(const dl_knowledge *k, const dl_explanation *e,
                                 const char *release)
{
    const dl_python *py = e->facts.pythons.count ? &DL_LIST_AT(e->facts.pythons, dl_python, 0)
                                                 : NULL;
    long on = dl_paste_find(&e->paste, 0, "you're on macos (`macosx_");
    /* uv names the Python's own tag: an arm64 one is no Intel Mac, whatever wheels the
     * hint lists after it ("only has wheels for ... manylinux1_x86_64") */
    if (on >= 0)
        return !strstr(e->paste.lines[on].lower, "_arm64`");
    if (dl_paste_find_any(&e->paste, intel_mac_words, n_intel_mac_words) >= 0)
        return true;
    return py && py->version.value && dl_kq_torch_release(k, release) >= 0 &&
           dl_kq_release_has_python_on(k, release, py->version.value, "macos-arm64");
}

void dl_explain_installer_on_intel_mac(const dl_knowledge *k, dl_explanation *e)
{
    static const dl_text_cause poetry = {
        "python_unsupported",
        "poetry finds no wheel of that torch for this Mac: torch 2.2.2 was the last release with "
        "wheels for macOS on x86_64 (an Intel Mac, or an x86_64 Python under Rosetta)",
        "# on an Intel Mac pin the last release with its wheels, under a Python it has wheels "
        "for (3.12 or older): poetry add \"torch@~2.2.2\" (with numpy below 2); on Apple silicon make poetry's environment with an arm64 "
        "Python: poetry env use /opt/homebrew/bin/python3",
        {"wheel_tag_mismatch"},
        "`poetry debug tags | head -3` (the first tag names the platform) and the Mac's chip"};
    static const dl_text_cause uv = {
        "python_unsupported",
        "uv finds no wheel of that torch for this Mac: torch 2.2.2 was the last release with "
        "wheels for macOS on x86_64 (an Intel Mac, or an x86_64 Python under Rosetta)",
        "# on an Intel Mac pin the last release with its wheels, under a Python it has wheels "
        "for (3.12 or older): uv add \"torch==2.2.2\" \"torchvision==0.17.2\" \"numpy<2\"; on "
        "Apple silicon use an arm64 Python: uv python install, then uv venv",
        {"wheel_tag_mismatch"},
        "`python -c \"import platform; print(platform.machine())\"` and the Mac's chip"};
    static const dl_text_cause pip = {
        "python_unsupported",
        "pip finds no wheel of that torch for this Mac: torch 2.2.2 was the last release with "
        "wheels for macOS on x86_64 (an Intel Mac, or an x86_64 Python under Rosetta)",
        "# on an Intel Mac pin the last release with its wheels, under a Python it has wheels "
        "for (3.12 or older): python -m pip install \"torch==2.2.2\" \"torchvision==0.17.2\" "
        "\"numpy<2\"; on Apple silicon use an arm64 Python (python -c \"import platform; "
        "print(platform.machine())\" prints arm64), then a fresh venv",
        {"wheel_tag_mismatch"},
        "`python -c \"import platform; print(platform.machine())\"` and the Mac's chip"};
    static const char *const mac[] = {"macos", "mac os", "darwin", "/users/", "macbook",
                                      "/usr/local/cellar/", "osx", "intel mac"};
    static const char *const bits[] = {"python_32bit"};
    const dl_text_cause *cause = &poetry;
    char release[24];
    long line = poetry_torch_after_intel_mac_line(&e->paste);
    if (line < 0 && (line = uv_torch_after_intel_mac_line(&e->paste, release,
                                                          sizeof release)) >= 0) {
        cause = &uv;
        if (!uv_platform_is_intel(k, e, release))
            return;
    }
    if (line < 0 && (line = pip_torch_after_intel_mac_line(&e->paste)) >= 0)
        cause = &pip;
    if (line < 0 || (!dl_q_text_is(&e->facts.os.family, "macos") &&
                     dl_paste_find_any(&e->paste, mac, sizeof mac / sizeof mac[0]) < 0))
        return;
    dl_text_causes_step_back(e, bits, 1); /* no 32-bit Python runs macOS 10.15 or later */
    if (dl_findings_has_failure(&e->findings, "python_unsupported") || !dl_text_cause_read(e))
        dl_text_cause_restate(e, cause, line);
}

/* pip's own "--version" line ("pip 24.3.1 from C:\\...\\Python310\\lib\\site-packages\\pip
 * (python 3.10)"): the Python it belongs to as major*100+minor; -1 when none. */
static long pip_own_python(const dl_paste *p, long *line)
{
    long i;
    for (i = dl_paste_find(p, 0, " from "); i >= 0; i = dl_paste_find(p, (size_t)i + 1, " from ")) {
        const char *low = p->lines[i].lower, *at = strstr(low, "(python ");
        unsigned major, minor;
        if (strncmp(low + strspn(low, " "), "pip ", 4) != 0 || !at ||
            sscanf(at, "(python %u.%u)", &major, &minor) != 2)
            continue;
        *line = i;
        return (long)(major * 100 + minor);
    }
    return -1;
}

/* `python --version`'s answer, a line of its own ("Python 3.12.7"); -1 when none. */
static long interpreter_python(const dl_paste *p, long *line)
{
    size_t i;
    for (i = 0; i < p->count; i++) {
        const char *v = p->lines[i].lower;
        char *end;
        long major, minor;
        v += strspn(v, " ");
        if (strncmp(v, "python ", 7) != 0 || !isdigit((unsigned char)v[7]))
            continue;
        major = strtol(v + 7, &end, 10);
        if (*end != '.' || !isdigit((unsigned char)end[1]))
            continue;
        minor = strtol(end + 1, &end, 10);
        if (*end == '.' && isdigit((unsigned char)end[1]))
            strtol(end + 1, &end, 10);
        end += strspn(end, " ");
        if (*end || major != 3)
            continue; /* a sentence about Python, not the interpreter's answer */
        *line = (long)i;
        return major * 100 + minor;
    }
    return -1;
}

void dl_explain_pip_of_another_python(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "pip_python_mismatch",
        "The pip that ran belongs to another Python than the one that runs the program: "
        "pip --version names its own Python, and it is not this one",
        "# install with the interpreter that runs the program: run pip as python -m pip "
        "with that interpreter (in a portable or embedded folder, its own python.exe -m pip)",
        {NULL},
        "`python -m pip --version` and `where pip` (or `which pip`): which Python each pip "
        "belongs to"};
    static const char *const readings[] = {"wheel_tag_mismatch", "python_32bit",
                                           "python_unsupported", "torch_not_installed"};
    long pip_line = -1, py_line = -1;
    long pip_py = pip_own_python(&e->paste, &pip_line);
    long py = interpreter_python(&e->paste, &py_line);
    if (pip_py < 0 || py < 0 || pip_py == py)
        return;
    dl_text_causes_step_back(e, readings, sizeof readings / sizeof readings[0]);
    dl_text_cause_add(e, &cause, pip_line, py_line);
}

/* The interpreter a "sys.executable" line names (on that line after it, or on the next line
 * that has text): a path holding "python", lowered and unquoted, into out; false when none. */
static bool executable_after(const dl_paste *p, size_t i, char *out, size_t n)
{
    const char *at = strstr(p->lines[i].lower, "sys.executable") + strlen("sys.executable");
    size_t k;
    at += strcspn(at, "'\"/\\");
    if (!*at && i + 1 < p->count)
        at = p->lines[i + 1].lower + strspn(p->lines[i + 1].lower, " \t>");
    at += strspn(at, "'\" ");
    k = strcspn(at, "'\" ,");
    if (k == 0 || k >= n || !strstr(at, "python") || (size_t)(strstr(at, "python") - at) >= k ||
        !(memchr(at, '/', k) || memchr(at, '\\', k)))
        return false;
    memcpy(out, at, k);
    out[k] = '\0';
    return true;
}

void dl_explain_two_executables(dl_explanation *e)
{
    static const dl_text_cause cause = {
        "pip_python_mismatch",
        "Two interpreters take part: sys.executable names one Python where the import works "
        "and another where it fails (a notebook kernel or an editor's interpreter), and the "
        "package was installed into the first",
        "# point the kernel or the editor at the environment that has the package (register "
        "it as a kernel from inside it: python -m ipykernel install --user --name torch-env, "
        "then pick the torch-env kernel), or install it with the failing interpreter's own "
        "python -m pip",
        {NULL},
        "`import sys; print(sys.executable)` in both places"};
    char first[512], other[512];
    long i, first_line = -1, other_line = -1;
    if (dl_text_cause_read(e) || dl_paste_find(&e->paste, 0, "no module named") < 0)
        return;
    for (i = dl_paste_find(&e->paste, 0, "sys.executable"); i >= 0 && other_line < 0;
         i = dl_paste_find(&e->paste, (size_t)i + 1, "sys.executable")) {
        char *into = first_line < 0 ? first : other;
        if (!executable_after(&e->paste, (size_t)i, into, sizeof first))
            continue;
        if (first_line < 0)
            first_line = i;
        else if (strcmp(first, other) != 0)
            other_line = i;
    }
    if (other_line < 0)
        return;
    dl_text_cause_add(e, &cause, first_line, other_line);
}

void dl_explain_python_check_beside_running_torch(dl_explanation *e)
{
    static const char *const ids[] = {"python_unsupported"};
    /* messages only a torch that imported gives */
    static const char *const imported[] = {"torch not compiled with cuda enabled",
                                           "attempting to deserialize object on a cuda device",
                                           "cuda out of memory", "no kernel image is available"};
    long check = dl_paste_find(&e->paste, 0, "tested with");
    if (check < 0 || !dl_findings_has_failure(&e->findings, ids[0]) ||
        dl_paste_find_any(&e->paste, imported, sizeof imported / sizeof imported[0]) < 0)
        return;
    dl_text_causes_step_back(e, ids, 1);
}

/* The CUDA index a text's install command names ("download.pytorch.org/whl/cu131",
 * ".../whl/nightly/cu129", "/whl/cu12.1"): its variant ("cu131", "cu12") in out; false when
 * the text names none. */
static long cuda_index_named(const dl_paste *p, char *out, size_t n)
{
    long i;
    for (i = dl_paste_find(p, 0, "download.pytorch.org/whl/"); i >= 0;
         i = dl_paste_find(p, (size_t)i + 1, "download.pytorch.org/whl/")) {
        const char *at = strstr(p->lines[i].lower, "download.pytorch.org/whl/") + 25;
        size_t k = 0;
        if (!strncmp(at, "nightly/", 8))
            at += 8;
        if (strncmp(at, "cu", 2) != 0 || !isdigit((unsigned char)at[2]))
            continue;
        while ((isalnum((unsigned char)at[k])) && k + 1 < n) {
            out[k] = at[k];
            k++;
        }
        out[k] = '\0';
        return i;
    }
    return -1;
}

void dl_explain_index_without_torch(const dl_knowledge *k, dl_explanation *e)
{
    static const dl_text_cause cause = {
        "wheel_tag_mismatch",
        "The install command's index names a CUDA build no torch release in dlenv's tables "
        "was built for (a mistyped or made-up index, such as cu131 or cu12.1, unless it is "
        "newer than these tables): pip found no torch there, whatever the Python",
        "# use an index named after a CUDA release torch is built for (cu118, cu121, cu124, "
        "cu126, cu128, cu129, cu130, cu132, each for some releases): dlenv plan prints the "
        "one for this machine's GPU and driver",
        {"python_unsupported", "python_32bit"},
        "the install command as run and `python -VV`"};
    static const char *const ids[] = {"python_unsupported", "python_32bit", "wheel_tag_mismatch"};
    static const char *const none[] = {"from versions: none", "no matching distribution found for torch"};
    char variant[16];
    long line;
    if ((line = cuda_index_named(&e->paste, variant, sizeof variant)) < 0 ||
        dl_kq_find(dl_knowledge_at(k, DL_TABLE_wheel_arches), DL_COL_wheel_arches_cuda_variant,
                   variant) >= 0 ||
        dl_paste_find_any(&e->paste, none, sizeof none / sizeof none[0]) < 0)
        return;
    dl_text_causes_step_back(e, ids, sizeof ids / sizeof ids[0]);
    dl_text_cause_add(e, &cause, line, -1);
}

/* The first torch requirement in the text ("torch==2.7.1+cu128"; with tagged, the first
 * with a CUDA or CPU tag): its release, and its tag ("" when none); false when none. */
static bool torch_pin(const dl_paste *p, bool tagged, char *release, size_t rn, char *tag,
                      size_t tn)
{
    long i;
    for (i = dl_paste_find(p, 0, "torch=="); i >= 0; i = dl_paste_find(p, (size_t)i + 1, "torch==")) {
        const char *low = p->lines[i].lower, *at = strstr(low, "torch==");
        size_t a = 0, b = 0;
        /* not another package's name ending in torch ("open-clip-torch==") */
        if (at > low && (isalnum((unsigned char)at[-1]) || at[-1] == '-' || at[-1] == '_'))
            continue;
        at += 7;
        while ((isdigit((unsigned char)at[a]) || at[a] == '.') && a + 1 < rn)
            a++;
        if (at[a] == '+')
            while (isalnum((unsigned char)at[a + 1 + b]) && b + 1 < tn)
                b++;
        if (!a || (tagged && (b < 3 || (strncmp(at + a + 1, "cu", 2) != 0 &&
                                        strncmp(at + a + 1, "cpu", 3) != 0))))
            continue;
        memcpy(release, at, a);
        release[a] = '\0';
        if (b)
            memcpy(tag, at + a + 1, b);
        tag[b] = '\0';
        return true;
    }
    return false;
}

/* The CUDA and CPU builds torch_releases.csv lists for a release on the text's OS (Windows'
 * column on Windows, Linux's otherwise), or "" when the release is not in the table. */
static const char *published_builds(const dl_knowledge *k, const char *release, const dl_facts *f)
{
    long r = dl_kq_torch_release(k, release);
    const char *v;
    if (r < 0)
        return "";
    v = dl_table_cell(dl_knowledge_at(k, DL_TABLE_torch_releases), (size_t)r,
                      dl_q_text_is(&f->os.family, "windows")
                          ? DL_COL_torch_releases_cuda_variants_windows
                          : DL_COL_torch_releases_cuda_variants_linux);
    return v ? v : "";
}

/* published_builds as words ("cu118 cu121 cu124") into out; "" when the table has none. */
static void builds_in_words(const dl_knowledge *k, const char *release, const dl_facts *f,
                            char *out, size_t n)
{
    size_t i;
    snprintf(out, n, "%s", published_builds(k, release, f));
    for (i = 0; out[i]; i++)
        if (out[i] == ';')
            out[i] = ' ';
}

/* The table has no row for the release, or lists the tag among its builds ("cpu" always
 * counts): false only when the table says the pair never existed. */
static bool build_published(const dl_knowledge *k, const char *release, const char *tag,
                            const dl_facts *f)
{
    const char *builds = published_builds(k, release, f);
    return !*builds || !strcmp(tag, "cpu") || dl_semicolon_list_has(builds, tag);
}

/* The text shows that this Python can have that release, so only the tag kept pip from it:
 * pip's list holds the release untagged ("(from versions: ..., 1.4.0, 1.5.0)"), or the
 * Python's version is one the release has wheels for, on a 64-bit Python. */
static bool python_can_have(const dl_knowledge *k, const dl_explanation *e, const char *release)
{
    const dl_python *py = e->facts.pythons.count ? &DL_LIST_AT(e->facts.pythons, dl_python, 0)
                                                 : NULL;
    long line = dl_paste_find(&e->paste, 0, "from versions:");
    const char *at;
    size_t n = strlen(release);
    if (line >= 0) {
        for (at = strstr(e->paste.lines[line].lower, release); at; at = strstr(at + 1, release))
            if ((at[-1] == ' ' || at[-1] == ':') && (at[n] == ',' || at[n] == ')'))
                return true;
        return false;
    }
    return py && py->version.value && !(py->bits.known && py->bits.value == 32) &&
           dl_kq_release_has_python(k, release, py->version.value);
}

void dl_explain_tagged_pin_without_index(const dl_knowledge *k, dl_explanation *e)
{
    static const dl_text_cause cause = {
        "wheel_tag_mismatch",
        "The requirement pins torch with a build tag (+cpu, +cu121), and builds with a tag are "
        "only on PyTorch's own index, which the install command does not name: pip looked on "
        "PyPI only",
        "# for a version with a CUDA tag give PyTorch's index for that tag (in a requirements "
        "file, --extra-index-url on a line of its own above the pin)",
        {"python_unsupported"},
        "the install command or requirements file as run"};
    static const char *const ids[] = {"python_unsupported", "python_32bit"};
    char release[24], tag[16];
    long line = dl_paste_find(&e->paste, 0, "no matching distribution found for torch==");
    if (line < 0)
        line = dl_paste_find(&e->paste, 0, "satisfies the requirement torch==");
    if (line < 0 || !torch_pin(&e->paste, true, release, sizeof release, tag, sizeof tag) ||
        dl_paste_find(&e->paste, 0, "download.pytorch.org") >= 0 ||
        !python_can_have(k, e, release))
        return;
    dl_text_causes_step_back(e, ids, sizeof ids / sizeof ids[0]);
    dl_text_cause_add(e, &cause, line, -1);
}

void dl_explain_tagged_pin_fix(const dl_knowledge *k, dl_explanation *e)
{
    dl_finding *x = dl_findings_get(&e->findings, "wheel_tag_mismatch");
    char release[24], tag[16];
    if (!x || !dl_finding_fix_is_only(x, "give PyTorch's index for that tag") ||
        !torch_pin(&e->paste, true, release, sizeof release, tag, sizeof tag))
        return;
    dl_finding_fix_clear(x);
    if (!build_published(k, release, tag, &e->facts)) {
        char builds[128];
        builds_in_words(k, release, &e->facts, builds, sizeof builds);
        dl_fix_note(x, "torch %s was never built for %s: its CUDA builds are %s "
                       "(torch_releases.csv); pin one of them, or a release built for %s",
                    release, tag, builds, tag);
        return;
    }
    dl_finding_fix(x, "python -m pip install torch==%s --index-url https://download.pytorch.org/whl/%s",
                   release, tag);
    dl_fix_note(x, "torch %s+%s is on PyTorch's index for %s, not on PyPI; a requirements file "
                   "keeps the tag and names that index with --extra-index-url", release, tag, tag);
}

/* pip's "(from versions: 2.1.0+cu121, ..., 2.5.1+cu121)" on line `line`: every entry's
 * local tag when they share one (into tag), the first and last entries' releases; false
 * when the list is empty or mixes builds. */
static bool one_build_list(const dl_paste *p, long line, char *tag, size_t tn, char *first,
                           char *last, size_t vn)
{
    const char *at = strstr(p->lines[line].lower, "from versions:");
    char *list, *close;
    dl_strv items = {0};
    size_t j;
    bool same = true;
    if (!at)
        return false;
    list = dl_strdup(at + 14);
    if ((close = strchr(list, ')')) != NULL)
        *close = '\0';
    dl_strv_split(&items, list, ',');
    free(list);
    tag[0] = '\0';
    for (j = 0; j < items.n && same; j++) {
        const char *v = dl_trim(items.v[j]), *plus = strchr(v, '+');
        size_t base = plus ? (size_t)(plus - v) : strlen(v);
        if (!plus || !isdigit((unsigned char)v[0]) || base >= vn)
            same = false;
        else if (!tag[0])
            snprintf(tag, tn, "%s", plus + 1);
        else
            same = !strcmp(tag, plus + 1);
        if (same && j == 0)
            snprintf(first, vn, "%.*s", (int)base, v);
        if (same)
            snprintf(last, vn, "%.*s", (int)base, v);
    }
    same = same && items.n > 0;
    dl_strv_free(&items);
    return same;
}

/* The first (or, with newest, the last) release torch_releases.csv lists with build `tag`
 * on the text's OS; NULL when none. */
static const char *release_with(const dl_knowledge *k, const char *tag, const dl_facts *f,
                                bool newest)
{
    const dl_table *t = dl_knowledge_at(k, DL_TABLE_torch_releases);
    const char *best = NULL;
    dl_torch_version bv, v;
    size_t r;
    for (r = 0; t && r < t->rows; r++) {
        const char *release = dl_table_cell(t, r, DL_COL_torch_releases_torch_version);
        if (!dl_semicolon_list_has(published_builds(k, release, f), tag) &&
            !dl_semicolon_list_has(dl_table_cell(t, r, DL_COL_torch_releases_rocm_variants_linux),
                                   tag))
            continue;
        if (dl_torch_version_parse(release, &v) &&
            (!best || (newest ? dl_torch_version_cmp(&v, &bv) > 0
                              : dl_torch_version_cmp(&v, &bv) < 0))) {
            best = release;
            bv = v;
        }
    }
    return best;
}

/* The finding for an index whose newest torch with build `tag` is `last` (its first,
 * `first`, when the text lists it) where the install wants `release`, newer. */
static void add_index_stops(const dl_knowledge *k, dl_explanation *e, size_t line,
                            const char *tag, const char *first, const char *last,
                            const char *release, const dl_torch_version *want)
{
    static const char *const ids[] = {"python_unsupported", "python_32bit"};
    char full[32], listed[128];
    dl_finding *x;
    dl_text_causes_step_back(e, ids, sizeof ids / sizeof ids[0]);
    if (first)
        x = dl_finding_add(&e->findings, "wheel_tag_mismatch", DL_SEV_FAILURE,
                           "The %s index has torch only from %s to %s: torch %s was never "
                           "built for %s, so pip finds no such version there (the Python is "
                           "fine: the list starts at that index's first release)",
                           tag, first, last, release, tag);
    else
        x = dl_finding_add(&e->findings, "wheel_tag_mismatch", DL_SEV_FAILURE,
                           "The %s index has torch only up to %s: torch %s, which the "
                           "install needs, was never built for %s, so the resolver finds "
                           "none there",
                           tag, last, release, tag);
    dl_quote_line(x, &e->paste, line);
    /* "2.6" asked for: the release row is 2.6.0's */
    snprintf(full, sizeof full, "%lu.%lu.%lu", want->release.part[0], want->release.part[1],
             want->release.part[2]);
    builds_in_words(k, full, &e->facts, listed, sizeof listed);
    if (*listed)
        dl_fix_note(x, "torch %s was built for %s (torch_releases.csv)", full, listed);
    dl_fix_note(x, "take torch %s from an index it was built for (dlenv plan --torch %s prints "
                   "the one for this machine), or keep %s and pin torch %s or older",
                release, release, tag, last);
    dl_strv_add(&e->ask, dl_strdup("the install command as run (its index) and the GPU's "
                                   "driver (`nvidia-smi`)"));
}

void dl_explain_index_stops_before_version(const dl_knowledge *k, dl_explanation *e)
{
    char tag[32], first[32], last[32], release[24], pin[16];
    const char *from, *to;
    dl_torch_version want, have;
    long line = dl_paste_find(&e->paste, 0, "from versions:");
    size_t n;
    if (line < 0 || !one_build_list(&e->paste, line, tag, sizeof tag, first, last, sizeof last) ||
        !torch_pin(&e->paste, false, release, sizeof release, pin, sizeof pin) ||
        !(from = release_with(k, tag, &e->facts, false)) || strcmp(from, first) != 0 ||
        !(to = release_with(k, tag, &e->facts, true)) || strcmp(to, last) != 0)
        return; /* a list cut at either end is this Python's share of the index */
    n = strlen(release);
    while (n && release[n - 1] == '.')
        release[--n] = '\0';
    if (!dl_torch_version_parse(release, &want) || !dl_torch_version_parse(last, &have) ||
        dl_torch_version_cmp(&want, &have) <= 0)
        return;
    add_index_stops(k, e, (size_t)line, tag, first, last, release, &want);
}

/* The torch release right after `key` in low ("torch<=" then "2.6.0+cu124"), into buf;
 * its local tag into tag (empty when none). False when no release follows. */
static bool version_after(const char *low, const char *key, char *buf, size_t n, char *tag,
                          size_t tn)
{
    char *plus;
    if (!dl_torch_version_after(low, key, buf, n))
        return false;
    tag[0] = '\0';
    if ((plus = strchr(buf, '+')) != NULL) {
        snprintf(tag, tn, "%s", plus + 1);
        *plus = '\0';
    }
    return true;
}

/* uv's form of the same: "Because only torch<=2.6.0+cu124 is available and invokeai==5.12.0
 * depends on torch>=2.7.0": the index's newest build is the last release with that tag. */
void dl_explain_uv_index_stops_before_version(const dl_knowledge *k, dl_explanation *e)
{
    char last[32], tag[32], release[32], none[8];
    const char *to;
    dl_torch_version want, have;
    long line = dl_paste_find(&e->paste, 0, "only torch<=");
    long needs = line < 0 ? -1 : dl_paste_find(&e->paste, (size_t)line, "depends on torch>=");
    if (needs < 0 || needs > line + 2 ||
        !version_after(e->paste.lines[line].lower, "only torch<=", last, sizeof last, tag,
                       sizeof tag) ||
        !tag[0] ||
        !version_after(e->paste.lines[needs].lower, "depends on torch>=", release,
                       sizeof release, none, sizeof none) ||
        !(to = release_with(k, tag, &e->facts, true)) || strcmp(to, last) != 0 ||
        !dl_torch_version_parse(release, &want) || !dl_torch_version_parse(last, &have) ||
        dl_torch_version_cmp(&want, &have) <= 0)
        return;
    add_index_stops(k, e, (size_t)line, tag, NULL, last, release, &want);
}

void dl_explain_launcher_torch_for_other_python(const dl_knowledge *k, dl_explanation *e)
{
    static const dl_text_cause cause = {
        "python_unsupported",
        "The launcher's torch install failed because the torch release it pins has no wheels "
        "for the Python its environment runs (a Python newer than that release)",
        "# give the launcher a Python that release supports (the app's README names it: "
        "3.10 for the Stable Diffusion web UI), delete its venv folder so it is made again "
        "with that Python, then start it again; or a release of the app that pins a torch "
        "with wheels for this Python",
        {"python_32bit"},
        "`python -VV` in the launcher's environment and the command it ran"};
    const dl_python *py = e->facts.pythons.count
                              ? &DL_LIST_AT(e->facts.pythons, dl_python, 0) : NULL;
    char release[24], tag[16];
    long line;
    if (dl_text_cause_read(e) || !py || !py->version.value ||
        (line = dl_paste_find(&e->paste, 0, "couldn't install torch")) < 0 ||
        (!torch_pin(&e->paste, true, release, sizeof release, tag, sizeof tag) &&
         !torch_pin(&e->paste, false, release, sizeof release, tag, sizeof tag)) ||
        dl_kq_torch_release(k, release) < 0 ||
        dl_kq_release_has_python(k, release, py->version.value))
        return;
    dl_text_cause_add(e, &cause, line, dl_text_line_of_fact(e, "pythons[0].version"));
}
