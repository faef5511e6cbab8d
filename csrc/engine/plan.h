/*
 * plan.h - inside the engine: a request planned as [outer, axis, inner]
 * (plan.c), run over ranges of kept positions or over pieces of one
 * position's reduced elements (run.c), by threads (split.c).
 */
#ifndef ARGEXT_ENGINE_PLAN_H
#define ARGEXT_ENGINE_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "argext.h"
#include "engine/engine.h"
#include "engine/layout.h"
#include "kernels/kernels.h"

/* A column fold's blocks (run.c): at most ARGEXT_FOLD_COLS columns and
   ARGEXT_FOLD_ROW_BYTES of each row, whose keys, indices and row bytes the
   scratch holds (its indices also take a batch of many-rows calls, fewer). */
#define ARGEXT_FOLD_COLS 65536
#define ARGEXT_FOLD_ROW_BYTES 262144

/* Scratch for byte-swapped input: the bytes a column fold converts per
   kernel call (16 rows of 4096 float32 columns), an L2-sized block whose
   successor is prefetched meanwhile; row scans use 16 KiB of it. */
#define ARGEXT_SWAP_BYTES 262144

/* Input bytes per block of kept positions handed to a reduction's `written`
   hook (at least one row): within L2, so that the hook finds the rows there. */
#define ARGEXT_WRITTEN_BLOCK_BYTES 262144

typedef struct argext_plan {
    const char *in;
    char *out;
    argext_dtype dtype;
    argext_dtype out_dtype;
    int swapped, last, column_mode, direct;
    int nan_check; /* a NaN-skipping operator on floats: outputs' elements are tested for NaN */
    size_t itemsize;
    argext_row_kernel row;
    argext_cols_kernel cols;
    argext_cols_swapped_kernel cols_swapped;
    argext_cols_unasked_query cols_unasked;
    argext_rows_kernel rows;
    argext_swap_kernel swap;
    int nk, nr;
    argext_dim kept[ARGEXT_MAX_RANK];    /* outer kept dimensions, outermost first */
    argext_dim inner;                    /* the innermost kept dimension */
    argext_dim reduced[ARGEXT_MAX_RANK]; /* reduced dimensions but the axis, outermost first */
    argext_dim axis;                     /* the innermost reduced dimension */
    int64_t count;                       /* reduced elements per kept position */
    int64_t flat0;                       /* index offset of zero-stride reduced dimensions */
    int64_t positions;                   /* kept positions: prod(kept n) * inner.n */
    void (*written)(void *context, const struct argext_plan *p, int64_t k0, int64_t k1);
    void *written_context;               /* the request's hook (engine.h) */
    int64_t block;                       /* positions per block handed to it */
} argext_plan;

/* A thread's scratch (runtime/scratch.h holds one per thread); nothing of it
   outlives a call. */
typedef struct argext_engine_scratch {
    int64_t keys[ARGEXT_FOLD_ROW_BYTES / 8]; /* keys of any type */
    int64_t idx[ARGEXT_FOLD_COLS];
    int8_t row_of[ARGEXT_FOLD_COLS]; /* the fold kernel's work */
    unsigned char swap[ARGEXT_SWAP_BYTES];
    argext_plan plan;
} argext_engine_scratch;

/* Plans a request with the kernels of the ISA level in use. */
void argext_plan_build(argext_plan *p, const argext_reduction *r);

/* The kept walk alone (p->in, out, kept, nk, inner, positions): a plan of
   another output of the same input visits the same positions in the same
   order (the order depends on the input's strides only). */
void argext_plan_kept(argext_plan *p, const argext_reduction *r);

/* Writes the outputs of kept positions [k0, k1), 0 <= k0 <= k1 <=
   p->positions, in blocks handed to p->written as each is done, if set.
   Positions are numbered in the plan's order (the kept
   dimensions sorted by memory stride), not the tensor's. Returns, for a
   plan with nan_check, 1 when some of their outputs' elements may be a NaN
   (a layout whose elements are not tested, or one that is); else 0. */
int argext_plan_run(const argext_plan *p, int64_t k0, int64_t k1, argext_engine_scratch *s);

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

#endif /* ARGEXT_ENGINE_PLAN_H */
