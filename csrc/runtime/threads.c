/*
 * threads.c - the persistent worker pool, the thread count, and the host's
 * parallel-for hook (docs/threads.md explains the design).
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
#if !defined(_WIN32) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT_S */
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/threads.h"

#ifdef _WIN32
#include <windows.h>
typedef SRWLOCK lock_t;
typedef CONDITION_VARIABLE cond_t;
typedef HANDLE thread_t;
#define LOCK_INIT SRWLOCK_INIT
#define COND_INIT CONDITION_VARIABLE_INIT
static void lock(lock_t *l) { AcquireSRWLockExclusive(l); }
static void unlock(lock_t *l) { ReleaseSRWLockExclusive(l); }
static void cond_wait(cond_t *c, lock_t *l) { SleepConditionVariableSRW(c, l, INFINITE, 0); }
static void cond_signal(cond_t *c) { WakeConditionVariable(c); }
static void cond_broadcast(cond_t *c) { WakeAllConditionVariable(c); }
#else
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
typedef pthread_mutex_t lock_t;
typedef pthread_cond_t cond_t;
typedef pthread_t thread_t;
#define LOCK_INIT PTHREAD_MUTEX_INITIALIZER
#define COND_INIT PTHREAD_COND_INITIALIZER
static void lock(lock_t *l) { pthread_mutex_lock(l); }
static void unlock(lock_t *l) { pthread_mutex_unlock(l); }
static void cond_wait(cond_t *c, lock_t *l) { pthread_cond_wait(c, l); }
static void cond_signal(cond_t *c) { pthread_cond_signal(c); }
static void cond_broadcast(cond_t *c) { pthread_cond_broadcast(c); }
#endif

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

/* ------------------------------------------------ CPUs this process may use */

#if defined(__linux__)
/* The cgroup CPU quota as whole CPUs (rounded up), or 0 for none. v2:
   cpu.max ("max 100000" or "200000 100000") in the process's cgroup and its
   ancestors; v1: cpu.cfs_quota_us / cpu.cfs_period_us. The cgroup's path
   comes from /proc/self/cgroup; inside a container's namespace it is "/". */
static int read_quota(const char *path, int v2)
{
    char buf[128];
    long long quota = -1, period = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    if (v2) {
        if (fgets(buf, sizeof buf, f) && sscanf(buf, "%lld %lld", &quota, &period) != 2)
            quota = -1; /* "max ..." */
    } else {
        if (fscanf(f, "%lld", &quota) == 1) {
            char pp[512];
            size_t n = strlen(path);
            if (n >= sizeof pp || n < 12) {
                quota = -1;
            } else { /* .../cpu.cfs_quota_us -> .../cpu.cfs_period_us */
                memcpy(pp, path, n - 12);
                strcpy(pp + n - 12, "period_us");
                FILE *g = fopen(pp, "r");
                if (!g || fscanf(g, "%lld", &period) != 1)
                    quota = -1;
                if (g)
                    fclose(g);
            }
        }
    }
    fclose(f);
    if (quota <= 0 || period <= 0)
        return 0;
    long long cpus = (quota + period - 1) / period;
    return cpus > ARGEXT_MAX_THREADS ? ARGEXT_MAX_THREADS : (int)cpus;
}

static int cgroup_quota(void)
{
    char line[512], dir[512], path[700];
    int best = 0;
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f)) {
        /* "0::/path" (v2) or "N:cpu,cpuacct:/path" (v1) */
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2)
            continue;
        *c2 = '\0';
        const char *controllers = c1 + 1;
        int v2 = *controllers == '\0';
        if (!v2 && !strstr(controllers, "cpu"))
            continue;
        size_t n = strcspn(c2 + 1, "\n");
        if (n >= sizeof dir)
            continue;
        memcpy(dir, c2 + 1, n);
        dir[n] = '\0';
        /* The quota that binds is the smallest along the path to the root. */
        for (;;) {
            const char *root = dir[0] == '/' && dir[1] == '\0' ? "" : dir;
            int q = 0;
            if (v2) {
                snprintf(path, sizeof path, "/sys/fs/cgroup%s/cpu.max", root);
                q = read_quota(path, 1);
            } else {
                snprintf(path, sizeof path, "/sys/fs/cgroup/cpu,cpuacct%s/cpu.cfs_quota_us", root);
                q = read_quota(path, 0);
                if (!q) {
                    snprintf(path, sizeof path, "/sys/fs/cgroup/cpu%s/cpu.cfs_quota_us", root);
                    q = read_quota(path, 0);
                }
            }
            if (q > 0 && (best == 0 || q < best))
                best = q;
            char *slash = strrchr(dir, '/');
            if (!slash || slash == dir) {
                if (dir[0] == '/' && dir[1] != '\0') {
                    dir[1] = '\0'; /* the root itself, last */
                    continue;
                }
                break;
            }
            *slash = '\0';
        }
    }
    fclose(f);
    return best;
}

static int affinity_cpus(void)
{
    for (int ncpu = 1024; ncpu <= (1 << 16); ncpu *= 2) {
        cpu_set_t *set = CPU_ALLOC((size_t)ncpu);
        size_t size = CPU_ALLOC_SIZE((size_t)ncpu);
        if (!set)
            return 0;
        CPU_ZERO_S(size, set);
        int ok = sched_getaffinity(0, size, set) == 0, n = ok ? CPU_COUNT_S(size, set) : 0;
        CPU_FREE(set);
        if (ok)
            return n;
    }
    return 0;
}
#endif

static int process_cpus(void)
{
    int n = 0;
#if defined(_WIN32)
    DWORD_PTR process_mask, system_mask;
    if (GetProcessAffinityMask(GetCurrentProcess(), &process_mask, &system_mask))
        for (; process_mask; process_mask &= process_mask - 1)
            n++;
    if (GetActiveProcessorGroupCount() > 1) /* a mask covers one group only */
        n = (int)GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
#else
#if defined(__linux__)
    n = affinity_cpus();
    int quota = cgroup_quota();
    if (quota > 0 && (n == 0 || quota < n))
        n = quota;
#endif
    if (n <= 0)
        n = (int)sysconf(_SC_NPROCESSORS_ONLN);
#endif
    if (n < 1)
        n = 1;
    return n > ARGEXT_MAX_THREADS ? ARGEXT_MAX_THREADS : n;
}

/* ARGEXT_NUM_THREADS as a count in [1, ARGEXT_MAX_THREADS], or 0. */
static int env_threads(void)
{
    const char *s = getenv("ARGEXT_NUM_THREADS");
    char *end;
    if (!s || !*s)
        return 0;
    long v = strtol(s, &end, 10);
    return *end == '\0' && v >= 1 && v <= ARGEXT_MAX_THREADS ? (int)v : 0;
}

static int default_threads(void)
{
    int n = env_threads();
    return n ? n : process_cpus();
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

static int64_t min_part_bytes = ARGEXT_MIN_PART_BYTES;

void argext_set_min_part_bytes(int64_t bytes) { min_part_bytes = bytes; }

int argext_parts_for(int64_t bytes)
{
    if (bytes < 2 * min_part_bytes)
        return 1;
    int64_t parts = bytes / min_part_bytes;
    int n = argext_get_num_threads();
    return parts < n ? (int)parts : n;
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
            cond_signal(&pool.done);
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
    cond_broadcast(&pool.wake);
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
    cond_broadcast(&pool.wake);
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
