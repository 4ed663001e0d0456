#include "explain/install_text.h"

#include "explain/text_cause.h"

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
