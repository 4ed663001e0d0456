/* Quoting one argument or value for the launchers `dlenv profile write` produces, so that
 * what the command receives is byte for byte what was given: no expansion, no word
 * splitting, no re-quoting surprises. Pure; tested with spaces, quotes, %, ^, !, $,
 * backslashes and non-ASCII text. */
#ifndef DLENV_RUN_QUOTE_H
#define DLENV_RUN_QUOTE_H

#include "base/str.h"

#include <stdbool.h>

/* POSIX sh: bare when only safe characters, else in single quotes ('\'' for a quote). */
void dl_quote_sh(dl_buf *b, const char *arg);

/* One argument on a .bat command line: quoted for the C runtime (os/cmdline.h), then for
 * cmd: every % doubled, and ^ & | < > escaped with ^ wherever cmd, which toggles at
 * every " (an escaped \" too), is outside quotes. *cmd_quoted carries that state from one
 * argument to the next on the line (false at its start). The script turns delayed
 * expansion off, so ! is plain. False (nothing added) for a line break, which no .bat
 * line can carry. */
bool dl_quote_bat(dl_buf *b, const char *arg, bool *cmd_quoted);
/* A value inside `set "NAME=value"`: % doubled. False for a line break or a double quote. */
bool dl_quote_bat_value(dl_buf *b, const char *value);

/* PowerShell: a single-quoted string, where only a quote needs doubling; PowerShell also
 * takes the typographic quotes U+2018..U+201B as quotes, so those are doubled too. */
void dl_quote_ps1(dl_buf *b, const char *arg);

/* A dotenv value (python-dotenv, VS Code's envFile): bare when nothing in it means
 * something there, else in single quotes (literal: no ${...} interpolation) when it holds
 * no quote and no backslash (python-dotenv reads \\ there as one), else in double quotes
 * with \ and " escaped when it holds no ${ (interpolated there). False otherwise, and for
 * a line break. */
bool dl_quote_dotenv(dl_buf *b, const char *value);

/* A comment line's text (sh, PowerShell, dotenv): a line break would end the comment and
 * start a command, so every control character becomes '?'. */
void dl_quote_comment(dl_buf *b, const char *text);

/* A .bat `rem` line's text. cmd expands % there before it sees the rem (doubled), and
 * acts on ^ at a line's end; it reads the line in the console's code page, before the
 * script switches to UTF-8. So only letters, digits and " -_.,:;()[]/\\+@#=" are kept;
 * anything else, non-ASCII included, becomes '?'. */
void dl_quote_bat_comment(dl_buf *b, const char *text);

/* Whether VS Code takes value literally in launch.json: it substitutes ${...} in every
 * string, ${command:...} runs a command, and there is no escape for it; the file is
 * UTF-8. False for a value with "${" or invalid UTF-8. */
bool dl_quote_vscode_literal(const char *value);

#endif
