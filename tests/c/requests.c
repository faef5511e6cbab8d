/*
 * requests.c - the driver's requests: what a valid one is, what its output
 * looks like, and random ones.
 */
#include <inttypes.h>
#include <string.h>

#include "driver.h"

static const char *const OP_NAMES[OP_COUNT] = {
    [OP_ARGMAX] = "argmax",   [OP_ARGMIN] = "argmin",       [OP_REDUCE_MAX] = "reduce_argmax",
    [OP_REDUCE_MIN] = "reduce_argmin", [OP_HARDMAX] = "hardmax", [OP_NANMAX] = "nanargmax",
    [OP_NANMIN] = "nanargmin", [OP_TOPK] = "topk"};

int is_nan_op(int op) { return op == OP_NANMAX || op == OP_NANMIN; }
int is_keepdims_op(int op) { return op == OP_ARGMAX || op == OP_ARGMIN || is_nan_op(op); }
int is_min_op(int op) { return op == OP_ARGMIN || op == OP_REDUCE_MIN || op == OP_NANMIN; }

/* Whether argext_hardmax applies ONNX's type constraint (float16/32/64, and
   bfloat16 from version 13; argext.h documents it): probed once in main(),
   then held to strictly for every dtype and version. */
int hardmax_float_only;

static int hardmax_dtype_ok(int dt, int version)
{
    if (!hardmax_float_only)
        return valid_dtype(dt);
    return dt == ARGEXT_FLOAT16 || dt == ARGEXT_FLOAT32 || dt == ARGEXT_FLOAT64 ||
           (dt == ARGEXT_BFLOAT16 && version == 13);
}

static int is_index_dtype(int dt)
{
    return dt == ARGEXT_INT64 || dt == ARGEXT_INT32 || dt == ARGEXT_UINT64 || dt == ARGEXT_UINT32;
}

/* The reduced dimensions of a request; 0 when its axes are invalid. */
int reduced_dims(const request *q, unsigned char *reduced)
{
    memset(reduced, 0, MAXR);
    if (q->op == OP_REDUCE_MAX || q->op == OP_REDUCE_MIN) {
        if (q->naxes < 1 || q->naxes > q->rank)
            return 0;
        for (int i = 0; i < q->naxes; i++) {
            int64_t a = q->axes[i];
            if (a < -q->rank || a >= q->rank)
                return 0;
            a = a < 0 ? a + q->rank : a;
            if (reduced[a])
                return 0;
            reduced[a] = 1;
        }
        return 1;
    }
    if (is_nan_op(q->op) && q->all_axes) {
        memset(reduced, 1, (size_t)q->rank);
        return 1;
    }
    if (q->axis < -q->rank || q->axis >= q->rank || (q->op == OP_HARDMAX && q->version == 1 && q->axis < 0))
        return 0;
    int64_t a = q->axis < 0 ? q->axis + q->rank : q->axis;
    int through = q->op == OP_HARDMAX && q->version != 13 ? q->rank : (int)a + 1;
    for (int64_t d = a; d < through; d++)
        reduced[d] = 1;
    return 1;
}

/* The correct output shape; returns its rank. */
int output_shape(const request *q, const unsigned char *reduced, int64_t *shape)
{
    int o = 0;
    for (int d = 0; d < q->rank; d++) {
        if (q->op == OP_HARDMAX)
            shape[o++] = q->shape[d];
        else if (!reduced[d])
            shape[o++] = q->shape[d];
        else if (q->op == OP_TOPK)
            shape[o++] = q->k;
        else if (!is_keepdims_op(q->op))
            shape[o++] = 1;
        else if (q->keepdims)
            shape[o++] = 1;
    }
    return o;
}

static int64_t index_limit(int dt)
{
    return dt == ARGEXT_INT32 ? INT32_MAX : dt == ARGEXT_UINT32 ? (int64_t)UINT32_MAX : INT64_MAX;
}

/* Whether argext must accept the request (independent of its check order). */
int expect_ok(const request *q, const unsigned char *reduced, int axes_ok)
{
    if (!valid_dtype(q->dtype) || q->rank < 1 || q->rank > MAXR || !axes_ok || q->negative_dim >= 0 ||
        q->out_mutation != 0)
        return 0;
    int64_t count = 1;
    for (int d = 0; d < q->rank; d++)
        if (reduced[d])
            count *= q->shape[d];
    switch (q->op) {
    case OP_ARGMAX:
    case OP_ARGMIN:
        return (q->keepdims == 0 || q->keepdims == 1) && (q->last == 0 || q->last == 1) &&
               q->out_dtype == ARGEXT_INT64 && count > 0;
    case OP_NANMAX:
    case OP_NANMIN:
        return (q->keepdims == 0 || q->keepdims == 1) && q->out_dtype == ARGEXT_INT64 && count > 0;
    case OP_REDUCE_MAX:
    case OP_REDUCE_MIN:
        return (q->last == 0 || q->last == 1) && is_index_dtype(q->out_dtype) && count > 0 &&
               count - 1 <= index_limit(q->out_dtype);
    case OP_TOPK:
        return q->k >= 0 && q->k <= count && (q->largest == 0 || q->largest == 1) &&
               (q->sorted == 0 || q->sorted == 1) && q->out_dtype == q->dtype;
    default:
        return (q->version == 1 || q->version == 11 || q->version == 13) && q->out_dtype == q->dtype &&
               hardmax_dtype_ok(q->dtype, q->version);
    }
}

