/* Commands written for a user's shell: every line dlenv prints after "$" (a doctor fix, a
 * plan's install command) is one command that runs when pasted into the shell it names.
 * Values (paths, variable contents) are quoted so that what the program receives is
 * exactly the value: no expansion, no word splitting, no injection through a file name. */
#ifndef DLENV_BASE_SHELL_H
#define DLENV_BASE_SHELL_H

#include "base/str.h"

typedef enum dl_shell {
    DL_SHELL_POSIX,       /* sh, bash, zsh: Linux, WSL, macOS */
    DL_SHELL_POWERSHELL,  /* Windows' default terminal */
    DL_SHELL_CMD          /* cmd.exe's prompt (typed, not a .bat: run/quote.h has those) */
} dl_shell;

/* One argument: bare when it holds only characters no shell treats specially, else in
 * single quotes (POSIX: ' as '\''; PowerShell: ' and its typographic quotes doubled).
 * cmd: in double quotes, as the C runtime reads them back (backslashes before a quote
 * doubled); a % (which cmd expands even inside quotes) and a " leave the quotes and go
 * as ^% and \^" (cmd drops the caret; `%PATH^%` names no variable, so nothing expands). */
void dl_shell_quote_to(dl_shell sh, dl_buf *b, const char *arg);
char *dl_shell_quote(dl_shell sh, const char *arg);            /* caller frees */
/* The same, in single quotes even when nothing in it needs them. */
void dl_shell_quote_always(dl_shell sh, dl_buf *b, const char *arg);
/* A program to run by its path: quoted as above; PowerShell runs a quoted path only
 * behind its call operator (& 'C:\Program Files\Python312\python.exe'). */
char *dl_shell_program(dl_shell sh, const char *path);         /* caller frees */
/* Setting and removing an environment variable for this session (not for cmd). */
char *dl_shell_set_env(dl_shell sh, const char *name, const char *value);
char *dl_shell_unset_env(dl_shell sh, const char *name);
/* The separator of PATH-like lists: ':' or ';'. */
char dl_shell_list_separator(dl_shell sh);

#endif
