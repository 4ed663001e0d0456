/* Directories (POSIX): absolute paths against the current directory, and making one (the
 * .vscode folder a launch.json goes in). */
#include "os/os.h"

#include "base/str.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *dl_path_absolute(const char *path)
{
    char *cwd, *abs;
    size_t size = 256;
    if (path[0] == '/')
        return dl_strdup(path);
    for (;;) {
        cwd = dl_xmalloc(size);
        if (getcwd(cwd, size))
            break;
        free(cwd);
        if (errno != ERANGE)
            return dl_strdup(path); /* no current directory (removed): as given */
        size *= 2;
    }
    abs = dl_path_join(cwd, dl_starts_with(path, "./") ? path + 2 : path);
    free(cwd);
    return abs;
}

bool dl_dir_make(const char *dir, char **error)
{
    struct stat st;
    if (mkdir(dir, 0777) == 0 || (errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode)))
        return true;
    *error = dl_fmt("cannot create the folder %s: %s", dir, strerror(errno));
    return false;
}
