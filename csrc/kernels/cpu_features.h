/*
 * cpu_features.h - run-time CPU feature detection for kernel dispatch.
 */
#ifndef ARGEXT_CPU_FEATURES_H
#define ARGEXT_CPU_FEATURES_H

#include "argext.h"

/* 1 when this CPU and OS can run the kernels of `isa`. */
int argext_cpu_has(argext_isa isa);

/* Whether the row scans should ask memory for the lines ahead on this CPU:
   one of kernels/platform.h's modes for argext_row_prefetch (0 never). */
int argext_cpu_row_prefetch(void);

/* How dense short rows go on this CPU: one of kernels/platform.h's modes
   for argext_dense_rows. */
int argext_cpu_dense_rows(void);

/* How tall this CPU's column fold tiles are: one of kernels/platform.h's
   modes for argext_fold_tiles. */
int argext_cpu_fold_tiles(void);

#endif /* ARGEXT_CPU_FEATURES_H */
