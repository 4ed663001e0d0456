#include "run/quote.h"

#include "base/shell.h"

#include "os/cmdline.h"

#include <stdlib.h>
#include <string.h>

/* An ASCII letter or digit, or one of extra (never the NUL strchr would find). */
static bool plain_char(char c, const char *extra)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c && strchr(extra, c));
}

void dl_quote_sh(dl_buf *b, const char *arg)
{
    dl_shell_quote_to(DL_SHELL_POSIX, b, arg);
}

bool dl_quote_bat(dl_buf *b, const char *arg, bool *cmd_quoted)
{
    dl_buf msvc = {0};
    const char *p;
    if (strpbrk(arg, "\r\n"))
        return false;
    /* always quoted: then only an argument's own " can take cmd out of quotes */
    dl_cmdline_quote(&msvc, arg, true);
    for (p = msvc.data; *p; p++) {
        if (*p == '"')
            *cmd_quoted = !*cmd_quoted;
        if (*p == '%')
            dl_buf_puts(b, "%");
        else if (!*cmd_quoted && strchr("^&|<>", *p))
            dl_buf_puts(b, "^");
        dl_buf_add(b, p, 1);
    }
    dl_buf_free(&msvc);
    return true;
}

bool dl_quote_bat_value(dl_buf *b, const char *value)
{
    const char *p;
    if (strpbrk(value, "\r\n\""))
        return false;
    for (p = value; *p; p++) {
        if (*p == '%')
            dl_buf_puts(b, "%");
        dl_buf_add(b, p, 1);
    }
    return true;
}

void dl_quote_ps1(dl_buf *b, const char *arg)
{
    dl_shell_quote_always(DL_SHELL_POWERSHELL, b, arg);
}

bool dl_quote_dotenv(dl_buf *b, const char *value)
{
    const char *p;
    size_t n = strlen(value);
    if (strpbrk(value, "\r\n"))
        return false;
    if (!strpbrk(value, "\"'#$`") && !(n && (value[0] == ' ' || value[n - 1] == ' '))) {
        dl_buf_puts(b, value);
        return true;
    }
    if (!strpbrk(value, "'\\")) { /* single quotes: literal, no ${...} interpolation */
        dl_buf_printf(b, "'%s'", value);
        return true;
    }
    if (strstr(value, "${")) /* double quotes would interpolate it */
        return false;
    dl_buf_puts(b, "\"");
    for (p = value; *p; p++) {
        if (*p == '"' || *p == '\\')
            dl_buf_puts(b, "\\");
        dl_buf_add(b, p, 1);
    }
    dl_buf_puts(b, "\"");
    return true;
}

void dl_quote_comment(dl_buf *b, const char *text)
{
    const char *p;
    for (p = text; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            dl_buf_puts(b, "?");
        else
            dl_buf_add(b, p, 1);
}

void dl_quote_bat_comment(dl_buf *b, const char *text)
{
    const char *p;
    for (p = text; *p; p++)
        if (*p == '%')
            dl_buf_puts(b, "%%");
        else if (plain_char(*p, " -_.,:;()[]/\\+@#="))
            dl_buf_add(b, p, 1);
        else
            dl_buf_puts(b, "?");
}

bool dl_quote_vscode_literal(const char *value)
{
    return !strstr(value, "${") && dl_utf8_valid(value, strlen(value));
}
