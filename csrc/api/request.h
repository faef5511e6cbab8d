/*
 * request.h - one call's descriptors checked into one request (request.c).
 *
 * Every operator family checks its call through these steps, in the same
 * order: the input (argext_request_data), the family's attributes (axes into
 * reduced flags, 0/1 flags), non-empty reduced axes, then the output last,
 * so that a caller may pass a NULL output to learn what is wrong with the
 * rest; then argext_request_run. A refused step has recorded its detail
 * (argext_last_error) and nothing has been written.
 */
#ifndef ARGEXT_API_REQUEST_H
#define ARGEXT_API_REQUEST_H

#include <stdint.h>

#include "argext.h"

typedef struct {
    const argext_tensor *data;
    const argext_tensor *out;
    int64_t count;                         /* input elements */
    int64_t out_count;                     /* output elements */
    int64_t in_strides[ARGEXT_MAX_RANK];   /* the input's byte strides */
    int64_t out_strides[ARGEXT_MAX_RANK];  /* the output's, by input dimension (0 where dropped) */
    unsigned char reduced[ARGEXT_MAX_RANK]; /* 1: a reduced input dimension */
} argext_request;

/* The output dtypes of the arg operators: a mask of 1 << argext_dtype. */
#define ARGEXT_INDEX_INT64 (1u << ARGEXT_INT64)
#define ARGEXT_INDEX_ANY                                                      \
    (1u << ARGEXT_INT64 | 1u << ARGEXT_INT32 | 1u << ARGEXT_UINT64 | 1u << ARGEXT_UINT32)

/* The input: a valid descriptor (its dtype maybe flagged ARGEXT_BYTESWAPPED);
   no dimension reduced yet. */
argext_status argext_request_data(argext_request *q, const argext_tensor *data);

/* The input has rank >= 1 (an arg operator reduces an axis). */
argext_status argext_request_rank(const argext_request *q);

/* Normalises *axis (in [-rank, rank)) and marks it reduced; refuses an axis
   out of range or already reduced as ARGEXT_ERR_AXIS (arg, index, given). */
argext_status argext_request_axis(argext_request *q, int64_t *axis, argext_arg arg, int index,
                                  int64_t given);

/* A 0/1 attribute. */
argext_status argext_request_flag(int value, argext_arg arg);

/* Reduced dimension d is not empty, else ARGEXT_ERR_EMPTY_AXIS (arg, index, given). */
argext_status argext_request_nonempty(const argext_request *q, int d, argext_arg arg, int index,
                                      int64_t given);

/* An index output: a valid descriptor, a dtype of `dtypes` able to hold
   every index of the reduction, and the input's shape with the reduced
   dimensions as 1 (keep_reduced) or removed. */
argext_status argext_request_index_output(argext_request *q, const argext_tensor *out,
                                          int keep_reduced, unsigned dtypes);

/* A Hardmax output: a valid descriptor of the input's dtype (either byte
   order) and shape. */
argext_status argext_request_like_input(argext_request *q, const argext_tensor *out);

/* An output of exactly `dtype` (native byte order) with the input's shape
   but `extent` along the reduced dimension d (TopK's values and indices):
   a valid descriptor, its byte strides into strides. Refusals name arg. */
argext_status argext_request_shaped_output(const argext_request *q, const argext_tensor *out,
                                           argext_arg arg, int dtype, int d, int64_t extent,
                                           int64_t *strides);

/* Runs the checked request with an engine operator (ARGEXT_OP_*), writing
   every index, and records the outcome. */
argext_status argext_request_run(const argext_request *q, int op, int last);
/* The same; for the NaN-skipping operators, *nan_best tells whether some
   output's element may be a NaN (engine.h: argext_reduction.nan_best). */
argext_status argext_request_run_nan(const argext_request *q, int op, int last, int *nan_best);

#endif /* ARGEXT_API_REQUEST_H */
