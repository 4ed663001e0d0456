/* hang_tree.exe, a python.exe whose `import torch` hangs after starting a grandchild that
 * tries every way out of its parent's reach: detached, in a new process group, breaking
 * away from the job when the job allows it. Both write their process ids to
 * tree-pids.txt beside the program. `hang_tree.exe check FILE` then says whether any
 * process listed there is still running (exit 1), or fewer than two ever started (exit 2). */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>

#include <stdio.h>
#include <string.h>
#include <wchar.h>

/* Whether the running process h is one of ours: its program is in the folder of the pid
 * file (a process id can be reused by another process once ours ended). */
static int ours(HANDLE h, const wchar_t *file)
{
    wchar_t image[MAX_PATH];
    DWORD n = MAX_PATH;
    const wchar_t *slash = wcsrchr(file, L'\\');
    size_t dir = slash ? (size_t)(slash - file) : 0;
    if (!QueryFullProcessImageNameW(h, 0, image, &n))
        return 1; /* cannot tell: counted, rather than missed */
    return _wcsnicmp(image, file, dir) == 0 && image[dir] == L'\\';
}

static int check(const wchar_t *file)
{
    FILE *f = _wfopen(file, L"r");
    unsigned long pid;
    int alive = 0, seen = 0;
    if (!f)
        return 2;
    while (fscanf(f, "%lu", &pid) == 1) {
        HANDLE h = OpenProcess(SYNCHRONIZE | PROCESS_QUERY_LIMITED_INFORMATION, FALSE,
                               (DWORD)pid);
        seen++;
        /* this checker runs from the same folder and may have been given a freed id */
        if (h && (DWORD)pid != GetCurrentProcessId() && WaitForSingleObject(h, 0) == WAIT_TIMEOUT &&
            ours(h, file)) {
            printf("still running: %lu\n", pid);
            alive = 1;
        }
        if (h)
            CloseHandle(h);
    }
    fclose(f);
    return alive ? 1 : seen < 2 ? 2 : 0;
}

static void record(const wchar_t *self)
{
    wchar_t file[MAX_PATH + 32];
    wchar_t *slash;
    FILE *f;
    wcsncpy(file, self, MAX_PATH);
    file[MAX_PATH] = L'\0';
    slash = wcsrchr(file, L'\\');
    wcscpy(slash ? slash + 1 : file, L"tree-pids.txt");
    f = _wfopen(file, L"a");
    if (f) {
        fprintf(f, "%lu\n", (unsigned long)GetCurrentProcessId());
        fclose(f);
    }
}

int wmain(int argc, wchar_t **argv)
{
    wchar_t self[MAX_PATH], cmd[MAX_PATH + 32];
    STARTUPINFOW si;
    PROCESS_INFORMATION pi;
    const DWORD away = DETACHED_PROCESS | CREATE_NEW_PROCESS_GROUP;
    if (argc >= 3 && !wcscmp(argv[1], L"check"))
        return check(argv[2]);
    GetModuleFileNameW(NULL, self, MAX_PATH);
    record(self);
    if (argc < 2 || wcscmp(argv[1], L"grandchild") != 0) {
        swprintf(cmd, sizeof cmd / sizeof cmd[0], L"\"%ls\" grandchild", self);
        memset(&si, 0, sizeof si);
        si.cb = sizeof si;
        if (CreateProcessW(self, cmd, NULL, NULL, FALSE, away | CREATE_BREAKAWAY_FROM_JOB, NULL,
                           NULL, &si, &pi) ||
            CreateProcessW(self, cmd, NULL, NULL, FALSE, away, NULL, NULL, &si, &pi)) {
            CloseHandle(pi.hThread);
            CloseHandle(pi.hProcess);
        }
    }
    Sleep(INFINITE);
    return 0;
}
