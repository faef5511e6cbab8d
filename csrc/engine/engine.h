/*
 * engine.h - the arg-reduction engine behind every operator (plan.c, run.c,
 * split.c): what the API layer hands it, once a request has passed its checks.
 *
 * A request names, for each input dimension, whether it is reduced. The
 * engine collapses it to [outer, axis, inner]: kept dimensions become outer
 * loops plus one inner dimension (the one with the smallest input stride),
 * reduced dimensions become the axis, coalesced where memory allows and
 * otherwise iterated in place. Strides are bytes and may be negative or
 * zero; nothing is copied or transposed. Byte-swapped input is read in place
 * by row and column kernels that swap each vector as they load it; batches
 * of short rows (and layouts a kernel does not read in place) are swapped a
 * bounded block at a time into per-thread scratch, then folded by the same
 * kernels.
 */
#ifndef ARGEXT_ENGINE_H
#define ARGEXT_ENGINE_H

#include <stdint.h>

#include "argext.h"

struct argext_plan; /* plan.h: a reduction planned */

typedef struct argext_reduction {
    const char *data;
    int dtype;                    /* argext_dtype, maybe | ARGEXT_BYTESWAPPED */
    int rank;
    const int64_t *shape;         /* rank entries, every reduced one > 0 */
    const int64_t *strides;       /* input byte strides, rank entries */
    const unsigned char *reduced; /* rank flags: 1 = reduced dimension */
    char *out;
    argext_dtype out_dtype;       /* INT64, INT32, UINT64 or UINT32 */
    const int64_t *out_strides;   /* output byte strides by input dimension; ignored where reduced */
    int op;                       /* an ARGEXT_OP_* of kernels/ops.h */
    int last;                     /* 1: last occurrence */
    int *nan_best;                /* NULL, or for the NaN-skipping operators set to 1 when some
                                     output's element may be a NaN (the engine did not look, or
                                     saw one), else 0: the caller then need not read the input
                                     again to find slices of NaN only */
    /* NULL, or called for each block of kept positions [k0, k1) of plan p
       (the plan's order; a few hundred KiB of input, at least one row) once
       their outputs are written, by the thread that wrote them: the block's
       rows are still in cache (TopK's k = 1 copies each row's value there) */
    void (*written)(void *context, const struct argext_plan *p, int64_t k0, int64_t k1);
    void *written_context;
} argext_reduction;

/* Writes every output index of a request that passed its checks, split
   over threads when large. ARGEXT_ERR_NOMEM (nothing written) when the
   calling thread has no scratch. */
argext_status argext_engine_reduce(const argext_reduction *r);

/* A TopK call that passed its checks (topk.c): k >= 1 best elements of each
   row along `axis` (extent >= k) into values (native order) and indices
   (int64), whose strides are by input dimension, the axis's stepping
   through the k outputs. */
typedef struct argext_topk_request {
    const char *data;
    int dtype;                      /* argext_dtype, maybe | ARGEXT_BYTESWAPPED */
    int rank, axis;
    const int64_t *shape;
    const int64_t *strides;
    int64_t k;
    int largest, sorted;
    char *values, *indices;
    const int64_t *values_strides;
    const int64_t *indices_strides;
} argext_topk_request;

/* Writes every output of a TopK request, split over threads when large.
   ARGEXT_ERR_NOMEM (nothing written) when its candidates' memory cannot be
   had. */
argext_status argext_engine_topk(const argext_topk_request *r);

#endif /* ARGEXT_ENGINE_H */
