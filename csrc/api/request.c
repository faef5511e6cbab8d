/*
 * request.c - descriptors checked into one request, and the request run.
 */
#include <string.h>

#include "api/request.h"
#include "api/status.h"
#include "engine/engine.h"
#include "kernels/dtypes.h"

size_t argext_dtype_size(argext_dtype dtype) { return argext_itemsize(dtype); }

static int mul_overflows(int64_t a, int64_t b) { return b != 0 && a > INT64_MAX / b; }

/* A valid descriptor (its dtype maybe flagged ARGEXT_BYTESWAPPED): its byte
   strides into strides, its element count into *count. Sizes and byte
   extents must fit int64, ignoring empty dimensions. */
static argext_status check_tensor(const argext_tensor *t, argext_arg arg, int64_t *strides,
                                  int64_t *count)
{
    if (!t)
        return argext_refuse(ARGEXT_ERR_NULL, arg, -1, 0);
    size_t itemsize = argext_itemsize((int)t->dtype & ~ARGEXT_BYTESWAPPED);
    if (itemsize == 0 || ((int)t->dtype & ~(ARGEXT_BYTESWAPPED | 0xff)))
        return argext_refuse(ARGEXT_ERR_DTYPE, arg, -1, (int64_t)t->dtype);
    if (t->rank < 0 || t->rank > ARGEXT_MAX_RANK)
        return argext_refuse(ARGEXT_ERR_RANK, arg, -1, t->rank);
    if (t->rank > 0 && !t->shape)
        return argext_refuse(ARGEXT_ERR_NULL, arg, -1, 0);
    int64_t nonzero = (int64_t)itemsize, extent = 0;
    int empty = 0;
    for (int d = t->rank - 1; d >= 0; d--) {
        int64_t n = t->shape[d], s = t->strides ? t->strides[d] : nonzero;
        if (n < 0)
            return argext_refuse(ARGEXT_ERR_SHAPE, arg, d, n);
        if (s == INT64_MIN)
            return argext_refuse(ARGEXT_ERR_SHAPE, arg, d, s);
        int64_t step = s < 0 ? -s : s;
        if (t->strides && n > 1) {
            if (mul_overflows(step, n - 1) || step * (n - 1) > INT64_MAX - extent)
                return argext_refuse(ARGEXT_ERR_SHAPE, arg, d, s);
            extent += step * (n - 1);
        }
        strides[d] = s;
        empty |= n == 0;
        if (n > 0 && mul_overflows(nonzero, n))
            return argext_refuse(ARGEXT_ERR_SHAPE, arg, d, n);
        nonzero *= n > 0 ? n : 1;
    }
    *count = empty ? 0 : nonzero / (int64_t)itemsize;
    if (*count > 0 && !t->data)
        return argext_refuse(ARGEXT_ERR_NULL, arg, -1, 0);
    return ARGEXT_OK;
}

argext_status argext_request_data(argext_request *q, const argext_tensor *data)
{
    q->data = data;
    q->out = NULL;
    memset(q->reduced, 0, sizeof q->reduced);
    return check_tensor(data, ARGEXT_ARG_DATA, q->in_strides, &q->count);
}

argext_status argext_request_rank(const argext_request *q)
{
    if (q->data->rank < 1)
        return argext_refuse(ARGEXT_ERR_RANK, ARGEXT_ARG_DATA, -1, q->data->rank);
    return ARGEXT_OK;
}

argext_status argext_request_axis(argext_request *q, int64_t *axis, argext_arg arg, int index,
                                  int64_t given)
{
    int64_t rank = q->data->rank;
    if (*axis < -rank || *axis >= rank || q->reduced[*axis < 0 ? *axis + rank : *axis])
        return argext_refuse(ARGEXT_ERR_AXIS, arg, index, given);
    if (*axis < 0)
        *axis += rank;
    q->reduced[*axis] = 1;
    return ARGEXT_OK;
}

argext_status argext_request_flag(int value, argext_arg arg)
{
    if (value != 0 && value != 1)
        return argext_refuse(ARGEXT_ERR_ATTRIBUTE, arg, -1, value);
    return ARGEXT_OK;
}

argext_status argext_request_nonempty(const argext_request *q, int d, argext_arg arg, int index,
                                      int64_t given)
{
    if (q->data->shape[d] == 0)
        return argext_refuse(ARGEXT_ERR_EMPTY_AXIS, arg, index, given);
    return ARGEXT_OK;
}

/* The largest index an index dtype holds (the engine counts in int64), or -1. */
static int64_t index_limit(argext_dtype dt)
{
    switch (dt) {
    case ARGEXT_INT64: return INT64_MAX;
    case ARGEXT_UINT64: return INT64_MAX;
    case ARGEXT_INT32: return INT32_MAX;
    case ARGEXT_UINT32: return UINT32_MAX;
    default: return -1;
    }
}

/* The output's shape is the input's with the reduced dimensions as 1
   (keep_reduced) or removed; its strides are kept by input dimension. */
