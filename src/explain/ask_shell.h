/* The questions explain asks are written for a POSIX shell ("`echo $CUDA_VISIBLE_DEVICES`");
 * a Windows writer types them into PowerShell (the shell the fixes are written for), where
 * an environment variable reads as $env:NAME and DLLs are found on PATH, not
 * LD_LIBRARY_PATH. */
#ifndef DLENV_EXPLAIN_ASK_SHELL_H
#define DLENV_EXPLAIN_ASK_SHELL_H

#include "explain/explain.h"

/* On a Windows text, rewrites each question's "echo $NAME" to PowerShell's. */
void dl_explain_asks_for_shell(dl_explanation *e);

#endif
