/* Child processes with a hard timeout and bounded output (POSIX). The child gets its own
 * process group so that a timeout kills whatever it started too; child_guard_posix.c
 * catches what leaves the group (a setsid grandchild) and dlenv's own death by a signal.
 * On Linux the child is also killed if dlenv dies of SIGKILL (PR_SET_PDEATHSIG). */
#include "os/os.h"

#include "base/str.h"
#include "os/child_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

extern char **environ;

/* PATH lookup in the parent, so the child only calls execve (async-signal-safe). */
char *dl_proc_find(const char *name, const char *path)
{
    char *copy, *dir, *save = NULL;
    if (strchr(name, '/'))
        return dl_strdup(name);
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    copy = dl_strdup(path);
    for (dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
        char *full = dl_fmt("%s/%s", *dir ? dir : ".", name);
        struct stat st;
        if (stat(full, &st) == 0 && S_ISREG(st.st_mode) && access(full, X_OK) == 0) {
            free(copy);
            return full;
        }
        free(full);
    }
    free(copy);
    return NULL;
}

static char *find_program(const char *name)
{
    return dl_proc_find(name, getenv("PATH"));
}

typedef struct capture {
    int fd;
    dl_buf buf;
    size_t max;
    bool truncated;
    bool echo;
} capture;

static void drain(capture *c)
{
    char chunk[4096];
    ssize_t n = read(c->fd, chunk, sizeof chunk);
    if (n > 0) {
        size_t keep = (size_t)n;
        if (c->echo)
            (void)!write(2, chunk, (size_t)n);
        if (c->buf.len + keep > c->max) {
            keep = c->max > c->buf.len ? c->max - c->buf.len : 0;
            c->truncated = true;
        }
        if (keep)
            dl_buf_add(&c->buf, chunk, keep);
    } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        close(c->fd);
        c->fd = -1;
    }
}

static void child_exec(const char *program, const char *const *argv, const dl_proc_opts *o,
                       int out_w, int err_w, int status_w, pid_t parent)
{
    int devnull = open("/dev/null", O_RDONLY);
    int code;
    setpgid(0, 0);
#ifdef __linux__
    /* dlenv killed outright (SIGKILL, the OOM killer) cannot clean up: the kernel does it
     * for the child; a parent already gone before this call is checked by hand. */
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (getppid() != parent)
        _exit(127);
#else
    (void)parent;
#endif
    if (devnull >= 0)
        dup2(devnull, 0);
    dup2(out_w, 1);
    dup2(err_w, 2);
    /* Only 0-2 may hold the pipes: a copy under another number, inherited by a daemon
     * the child starts, would keep the output open until the deadline. */
    if (devnull > 2)
        close(devnull);
    if (out_w > 2)
        close(out_w);
    if (err_w > 2)
        close(err_w);
    if (o->cwd && chdir(o->cwd) != 0) {
        code = errno;
        (void)!write(status_w, &code, sizeof code);
        _exit(127);
    }
    execve(program, (char *const *)argv, o->env ? (char *const *)o->env : environ);
    code = errno;
    (void)!write(status_w, &code, sizeof code);
    _exit(127);
}

static void record_status(dl_proc_result *r, int status)
{
    if (WIFEXITED(status)) {
        r->exited = true;
        r->exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        r->term_signal = WTERMSIG(status);
    }
}

/* How often the child is looked at while its streams stay open, and how long its streams
 * are read after it exited: a background process it left holding stdout (a daemon, a
 * `sleep &`) would otherwise keep the read going until the deadline, and a prompt answer
 * be reported as one that did not finish. */
#define WATCH_MS 50
#define GRACE_MS 200

static void kill_group(pid_t pid)
{
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
}

/* Whether the child has ended (reaped into r); false while it runs. */
static bool reaped(pid_t pid, dl_proc_result *r)
{
    int status;
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) {
        record_status(r, status);
        return true;
    }
    return w < 0 && errno == ECHILD;
}

/* Reads both streams until they close, the child has exited GRACE_MS ago, or the
 * deadline passes. True when the child was reaped here. */
static bool pump(capture *cap, double deadline, dl_proc_result *r, pid_t pid)
{
    double exited_at = -1;
    while (cap[0].fd >= 0 || cap[1].fd >= 0) {
        struct pollfd p[2];
        int n = 0, i, slice;
        double now = dl_clock_ms(), left = deadline - now;
        if (dl_child_guard_caught())
            break; /* the guard killed the group; a setsid grandchild may hold the pipes */
        if (exited_at < 0 && reaped(pid, r))
            exited_at = now;
        if (exited_at >= 0 && (now - exited_at >= GRACE_MS || left <= 0)) {
            kill_group(pid); /* what it left behind holds the streams: end it */
            break;
        }
        if (left <= 0) {
            r->timed_out = true;
            kill_group(pid);
            break;
        }
        slice = exited_at >= 0 ? (int)(GRACE_MS - (now - exited_at)) + 1 : WATCH_MS;
        if (slice > left)
            slice = (int)left + 1;
        for (i = 0; i < 2; i++) {
            p[i].fd = cap[i].fd;
            p[i].events = POLLIN;
            p[i].revents = 0;
        }
        n = poll(p, 2, slice);
        if (n < 0 && errno != EINTR)
            break;
        for (i = 0; i < 2 && n > 0; i++)
            if (cap[i].fd >= 0 && (p[i].revents & (POLLIN | POLLHUP | POLLERR)))
                drain(&cap[i]);
    }
    return exited_at >= 0;
}

