/*
 * topk.c - ONNX TopK (versions 1, 10, 11, 24): the k best elements along
 * one axis and their indices, largest or smallest, in rank or index order.
 * The version differences (k as attribute or input, which attributes and
 * dtypes exist) are the front's; every range check is here.
 */
#include "api/request.h"
#include "api/status.h"
#include "engine/engine.h"

/* The k attribute: in [0, n], n the axis extent. */
static argext_status check_k(const argext_request *q, int d, int64_t k)
{
    if (k < 0 || k > q->data->shape[d])
        return argext_refuse(ARGEXT_ERR_ATTRIBUTE, ARGEXT_ARG_K, -1, k);
    return ARGEXT_OK;
}

argext_status argext_topk(const argext_tensor *data, const argext_tensor *values,
                          const argext_tensor *indices, int64_t axis, int64_t k, int largest,
                          int sorted)
{
    argext_request q;
    argext_status st;
    int64_t given = axis, values_strides[ARGEXT_MAX_RANK], indices_strides[ARGEXT_MAX_RANK];
    if ((st = argext_request_data(&q, data)) != ARGEXT_OK ||
        (st = argext_request_rank(&q)) != ARGEXT_OK ||
        (st = argext_request_axis(&q, &axis, ARGEXT_ARG_AXIS, -1, given)) != ARGEXT_OK ||
        (st = check_k(&q, (int)axis, k)) != ARGEXT_OK ||
        (st = argext_request_flag(largest, ARGEXT_ARG_LARGEST)) != ARGEXT_OK ||
        (st = argext_request_flag(sorted, ARGEXT_ARG_SORTED)) != ARGEXT_OK ||
        (st = argext_request_shaped_output(&q, values, ARGEXT_ARG_OUTPUT,
                                           (int)data->dtype & ~ARGEXT_BYTESWAPPED, (int)axis, k,
                                           values_strides)) != ARGEXT_OK ||
        (st = argext_request_shaped_output(&q, indices, ARGEXT_ARG_INDICES, ARGEXT_INT64,
                                           (int)axis, k, indices_strides)) != ARGEXT_OK)
        return st;
    if (k == 0 || q.count == 0)
        return argext_succeed();
    argext_topk_request r = {
        .data = (const char *)data->data, .dtype = (int)data->dtype, .rank = data->rank,
        .axis = (int)axis, .shape = data->shape, .strides = q.in_strides, .k = k,
        .largest = largest, .sorted = sorted, .values = (char *)values->data,
        .indices = (char *)indices->data, .values_strides = values_strides,
        .indices_strides = indices_strides,
    };
    if (argext_engine_topk(&r) != ARGEXT_OK)
        return argext_refuse(ARGEXT_ERR_NOMEM, ARGEXT_ARG_NONE, -1, 0);
    return argext_succeed();
}
