#include "explain/fix_interpreter.h"

#include "base/str.h"
#include "rules/fixes.h"

#include <stdlib.h>
#include <string.h>

static const char generic[] = "python -m pip ";

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
            if (strncmp(*line, generic, sizeof generic - 1) != 0)
                continue;
            mended = dl_fmt("%s -m pip %s", python, *line + sizeof generic - 1);
            free(*line);
            *line = mended;
        }
    }
    free(python);
}
