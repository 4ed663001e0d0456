#include "cli/output.h"

#include "cli/exit_codes.h"
#include "os/os.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Colour only on a terminal and never with NO_COLOR (https://no-color.org: any
 * non-empty value); UTF-8 symbols only where the locale says the terminal shows them. */
dl_style dl_cli_style(const dl_cli *cli)
{
    dl_style s;
    const char *no_color = dl_env_get("NO_COLOR");
    bool tty = dl_term_is_tty(1);
    if (cli->color == DL_COLOR_ALWAYS)
        s.color = true;
    else if (cli->color == DL_COLOR_NEVER)
        s.color = false;
    else
        s.color = tty && !(no_color && *no_color);
    s.unicode = !cli->ascii && dl_term_utf8();
    return s;
}

int dl_cli_write(const char *text, bool add_newline)
{
    size_t len = strlen(text);
    if (fwrite(text, 1, len, stdout) != len || (add_newline && fputc('\n', stdout) == EOF) ||
        fflush(stdout) != 0) {
        dl_cli_error("cannot write the output: %s", strerror(errno));
        return DL_EXIT_TOOL;
    }
    return DL_EXIT_OK;
}

void dl_cli_error(const char *fmt, ...)
{
    va_list ap;
    char *raw, *shown;
    va_start(ap, fmt);
    raw = dl_vfmt(fmt, ap);
    va_end(ap);
    shown = dl_utf8_clean(raw, strlen(raw));
    fprintf(stderr, "dlenv: %s\n", shown);
    free(shown);
    free(raw);
}
