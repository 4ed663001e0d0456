#include "base/shell.h"

#include <stdlib.h>
#include <string.h>

/* Nothing any shell expands or splits: letters, digits and a few marks. '%' and ',' are
 * left out for PowerShell (and cmd users who paste there). */
static bool plain(dl_shell sh, const char *s)
{
    const char *extra = sh == DL_SHELL_POSIX ? "-_./,:=+@%" : sh == DL_SHELL_CMD ? "-_./:\\+="
                                                                                : "-_./:\\+";
    const char *p;
    if (!*s)
        return false;
    for (p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              strchr(extra, *p)))
            return false;
    return true;
}

/* PowerShell takes U+2018..U+201B as single quotes too: E2 80 98..9B. */
static bool typographic_quote(const char *p)
{
    return (unsigned char)p[0] == 0xE2 && (unsigned char)p[1] == 0x80 &&
           (unsigned char)p[2] >= 0x98 && (unsigned char)p[2] <= 0x9B;
}

static void backslashes(dl_buf *b, size_t n)
{
    while (n--)
        dl_buf_puts(b, "\\");
}

/* cmd's prompt: see shell.h. n backslashes are held until the next character says whether
 * a quote follows them (then the C runtime needs them doubled). */
static void cmd_quote(dl_buf *b, const char *arg)
{
    const char *p;
    size_t held = 0;
    dl_buf_puts(b, "\"");
    for (p = arg; *p; p++) {
        if (*p == '\\') {
            held++;
            continue;
        }
        if (*p == '%' || *p == '"') {
            backslashes(b, 2 * held);
            dl_buf_puts(b, *p == '%' ? "\"^%\"" : "\"\\^\"\"");
        } else {
            backslashes(b, held);
            dl_buf_add(b, p, 1);
        }
        held = 0;
    }
    backslashes(b, 2 * held);
    dl_buf_puts(b, "\"");
}

void dl_shell_quote_always(dl_shell sh, dl_buf *b, const char *arg)
{
    const char *p;
    if (sh == DL_SHELL_CMD) {
        cmd_quote(b, arg);
        return;
    }
    dl_buf_puts(b, "'");
    for (p = arg; *p; p++) {
        if (*p == '\'') {
            dl_buf_puts(b, sh == DL_SHELL_POSIX ? "'\\''" : "''");
        } else if (sh == DL_SHELL_POWERSHELL && typographic_quote(p)) {
            dl_buf_add(b, p, 3);
            dl_buf_add(b, p, 3);
            p += 2;
        } else {
            dl_buf_add(b, p, 1);
        }
    }
    dl_buf_puts(b, "'");
}

void dl_shell_quote_to(dl_shell sh, dl_buf *b, const char *arg)
{
    if (plain(sh, arg))
        dl_buf_puts(b, arg);
    else
        dl_shell_quote_always(sh, b, arg);
}

char *dl_shell_quote(dl_shell sh, const char *arg)
{
    dl_buf b = {0};
    dl_shell_quote_to(sh, &b, arg ? arg : "");
    return dl_buf_take(&b);
}

char *dl_shell_program(dl_shell sh, const char *path)
{
    dl_buf b = {0};
    if (sh == DL_SHELL_POWERSHELL && !plain(sh, path))
        dl_buf_puts(&b, "& ");
    if (sh == DL_SHELL_CMD && strchr(path, '=')) /* it ends cmd's command name */
        dl_shell_quote_always(sh, &b, path);
    else
        dl_shell_quote_to(sh, &b, path);
    return dl_buf_take(&b);
}

char *dl_shell_set_env(dl_shell sh, const char *name, const char *value)
{
    dl_buf b = {0};
    if (sh == DL_SHELL_CMD)
        sh = DL_SHELL_POWERSHELL; /* not asked for cmd: PowerShell's, not a wrong cmd line */
    dl_buf_printf(&b, sh == DL_SHELL_POWERSHELL ? "$env:%s = " : "export %s=", name);
    if (sh == DL_SHELL_POWERSHELL)
        dl_shell_quote_always(sh, &b, value); /* bare, it would be parsed as an expression */
    else
        dl_shell_quote_to(sh, &b, value);
    return dl_buf_take(&b);
}

char *dl_shell_unset_env(dl_shell sh, const char *name)
{
    return sh != DL_SHELL_POSIX ? dl_fmt("Remove-Item Env:%s", name)
                                     : dl_fmt("unset %s", name);
}

char dl_shell_list_separator(dl_shell sh)
{
    return sh == DL_SHELL_POSIX ? ':' : ';';
}
