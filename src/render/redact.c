/* --redact by structure (redact.h). Two passes over a value: first every home directory
 * where a path starts (the home may hold spaces: C:\Users\Ana Smith), then token by token:
 * a token is a URL, a path, KEY=VALUE, NAME@HOST or a plain word, and each kind has its
 * own places where a name can stand. A plain word never changes. Matching ignores ASCII
 * case and takes / and \ as the same, as Windows does (C:\Users\Ana is c:/users/ana). */
#include "render/redact.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Where a user's own folder goes: the name after these is an account. */
static const char *const home_parents[] = {"home", "Users", "media"};
/* The system's trees: a folder there is the system's, whatever it is called (the user
 * nvidia and /usr/lib/x86_64-linux-gnu/nvidia). */
static const char *const system_roots[] = {"usr", "lib", "lib32", "lib64", "libx32", "bin",
                                           "sbin", "etc", "proc", "sys", "dev", "boot",
                                           "run", "opt", "var", "snap", "nix", "gnu"};
static const char *const windows_system_roots[] = {"Windows", "Program Files",
                                                   "Program Files (x86)", "ProgramData"};
/* Folder names every installation has: a user called so is named only where an account
 * goes (/home/lib), never in ~/.venv/lib or site-packages/nvidia. */
static const char *const common_folders[] = {
    "lib",    "lib32",   "lib64",   "libx32",        "bin",           "sbin",   "share",
    "include", "local",  "etc",     "src",           "opt",           "var",    "tmp",
    "usr",    "home",    "srv",     "mnt",           "media",         "dev",    "proc",
    "sys",    "run",     "boot",    "man",           "doc",           "docs",   "data",
    "cache",  "config",  "build",   "test",          "tests",         "app",    "apps",
    "site-packages",     "dist-packages",            "Scripts",       "Library", "conda",
    "envs",   "pkgs",    "python",  "python3",       "nvidia",        "cuda",   "torch"};
