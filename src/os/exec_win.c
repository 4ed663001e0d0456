/* A command in place of dlenv (Windows), which has no exec: the command runs as a child in
 * this console with dlenv's standard handles, and dlenv waits and passes its exit code
 * back whole (an NTSTATUS such as 0xC000013A after Ctrl+C, too). Ctrl+C and Ctrl+Break go
 * to every process of the console; dlenv ignores them, so the child decides (Python raises
 * KeyboardInterrupt, finishes, and dlenv returns its code). While the child runs it is in a
 * job that kills it if dlenv is killed (an IDE's stop button ends dlenv, not the child); once
 * it has exited, whatever it left running is let go, as after an exec. */
#include "os/os.h"

#include "base/str.h"
#include "os/cmdline.h"
#include "os/wide_win.h"

#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <stdlib.h>
#include <string.h>

void dl_env_snapshot(dl_strv *env)
{
    wchar_t *block = GetEnvironmentStringsW(), *p;
    if (!block)
        return;
    for (p = block; *p; p += wcslen(p) + 1)
        dl_strv_add(env, dl_narrow(p)); /* "=C:=C:\dir" entries too: cmd's per-drive dirs */
    FreeEnvironmentStringsW(block);
}

static BOOL WINAPI ignore_interrupts(DWORD event)
{
    return event == CTRL_C_EVENT || event == CTRL_BREAK_EVENT;
}

static HANDLE kill_on_close_job(bool kill)
{
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits;
    static HANDLE job;
    if (!job && kill)
        job = CreateJobObjectW(NULL, NULL);
    if (!job)
        return NULL;
    memset(&limits, 0, sizeof limits);
    limits.BasicLimitInformation.LimitFlags = kill ? JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE : 0;
    SetInformationJobObject(job, JobObjectExtendedLimitInformation, &limits, sizeof limits);
    return job;
}

/* The standard handles, inheritable, so a redirected stdout (a pipe, a file) reaches the
 * child as well as a console does. */
static void std_handles(STARTUPINFOW *si)
{
    static const DWORD ids[3] = {STD_INPUT_HANDLE, STD_OUTPUT_HANDLE, STD_ERROR_HANDLE};
    HANDLE h[3];
    int i;
    for (i = 0; i < 3; i++) {
        h[i] = GetStdHandle(ids[i]);
        if (h[i] && h[i] != INVALID_HANDLE_VALUE)
            SetHandleInformation(h[i], HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT);
    }
    si->dwFlags = STARTF_USESTDHANDLES;
    si->hStdInput = h[0];
    si->hStdOutput = h[1];
    si->hStdError = h[2];
}

bool dl_proc_exec(const char *program, const char *const *argv, const char *const *env,
                  int *exit_code, char **error)
{
    STARTUPINFOW si;
    PROCESS_INFORMATION pi;
    char *line = dl_cmdline_build(argv[0], argv);
    wchar_t *cmd = dl_wide(line), *app = dl_wide(program), *block = dl_win_environment_block(env);
    HANDLE job = kill_on_close_job(true);
    DWORD code = 0;
    BOOL ok;
    free(line);
    memset(&si, 0, sizeof si);
    si.cb = sizeof si;
    std_handles(&si);
    fflush(stdout);
    fflush(stderr);
    SetConsoleCtrlHandler(ignore_interrupts, TRUE);
    ok = CreateProcessW(app, cmd, NULL, NULL, TRUE, CREATE_UNICODE_ENVIRONMENT | CREATE_SUSPENDED,
                        block, NULL, &si, &pi);
    free(cmd);
    free(app);
    free(block);
    if (!ok) {
        DWORD err = GetLastError();
        char *why = dl_win_error_text(err);
        SetConsoleCtrlHandler(ignore_interrupts, FALSE);
        *error = dl_fmt("cannot run %s: %s", program, why);
        /* as shells say: 127 not found, 126 found but not runnable */
        *exit_code = err == ERROR_FILE_NOT_FOUND || err == ERROR_PATH_NOT_FOUND ? 127 : 126;
        free(why);
        return false;
    }
    if (job)
        AssignProcessToJobObject(job, pi.hProcess);
    ResumeThread(pi.hThread);
    CloseHandle(pi.hThread);
    WaitForSingleObject(pi.hProcess, INFINITE);
    GetExitCodeProcess(pi.hProcess, &code);
    CloseHandle(pi.hProcess);
    kill_on_close_job(false);
    *exit_code = (int)code;
    return true;
}

bool dl_file_make_executable(const char *path, char **error)
{
    (void)path;
    (void)error;
    return true;
}
