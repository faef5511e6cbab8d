/*
 * scratch.h - one block of scratch memory per thread (scratch.c).
 */
#ifndef ARGEXT_RUNTIME_SCRATCH_H
#define ARGEXT_RUNTIME_SCRATCH_H

#include <stddef.h>

/*
 * The calling thread's scratch block of at least `bytes` bytes, aligned for
 * any type; NULL when out of memory. Allocated on the thread's first call
 * (or when a call asks for more than the block holds) and kept until the
 * thread exits, so that calls allocate nothing after the first. Give it
 * back with argext_scratch_release once the call is done with it.
 */
void *argext_scratch_acquire(size_t bytes);
void argext_scratch_release(void *block);

#endif /* ARGEXT_RUNTIME_SCRATCH_H */
