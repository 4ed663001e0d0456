#include "explain/ask_shell.h"

#include "base/str.h"
#include "facts/query.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* One question with every "echo $NAME" read the PowerShell way; NULL when it has none. */
static char *powershell_question(const char *ask)
{
    const char *at = strstr(ask, "echo $"), *from = ask;
    char *out = NULL;
    for (; at; at = strstr(at + 1, "echo $")) {
        const char *name = at + 6;
        size_t len = 0;
        char *grown;
        while (isalnum((unsigned char)name[len]) || name[len] == '_')
            len++;
        if (!len)
            continue;
        /* Windows finds DLLs on PATH: the loader's search path there */
        grown = !strncmp(name, "LD_LIBRARY_PATH", len) && len == 15
                    ? dl_fmt("%s%.*secho $env:PATH", out ? out : "", (int)(at - from), from)
                    : dl_fmt("%s%.*secho $env:%.*s", out ? out : "", (int)(at - from), from,
                             (int)len, name);
        free(out);
        out = grown;
        from = name + len;
    }
    if (out) {
        char *whole = dl_fmt("%s%s", out, from);
        free(out);
        out = whole;
    }
    return out;
}

void dl_explain_asks_for_shell(dl_explanation *e)
{
    size_t i;
    if (!dl_q_text_is(&e->facts.os.family, "windows"))
        return;
    for (i = 0; i < e->ask.n; i++) {
        char *mended = powershell_question(e->ask.v[i]);
        if (mended) {
            free(e->ask.v[i]);
            e->ask.v[i] = mended;
        }
    }
}
