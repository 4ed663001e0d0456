/* Where `dlenv setup` puts things, and how a person starts what it made: the staging
 * folder beside the target (.NAME.dlenv-staging-PID, so a crash leaves it where the next
 * setup finds it), the previous environment kept for --rollback (.NAME.dlenv-previous),
 * the environment's interpreter (bin/python; Scripts\python.exe on Windows), the lock and
 * the snapshot inside it, and the activation lines for sh, PowerShell and cmd. Pure: no
 * I/O, so the Windows forms are tested on Linux. */
#ifndef DLENV_SETUP_LAYOUT_H
#define DLENV_SETUP_LAYOUT_H

#include "base/shell.h"

#include <stdbool.h>

#define DL_SETUP_STAGING_MARK ".dlenv-staging-"
#define DL_SETUP_PREVIOUS_MARK ".dlenv-previous"
#define DL_SETUP_LOCK_NAME "dlenv.lock"
#define DL_SETUP_SNAPSHOT_NAME "dlenv-snapshot.json"

typedef struct dl_setup_layout {
    bool windows;
    char *target;      /* absolute, no trailing separator */
    char *parent;      /* the folder that holds it */
    char *name;        /* its last component */
    char *staging;     /* parent/.name.dlenv-staging-PID */
    char *previous;    /* parent/.name.dlenv-previous */
    char *python;      /* target's interpreter */
    char *staging_python;
    char *lock;        /* target/dlenv.lock */
    char *snapshot;    /* target/dlenv-snapshot.json */
} dl_setup_layout;

/* target: an absolute path (either separator on Windows). False with *error when it has no
 * last component (a root). */
bool dl_setup_layout_make(const char *target, bool windows, long pid, dl_setup_layout *out,
                          char **error);
void dl_setup_layout_free(dl_setup_layout *l);

/* The interpreter of the environment at dir. */
char *dl_setup_env_python(const char *dir, bool windows);
/* A conda prefix's: dir/bin/python, on Windows dir\python.exe (no Scripts\). The layout's
 * python and staging_python made so. */
char *dl_setup_conda_python(const char *dir, bool windows);
void dl_setup_layout_for_conda(dl_setup_layout *l);

/* The pid of a staging folder's name for the environment called name
 * (".env.dlenv-staging-4242" -> 4242); 0 when entry is not one. */
long dl_setup_staging_pid(const char *entry, const char *name);

/* How to activate the environment, as the person typed its path (shown path, may be
 * relative): ". env/bin/activate"; PowerShell ".\env\Scripts\Activate.ps1" (a script
 * runs by a path with a folder part, `& 'PATH'` when quoted); cmd "env\Scripts\activate.bat"
 * (quoted for cmd's prompt: base/shell.h). */
typedef struct dl_setup_activation {
    char *sh, *powershell, *cmd;
} dl_setup_activation;
void dl_setup_activation_make(const char *shown, bool windows, dl_setup_activation *out);
void dl_setup_activation_free(dl_setup_activation *a);
/* A conda prefix's, the same for each shell but for quoting: conda activate PATH. */
void dl_setup_conda_activation_make(const char *shown, bool windows, dl_setup_activation *out);

/* The Windows shell dlenv was typed in, by the program that started it (parent: its file
 * name, any case, with or without a folder): powershell.exe and pwsh.exe are PowerShell,
 * cmd.exe is cmd. False when parent is NULL or another program (a terminal, an IDE, a
 * Python script): then both forms are shown. */
bool dl_setup_windows_shell(const char *parent, dl_shell *out);

#endif
