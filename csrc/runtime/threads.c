/*
 * threads.c - the persistent worker pool, the thread count, the part size,
 * and the host's parallel-for hook (docs/threads.md explains the design).
 *
 * One lock guards all of it. A call posts its tasks; the caller and the
 * workers take them one by one under the lock; the caller waits until the
 * last one has returned. Tasks are few and large (one per thread), so the
 * lock is taken a handful of times per call. A call that finds the pool busy
 * runs its tasks on its own thread: concurrent and nested calls never wait
 * for each other. Workers start on the first call that needs them and stay
 * asleep on a condition variable between calls.
 *
 * Fork: the child of a fork has none of the parent's workers; an atfork
 * handler gives it an empty pool, which starts new workers when needed.
 * Exit and unload: a destructor stops and joins the workers (on Windows,
 * where DllMain cannot join threads, the DLL is pinned once it has started
 * workers, and the OS ends them at process exit).
 */
#include <stdlib.h>

#include "runtime/cpus.h"
#include "runtime/threads.h"

#ifdef _WIN32
#include <windows.h>
typedef SRWLOCK lock_t;
typedef CONDITION_VARIABLE cond_t;
typedef HANDLE thread_t;
#define LOCK_INIT SRWLOCK_INIT
#define COND_INIT CONDITION_VARIABLE_INIT
#else
#include <pthread.h>
typedef pthread_mutex_t lock_t;
typedef pthread_cond_t cond_t;
typedef pthread_t thread_t;
#define LOCK_INIT PTHREAD_MUTEX_INITIALIZER
#define COND_INIT PTHREAD_COND_INITIALIZER
#endif

/* The lock and condition variables: Windows slim reader/writer locks, or POSIX. */
static void lock(lock_t *l)
{
#ifdef _WIN32
    AcquireSRWLockExclusive(l);
#else
    pthread_mutex_lock(l);
#endif
}

static void unlock(lock_t *l)
{
#ifdef _WIN32
    ReleaseSRWLockExclusive(l);
#else
    pthread_mutex_unlock(l);
#endif
}

static void cond_wait(cond_t *c, lock_t *l)
{
#ifdef _WIN32
    SleepConditionVariableSRW(c, l, INFINITE, 0);
#else
    pthread_cond_wait(c, l);
#endif
}

/* Wakes one waiter (all == 0) or every waiter. */
static void cond_wake(cond_t *c, int all)
{
#ifdef _WIN32
    if (all)
        WakeAllConditionVariable(c);
    else
        WakeConditionVariable(c);
#else
    if (all)
        pthread_cond_broadcast(c);
    else
        pthread_cond_signal(c);
#endif
}

static struct {
    lock_t lock;
    cond_t wake; /* workers: tasks posted, or stop */
    cond_t done; /* the posting caller: the last task returned */
    int num_threads; /* 0 until first read */
    argext_parallel_for host_for;
    void *host;
    thread_t *workers;
    int started;  /* workers running */
    int helpers;  /* workers 0..helpers-1 take the posted tasks */
    int busy;     /* a call owns the posted tasks */
    int stopping; /* set at exit: no new workers */
    argext_task task;
    void *context;
    int64_t ntasks, next, unfinished;
} pool = {LOCK_INIT, COND_INIT, COND_INIT, 0, NULL, NULL, NULL, 0, 0, 0, 0, NULL, NULL, 0, 0, 0};

/* An environment variable as a whole number in [low, high], or 0. */
static long long env_number(const char *name, long long low, long long high)
{
    const char *s = getenv(name);
    char *end;
    if (!s || !*s)
        return 0;
    long long v = strtoll(s, &end, 10);
    return *end == '\0' && v >= low && v <= high ? v : 0;
}

static int default_threads(void)
{
    int n = (int)env_number("ARGEXT_NUM_THREADS", 1, ARGEXT_MAX_THREADS);
    return n ? n : argext_process_cpus();
}

/* ------------------------------------------------------------ settings */

/* Caller holds the lock. */
static int threads_locked(void)
{
    if (pool.num_threads == 0)
        pool.num_threads = default_threads();
    return pool.num_threads;
}

int argext_get_num_threads(void)
{
    lock(&pool.lock);
    int n = threads_locked();
    unlock(&pool.lock);
    return n;
}

argext_status argext_set_num_threads(int n)
{
    if (n < 0 || n > ARGEXT_MAX_THREADS)
        return ARGEXT_ERR_ATTRIBUTE;
    int value = n ? n : default_threads(); /* reads files: outside the lock */
    lock(&pool.lock);
    pool.num_threads = value;
    unlock(&pool.lock);
    return ARGEXT_OK;
}

void argext_set_parallel_for(argext_parallel_for parallel_for, void *host)
{
    lock(&pool.lock);
    pool.host_for = parallel_for;
    pool.host = parallel_for ? host : NULL;
    unlock(&pool.lock);
}

/* ARGEXT_MIN_PART_BYTES, read once: a smaller part splits smaller calls (the
   C test driver splits inputs of a few bytes with it). */
static int64_t min_part_bytes = ARGEXT_MIN_PART_BYTES;

static void read_min_part_bytes(void)
{
    long long bytes = env_number("ARGEXT_MIN_PART_BYTES", 1, INT64_MAX / 2);
    if (bytes)
        min_part_bytes = (int64_t)bytes;
}

