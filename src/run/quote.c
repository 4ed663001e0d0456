#include "run/quote.h"

#include "os/cmdline.h"

#include <stdlib.h>
#include <string.h>

/* An ASCII letter or digit, or one of extra (never the NUL strchr would find). */
static bool plain_char(char c, const char *extra)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c && strchr(extra, c));
}

static bool plain(const char *s, const char *extra)
{
    const char *p;
    if (!*s)
        return false;
    for (p = s; *p; p++)
        if (!plain_char(*p, extra))
            return false;
    return true;
}

void dl_quote_sh(dl_buf *b, const char *arg)
{
    const char *p;
    if (plain(arg, "-_./,:=+@%")) {
        dl_buf_puts(b, arg);
        return;
    }
    dl_buf_puts(b, "'");
    for (p = arg; *p; p++)
        if (*p == '\'')
            dl_buf_puts(b, "'\\''");
        else
            dl_buf_add(b, p, 1);
    dl_buf_puts(b, "'");
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

/* U+2018..U+201B are E2 80 98..9B in UTF-8. */
static bool typographic_quote(const char *p)
{
    return (unsigned char)p[0] == 0xE2 && (unsigned char)p[1] == 0x80 &&
           (unsigned char)p[2] >= 0x98 && (unsigned char)p[2] <= 0x9B;
}

void dl_quote_ps1(dl_buf *b, const char *arg)
{
    const char *p;
    dl_buf_puts(b, "'");
    for (p = arg; *p; p++) {
        if (*p == '\'') {
            dl_buf_puts(b, "''");
        } else if (typographic_quote(p)) {
            dl_buf_add(b, p, 3);
            dl_buf_add(b, p, 3);
            p += 2;
        } else {
            dl_buf_add(b, p, 1);
        }
    }
    dl_buf_puts(b, "'");
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
