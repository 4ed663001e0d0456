#include "setup/user_shell.h"

#include "os/os.h"
#include "setup/layout.h"

#include <stdlib.h>

dl_shell dl_setup_user_shell(bool windows, bool *known)
{
    dl_shell sh = DL_SHELL_POWERSHELL;
    char *parent;
    *known = true;
    if (!windows)
        return DL_SHELL_POSIX;
    parent = dl_parent_process_name();
    *known = dl_setup_windows_shell(parent, &sh);
    free(parent);
    return sh;
}