void describe(const request *q)
{
    int n = snprintf(where, sizeof where, "%s dtype=%d(%s) shape=[", OP_NAMES[q->op], q->dtype,
                     dtype_name(q->dtype));
    for (int d = 0; d < q->rank && n < 300; d++)
        n += snprintf(where + n, sizeof where - (size_t)n, "%s%" PRId64, d ? "," : "", q->shape[d]);
    if (q->op == OP_REDUCE_MAX || q->op == OP_REDUCE_MIN) {
        n += snprintf(where + n, sizeof where - (size_t)n, "] axes=[");
        for (int i = 0; i < q->naxes && n < 400; i++)
            n += snprintf(where + n, sizeof where - (size_t)n, "%s%" PRId64, i ? "," : "", q->axes[i]);
        snprintf(where + n, sizeof where - (size_t)n, "] last=%d out=%d mut=%d neg=%d isa=%s", q->last,
                 q->out_dtype, q->out_mutation, q->negative_dim, argext_isa_name(argext_get_isa()));
    } else if (q->op == OP_TOPK) {
        snprintf(where + n, sizeof where - (size_t)n,
                 "] axis=%" PRId64 " k=%" PRId64 " largest=%d sorted=%d out=%d mut=%d neg=%d isa=%s",
                 q->axis, q->k, q->largest, q->sorted, q->out_dtype, q->out_mutation, q->negative_dim,
                 argext_isa_name(argext_get_isa()));
    } else {
        snprintf(where + n, sizeof where - (size_t)n,
                 "] axis=%" PRId64 " keepdims=%d last=%d version=%d out=%d mut=%d neg=%d isa=%s", q->axis,
                 q->keepdims, q->last, q->version, q->out_dtype, q->out_mutation, q->negative_dim,
                 argext_isa_name(argext_get_isa()));
    }
}

/* Runs a request and checks it: accepted exactly when valid; then the
   result equals the reference, only output elements are written and the
   input is unchanged; when refused, nothing is written. */

/* A random shape of `rank` dims with at most ~max_count elements. */
static void random_shape(int rank, int64_t *shape, int64_t max_count)
{
    int64_t count = 1;
    for (int d = 0; d < rank; d++) {
        int64_t n = rnd() % 4 == 0 ? rnd_in(1, 40) : rnd_in(1, 5);
        if (rnd() % 40 == 0)
            n = 0;
        while (n > 1 && count * n > max_count)
            n /= 2;
        shape[d] = n;
        count *= n > 0 ? n : 1;
    }
}

/* A valid request of the given op and dtype on a random shape. */
void random_request(request *q, int op, int dtype, int rank, int64_t max_count)
{
    memset(q, 0, sizeof *q);
    q->op = op;
    q->dtype = dtype;
    q->rank = rank;
    q->negative_dim = -1;
    random_shape(rank, q->shape, max_count);
    q->axis = rnd_in(-rank, rank - 1);
    q->keepdims = (int)(rnd() & 1);
    q->last = (int)(rnd() & 1);
    static const int versions[3] = {1, 11, 13};
    q->version = versions[rnd() % 3];
    if (op == OP_HARDMAX && q->version == 1 && q->axis < 0)
        q->axis += rank;
    q->onto_zeros = op == OP_HARDMAX && rnd() % 2;
    q->all_axes = is_nan_op(op) && rnd() % 3 == 0;
    /* A random non-empty subset of the axes, in random order, some negative. */
    int perm[MAXR];
    for (int d = 0; d < rank; d++)
        perm[d] = d;
    for (int d = rank - 1; d > 0; d--) {
        int j = (int)rnd_in(0, d), t = perm[d];
        perm[d] = perm[j];
        perm[j] = t;
    }
    q->naxes = (int)rnd_in(1, rank);
    for (int i = 0; i < q->naxes; i++)
        q->axes[i] = perm[i] - (rnd() % 3 == 0 ? rank : 0);
    /* TopK: k mostly small, sometimes the whole axis or 0 */
    int64_t n = q->shape[q->axis < 0 ? q->axis + rank : q->axis];
    q->k = rnd() % 8 == 0 ? n : rnd() % 16 == 0 ? 0 : rnd_in(n > 0, n < 8 ? n : rnd() % 2 ? 8 : n);
    q->largest = (int)(rnd() & 1);
    q->sorted = (int)(rnd() % 4 != 0);
    static const int index_dtypes[4] = {ARGEXT_INT64, ARGEXT_INT32, ARGEXT_UINT64, ARGEXT_UINT32};
    q->out_dtype = op == OP_HARDMAX || op == OP_TOPK ? dtype
                   : op == OP_REDUCE_MAX || op == OP_REDUCE_MIN ? index_dtypes[rnd() % 4]
                                                                : ARGEXT_INT64;
}
