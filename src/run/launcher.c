#include "run/launcher.h"

#include "run/quote.h"

#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    dl_launcher_format format;
} formats[] = {{"sh", DL_LAUNCH_SH},   {"bat", DL_LAUNCH_BAT},      {"ps1", DL_LAUNCH_PS1},
               {"env", DL_LAUNCH_ENV}, {"vscode", DL_LAUNCH_VSCODE}};

bool dl_launcher_format_parse(const char *name, dl_launcher_format *format)
{
    size_t i;
    for (i = 0; name && i < sizeof formats / sizeof formats[0]; i++)
        if (!strcmp(name, formats[i].name)) {
            *format = formats[i].format;
            return true;
        }
    return false;
}

const char *dl_launcher_format_names(void)
{
    return "sh, bat, ps1, env or vscode";
}

/* cmd and PowerShell cannot hold an empty variable (`set X=` and `$env:X = ''` remove
 * it), so a device list that hides every device is written as -1: CUDA and ROCm stop at
 * the first invalid index, so -1 hides them all just as the empty list does. */
static const char *windows_value(const dl_env_change *c, char **error)
{
    if (*c->value)
        return c->value;
    if (dl_ends_with(c->name, "_VISIBLE_DEVICES"))
        return "-1";
    *error = dl_fmt("%s is empty, which a Windows launcher cannot set", c->name);
    return NULL;
}

/* ---- POSIX sh ------------------------------------------------------------------------- */

static void sh_change(dl_buf *b, const dl_env_change *c)
{
    if (c->op == DL_ENV_UNSET) {
        dl_buf_printf(b, "unset %s\n", c->name);
        return;
    }
    dl_buf_printf(b, "%s=", c->name);
    dl_quote_sh(b, c->value);
    if (c->op == DL_ENV_PREPEND)
        dl_buf_printf(b, "\"${%s:+:$%s}\"", c->name, c->name);
    dl_buf_printf(b, "\nexport %s\n", c->name);
}

static char *sh_text(const dl_launcher *l)
{
    dl_buf b = {0};
    size_t i;
    dl_buf_puts(&b, "#!/bin/sh\n# ");
    dl_quote_comment(&b, l->name);
    dl_buf_puts(&b, ": written by `dlenv profile write`. Arguments given to this script are "
                    "passed on untouched.\n");
    for (i = 0; i < l->changes->n; i++)
        sh_change(&b, &l->changes->v[i]);
    if (l->argc == 0) {
        dl_buf_puts(&b, "if [ \"$#\" -eq 0 ]; then\n"
                        "    echo \"usage: $0 COMMAND [ARGS...]\" >&2\n"
                        "    exit 2\n"
                        "fi\n"
                        "exec \"$@\"\n");
        return dl_buf_take(&b);
    }
    dl_buf_puts(&b, "exec");
    for (i = 0; i < l->argc; i++) {
        dl_buf_puts(&b, " ");
        dl_quote_sh(&b, l->argv[i]);
    }
    dl_buf_puts(&b, " \"$@\"\n");
    return dl_buf_take(&b);
}

/* ---- cmd (.bat) ----------------------------------------------------------------------- */

static bool bat_change(dl_buf *b, const dl_env_change *c, char **error)
{
    const char *value;
    if (c->op == DL_ENV_UNSET) {
        dl_buf_printf(b, "set \"%s=\"\r\n", c->name);
        return true;
    }
    if (!(value = windows_value(c, error)))
        return false;
    dl_buf_printf(b, "set \"%s=", c->name);
    if (!dl_quote_bat_value(b, value)) {
        *error = dl_fmt("%s holds a double quote or a line break, which a .bat cannot set",
                        c->name);
        return false;
    }
    if (c->op == DL_ENV_PREPEND)
        dl_buf_printf(b, ";%%%s%%", c->name);
    dl_buf_puts(b, "\"\r\n");
    return true;
}

