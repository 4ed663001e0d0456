/* The launcher files `dlenv profile write` produces, for people who prefer a file to a
 * `dlenv run` command line: a POSIX shell script, a .bat, a PowerShell script, a dotenv
 * file, and a VS Code launch.json configuration (launch_json.h). Each sets the same
 * changes `dlenv run` would (run_env.h) and runs the command given, or, without one, the
 * command given to the launcher itself. Pure: text in, text out. */
#ifndef DLENV_RUN_LAUNCHER_H
#define DLENV_RUN_LAUNCHER_H

#include "run/run_env.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum dl_launcher_format {
    DL_LAUNCH_SH,
    DL_LAUNCH_BAT,
    DL_LAUNCH_PS1,
    DL_LAUNCH_ENV,
    DL_LAUNCH_VSCODE
} dl_launcher_format;

typedef struct dl_launcher {
    const char *name;               /* the profile's name: "GPU 1", "CPU only", --name */
    const dl_env_changes *changes;
    const char *const *argv;        /* the command; argc 0: the launcher's own arguments */
    size_t argc;
    const char *python;             /* the chosen interpreter, or NULL */
    bool windows;                   /* paths and PATH lists in the Windows form */
} dl_launcher;

/* "sh", "bat", "ps1", "env", "vscode"; false for anything else. */
bool dl_launcher_format_parse(const char *name, dl_launcher_format *format);
const char *dl_launcher_format_names(void);   /* "sh, bat, ps1, env or vscode" */

/* The whole file for sh, bat, ps1 and env (vscode: dl_launch_json_merge). NULL with *error
 * when the profile cannot be written in that format (a line break in an argument for a
 * .bat, a command for a dotenv file). */
char *dl_launcher_text(dl_launcher_format format, const dl_launcher *l, char **error);

#endif
