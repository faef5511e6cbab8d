/*
 * cpu_features.h - run-time CPU feature detection for kernel dispatch.
 */
#ifndef ARGEXT_CPU_FEATURES_H
#define ARGEXT_CPU_FEATURES_H

#include "argext.h"

/* 1 when this CPU and OS can run the kernels of `isa`. */
int argext_cpu_has(argext_isa isa);

#endif /* ARGEXT_CPU_FEATURES_H */
