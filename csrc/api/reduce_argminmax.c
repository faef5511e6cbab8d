/*
 * reduce_argminmax.c - the DirectML-style arg reduction: several axes at
 * once, the row-major flattened index over them, first or last occurrence,
 * int64, int32, uint64 or uint32 indices.
 */
#include "api/request.h"
#include "api/status.h"
#include "kernels/ops.h"

/* The axes: a list of 1 to rank axes, none repeated; then none empty (in
   the order given). */
static argext_status check_axes(argext_request *q, const int64_t *axes, int naxes,
                                argext_direction direction)
{
    argext_status st;
    int rank = q->data->rank;
    if (!axes)
        return argext_refuse(ARGEXT_ERR_NULL, ARGEXT_ARG_AXES, -1, 0);
    if (naxes < 1 || naxes > rank)
        return argext_refuse(ARGEXT_ERR_AXIS, ARGEXT_ARG_AXES, -1, naxes);
    for (int i = 0; i < naxes; i++) {
        int64_t axis = axes[i];
        if ((st = argext_request_axis(q, &axis, ARGEXT_ARG_AXES, i, axes[i])) != ARGEXT_OK)
            return st;
    }
    if (direction != ARGEXT_FIRST && direction != ARGEXT_LAST)
        return argext_refuse(ARGEXT_ERR_ATTRIBUTE, ARGEXT_ARG_DIRECTION, -1, (int64_t)direction);
    for (int i = 0; i < naxes; i++) {
        int d = (int)(axes[i] < 0 ? axes[i] + rank : axes[i]); /* valid: checked above */
        if ((st = argext_request_nonempty(q, d, ARGEXT_ARG_AXES, i, axes[i])) != ARGEXT_OK)
            return st;
    }
    return ARGEXT_OK;
}

static argext_status multi_axis_arg(int op, const argext_tensor *data, const argext_tensor *output,
                                    const int64_t *axes, int naxes, argext_direction direction)
{
    argext_request q;
    argext_status st;
    if ((st = argext_request_data(&q, data)) != ARGEXT_OK ||
        (st = argext_request_rank(&q)) != ARGEXT_OK ||
        (st = check_axes(&q, axes, naxes, direction)) != ARGEXT_OK ||
        (st = argext_request_index_output(&q, output, 1, ARGEXT_INDEX_ANY)) != ARGEXT_OK)
        return st;
    return argext_request_run(&q, op, direction == ARGEXT_LAST);
}

argext_status argext_reduce_argmax(const argext_tensor *data, const argext_tensor *output,
                                   const int64_t *axes, int naxes, argext_direction direction)
{
    return multi_axis_arg(ARGEXT_OP_MAX, data, output, axes, naxes, direction);
}

argext_status argext_reduce_argmin(const argext_tensor *data, const argext_tensor *output,
                                   const int64_t *axes, int naxes, argext_direction direction)
{
    return multi_axis_arg(ARGEXT_OP_MIN, data, output, axes, naxes, direction);
}