#ifdef _WIN32
static INIT_ONCE part_once = INIT_ONCE_STATIC_INIT;
static BOOL CALLBACK read_part_once(PINIT_ONCE once, void *param, void **context)
{
    (void)once, (void)param, (void)context;
    read_min_part_bytes();
    return TRUE;
}
static void part_bytes_known(void) { InitOnceExecuteOnce(&part_once, read_part_once, NULL, NULL); }
#else
static pthread_once_t part_once = PTHREAD_ONCE_INIT;
static void part_bytes_known(void) { pthread_once(&part_once, read_min_part_bytes); }
#endif

int argext_parts_for(int64_t bytes)
{
    part_bytes_known();
    if (bytes < 2 * min_part_bytes)
        return 1;
    int64_t parts = bytes / min_part_bytes;
    int n = argext_get_num_threads();
    return parts < n ? (int)parts : n;
}

int64_t argext_part_start(int64_t n, int64_t parts, int64_t t)
{
    return n / parts * t + (t < n % parts ? t : n % parts);
}

/* ------------------------------------------------------------ the pool */

/* Takes and runs posted tasks until none is left; lock held on entry and exit. */
static void run_tasks(void)
{
    while (pool.next < pool.ntasks) {
        int64_t i = pool.next++;
        argext_task task = pool.task;
        void *context = pool.context;
        unlock(&pool.lock);
        task(context, i);
        lock(&pool.lock);
        if (--pool.unfinished == 0)
            cond_wake(&pool.done, 0);
    }
}

#ifdef _WIN32
static DWORD WINAPI worker(LPVOID arg)
#else
static void *worker(void *arg)
#endif
{
    int id = (int)(intptr_t)arg;
    lock(&pool.lock);
    for (;;) {
        while (!pool.stopping && (id >= pool.helpers || pool.next >= pool.ntasks))
            cond_wait(&pool.wake, &pool.lock);
        if (pool.stopping)
            break;
        run_tasks();
    }
    unlock(&pool.lock);
    return 0;
}

#ifndef _WIN32
static void before_fork(void) { lock(&pool.lock); }
static void after_fork_parent(void) { unlock(&pool.lock); }

/* The child has only the forking thread: no workers, no call in flight but
   (possibly) its own, which held no task at the fork since it was forking. */
static void after_fork_child(void)
{
    pthread_mutex_init(&pool.lock, NULL);
    pthread_cond_init(&pool.wake, NULL);
    pthread_cond_init(&pool.done, NULL);
    free(pool.workers);
    pool.workers = NULL;
    pool.started = 0;
    pool.helpers = 0;
    pool.busy = 0;
    pool.task = NULL;
    pool.context = NULL;
    pool.ntasks = pool.next = pool.unfinished = 0;
}
#endif

/* Starts workers up to `want`; lock held. Returns how many run. */
static int start_workers(int want)
{
    if (pool.stopping)
        return pool.started;
    if (pool.workers == NULL) {
        pool.workers = (thread_t *)calloc(ARGEXT_MAX_THREADS, sizeof(thread_t));
        if (!pool.workers)
            return 0;
#ifdef _WIN32
        HMODULE self; /* stay loaded while workers run this code */
        GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_PIN,
                           (LPCWSTR)(void *)&pool, &self);
#else
        static int atfork_registered;
        if (!atfork_registered) /* once per process: a fork child keeps the registration */
            atfork_registered = pthread_atfork(before_fork, after_fork_parent,
                                               after_fork_child) == 0;
#endif
    }
    while (pool.started < want) {
#ifdef _WIN32
        HANDLE h = CreateThread(NULL, 0, worker, (LPVOID)(intptr_t)pool.started, 0, NULL);
        if (!h)
            break;
        pool.workers[pool.started++] = h;
#else
        if (pthread_create(&pool.workers[pool.started], NULL, worker,
                           (void *)(intptr_t)pool.started) != 0)
            break;
        pool.started++;
#endif
    }
    return pool.started;
}

void argext_run_parallel(int64_t ntasks, argext_task task, void *context)
{
    if (ntasks == 1) { /* small calls: no shared state touched */
        task(context, 0);
        return;
    }
    lock(&pool.lock);
    if (pool.host_for) {
        argext_parallel_for host_for = pool.host_for;
        void *host = pool.host;
        unlock(&pool.lock);
        host_for(host, ntasks, task, context);
        return;
    }
    int64_t helpers = ntasks < threads_locked() ? ntasks - 1 : threads_locked() - 1;
    if (helpers == 0 || pool.busy || start_workers((int)helpers) == 0) {
        unlock(&pool.lock);
        for (int64_t i = 0; i < ntasks; i++)
            task(context, i);
        return;
    }
    pool.busy = 1;
    pool.helpers = (int)helpers < pool.started ? (int)helpers : pool.started;
    pool.task = task;
    pool.context = context;
    pool.ntasks = ntasks;
    pool.next = 0;
    pool.unfinished = ntasks;
    cond_wake(&pool.wake, 1);
    run_tasks();
    while (pool.unfinished > 0)
        cond_wait(&pool.done, &pool.lock);
    pool.busy = 0;
    pool.helpers = 0;
    pool.task = NULL;
    pool.context = NULL;
    pool.ntasks = pool.next = 0;
    unlock(&pool.lock);
}

#ifndef _WIN32
/* At exit and at unload (dlclose) of the library: wake every worker, let it
   finish the task it holds, and join it. */
__attribute__((destructor)) static void stop_pool(void)
{
    lock(&pool.lock);
    pool.stopping = 1;
    cond_wake(&pool.wake, 1);
    int started = pool.started;
    unlock(&pool.lock);
    for (int i = 0; i < started; i++)
        pthread_join(pool.workers[i], NULL);
    lock(&pool.lock);
    free(pool.workers);
    pool.workers = NULL;
    pool.started = 0;
    unlock(&pool.lock);
}
#endif
