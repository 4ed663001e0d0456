/* Threads (Windows): CreateThread behind a start gate (a manual-reset event), and the
 * CPUs this process may run on. */
#include "os/os.h"

#include "base/str.h"
#include "os/wide_win.h"

#include <stdlib.h>
#include <windows.h>

typedef struct gate {
    HANDLE open;            /* manual-reset event, set once every thread exists */
    volatile LONG cancelled;/* written before the event is set; the wait orders it */
} gate;

typedef struct slot {
    gate *g;
    dl_thread_fn fn;
    void *arg;
    unsigned index;
} slot;

static DWORD WINAPI thread_main(LPVOID p)
{
    slot *s = p;
    WaitForSingleObject(s->g->open, INFINITE);
    if (!s->g->cancelled)
        s->fn(s->arg, s->index);
    return 0;
}

bool dl_threads_run(unsigned n, dl_thread_fn fn, void *arg, char **error)
{
    gate g;
    slot *slots;
    HANDLE *handles;
    unsigned i, started = 0;
    DWORD code = 0;

    if (n == 0 || !fn) {
        *error = dl_fmt("no threads to run (%u requested)", n);
        return false;
    }
    g.open = CreateEventW(NULL, TRUE, FALSE, NULL);
    if (!g.open) {
        char *why = dl_win_error_text(GetLastError());
        *error = dl_fmt("cannot create the threads' start event: %s", why);
        free(why);
        return false;
    }
    g.cancelled = 0;
    slots = dl_xcalloc(n, sizeof *slots);
    handles = dl_xcalloc(n, sizeof *handles);
    for (i = 0; i < n; i++) {
        slots[i].g = &g;
        slots[i].fn = fn;
        slots[i].arg = arg;
        slots[i].index = i;
        handles[i] = CreateThread(NULL, 0, thread_main, &slots[i], 0, NULL);
        if (!handles[i]) {
            code = GetLastError();
            break;
        }
        started++;
    }
    if (started < n)
        InterlockedExchange(&g.cancelled, 1);
    SetEvent(g.open);
    /* WaitForMultipleObjects takes at most MAXIMUM_WAIT_OBJECTS (64) handles at a time. */
    for (i = 0; i < started; i += MAXIMUM_WAIT_OBJECTS) {
        unsigned k = started - i;
        if (k > MAXIMUM_WAIT_OBJECTS)
            k = MAXIMUM_WAIT_OBJECTS;
        WaitForMultipleObjects((DWORD)k, handles + i, TRUE, INFINITE);
    }
    for (i = 0; i < started; i++)
        CloseHandle(handles[i]);
    CloseHandle(g.open);
    free(handles);
    free(slots);
    if (started < n) {
        char *why = dl_win_error_text(code);
        *error = dl_fmt("cannot start thread %u of %u: %s", started + 1, n, why);
        free(why);
        return false;
    }
    return true;
}

/* The process's affinity mask within its processor group says which CPUs its threads may
 * use. A process whose threads span several groups (the default from Windows 11 on, with
 * more than 64 CPUs) gets zero masks; then every active processor counts. */
unsigned dl_cpu_count_online(void)
{
    DWORD_PTR process_mask = 0, system_mask = 0;
    unsigned count = 0;
    if (GetProcessAffinityMask(GetCurrentProcess(), &process_mask, &system_mask)) {
        while (process_mask) {
            count += (unsigned)(process_mask & 1);
            process_mask >>= 1;
        }
    }
    if (count == 0)
        count = (unsigned)GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
    return count >= 1 ? count : 1u;
}

static SRWLOCK library_lock = SRWLOCK_INIT;

void dl_library_lock(void)
{
    AcquireSRWLockExclusive(&library_lock);
}

void dl_library_unlock(void)
{
    ReleaseSRWLockExclusive(&library_lock);
}
