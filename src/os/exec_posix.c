/* A command in place of dlenv (POSIX): execve, so the command is the process the caller
 * started. Its exit status, and a death by signal, reach the caller unchanged, exactly as
 * if dlenv had never been there. dlenv changes no signal disposition, so what the caller
 * set (nohup's ignored SIGHUP) reaches the command as it would without dlenv. */
#include "os/os.h"

#include "base/str.h"

#include <errno.h>
#include <fcntl.h>
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

/* A text file without "#!" that execve refuses (ENOEXEC): POSIX shells run it with sh,
 * as `sh PROGRAM ARGS...`, unless its first line holds a NUL (a binary, bash's test). */
static bool is_text_script(const char *program)
{
    char head[256];
    ssize_t n, i;
    int fd = open(program, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    n = read(fd, head, sizeof head);
    close(fd);
    for (i = 0; i < n && head[i] != '\n'; i++)
        if (head[i] == '\0')
            return false;
    return n >= 0;
}

static void exec_with_sh(const char *program, const char *const *argv, const char *const *env)
{
    dl_strv sh_argv = {0};
    size_t i;
    dl_strv_add(&sh_argv, dl_strdup("sh"));
    dl_strv_add(&sh_argv, dl_strdup(program));
    for (i = 1; argv[i]; i++)
        dl_strv_add(&sh_argv, dl_strdup(argv[i]));
    dl_strv_add(&sh_argv, NULL);
    execve("/bin/sh", sh_argv.v, (char *const *)env);
    dl_strv_free(&sh_argv);
}

bool dl_proc_exec(const char *program, const char *const *argv, const char *const *env,
                  int *exit_code, char **error)
{
    int code;
    fflush(stdout);
    fflush(stderr);
    execve(program, (char *const *)argv, (char *const *)env);
    code = errno;
    if (code == ENOEXEC && is_text_script(program)) {
        exec_with_sh(program, argv, env);
        code = errno;
    }
    /* as shells say: 127 not found, 126 found but not runnable */
    *exit_code = code == ENOENT || code == ENOTDIR ? 127 : 126;
    *error = code == ENOEXEC ? dl_fmt("cannot run %s: cannot execute binary file", program)
                             : dl_fmt("cannot run %s: %s", program, strerror(code));
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
