/* A command in place of dlenv (POSIX): execve, so the command is the process the caller
 * started. Its exit status, and a death by signal, reach the caller unchanged, exactly as
 * if dlenv had never been there. dlenv changes no signal disposition, so what the caller
 * set (nohup's ignored SIGHUP) reaches the command as it would without dlenv. */
#include "os/os.h"

#include "base/str.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

void dl_env_snapshot(dl_strv *env)
{
    char **e;
    for (e = environ; e && *e; e++)
        dl_strv_add(env, dl_strdup(*e));
}

bool dl_proc_exec(const char *program, const char *const *argv, const char *const *env,
                  int *exit_code, char **error)
{
    fflush(stdout);
    fflush(stderr);
    execve(program, (char *const *)argv, (char *const *)env);
    (void)exit_code;
    *error = dl_fmt("cannot run %s: %s", program, strerror(errno));
    return false;
}

bool dl_file_make_executable(const char *path, char **error)
{
    struct stat st;
    mode_t mask = umask(077);
    umask(mask);
    if (stat(path, &st) != 0 ||
        chmod(path, (st.st_mode & 07777) | ((S_IXUSR | S_IXGRP | S_IXOTH) & ~mask)) != 0) {
        *error = dl_fmt("cannot make %s executable: %s", path, strerror(errno));
        return false;
    }
    return true;
}
