/*
 * nanarg.c - NumPy's nanargmax and nanargmin: one axis or all of them,
 * keepdims, int64 indices; NaN ranks below every number, and a slice of
 * NaN only is an error (its index -1), as NumPy raises it.
 */
#include <string.h>

#include "api/request.h"
#include "api/status.h"
#include "engine/layout.h"
#include "kernels/dtypes.h"
#include "kernels/ops.h"

/* is_nan_<dtype>(p): whether the element at p (native byte order) is a NaN. */
#define NAN_TEST(ENUM, NAME, ET, KT, KMAX, ...)                                \
    static int is_nan_##NAME(const unsigned char *p)                         \
    {                                                                        \
        ET v;                                                                \
        memcpy(&v, p, sizeof v);                                             \
        return argext_is_nan_##NAME(v);                                      \
    }
ARGEXT_DTYPES(NAN_TEST)
#undef NAN_TEST

#define NAN_ENTRY(ENUM, NAME, ET, KT, KMAX, ...) [ARGEXT_##ENUM] = is_nan_##NAME,
static int (*const is_nan[ARGEXT_DTYPE_COUNT])(const unsigned char *) = {ARGEXT_DTYPES(NAN_ENTRY)};
#undef NAN_ENTRY

/* Whether the element at p (of a dtype maybe flagged ARGEXT_BYTESWAPPED) is a NaN. */
static int is_nan_at(const char *p, int dtype)
{
    unsigned char b[8];
    int native = dtype & ~ARGEXT_BYTESWAPPED;
    size_t n = argext_itemsize(native);
    for (size_t i = 0; i < n; i++)
        b[i] = (unsigned char)p[dtype & ARGEXT_BYTESWAPPED ? n - 1 - i : i];
    return is_nan[native](b);
}

/* Whether the slice at `in` (walked by `reduced`) holds no number. */
static int only_nan(const char *in, int nr, const argext_dim *reduced, int dtype)
{
    argext_iter it;
    argext_iter_seek(&it, nr, reduced, 0);
    do {
        if (!is_nan_at(in + it.in, dtype))
            return 0;
    } while (argext_iter_next(&it));
    return 1;
}

/* After a NaN-skipping reduction, whose keys count NaN as the worst infinity:
   a slice whose best element is a NaN holds only NaN and that infinity, and
   gets -1 when it holds no number at all. Returns the first such output
   position (row-major), or -1. */
ARGEXT_NOINLINE static int64_t mark_all_nan(const argext_request *q)
{
    const argext_tensor *data = q->data;
    argext_dim kept[ARGEXT_MAX_RANK], reduced[ARGEXT_MAX_RANK];
    int nk = 0, nr = 0;
    for (int d = 0; d < data->rank; d++) {
        if (q->reduced[d])
            reduced[nr++] = (argext_dim){data->shape[d], q->in_strides[d], 0};
        else
            kept[nk++] = (argext_dim){data->shape[d], q->in_strides[d], q->out_strides[d]};
    }
    const char *in = (const char *)data->data;
    char *out = (char *)q->out->data;
    int64_t first = -1, position = 0;
    argext_iter it, slice;
    argext_iter_seek(&it, nk, kept, 0);
    do {
        int64_t index;
        memcpy(&index, out + it.out, sizeof index);
        argext_iter_seek(&slice, nr, reduced, index); /* the best element of the slice */
        if (is_nan_at(in + it.in + slice.in, data->dtype) &&
            only_nan(in + it.in, nr, reduced, data->dtype)) {
            const int64_t none = -1;
            memcpy(out + it.out, &none, sizeof none);
            if (first < 0)
                first = position;
        }
        position++;
    } while (argext_iter_next(&it));
    return first;
}

static argext_status nan_arg(int op, const argext_tensor *data, const argext_tensor *reduced,
                             const int64_t *axis, int keepdims)
{
    argext_request q;
    argext_status st;
    if ((st = argext_request_data(&q, data)) != ARGEXT_OK ||
        (st = argext_request_rank(&q)) != ARGEXT_OK)
        return st;
    int64_t ax = axis ? *axis : 0;
    if (axis && (st = argext_request_axis(&q, &ax, ARGEXT_ARG_AXIS, -1, *axis)) != ARGEXT_OK)
        return st;
    if (!axis)
        memset(q.reduced, 1, (size_t)data->rank);
    if ((st = argext_request_flag(keepdims, ARGEXT_ARG_KEEPDIMS)) != ARGEXT_OK)
        return st;
    for (int d = 0; d < data->rank; d++)
        if (q.reduced[d] &&
            (st = argext_request_nonempty(&q, d, ARGEXT_ARG_AXIS, -1, axis ? *axis : d)) != ARGEXT_OK)
            return st;
    int nan_best = 1; /* the engine says 0 when no output's element is a NaN */
    if ((st = argext_request_index_output(&q, reduced, keepdims, ARGEXT_INDEX_INT64)) != ARGEXT_OK ||
        (st = argext_request_run_nan(&q, op, 0, &nan_best)) != ARGEXT_OK || q.out_count == 0 ||
        !nan_best)
        return st;
    int64_t first = mark_all_nan(&q);
    return first < 0 ? st : argext_refuse(ARGEXT_ERR_ALL_NAN, ARGEXT_ARG_DATA, -1, first);
}

argext_status argext_nanargmax(const argext_tensor *data, const argext_tensor *reduced,
                               const int64_t *axis, int keepdims)
{
    return nan_arg(ARGEXT_OP_NANMAX, data, reduced, axis, keepdims);
}

argext_status argext_nanargmin(const argext_tensor *data, const argext_tensor *reduced,
                               const int64_t *axis, int keepdims)
{
    return nan_arg(ARGEXT_OP_NANMIN, data, reduced, axis, keepdims);
}
