/* Threads (POSIX): pthreads behind a start gate, and the CPUs this process may run on. */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT_S */
#endif
#include "os/os.h"

#include "base/str.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The start gate: closed until every thread exists, then open (run fn) or cancelled. A
 * mutex and a condition variable rather than pthread_barrier_t, which is optional in
 * POSIX (macOS has none). */
enum { GATE_CLOSED, GATE_OPEN, GATE_CANCELLED };

typedef struct gate {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int state;
} gate;

typedef struct slot {
    gate *g;
    dl_thread_fn fn;
    void *arg;
    unsigned index;
} slot;

static void *thread_main(void *p)
{
    slot *s = p;
    int state;
    pthread_mutex_lock(&s->g->mu);
    while (s->g->state == GATE_CLOSED)
        pthread_cond_wait(&s->g->cv, &s->g->mu);
    state = s->g->state;
    pthread_mutex_unlock(&s->g->mu);
    if (state == GATE_OPEN)
        s->fn(s->arg, s->index);
    return NULL;
}

bool dl_threads_run(unsigned n, dl_thread_fn fn, void *arg, char **error)
{
    gate g;
    slot *slots;
    pthread_t *ids;
    unsigned i, started = 0;
    int rc = 0;

    if (n == 0 || !fn) {
        *error = dl_fmt("no threads to run (%u requested)", n);
        return false;
    }
    slots = dl_xcalloc(n, sizeof *slots);
    ids = dl_xcalloc(n, sizeof *ids);
    pthread_mutex_init(&g.mu, NULL);
    pthread_cond_init(&g.cv, NULL);
    g.state = GATE_CLOSED;
    for (i = 0; i < n; i++) {
        slots[i].g = &g;
        slots[i].fn = fn;
        slots[i].arg = arg;
        slots[i].index = i;
        rc = pthread_create(&ids[i], NULL, thread_main, &slots[i]);
        if (rc != 0)
            break;
        started++;
    }
    pthread_mutex_lock(&g.mu);
    g.state = started == n ? GATE_OPEN : GATE_CANCELLED;
    pthread_cond_broadcast(&g.cv);
    pthread_mutex_unlock(&g.mu);
    for (i = 0; i < started; i++)
        pthread_join(ids[i], NULL);
    pthread_cond_destroy(&g.cv);
    pthread_mutex_destroy(&g.mu);
    free(ids);
    free(slots);
    if (started < n) {
        *error = dl_fmt("cannot start thread %u of %u: %s", started + 1, n, strerror(rc));
        return false;
    }
    return true;
}

unsigned dl_cpu_count_online(void)
{
    long online = 0;
#if defined(__linux__) && defined(CPU_ALLOC)
    /* The affinity mask (taskset, a container's cpuset) is what this process may use. The
     * kernel refuses a mask smaller than its own (EINVAL), so grow it on machines with
     * more than 1024 CPUs. */
    int cpus = 1024;
    for (;;) {
        cpu_set_t *set = CPU_ALLOC(cpus);
        size_t size = CPU_ALLOC_SIZE(cpus);
        int count, err;
        if (!set)
            break;
        CPU_ZERO_S(size, set);
        if (sched_getaffinity(0, size, set) == 0) {
            count = CPU_COUNT_S(size, set);
            CPU_FREE(set);
            if (count > 0)
                return (unsigned)count;
            break;
        }
        err = errno;
        CPU_FREE(set);
        if (err != EINVAL || cpus >= (1 << 20))
            break;
        cpus *= 2;
    }
#endif
#if defined(_SC_NPROCESSORS_ONLN)
    online = sysconf(_SC_NPROCESSORS_ONLN);
#endif
    return online >= 1 ? (unsigned)online : 1u;
}

static pthread_mutex_t library_lock = PTHREAD_MUTEX_INITIALIZER;

void dl_library_lock(void)
{
    pthread_mutex_lock(&library_lock);
}

void dl_library_unlock(void)
{
    pthread_mutex_unlock(&library_lock);
}
