/*
 * cpus.c - how many CPUs this process may use: the affinity mask, capped by
 * the cgroup CPU quota (containers) on Linux; the process's affinity on
 * Windows; the online CPUs elsewhere.
 */
#if !defined(_WIN32) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT_S */
#endif

#include <stdio.h>
#include <string.h>

#include "runtime/cpus.h"

#ifdef _WIN32
#include <windows.h>
#else
#include <sched.h>
#include <unistd.h>
#endif


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

int argext_process_cpus(void)
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
