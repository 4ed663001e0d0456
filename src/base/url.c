#include "base/url.h"

#include <stdbool.h>
#include <string.h>

static bool is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* RFC 3986: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) */
static bool scheme_char(char c)
{
    return is_alpha(c) || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.';
}

/* Whether the "://" at sep follows a scheme (text..sep). */
static bool after_scheme(const char *text, const char *sep)
{
    const char *p = sep;
    while (p > text && scheme_char(p[-1]))
        p--;
    while (p < sep && !is_alpha(*p)) /* "1https://": the scheme starts at a letter */
        p++;
    return p < sep;
}

char *dl_url_strip_userinfo(char *text)
{
    char *sep = text;
    while ((sep = strstr(sep, "://")) != NULL) {
        char *host = sep + 3;
        size_t n = strcspn(host, "/?#\\ \t\r\n\"'<>`");
        char *at = NULL, *p;
        for (p = host; p < host + n; p++)
            if (*p == '@')
                at = p; /* the last: a password may hold an unescaped '@' */
        if (at && after_scheme(text, sep))
            memmove(host, at + 1, strlen(at + 1) + 1);
        sep = host;
    }
    return text;
}
