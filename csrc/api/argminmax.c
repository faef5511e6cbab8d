/*
 * argminmax.c - ONNX ArgMax and ArgMin (opsets 1, 11, 12, 13): one axis,
 * keepdims, select_last_index, int64 indices.
 */
#include "api/request.h"
#include "kernels/ops.h"

static argext_status onnx_arg(int op, const argext_tensor *data, const argext_tensor *reduced,
                              int64_t axis, int keepdims, int select_last_index)
{
    argext_request q;
    argext_status st;
    int64_t given = axis;
    if ((st = argext_request_data(&q, data)) != ARGEXT_OK ||
        (st = argext_request_rank(&q)) != ARGEXT_OK ||
        (st = argext_request_axis(&q, &axis, ARGEXT_ARG_AXIS, -1, given)) != ARGEXT_OK ||
        (st = argext_request_flag(keepdims, ARGEXT_ARG_KEEPDIMS)) != ARGEXT_OK ||
        (st = argext_request_flag(select_last_index, ARGEXT_ARG_SELECT_LAST_INDEX)) != ARGEXT_OK ||
        (st = argext_request_nonempty(&q, (int)axis, ARGEXT_ARG_AXIS, -1, given)) != ARGEXT_OK ||
        (st = argext_request_index_output(&q, reduced, keepdims, ARGEXT_INDEX_INT64)) != ARGEXT_OK)
        return st;
    return argext_request_run(&q, op, select_last_index);
}

argext_status argext_argmax(const argext_tensor *data, const argext_tensor *reduced,
                            int64_t axis, int keepdims, int select_last_index)
{
    return onnx_arg(ARGEXT_OP_MAX, data, reduced, axis, keepdims, select_last_index);
}

argext_status argext_argmin(const argext_tensor *data, const argext_tensor *reduced,
                            int64_t axis, int keepdims, int select_last_index)
{
    return onnx_arg(ARGEXT_OP_MIN, data, reduced, axis, keepdims, select_last_index);
}
