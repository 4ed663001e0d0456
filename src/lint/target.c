/* The target the severities are judged for, and the severity names. */
#include "lint/lint.h"

#include <stdlib.h>
#include <string.h>

static const char *const severity_names[] = {"info", "warning", "error", "off"};

const char *dl_lint_severity_name(dl_lint_severity s)
{
    return severity_names[s];
}

bool dl_lint_severity_parse(const char *text, dl_lint_severity *out)
{
    int i;
    for (i = DL_LINT_INFO; i <= DL_LINT_ERROR; i++)
        if (!strcmp(text, severity_names[i])) {
            *out = (dl_lint_severity)i;
            return true;
        }
    return false;
}

bool dl_lint_os_parse(const char *text, dl_lint_os *out)
{
    if (!strcmp(text, "linux"))
        *out = DL_LINT_OS_LINUX;
    else if (!strcmp(text, "windows"))
        *out = DL_LINT_OS_WINDOWS;
    else if (!strcmp(text, "macos"))
        *out = DL_LINT_OS_MACOS;
    else
        return false;
    return true;
}

const char *dl_lint_os_name(dl_lint_os os)
{
    switch (os) {
    case DL_LINT_OS_LINUX: return "linux";
    case DL_LINT_OS_WINDOWS: return "windows";
    case DL_LINT_OS_MACOS: return "macos";
    default: return "unknown OS";
    }
}

dl_lint_tristate dl_lint_torch_at_least(const dl_lint_target *t, unsigned major,
                                        unsigned minor)
{
    if (!t->torch_major)
        return DL_LINT_UNKNOWN;
    if (t->torch_major != major)
        return t->torch_major > major ? DL_LINT_YES : DL_LINT_NO;
    return t->torch_minor >= minor ? DL_LINT_YES : DL_LINT_NO;
}

void dl_lint_target_describe(dl_lint_target *t)
{
    char torch[32];
    free(t->described);
    if (t->torch_major)
        dl_fixed_fmt(torch, sizeof torch, "torch %u.%u", t->torch_major, t->torch_minor);
    else
        dl_fixed_fmt(torch, sizeof torch, "torch unknown");
    t->described = dl_fmt("%s, %s, %s", dl_lint_os_name(t->os), torch,
                          t->cuda == DL_LINT_YES ? "CUDA"
                          : t->cuda == DL_LINT_NO ? "no CUDA" : "CUDA unknown");
}

void dl_lint_target_free(dl_lint_target *t)
{
    free(t->described);
    t->described = NULL;
}
