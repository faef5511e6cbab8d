/*
 * threads.h - the parallel-for (threads.c): a persistent pool of worker
 * threads, or the embedding application's own parallel-for when it installed
 * one with argext_set_parallel_for. It runs tasks; what a task does, and how
 * work is cut into tasks, is its caller's business.
 */
#ifndef ARGEXT_RUNTIME_THREADS_H
#define ARGEXT_RUNTIME_THREADS_H

#include <stdint.h>

#include "argext.h"

/* Bytes of input below which a part of the work is not worth a thread's
   wake-up (tens of microseconds on a loaded machine). Below two parts'
   worth (12 MiB) an input mostly sits in the caches, where one core reads
   it faster than two threads are woken and joined: on an AMD EPYC Zen 5,
   4-8 MiB inputs took up to 1.8x longer on two threads than on one (issue
   24); on a Zen 4, two threads against one, 8 MiB 0.76-1.08x, 10 MiB
   0.82-0.90x, 12 MiB 0.58-0.78x (float32 logits (32, 128256), 15.7 MiB,
   0.66x, TopK's 0.60x: below the 16 MiB of two 8 MiB parts). The
   environment variable ARGEXT_MIN_PART_BYTES, read once, overrides it. */
#define ARGEXT_MIN_PART_BYTES ((int64_t)6 << 20)

/*
 * How many parts to split `bytes` of work into: 1 (the calling thread
 * alone, without touching any shared state) below two parts' worth, else at
 * most argext_get_num_threads().
 */
int argext_parts_for(int64_t bytes);

/* Part t of `parts` near-equal parts of [0, n): [start(t), start(t + 1)). */
int64_t argext_part_start(int64_t n, int64_t parts, int64_t t);

/*
 * Calls task(context, i) once for every i in [0, ntasks) (ntasks >= 1), on
 * the calling thread and the pool's (or the host's) threads, and returns
 * when all have returned. A call that finds the pool busy (another thread's
 * call, or a task that calls back into argext) runs its tasks on its own
 * thread.
 */
void argext_run_parallel(int64_t ntasks, argext_task task, void *context);

#endif /* ARGEXT_RUNTIME_THREADS_H */
