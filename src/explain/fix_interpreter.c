#include "explain/fix_interpreter.h"

#include "base/str.h"
#include "rules/fixes.h"

#include <stdlib.h>
#include <string.h>

static const char generic[] = "python -m pip ";

/* "python -m pip" inside a prose line ("..., then run the install again as python -m pip
 * install"): each one that starts a word becomes the text's interpreter. NULL: none there. */
static char *mend_inline(const char *line, const char *python)
{
    const char *at = line, *from = line;
    char *out = NULL, *run = dl_fmt("%s -m pip ", python);
    for (at = strstr(at, generic); at; at = strstr(at + 1, generic)) {
        if (at > line && !strchr(" (\"`'", at[-1]))
            continue;
        out = dl_str_grow(out, from, (size_t)(at - from), run);
        from = at + sizeof generic - 1;
    }
    free(run);
    return out ? dl_str_grow(out, from, strlen(from), NULL) : NULL;
}

void dl_explain_fix_interpreter(dl_explanation *e)
{
    const dl_python *py =
        e->facts.pythons.count ? &DL_LIST_AT(e->facts.pythons, dl_python, 0) : NULL;
    char *python;
    size_t i, j;
    /* only a path the text showed: a bare "python" read from a prompt says nothing more */
    if (!py || !py->path.value || !strpbrk(py->path.value, "/\\"))
        return;
    python = dl_fix_python(&e->facts, py);
    for (i = 0; i < e->findings.items.count; i++) {
        dl_finding *x = &DL_LIST_AT(e->findings.items, dl_finding, i);
        for (j = 0; j < x->fix.count; j++) {
            char **line = &DL_LIST_AT(x->fix, char *, j);
            char *mended;
            mended = mend_inline(*line, python);
            if (!mended)
                continue;
            free(*line);
            *line = mended;
        }
    }
    free(python);
}