/* A child already sent SIGKILL: it cannot ignore it, so a blocking wait ends promptly. */
static void wait_killed(pid_t pid, dl_proc_result *r)
{
    int status;
    pid_t w;
    while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    if (w == pid)
        record_status(r, status);
}

static void wait_child(pid_t pid, double deadline, dl_proc_result *r)
{
    int status;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) {
            record_status(r, status);
            return;
        }
        if (w < 0 && errno != EINTR)
            return;
        if (r->timed_out || dl_child_guard_caught() || dl_clock_ms() >= deadline) {
            r->timed_out = r->timed_out || !dl_child_guard_caught();
            kill_group(pid);
            wait_killed(pid, r);
            return;
        }
        {
            struct timespec ts = {0, 2000000};
            nanosleep(&ts, NULL);
        }
    }
}

void dl_proc_run(const char *const *argv, const dl_proc_opts *opts, dl_proc_result *r)
{
    int out_p[2] = {-1, -1}, err_p[2] = {-1, -1}, st_p[2] = {-1, -1};
    capture cap[2];
    char *program;
    double start = dl_clock_ms(), deadline;
    pid_t pid, parent;
    ssize_t got;
    int child_errno = 0;
    memset(r, 0, sizeof *r);
    memset(cap, 0, sizeof cap);
    program = find_program(argv[0]);
    if (!program) {
        r->error = dl_fmt("%s: not found on PATH", argv[0]);
        return;
    }
    if (pipe(out_p) || pipe(err_p) || pipe(st_p)) {
        r->error = dl_fmt("pipe: %s", strerror(errno));
        goto cleanup;
    }
    fcntl(st_p[1], F_SETFD, FD_CLOEXEC);
    fcntl(out_p[0], F_SETFD, FD_CLOEXEC);
    fcntl(err_p[0], F_SETFD, FD_CLOEXEC);
    fcntl(st_p[0], F_SETFD, FD_CLOEXEC);
    dl_child_guard_begin();
    parent = getpid();
    pid = fork();
    if (pid < 0) {
        r->error = dl_fmt("fork: %s", strerror(errno));
        dl_child_guard_end();
        goto cleanup;
    }
    if (pid == 0)
        child_exec(program, argv, opts, out_p[1], err_p[1], st_p[1], parent);
    setpgid(pid, pid); /* both sides set it: no race with an early kill */
    dl_child_guard_watch(pid);
    close(out_p[1]);
    close(err_p[1]);
    close(st_p[1]);
    out_p[1] = err_p[1] = st_p[1] = -1;
    while ((got = read(st_p[0], &child_errno, sizeof child_errno)) < 0 && errno == EINTR)
        ;
    if (got == (ssize_t)sizeof child_errno) {
        r->error = dl_fmt("cannot run %s: %s", program, strerror(child_errno));
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) /* it _exits at once */
            ;
        dl_child_guard_end();
        goto cleanup;
    }
    r->started = true;
    deadline = start + (opts->timeout_ms > 0 ? opts->timeout_ms : 15000);
    cap[0].fd = out_p[0];
    cap[1].fd = err_p[0];
    cap[0].max = cap[1].max = opts->max_output ? opts->max_output : 1u << 20;
    cap[0].echo = cap[1].echo = opts->echo;
    out_p[0] = err_p[0] = -1;
    if (!pump(cap, deadline, r, pid))
        wait_child(pid, deadline, r);
    dl_child_guard_end();
    r->out_len = cap[0].buf.len;
    r->err_len = cap[1].buf.len;
    r->out = dl_buf_take(&cap[0].buf);
    r->err = dl_buf_take(&cap[1].buf);
    r->out_truncated = cap[0].truncated;
    r->err_truncated = cap[1].truncated;
cleanup:
    {
        int *fds[] = {out_p, err_p, st_p};
        size_t i;
        for (i = 0; i < 3; i++) {
            if (fds[i][0] >= 0)
                close(fds[i][0]);
            if (fds[i][1] >= 0)
                close(fds[i][1]);
        }
    }
    if (cap[0].fd > 0)
        close(cap[0].fd);
    if (cap[1].fd > 0)
        close(cap[1].fd);
    r->duration_ms = dl_clock_ms() - start;
    free(program);
}

void dl_proc_result_free(dl_proc_result *r)
{
    free(r->out);
    free(r->err);
    free(r->error);
    memset(r, 0, sizeof *r);
}

char *dl_self_path(const char *argv0)
{
    char *real = realpath("/proc/self/exe", NULL);
    char *out;
    if (!real && argv0 && strchr(argv0, '/'))
        real = realpath(argv0, NULL);
    if (!real)
        return argv0 ? find_program(argv0) : NULL;
    out = dl_strdup(real);
    free(real);
    return out;
}

const char *dl_signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    default: return NULL;
    }
}
