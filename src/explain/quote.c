#include "explain/quote.h"

#include <stdio.h>
#include <string.h>

void dl_quote_line(dl_finding *x, const dl_paste *p, size_t line)
{
    char key[32];
    size_t i;
    snprintf(key, sizeof key, "L%zu", p->lines[line].number);
    for (i = 0; i < x->evidence.count; i++)
        if (!strcmp(DL_LIST_AT(x->evidence, dl_pair, i).name, key))
            return;
    dl_finding_evidence(x, key, "%s", p->lines[line].text);
}
