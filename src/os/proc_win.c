/* Child processes with a hard timeout and bounded output (Windows). The child runs in a
 * job object that kills everything in it when closed, so a timeout also ends whatever the
 * child started (a Python that spawned workers). Programs are looked up on PATH here, never
 * in the current directory, and started with CreateProcessW: no shell. */
#include "os/os.h"

#include "base/str.h"
#include "os/cmdline.h"
#include "os/wide_win.h"

#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <stdlib.h>
#include <string.h>

static bool has_separator(const char *name)
{
    return strchr(name, '\\') || strchr(name, '/') || strchr(name, ':');
}

static bool is_file(const char *path)
{
    wchar_t *w = dl_wide(path);
    DWORD a = GetFileAttributesW(w);
    free(w);
    return a != INVALID_FILE_ATTRIBUTES && !(a & FILE_ATTRIBUTE_DIRECTORY);
}

/* name, then name.exe and name.com, as the shell would try them. */
static char *with_extension(const char *path)
{
    static const char *const exts[] = {"", ".exe", ".com"};
    size_t i;
    for (i = 0; i < sizeof exts / sizeof exts[0]; i++) {
        char *full = dl_fmt("%s%s", path, exts[i]);
        if (is_file(full))
            return full;
        free(full);
    }
    return NULL;
}

char *dl_proc_find(const char *name, const char *path)
{
    dl_strv dirs = {0};
    size_t i;
    char *found = NULL;
    if (has_separator(name))
        return with_extension(name);
    dl_strv_split(&dirs, path ? path : "", ';');
    for (i = 0; i < dirs.n && !found; i++) {
        char *full;
        if (!*dirs.v[i])
            continue;
        full = dl_fmt("%s\\%s", dirs.v[i], name);
        found = with_extension(full);
        free(full);
    }
    dl_strv_free(&dirs);
    return found;
}

static char *find_program(const char *name)
{
    return dl_proc_find(name, dl_env_get("PATH"));
}

static wchar_t *command_line(const char *program, const char *const *argv)
{
    char *line = dl_cmdline_build(program, argv);
    wchar_t *w = dl_wide(line);
    free(line);
    return w;
}

typedef struct capture {
    HANDLE pipe;
    dl_buf buf;
    size_t max;
    bool truncated;
    bool echo;
} capture;

static DWORD WINAPI drain(LPVOID arg)
{
    capture *c = arg;
    char chunk[4096];
    DWORD n;
    while (ReadFile(c->pipe, chunk, sizeof chunk, &n, NULL) && n > 0) {
        size_t keep = n;
        if (c->echo) {
            DWORD wrote;
            WriteFile(GetStdHandle(STD_ERROR_HANDLE), chunk, n, &wrote, NULL);
        }
        if (c->buf.len + keep > c->max) {
            keep = c->max > c->buf.len ? c->max - c->buf.len : 0;
            c->truncated = true;
        }
        if (keep)
            dl_buf_add(&c->buf, chunk, keep);
    }
    return 0;
}

static HANDLE kill_on_close_job(void)
{
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits;
    HANDLE job = CreateJobObjectW(NULL, NULL);
    if (!job)
        return NULL;
    memset(&limits, 0, sizeof limits);
    limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
    SetInformationJobObject(job, JobObjectExtendedLimitInformation, &limits, sizeof limits);
    return job;
}

static void record_exit(HANDLE process, dl_proc_result *r)
{
    DWORD code = 0;
    if (!GetExitCodeProcess(process, &code))
        return;
    /* An unhandled exception ends a process with its NTSTATUS (0xC0000005 ...): the
     * Windows form of "killed by a signal". */
    if ((code & 0xF0000000u) == 0xC0000000u && !r->timed_out) {
        r->term_signal = (int)code;
        return;
    }
    r->exited = true;
    r->exit_code = (int)code;
}

typedef struct child {
    HANDLE process, job, threads[2];
    capture cap[2];
} child;

static bool start_child(const char *program, const char *const *argv, const dl_proc_opts *o,
                        child *c, dl_proc_result *r)
{
    SECURITY_ATTRIBUTES sa = {sizeof sa, NULL, TRUE};
    HANDLE out_w = NULL, err_w = NULL, in_r;
    STARTUPINFOW si;
    PROCESS_INFORMATION pi;
    wchar_t *cmd = command_line(program, argv), *app = dl_wide(program);
    wchar_t *env = o->env ? dl_win_environment_block(o->env) : NULL, *cwd = dl_wide(o->cwd);
    BOOL ok;
    int i;
    in_r = CreateFileW(L"NUL", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, &sa,
                       OPEN_EXISTING, 0, NULL);
    CreatePipe(&c->cap[0].pipe, &out_w, &sa, 0);
    CreatePipe(&c->cap[1].pipe, &err_w, &sa, 0);
    SetHandleInformation(c->cap[0].pipe, HANDLE_FLAG_INHERIT, 0);
    SetHandleInformation(c->cap[1].pipe, HANDLE_FLAG_INHERIT, 0);
    memset(&si, 0, sizeof si);
    si.cb = sizeof si;
    si.dwFlags = STARTF_USESTDHANDLES;
    si.hStdInput = in_r;
    si.hStdOutput = out_w;
    si.hStdError = err_w;
    c->job = kill_on_close_job();
    ok = CreateProcessW(app, cmd, NULL, NULL, TRUE,
                        CREATE_SUSPENDED | CREATE_NO_WINDOW |
                            (env ? CREATE_UNICODE_ENVIRONMENT : 0),
                        env, cwd, &si, &pi);
    if (!ok) {
        char *why = dl_win_error_text(GetLastError());
        r->error = dl_fmt("cannot run %s: %s", program, why);
        free(why);
    } else {
        if (c->job)
            AssignProcessToJobObject(c->job, pi.hProcess);
        ResumeThread(pi.hThread);
        CloseHandle(pi.hThread);
        c->process = pi.hProcess;
        for (i = 0; i < 2; i++)
            c->threads[i] = CreateThread(NULL, 0, drain, &c->cap[i], 0, NULL);
    }
    /* our copies of the child's ends: the reads end when the child's close */
    if (in_r != INVALID_HANDLE_VALUE)
        CloseHandle(in_r);
    CloseHandle(out_w);
    CloseHandle(err_w);
    free(cmd);
    free(app);
    free(env);
    free(cwd);
    return ok != 0;
}

