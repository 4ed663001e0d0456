#include "render/redact.h"

#include "base/str.h"

#include <stdlib.h>
#include <string.h>

static char *replace_all(const char *text, const char *from, const char *to)
{
    dl_buf b = {0};
    size_t n = from ? strlen(from) : 0;
    const char *p = text, *hit;
    if (n < 3 || strcmp(from, "/") == 0)
        return dl_strdup(text);
    while ((hit = strstr(p, from)) != NULL) {
        dl_buf_add(&b, p, (size_t)(hit - p));
        dl_buf_puts(&b, to);
        p = hit + n;
    }
    dl_buf_puts(&b, p);
    return dl_buf_take(&b);
}

char *dl_redact(const char *text, const dl_redaction *r)
{
    char *a = replace_all(text, r->home, "~");
    char *b = replace_all(a, r->user, "<user>");
    char *c = replace_all(b, r->host, "<host>");
    free(a);
    free(b);
    return c;
}
