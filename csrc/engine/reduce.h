/*
 * reduce.h - the arg-reduction engine behind every public entry point.
 *
 * A validated request names, for each input dimension, whether it is
 * reduced. The engine collapses it to [outer, axis, inner]: kept dimensions
 * become outer loops plus one inner dimension (the one with the smallest
 * input stride), reduced dimensions become the axis, coalesced where memory
 * allows and otherwise iterated in place. Strides are bytes and may be
 * negative or zero; nothing is copied or transposed. Byte-swapped input is
 * read in place by row and column kernels that swap each vector as they
 * load it; batches of short rows (and layouts a kernel does not read in
 * place) are swapped a bounded block at a time into per-thread scratch,
 * then folded by the same kernels.
 *
 * The work is a plan (argext_plan_build) run over ranges of kept positions
 * (argext_plan_run): a thread pool may hand out [k0, k1) ranges, or split
 * one long row into element ranges (argext_plan_row_part) and merge the
 * parts with argext_plan_better. Each thread brings its own scratch.
 */
#ifndef ARGEXT_REDUCE_H
#define ARGEXT_REDUCE_H

#include <stdint.h>

#include "argext.h"
#include "kernels/kernels.h"

/* Columns per block in the column fold: a 4096-wide row is read whole (one
   memory stream), while its keys and indices stay in L1/L2. */
#define ARGEXT_COL_BLOCK 4096

/* Scratch for byte-swapped input: the bytes a column fold converts per
   kernel call (16 rows of 4096 float32 columns), an L2-sized block whose
   successor is prefetched meanwhile; row scans use 16 KiB of it. */
#define ARGEXT_SWAP_BYTES 262144

/* One dimension of a strided walk: extent and two byte strides (or a byte
   stride and a flat-index weight). */
typedef struct {
    int64_t n, a, b;
} argext_dim;

/* The one strided iterator: a row-major odometer over nd dimensions that
   carries two offsets. */
typedef struct {
    int nd;
    const argext_dim *dim;
    int64_t i[ARGEXT_MAX_RANK];
    int64_t a, b;
} argext_iter;

/* Starts at position k (row-major) of the nd dimensions. */
void argext_iter_seek(argext_iter *it, int nd, const argext_dim *dim, int64_t k);
/* Advances; returns 0 once every position has been visited (offsets back at 0). */
int argext_iter_next(argext_iter *it);

/* A descriptor resolved by the validation: byte strides, element count. */
typedef struct {
    int64_t strides[ARGEXT_MAX_RANK];
    int64_t count;
} argext_checked;

typedef struct argext_reduction {
    const char *data;
    int dtype;                    /* argext_dtype, maybe | ARGEXT_BYTESWAPPED */
    int rank;
    const int64_t *shape;
    const int64_t *strides;       /* input byte strides, rank entries */
    const unsigned char *reduced; /* rank flags: 1 = reduced dimension */
    char *out;
    argext_dtype out_dtype;       /* INT64, INT32, UINT64 or UINT32 */
    const int64_t *out_strides;   /* rank entries; ignored where reduced */
    int op;                       /* ARGEXT_OP_MAX or ARGEXT_OP_MIN */
    int last;                     /* 1: last occurrence */
} argext_reduction;

typedef struct argext_plan {
    const char *in;
    char *out;
    argext_dtype dtype;
    argext_dtype out_dtype;
    int swapped, last, column_mode, direct;
    size_t itemsize;
    argext_row_kernel row;
    argext_cols_kernel cols;
    argext_cols_swapped_kernel cols_swapped;
    argext_rows_kernel rows;
    argext_swap_kernel swap;
    int nk, nr;
    argext_dim kept[ARGEXT_MAX_RANK];  /* outer kept dims: n, input stride, output stride */
    argext_dim inner;                  /* the innermost kept dim */
    argext_dim along[ARGEXT_MAX_RANK]; /* reduced dims but the axis: n, stride, weight */
    argext_dim axis;                   /* n, stride, weight */
    int64_t flat0;                     /* index offset of zero-stride reduced dims */
    int64_t positions;                 /* kept positions: prod(kept n) * inner.n */
} argext_plan;

/* Per-thread scratch; nothing of it outlives a call. */
typedef struct argext_arena {
    int64_t keys[ARGEXT_COL_BLOCK]; /* 8-byte slots hold any key type */
    int64_t idx[ARGEXT_COL_BLOCK];
    unsigned char swap[ARGEXT_SWAP_BYTES];
    argext_plan plan;
    argext_checked in, out;
    int64_t dims[4][ARGEXT_MAX_RANK];
} argext_arena;

/* The calling thread's scratch (allocated on first use; NULL when out of
   memory); argext_arena_release after the call (frees it only where there
   is no thread-local storage). */
argext_arena *argext_arena_acquire(void);
void argext_arena_release(argext_arena *a);

/* Plans a valid request (every reduced dimension non-empty) with the
   kernels of the ISA level in use. */
void argext_plan_build(argext_plan *p, const argext_reduction *r);

/* Writes the outputs of kept positions [k0, k1), 0 <= k0 <= k1 <=
   p->positions. Positions are numbered in the plan's order (the kept
   dimensions sorted by memory stride), not the tensor's. */
void argext_plan_run(const argext_plan *p, int64_t k0, int64_t k1, argext_arena *scratch);

/* Folds elements [e0, e1) of kept position k (row-major over the reduced
   dimensions) into the running best: with init == 1 the first element
   starts it. *key (8 bytes, the key type) holds the best key; returns the
   flat index (without plan->flat0) of the element that became the best, or
   -1 if none beat the incoming key. */
int64_t argext_plan_row_part(const argext_plan *p, int64_t k, int64_t e0, int64_t e1, int init,
                             void *key);

/* Writes index (as returned by argext_plan_row_part) as position k's output. */
void argext_plan_store(const argext_plan *p, int64_t k, int64_t index);

/* Whether part (key_a, index a) is to be taken over part (key_b, b) when
   merging row parts (the plan's dtype and direction decide). */
int argext_plan_better(const argext_plan *p, const void *key_a, int64_t a, const void *key_b,
                       int64_t b);

/* Writes a flat index into an index output. */
void argext_store_index(char *p, argext_dtype dt, int64_t v);

#endif /* ARGEXT_REDUCE_H */
