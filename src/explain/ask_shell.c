#include "explain/ask_shell.h"

#include "base/str.h"
#include "facts/query.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One question with every "echo $NAME" read the PowerShell way; NULL when it has none. */
static char *powershell_question(const char *ask)
{
    const char *at = strstr(ask, "echo $"), *from = ask;
    char *out = NULL, read[80];
    for (; at; at = strstr(at + 1, "echo $")) {
        const char *name = at + 6;
        size_t len = 0;
        while (isalnum((unsigned char)name[len]) || name[len] == '_')
            len++;
        if (!len || len > 60)
            continue;
        /* Windows finds DLLs on PATH: the loader's search path there */
        if (len == 15 && !strncmp(name, "LD_LIBRARY_PATH", len))
            snprintf(read, sizeof read, "echo $env:PATH");
        else
            snprintf(read, sizeof read, "echo $env:%.*s", (int)len, name);
        out = dl_str_grow(out, from, (size_t)(at - from), read);
        from = name + len;
    }
    return out ? dl_str_grow(out, from, strlen(from), NULL) : NULL;
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
