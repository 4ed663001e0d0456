#include "os/cmdline.h"

#include <string.h>

/* Inside quotes, backslashes are literal except in front of a double quote: 2n of them
 * before a quote mean n backslashes and the quote ends the argument, 2n+1 mean n and a
 * literal quote. So backslashes are doubled only in front of a quote (ours or the
 * argument's own). */
void dl_cmdline_quote(dl_buf *b, const char *arg, bool always_quote)
{
    const char *p;
    if (!always_quote && *arg && !strpbrk(arg, " \t\n\v\"")) {
        dl_buf_puts(b, arg);
        return;
    }
    dl_buf_puts(b, "\"");
    for (p = arg;; p++) {
        size_t slashes = 0;
        while (*p == '\\') {
            p++;
            slashes++;
        }
        if (!*p) {
            while (slashes--) /* doubled: the closing quote must stay a quote */
                dl_buf_puts(b, "\\\\");
            break;
        }
        if (*p == '"') {
            while (slashes--)
                dl_buf_puts(b, "\\\\");
            dl_buf_puts(b, "\\\"");
        } else {
            while (slashes--)
                dl_buf_puts(b, "\\");
            dl_buf_add(b, p, 1);
        }
    }
    dl_buf_puts(b, "\"");
}

char *dl_cmdline_build(const char *program, const char *const *argv)
{
    dl_buf b = {0};
    size_t i;
    dl_cmdline_quote(&b, program, false);
    for (i = 1; argv[i]; i++) {
        dl_buf_puts(&b, " ");
        dl_cmdline_quote(&b, argv[i], false);
    }
    return dl_buf_take(&b);
}
