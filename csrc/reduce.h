/*
 * reduce.h - the arg-reduction engine behind every public entry point.
 *
 * A validated request names, for each input dimension, whether it is
 * reduced. The engine collapses it to [outer, axis, inner]: kept dimensions
 * become outer loops plus one inner dimension (the one with the smallest
 * input stride), reduced dimensions become the axis, coalesced where memory
 * allows and otherwise iterated in place. Strides are bytes and may be
 * negative or zero; nothing is copied or transposed.
 */
#ifndef ARGEXT_REDUCE_H
#define ARGEXT_REDUCE_H

#include <stdint.h>

#include "argext.h"

typedef struct argext_reduction {
    const char *data;
    argext_dtype dtype;
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

/*
 * Writes, for every position of the kept dimensions, the row-major flattened
 * index over the reduced dimensions of the best element. The request must be
 * valid: every reduced dimension non-empty.
 */
void argext_reduce(const argext_reduction *r);

#endif /* ARGEXT_REDUCE_H */
