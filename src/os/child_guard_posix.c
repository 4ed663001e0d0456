/* Nothing a child process starts outlives dlenv (child_guard.h). Linux finds the adopted
 * orphans in /proc/self/task/TID/children (else by scanning /proc for their parent id);
 * elsewhere there is no reaper role and only the child's process group is killed. */
#include "os/child_guard.h"

#include "os/os.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

/* How long dlenv waits for killed orphans to die: one stuck in the kernel (a driver call)
 * cannot be waited for forever; it stays a zombie until dlenv exits. */
#define END_WAIT_MS 2000
#define MAX_CHILDREN 256

static const int guarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define GUARDED_COUNT (sizeof guarded / sizeof guarded[0])

static struct sigaction saved[GUARDED_COUNT];
static bool installed[GUARDED_COUNT];
static volatile sig_atomic_t caught;
static volatile sig_atomic_t group;

/* Only async-signal-safe calls: note the signal, kill the child's group. */
static void on_signal(int sig)
{
    if (!caught)
        caught = sig;
    if (group > 0)
        kill(-(pid_t)group, SIGKILL);
}

void dl_child_guard_begin(void)
{
    struct sigaction sa;
    size_t i;
    caught = 0;
    group = 0;
#ifdef __linux__
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
#endif
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < GUARDED_COUNT; i++) {
        installed[i] = false;
        /* An ignored signal stays ignored (nohup): dlenv would not have died of it. */
        if (sigaction(guarded[i], NULL, &saved[i]) != 0 || saved[i].sa_handler == SIG_IGN)
            continue;
        installed[i] = sigaction(guarded[i], &sa, NULL) == 0;
    }
}

void dl_child_guard_watch(pid_t child_group)
{
    group = (sig_atomic_t)child_group;
    if (caught) /* it came before the child had a group to kill */
        kill(-child_group, SIGKILL);
}

int dl_child_guard_caught(void)
{
    return (int)caught;
}

/* Appends the numbers in a /proc/self/task/TID/children file. */
static size_t read_pids(const char *path, pid_t *out, size_t n, size_t max)
{
    FILE *f = fopen(path, "r");
    long pid;
    if (!f)
        return n;
    while (n < max && fscanf(f, "%ld", &pid) == 1)
        out[n++] = (pid_t)pid;
    fclose(f);
    return n;
}

/* Whether /proc/PID/stat names parent as its parent ("PID (comm) S PPID ..."; comm may
 * hold spaces and parentheses, so the last ')' ends it). */
static bool has_parent(const char *pid, pid_t parent)
{
    char path[300], line[512], *end;
    FILE *f;
    char state;
    long ppid;
    bool yes = false;
    snprintf(path, sizeof path, "/proc/%s/stat", pid);
    f = fopen(path, "r");
    if (!f)
        return false;
    if (fgets(line, sizeof line, f) && (end = strrchr(line, ')')) != NULL &&
        sscanf(end + 1, " %c %ld", &state, &ppid) == 2)
        yes = (pid_t)ppid == parent;
    fclose(f);
    return yes;
}

/* This process's children. */
static size_t list_children(pid_t *out, size_t max)
{
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    size_t n = 0;
    bool have_files = false;
    if (!d)
        return 0;
    while ((e = readdir(d)) != NULL) {
        char path[300];
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "/proc/self/task/%s/children", e->d_name);
        have_files = have_files || access(path, R_OK) == 0;
        n = read_pids(path, out, n, max);
    }
    closedir(d);
    if (have_files || !(d = opendir("/proc")))
        return n;
    /* a kernel without CONFIG_PROC_CHILDREN: every process's parent */
    while ((e = readdir(d)) != NULL && n < max)
        if (e->d_name[0] >= '1' && e->d_name[0] <= '9' && has_parent(e->d_name, getpid()))
            out[n++] = (pid_t)atol(e->d_name);
    closedir(d);
    return n;
}

/* Kills and reaps what is left: the orphans this process adopted, and theirs as each
 * dies (they are adopted in turn). */
static void end_adopted(void)
{
    double give_up = dl_clock_ms() + END_WAIT_MS;
    pid_t kids[MAX_CHILDREN];
    size_t n, i;
    while ((n = list_children(kids, MAX_CHILDREN)) > 0) {
        struct timespec pause = {0, 1000000};
        for (i = 0; i < n; i++) {
            kill(-kids[i], SIGKILL); /* its own group, when it made one */
            kill(kids[i], SIGKILL);
        }
        while (waitpid(-1, NULL, WNOHANG) > 0)
            ;
        if (dl_clock_ms() > give_up)
            return;
        nanosleep(&pause, NULL);
    }
}

void dl_child_guard_end(void)
{
    int sig;
    size_t i;
    group = 0;
    end_adopted();
#ifdef __linux__
    prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
#endif
    sig = (int)caught;
    for (i = 0; i < GUARDED_COUNT; i++)
        if (installed[i])
            sigaction(guarded[i], &saved[i], NULL);
    if (sig)
        raise(sig);
}
