/* This process: environment, clock, terminal (POSIX). */
#include "os/os.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *dl_env_get(const char *name)
{
    return getenv(name);
}

double dl_clock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

bool dl_term_is_tty(int fd)
{
    return isatty(fd) == 1;
}

/* The locale variables decide what the terminal can show, in POSIX precedence order. */
bool dl_term_utf8(void)
{
    const char *names[] = {"LC_ALL", "LC_CTYPE", "LANG"};
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *v = getenv(names[i]);
        if (v && *v) {
            const char *dot = strchr(v, '.');
            return dot && (strstr(dot, "UTF-8") || strstr(dot, "utf8") ||
                           strstr(dot, "utf-8") || strstr(dot, "UTF8"));
        }
    }
    return false;
}

char dl_path_list_separator(void)
{
    return ':';
}

void dl_process_harden(void)
{
    /* nothing: the dynamic loader does not look in the program's folder by default */
}

char **dl_process_args(int argc, char **argv)
{
    (void)argc;
    return argv;
}

FILE *dl_fopen(const char *path, const char *mode)
{
    return fopen(path, mode);
}
