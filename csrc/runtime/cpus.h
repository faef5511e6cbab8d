/*
 * cpus.h - the CPUs this process may use (cpus.c).
 */
#ifndef ARGEXT_RUNTIME_CPUS_H
#define ARGEXT_RUNTIME_CPUS_H

#include "argext.h"

/* In [1, ARGEXT_MAX_THREADS]; reads files on Linux: not for a hot path. */
int argext_process_cpus(void);

#endif /* ARGEXT_RUNTIME_CPUS_H */