static bool bat_command(dl_buf *b, const dl_launcher *l, char **error)
{
    size_t i;
    bool cmd_quoted = false;
    if (l->argc == 0) {
        dl_buf_puts(b, "if [%1]==[] (\r\n"
                       "    echo usage: %~nx0 COMMAND [ARGS...] 1>&2\r\n"
                       "    exit /b 2\r\n"
                       ")\r\n"
                       "%*\r\n");
        return true;
    }
    for (i = 0; i < l->argc; i++) {
        if (i)
            dl_buf_puts(b, " ");
        if (!dl_quote_bat(b, l->argv[i], &cmd_quoted)) {
            *error = dl_fmt("argument %zu holds a line break, which a .bat line cannot carry",
                            i);
            return false;
        }
    }
    dl_buf_puts(b, " %*\r\n");
    return true;
}

static bool has_non_ascii(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s >= 0x80)
            return true;
    return false;
}

/* cmd reads a .bat in the console's code page, not UTF-8: a file with non-ASCII text
 * switches to UTF-8 (65001) for its lines and puts the user's code page back at the end,
 * keeping the command's exit code. */
static char *bat_wrap(const dl_launcher *l, const char *body)
{
    dl_buf b = {0};
    bool utf8 = has_non_ascii(body);
    dl_buf_puts(&b, "@echo off\r\nrem ");
    dl_quote_bat_comment(&b, l->name);
    dl_buf_puts(&b, ": written by `dlenv profile write`. Arguments given to this file are "
                    "passed on.\r\nsetlocal EnableExtensions DisableDelayedExpansion\r\n");
    if (utf8)
        dl_buf_puts(&b, "for /f \"tokens=2 delims=:.\" %%c in ('chcp') do set \"dlenv_cp=%%c\"\r\n"
                        "chcp 65001 >nul 2>&1\r\n");
    dl_buf_puts(&b, body);
    if (utf8)
        dl_buf_puts(&b, "set \"dlenv_code=%ERRORLEVEL%\"\r\nchcp %dlenv_cp% >nul 2>&1\r\n"
                        "exit /b %dlenv_code%\r\n");
    else
        dl_buf_puts(&b, "exit /b %ERRORLEVEL%\r\n");
    return dl_buf_take(&b);
}

static char *bat_text(const dl_launcher *l, char **error)
{
    dl_buf body = {0};
    size_t i;
    char *text;
    dl_buf_puts(&body, "");
    for (i = 0; i < l->changes->n; i++)
        if (!bat_change(&body, &l->changes->v[i], error)) {
            dl_buf_free(&body);
            return NULL;
        }
    if (!bat_command(&body, l, error)) {
        dl_buf_free(&body);
        return NULL;
    }
    text = bat_wrap(l, body.data);
    dl_buf_free(&body);
    return text;
}

/* ---- PowerShell ----------------------------------------------------------------------- */

/* A script's $env: changes would outlive it in the calling session: the old values are
 * saved and put back in `finally`. */
static bool ps1_changes(dl_buf *b, const dl_launcher *l, char **error)
{
    size_t i;
    dl_buf_puts(b, "$saved = @{}\r\nforeach ($name in @(");
    for (i = 0; i < l->changes->n; i++)
        dl_buf_printf(b, "%s'%s'", i ? ", " : "", l->changes->v[i].name);
    dl_buf_puts(b, ")) {\r\n    $saved[$name] = [Environment]::GetEnvironmentVariable($name)\r\n}\r\n"
                   "$code = 1\r\ntry {\r\n");
    for (i = 0; i < l->changes->n; i++) {
        const dl_env_change *c = &l->changes->v[i];
        const char *value;
        dl_buf_printf(b, "    [Environment]::SetEnvironmentVariable('%s', ", c->name);
        if (c->op == DL_ENV_UNSET) {
            dl_buf_puts(b, "$null)\r\n");
            continue;
        }
        if (!(value = windows_value(c, error)))
            return false;
        dl_quote_ps1(b, value);
        if (c->op == DL_ENV_PREPEND)
            dl_buf_printf(b, " + [IO.Path]::PathSeparator + $env:%s", c->name);
        dl_buf_puts(b, ")\r\n");
    }
    return true;
}

