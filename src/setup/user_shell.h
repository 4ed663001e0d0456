/* The shell the person typed `dlenv setup` in, for the commands and the activation it
 * prints: sh off Windows; on Windows the one its parent process is (layout.h's
 * dl_setup_windows_shell), PowerShell (Windows' default terminal) with *known false when
 * that cannot be told. */
#ifndef DLENV_SETUP_USER_SHELL_H
#define DLENV_SETUP_USER_SHELL_H

#include "base/shell.h"

#include <stdbool.h>

dl_shell dl_setup_user_shell(bool windows, bool *known);

#endif