/* How long the streams are read after the child exited: a process it left behind holding
 * them (a helper started in the background) would otherwise keep the read going until the
 * deadline, and a prompt answer be reported as one that did not finish. */
#define GRACE_MS 200

/* Stops the readers: what is left in the job is killed (its pipe ends close); a
 * grandchild outside the job may still hold a pipe, so the reads are cancelled. */
static void stop_readers(child *c)
{
    int i;
    if (c->job)
        TerminateJobObject(c->job, 1);
    if (WaitForMultipleObjects(2, c->threads, TRUE, 1000) == WAIT_TIMEOUT)
        for (i = 0; i < 2; i++)
            CancelSynchronousIo(c->threads[i]);
    WaitForMultipleObjects(2, c->threads, TRUE, 2000);
}

/* Waits for the child until the deadline (then kills the whole job), and for its streams
 * a short while after it ended. */
static void wait_child(child *c, double deadline, dl_proc_result *r)
{
    double left = deadline - dl_clock_ms();
    DWORD w = WaitForSingleObject(c->process, left > 0 ? (DWORD)left : 0);
    if (w != WAIT_OBJECT_0) {
        r->timed_out = true;
        if (c->job)
            TerminateJobObject(c->job, 1);
        TerminateProcess(c->process, 1);
        WaitForSingleObject(c->process, 5000);
        stop_readers(c);
    } else if (WaitForMultipleObjects(2, c->threads, TRUE, GRACE_MS) == WAIT_TIMEOUT) {
        stop_readers(c);
    }
    record_exit(c->process, r);
}

void dl_proc_run(const char *const *argv, const dl_proc_opts *opts, dl_proc_result *r)
{
    double start = dl_clock_ms();
    char *program;
    child c;
    int i;
    memset(r, 0, sizeof *r);
    memset(&c, 0, sizeof c);
    program = find_program(argv[0]);
    if (!program) {
        r->error = dl_fmt("%s: not found on PATH", argv[0]);
        return;
    }
    c.cap[0].max = c.cap[1].max = opts->max_output ? opts->max_output : 1u << 20;
    c.cap[0].echo = c.cap[1].echo = opts->echo;
    if (start_child(program, argv, opts, &c, r)) {
        r->started = true;
        wait_child(&c, start + (opts->timeout_ms > 0 ? opts->timeout_ms : 15000), r);
    }
    for (i = 0; i < 2; i++) {
        if (c.threads[i])
            CloseHandle(c.threads[i]);
        if (c.cap[i].pipe)
            CloseHandle(c.cap[i].pipe);
    }
    if (c.process)
        CloseHandle(c.process);
    if (c.job)
        CloseHandle(c.job); /* kills what is left in it */
    r->out_len = c.cap[0].buf.len;
    r->err_len = c.cap[1].buf.len;
    if (!c.cap[0].buf.data)
        dl_buf_puts(&c.cap[0].buf, "");
    if (!c.cap[1].buf.data)
        dl_buf_puts(&c.cap[1].buf, "");
    r->out = dl_buf_take(&c.cap[0].buf);
    r->err = dl_buf_take(&c.cap[1].buf);
    r->out_truncated = c.cap[0].truncated;
    r->err_truncated = c.cap[1].truncated;
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
    wchar_t buf[MAX_PATH * 4];
    DWORD n = GetModuleFileNameW(NULL, buf, (DWORD)(sizeof buf / sizeof buf[0]));
    if (n && n < sizeof buf / sizeof buf[0])
        return dl_narrow(buf);
    return argv0 ? find_program(argv0) : NULL;
}

/* The exception codes that end a crashed Windows process. */
const char *dl_signal_name(int sig)
{
    switch ((unsigned long)(unsigned)sig) {
    case 0xC0000005ul: return "EXCEPTION_ACCESS_VIOLATION";
    case 0xC000001Dul: return "EXCEPTION_ILLEGAL_INSTRUCTION";
    case 0xC0000094ul: return "EXCEPTION_INT_DIVIDE_BY_ZERO";
    case 0xC00000FDul: return "EXCEPTION_STACK_OVERFLOW";
    case 0xC0000409ul: return "STATUS_STACK_BUFFER_OVERRUN";
    case 0xC0000135ul: return "STATUS_DLL_NOT_FOUND";
    case 0xC0000139ul: return "STATUS_ENTRYPOINT_NOT_FOUND";
    case 0xC0000142ul: return "STATUS_DLL_INIT_FAILED";
    default: return NULL;
    }
}