static void ps1_command(dl_buf *b, const dl_launcher *l)
{
    size_t i;
    /* PowerShell 7.3+ passes each argument exactly; Windows PowerShell 5.1 drops a double
     * quote inside an argument to a native program. */
    dl_buf_puts(b, "    $PSNativeCommandArgumentPassing = 'Standard'\r\n");
    if (l->argc == 0) {
        dl_buf_puts(b, "    if ($args.Count -eq 0) {\r\n"
                       "        Write-Error \"usage: $($MyInvocation.MyCommand.Name) COMMAND "
                       "[ARGS...]\"\r\n"
                       "        exit 2\r\n    }\r\n"
                       "    $rest = @($args | Select-Object -Skip 1)\r\n"
                       "    & $args[0] @rest\r\n");
    } else {
        dl_buf_puts(b, "    &");
        for (i = 0; i < l->argc; i++) {
            dl_buf_puts(b, " ");
            dl_quote_ps1(b, l->argv[i]);
        }
        dl_buf_puts(b, " @args\r\n");
    }
    dl_buf_puts(b, "    $code = $LASTEXITCODE\r\n} finally {\r\n"
                   "    foreach ($name in $saved.Keys) {\r\n"
                   "        [Environment]::SetEnvironmentVariable($name, $saved[$name])\r\n"
                   "    }\r\n}\r\nexit $code\r\n");
}

/* The file starts with a UTF-8 byte order mark: without one Windows PowerShell 5.1 reads
 * it in the ANSI code page, where the bytes of a non-ASCII name can spell a typographic
 * quote (U+0451 is D1 91, and 0x91 is U+2018 in cp1252) and end a string early. */
static char *ps1_text(const dl_launcher *l, char **error)
{
    dl_buf b = {0};
    dl_buf_puts(&b, "\xEF\xBB\xBF# ");
    dl_quote_comment(&b, l->name);
    dl_buf_puts(&b, ": written by `dlenv profile write`. Arguments given to this script are "
                    "passed on.\r\n");
    if (!ps1_changes(&b, l, error)) {
        dl_buf_free(&b);
        return NULL;
    }
    ps1_command(&b, l);
    return dl_buf_take(&b);
}

/* ---- dotenv --------------------------------------------------------------------------- */

static bool env_change(dl_buf *b, const dl_env_change *c, bool windows, char **error)
{
    if (c->op == DL_ENV_UNSET) {
        dl_buf_printf(b, "# %s: remove it (a dotenv file cannot)\n", c->name);
        return true;
    }
    dl_buf_printf(b, "%s=", c->name);
    if (c->op == DL_ENV_PREPEND) {
        /* python-dotenv and VS Code expand ${NAME}; docker --env-file does not */
        char *value = dl_fmt("%s%c${%s}", c->value, windows ? ';' : ':', c->name);
        bool ok = !strpbrk(c->value, "\"'#$`\r\n");
        if (ok)
            dl_buf_puts(b, value);
        free(value);
        if (!ok) {
            *error = dl_fmt("%s: %s holds a character a dotenv file would change", c->name,
                            c->value);
            return false;
        }
    } else if (!dl_quote_dotenv(b, c->value)) {
        *error = dl_fmt("%s holds a line break, or ${ with a quote or backslash, which a "
                        "dotenv file cannot keep as it is", c->name);
        return false;
    }
    dl_buf_puts(b, "\n");
    return true;
}

static char *env_text(const dl_launcher *l, char **error)
{
    dl_buf b = {0};
    size_t i;
    if (l->argc) {
        *error = dl_strdup("a dotenv file holds variables only: give no command with "
                           "--format env");
        return NULL;
    }
    dl_buf_puts(&b, "# ");
    dl_quote_comment(&b, l->name);
    dl_buf_puts(&b, ": written by `dlenv profile write`\n");
    for (i = 0; i < l->changes->n; i++)
        if (!env_change(&b, &l->changes->v[i], l->windows, error)) {
            dl_buf_free(&b);
            return NULL;
        }
    return dl_buf_take(&b);
}

char *dl_launcher_text(dl_launcher_format format, const dl_launcher *l, char **error)
{
    switch (format) {
    case DL_LAUNCH_SH: return sh_text(l);
    case DL_LAUNCH_BAT: return bat_text(l, error);
    case DL_LAUNCH_PS1: return ps1_text(l, error);
    case DL_LAUNCH_ENV: return env_text(l, error);
    case DL_LAUNCH_VSCODE: break;
    }
    *error = dl_strdup("a VS Code launcher is merged into launch.json (dl_launch_json_merge)");
    return NULL;
}