/* The keys of KEY=NAME that name an account. */
static const char *const user_keys[] = {"user", "username", "logname", "login"};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static bool is_sep(char c)
{
    return c == '/' || c == '\\';
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* What ends a token (':' is decided by the tokenizer: a drive, a URL or a list). */
static bool is_delim(char c)
{
    return c == '\0' || is_space(c) || strchr("\"'`,;()[]{}<>|", c) != NULL;
}

static bool same_char(char a, char b)
{
    return (is_sep(a) && is_sep(b)) || tolower((unsigned char)a) == tolower((unsigned char)b);
}

/* s[0..n) starts with name (n >= its length). */
static bool starts_with_name(const char *s, size_t n, const char *name)
{
    size_t i, len = strlen(name);
    if (len > n)
        return false;
    for (i = 0; i < len; i++)
        if (!same_char(s[i], name[i]))
            return false;
    return true;
}

static bool is_name(const char *s, size_t n, const char *name)
{
    return strlen(name) == n && starts_with_name(s, n, name);
}

static bool in_list(const char *s, size_t n, const char *const *list, size_t count)
{
    size_t i;
    for (i = 0; i < count; i++)
        if (is_name(s, n, list[i]))
            return true;
    return false;
}

static bool is_user(const char *s, size_t n, const dl_redaction *r)
{
    return n > 0 && in_list(s, n, (const char *const *)r->users.v, r->users.n);
}

/* The length of the host name s[0..n) starts with, where it stands whole, before a domain
 * (ana-laptop.lan) or before a port (ana-laptop:8888); 0 for none. */
static size_t host_at(const char *s, size_t n, const dl_redaction *r)
{
    size_t i, best = 0;
    for (i = 0; i < r->hosts.n; i++) {
        size_t len = strlen(r->hosts.v[i]);
        if (len > best && starts_with_name(s, n, r->hosts.v[i]) &&
            (len == n || s[len] == '.' || s[len] == ':'))
            best = len;
    }
    return best;
}

/* s[0..n) with a leading host name replaced. */
static void put_host(dl_buf *b, const char *s, size_t n, const dl_redaction *r)
{
    size_t len = host_at(s, n, r);
    if (len)
        dl_buf_puts(b, "<host>");
    dl_buf_add(b, s + len, n - len);
}

static void put_user(dl_buf *b, const char *s, size_t n, const dl_redaction *r)
{
    if (is_user(s, n, r))
        dl_buf_puts(b, "<user>");
    else
        dl_buf_add(b, s, n);
}

/* ---- homes ------------------------------------------------------------------------------ */

/* A path can start here: after a delimiter, '=' or ':' (PATH lists), or as a URL's path
 * (file:///home/ana). */
static bool path_can_start(const char *text, size_t i)
{
    char c = i > 0 ? text[i - 1] : '\0';
    if (i == 0 || is_delim(c) || c == '=' || c == ':')
        return true;
    return i >= 3 && text[i - 1] == '/' && text[i - 2] == '/' && text[i - 3] == ':';
}

static char *replace_homes(const char *text, const dl_strv *homes)
{
    dl_buf b = {0};
    size_t i = 0, k, total = strlen(text);
    while (text[i]) {
        size_t best = 0, rest = total - i;
        for (k = 0; k < homes->n && path_can_start(text, i); k++) {
            size_t n = strlen(homes->v[k]);
            char after;
            if (n <= best || !starts_with_name(text + i, rest, homes->v[k]))
                continue;
            after = text[i + n];
            if (is_delim(after) || is_sep(after) || after == ':')
                best = n;
        }
        dl_buf_add(&b, best ? "~" : text + i, 1);
        i += best ? best : 1;
    }
    return dl_buf_take(&b);
}

/* ---- paths ------------------------------------------------------------------------------ */

static bool starts_path(const char *t, size_t n)
{
    return is_sep(t[0]) || (t[0] == '~' && (n == 1 || is_sep(t[1]))) ||
           (n >= 3 && isalpha((unsigned char)t[0]) && t[1] == ':' && is_sep(t[2]));
}

static bool has_sep(const char *t, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (is_sep(t[i]))
            return true;
    return false;
}

/* One component of a path: is it the user's name in a place where it names them? */
static bool names_user(const char *c, size_t n, bool after_home_parent, bool system,
                       const dl_redaction *r)
{
    if (!is_user(c, n, r))
        return false;
    return after_home_parent || (!system && !in_list(c, n, common_folders, COUNT(common_folders)));
}

static void redact_path(dl_buf *b, const char *t, size_t n, const dl_redaction *r)
{
    bool unc = n >= 2 && is_sep(t[0]) && is_sep(t[1]);
    bool drive = n >= 2 && isalpha((unsigned char)t[0]) && t[1] == ':';
    bool absolute = is_sep(t[0]) || drive, system = false, after_home_parent = false;
    size_t i = 0, index = 0;
    while (i < n) {
        size_t start = i, len;
        if (is_sep(t[i])) {
            dl_buf_add(b, t + i++, 1);
            continue;
        }
        while (i < n && !is_sep(t[i]))
            i++;
        len = i - start;
        if (drive && start == 0) {
            dl_buf_add(b, t, len); /* C: */
            continue;
        }
        if (index == 0 && unc) {
            put_host(b, t + start, len, r);
        } else {
            if (index == 0 && absolute)
                system = drive ? in_list(t + start, len, windows_system_roots,
                                         COUNT(windows_system_roots))
                               : in_list(t + start, len, system_roots, COUNT(system_roots));
            if (names_user(t + start, len, after_home_parent, system, r))
                dl_buf_puts(b, "<user>");
            else
                dl_buf_add(b, t + start, len);
        }
        after_home_parent = in_list(t + start, len, home_parents, COUNT(home_parents));
        index++;
    }
}

/* ---- tokens ----------------------------------------------------------------------------- */

static void redact_token(dl_buf *b, const char *t, size_t n, const dl_redaction *r);

/* scheme://[user[:password]@]host[:port][/path]: the user, the host, and the path as a
 * path. */
static void redact_url(dl_buf *b, const char *t, size_t n, size_t scheme_end,
                       const dl_redaction *r)
{
    size_t a = scheme_end + 3, end = a, at = 0, i;
    while (end < n && !is_sep(t[end]) && t[end] != '?' && t[end] != '#')
        end++;
    for (i = a; i < end; i++)
        if (t[i] == '@')
            at = i;
    dl_buf_add(b, t, a);
    if (at) {
        size_t user_end = a;
        while (user_end < at && t[user_end] != ':')
            user_end++;
        put_user(b, t + a, user_end - a, r);
        dl_buf_add(b, t + user_end, at + 1 - user_end);
        a = at + 1;
    }
    put_host(b, t + a, end - a, r);
    if (end < n)
        redact_path(b, t + end, n - end, r);
}

/* KEY=VALUE: an account's name after user=, else the value as a token of its own
 * (PYTHONPATH=/home/ana/x). */
static void redact_assignment(dl_buf *b, const char *t, size_t n, size_t eq,
                              const dl_redaction *r)
{
    dl_buf_add(b, t, eq + 1);
    if (in_list(t, eq, user_keys, COUNT(user_keys)))
        put_user(b, t + eq + 1, n - eq - 1, r);
    else if (eq + 1 < n)
        redact_token(b, t + eq + 1, n - eq - 1, r);
}

/* NAME@HOST[.domain][/...] */
static void redact_address(dl_buf *b, const char *t, size_t n, size_t at,
                           const dl_redaction *r)
{
    size_t host_end = at + 1;
    while (host_end < n && !is_sep(t[host_end]))
        host_end++;
    put_user(b, t, at, r);
    dl_buf_puts(b, "@");
    put_host(b, t + at + 1, host_end - at - 1, r);
    dl_buf_add(b, t + host_end, n - host_end);
}

static size_t find(const char *t, size_t n, const char *what)
{
    size_t i, len = strlen(what);
    for (i = 0; i + len <= n; i++)
        if (!memcmp(t + i, what, len))
            return i;
    return n;
}

static void redact_token(dl_buf *b, const char *t, size_t n, const dl_redaction *r)
{
    size_t scheme = find(t, n, "://"), eq = find(t, n, "="), at = find(t, n, "@");
    if (scheme > 0 && scheme < n)
        redact_url(b, t, n, scheme, r);
    else if (starts_path(t, n))
        redact_path(b, t, n, r);
    else if (eq > 0 && eq < n)
        redact_assignment(b, t, n, eq, r);
    else if (at > 0 && at + 1 < n)
        redact_address(b, t, n, at, r);
    else if (has_sep(t, n))
        redact_path(b, t, n, r);
    else
        dl_buf_add(b, t, n);
}

/* A Windows path goes on past a space while the next word is more of it ("C:\Program
 * Files\NVIDIA Corporation\x.dll"): it has a backslash and starts no path of its own. */
static bool continues_path(const char *token, size_t len, const char *next)
{
    size_t i;
    if (!memchr(token, '\\', len) || is_delim(next[0]) || starts_path(next, strlen(next)))
        return false;
    for (i = 0; !is_delim(next[i]) && next[i] != ':'; i++)
        if (next[i] == '\\')
            return true;
    return false;
}

/* The end of the token at s[start]; ':' ends it except in a drive (C:\) or a URL. */
static size_t token_end(const char *s, size_t start)
{
    size_t i = start;
    bool url = false;
    for (;;) {
        char c = s[i];
        if (c == ' ' && continues_path(s + start, i - start, s + i + 1)) {
            i++;
        } else if (is_delim(c)) {
            return i;
        } else if (c == ':' && !url) {
            if (s[i + 1] == '/' && s[i + 2] == '/') {
                url = true;
                i += 3;
            } else if (i == start + 1 && isalpha((unsigned char)s[start]) && is_sep(s[i + 1])) {
                i++;
            } else {
                return i;
            }
        } else {
            i++;
        }
    }
}

char *dl_redact_text(const char *text, const dl_redaction *r)
{
    char *homed = replace_homes(text, &r->homes);
    dl_buf b = {0};
    size_t i = 0;
    while (homed[i]) {
        size_t end;
        if (is_delim(homed[i]) || homed[i] == ':') {
            dl_buf_add(&b, homed + i++, 1);
            continue;
        }
        end = token_end(homed, i);
        redact_token(&b, homed + i, end - i, r);
        i = end;
    }
    free(homed);
    return dl_buf_take(&b);
}

/* ---- the names ---------------------------------------------------------------------------- */

static void add_once(dl_strv *v, const char *s, size_t n)
{
    size_t i;
    if (n == 0)
        return;
    for (i = 0; i < v->n; i++)
        if (is_name(s, n, v->v[i]))
            return;
    dl_strv_add(v, dl_strndup(s, n));
}

void dl_redaction_add_home(dl_redaction *r, const char *home)
{
    size_t n = home ? strlen(home) : 0;
    while (n > 0 && is_sep(home[n - 1]))
        n--;
    /* "/" (n is 0 now) or a bare drive ("C:\") is everyone's, not a home */
    if (n == 2 && home[1] == ':')
        return;
    add_once(&r->homes, home, n);
}

void dl_redaction_add_user(dl_redaction *r, const char *user)
{
    add_once(&r->users, user, user ? strlen(user) : 0);
}

void dl_redaction_add_host(dl_redaction *r, const char *host)
{
    const char *dot = host ? strchr(host, '.') : NULL;
    add_once(&r->hosts, host, host ? strlen(host) : 0);
    if (dot)
        add_once(&r->hosts, host, (size_t)(dot - host));
}

void dl_redaction_free(dl_redaction *r)
{
    dl_strv_free(&r->homes);
    dl_strv_free(&r->users);
    dl_strv_free(&r->hosts);
}