static argext_status check_index_shape(argext_request *q, int keep_reduced)
{
    const argext_tensor *data = q->data, *out = q->out;
    int o = 0;
    for (int d = 0; d < data->rank; d++) {
        if (q->reduced[d] && !keep_reduced)
            continue;
        int64_t want = q->reduced[d] ? 1 : data->shape[d];
        if (o >= out->rank)
            return argext_refuse(ARGEXT_ERR_OUTPUT, ARGEXT_ARG_OUTPUT, -1, o + 1);
        if (out->shape[o] != want)
            return argext_refuse(ARGEXT_ERR_OUTPUT, ARGEXT_ARG_OUTPUT, o, want);
        o++;
    }
    if (o != out->rank)
        return argext_refuse(ARGEXT_ERR_OUTPUT, ARGEXT_ARG_OUTPUT, -1, o);
    for (int d = data->rank - 1; d >= 0; d--) /* in place: o <= d throughout */
        q->out_strides[d] = q->reduced[d] && !keep_reduced ? 0 : q->out_strides[--o];
    return ARGEXT_OK;
}

argext_status argext_request_index_output(argext_request *q, const argext_tensor *out,
                                          int keep_reduced, unsigned dtypes)
{
    argext_status st = check_tensor(out, ARGEXT_ARG_OUTPUT, q->out_strides, &q->out_count);
    if (st != ARGEXT_OK)
        return st;
    q->out = out;
    int64_t limit = (unsigned)out->dtype < 32 && (dtypes >> out->dtype & 1) ? index_limit(out->dtype) : -1;
    if (limit < 0)
        return argext_refuse(ARGEXT_ERR_OUTPUT, ARGEXT_ARG_OUTPUT, -1, (int64_t)out->dtype);
    int64_t count = 1; /* reduced elements: cannot overflow, check_tensor bounded the product */
    for (int d = 0; d < q->data->rank; d++)
        count *= q->reduced[d] ? q->data->shape[d] : 1;
    if (count - 1 > limit) /* the largest index is count - 1 */
        return argext_refuse(ARGEXT_ERR_OVERFLOW, ARGEXT_ARG_OUTPUT, -1, count);
    return check_index_shape(q, keep_reduced);
}

argext_status argext_request_like_input(argext_request *q, const argext_tensor *out)
{
    const argext_tensor *data = q->data;
    argext_status st = check_tensor(out, ARGEXT_ARG_OUTPUT, q->out_strides, &q->out_count);
    if (st != ARGEXT_OK)
        return st;
    q->out = out;
    if (((int)out->dtype & ~ARGEXT_BYTESWAPPED) != ((int)data->dtype & ~ARGEXT_BYTESWAPPED))
        return argext_refuse(ARGEXT_ERR_OUTPUT, ARGEXT_ARG_OUTPUT, -1, (int64_t)out->dtype);
    if (out->rank != data->rank)
        return argext_refuse(ARGEXT_ERR_OUTPUT, ARGEXT_ARG_OUTPUT, -1, data->rank);
    for (int d = 0; d < data->rank; d++)
        if (out->shape[d] != data->shape[d])
            return argext_refuse(ARGEXT_ERR_OUTPUT, ARGEXT_ARG_OUTPUT, d, data->shape[d]);
    return ARGEXT_OK;
}

argext_status argext_request_shaped_output(const argext_request *q, const argext_tensor *out,
                                           argext_arg arg, int dtype, int d, int64_t extent,
                                           int64_t *strides)
{
    const argext_tensor *data = q->data;
    int64_t count;
    argext_status st = check_tensor(out, arg, strides, &count);
    if (st != ARGEXT_OK)
        return st;
    if ((int)out->dtype != dtype)
        return argext_refuse(ARGEXT_ERR_OUTPUT, arg, -1, (int64_t)out->dtype);
    if (out->rank != data->rank)
        return argext_refuse(ARGEXT_ERR_OUTPUT, arg, -1, data->rank);
    for (int e = 0; e < data->rank; e++) {
        int64_t want = e == d ? extent : data->shape[e];
        if (out->shape[e] != want)
            return argext_refuse(ARGEXT_ERR_OUTPUT, arg, e, want);
    }
    return ARGEXT_OK;
}

argext_status argext_request_run(const argext_request *q, int op, int last)
{
    return argext_request_run_nan(q, op, last, NULL);
}

argext_status argext_request_run_nan(const argext_request *q, int op, int last, int *nan_best)
{
    if (q->out_count == 0)
        return argext_succeed();
    argext_reduction r = {
        .data = (const char *)q->data->data, .dtype = (int)q->data->dtype,
        .rank = q->data->rank, .shape = q->data->shape, .strides = q->in_strides,
        .reduced = q->reduced, .out = (char *)q->out->data, .out_dtype = q->out->dtype,
        .out_strides = q->out_strides, .op = op, .last = last, .nan_best = nan_best,
    };
    if (argext_engine_reduce(&r) != ARGEXT_OK)
        return argext_refuse(ARGEXT_ERR_NOMEM, ARGEXT_ARG_NONE, -1, 0);
    return argext_succeed();
}
