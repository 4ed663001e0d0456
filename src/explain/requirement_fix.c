#include "explain/requirement_fix.h"

#include "base/str.h"
#include "rules/fixes.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char needed[] = " is required for a normal functioning of this module";

/* A requirement's characters: a name, its comparisons and versions ("huggingface-hub>=0.30.0,
 * <1.0", "tokenizers>=0.11.1,!=0.11.3,<0.14"). */
static bool requirement_char(char c)
{
    return isalnum((unsigned char)c) || strchr("-_.<>=!,~[]", c) != NULL;
}

/* The requirement right before " is required for ..." on the line, into buf; false when it
 * is not one (no comparison in it). */
static bool requirement_before(const char *text, const char *at, char *buf, size_t n)
{
    const char *start = at;
    size_t len;
    while (start > text && requirement_char(start[-1]))
        start--;
    len = (size_t)(at - start);
    if (!len || len >= n || !isalpha((unsigned char)*start) || !strpbrk(start, "<>=") ||
        (size_t)(strpbrk(start, "<>=") - start) >= len)
        return false;
    memcpy(buf, start, len);
    buf[len] = '\0';
    return true;
}

void dl_explain_requirement_fix(dl_explanation *e)
{
    dl_finding *x = dl_findings_get(&e->findings, "dependency_version_mismatch");
    char requirement[128];
    const char *low, *text;
    char *command;
    long line;
    size_t i;
    if (!x || (line = dl_paste_find(&e->paste, 0, needed)) < 0)
        return;
    low = e->paste.lines[line].lower;
    text = e->paste.lines[line].text;
    if (strlen(low) != strlen(text) ||
        !requirement_before(text, text + (strstr(low, needed) - low), requirement,
                            sizeof requirement))
        return;
    /* the command first, then the table's words (what else may be wrong) */
    dl_finding_fix(x, "python -m pip install \"%s\"", requirement);
    command = DL_LIST_AT(x->fix, char *, x->fix.count - 1);
    for (i = x->fix.count - 1; i > 0; i--)
        DL_LIST_AT(x->fix, char *, i) = DL_LIST_AT(x->fix, char *, i - 1);
    DL_LIST_AT(x->fix, char *, 0) = command;
}
