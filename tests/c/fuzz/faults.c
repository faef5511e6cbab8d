/*
 * faults.c - what argext.h says a call must be refused for. Several faults
 * may apply to one call and argext reports one of them, so each check adds
 * the statuses its fault allows to a mask instead of stopping at the first.
 * A fault that leaves nothing further to judge (no input, an unusable rank or
 * shape) returns at once, as argext cannot look past it either.
 */
#include <string.h>

#include "fuzz_api.h"

int is_hardmax(int op) { return op == OP_HARDMAX || op == OP_HARDMAX_ONTO_ZEROS; }

int is_reduce(int op) { return op == OP_REDUCE_ARGMAX || op == OP_REDUCE_ARGMIN; }

/* The operations with keepdims (ArgMax, ArgMin, nanargmax, nanargmin). */
static int has_keepdims(int op)
{
    return op <= OP_ARGMIN || op == OP_NANARGMAX || op == OP_NANARGMIN;
}

static int in_range(int64_t a, int rank) { return a >= -rank && a < rank; }
static int norm(int64_t a, int rank) { return (int)(a < 0 ? a + rank : a); }

/* A dtype code argext.h defines: a dtype, maybe with the byte-swapped flag. */
static int known_dtype(int code)
{
    return code >= 0 && (code & ~(0xff | ARGEXT_BYTESWAPPED)) == 0 &&
           (code & 0xff) < ARGEXT_DTYPE_COUNT;
}

/* A ranked descriptor's faults: its shape and strides, or a NULL data pointer
   where it has elements. */
static unsigned layout_faults(const tensor *x, size_t size)
{
    int64_t count, lo, hi;
    if (!layout(x, size, &count, &lo, &hi))
        return BIT(ARGEXT_ERR_SHAPE);
    return count > 0 && !x->t.data ? BIT(ARGEXT_ERR_NULL) : 0;
}

/* The input's dtype (Hardmax: floats only, bfloat16 from version 13), the
   Hardmax version, and a 0-d input without data. */
static unsigned input_faults(const call *c)
{
    unsigned f = 0;
    const argext_tensor *in = &c->in.t;
    int dt = (int)in->dtype & 0xff;
    int known = known_dtype((int)in->dtype);
    if (!known)
        f |= BIT(ARGEXT_ERR_DTYPE);
    int hard = is_hardmax(c->op);
    if (hard && known && !(dt == ARGEXT_FLOAT16 || dt == ARGEXT_FLOAT32 || dt == ARGEXT_FLOAT64 ||
                           (dt == ARGEXT_BFLOAT16 && c->version >= 13)))
        f |= BIT(ARGEXT_ERR_DTYPE);
    if (hard && c->version != 1 && c->version != 11 && c->version != 13)
        f |= BIT(ARGEXT_ERR_ATTRIBUTE);
    if (in->rank == 0 && !in->data) /* a 0-d tensor has one element */
        f |= BIT(ARGEXT_ERR_NULL);
    return f;
}

/* The multi-axis reductions' axes: 1 to rank of them, in range, no repeat. */
static unsigned reduce_axes_faults(const call *c, int rank, unsigned char *reduced)
{
    if (c->naxes < 1 || c->naxes > rank)
        return BIT(ARGEXT_ERR_AXIS);
    for (int i = 0; i < c->naxes; i++) {
        if (!in_range(c->axes[i], rank) || reduced[norm(c->axes[i], rank)])
            return BIT(ARGEXT_ERR_AXIS);
        reduced[norm(c->axes[i], rank)] = 1;
    }
    return 0;
}

/* The axis or axes, and the dimensions they reduce: Hardmax before version
   13 coerces to 2-D (the axis and every dimension after it), version 1 takes
   no negative axis; nanargmax/nanargmin without an axis reduce every one. */
static unsigned axis_faults(const call *c, int rank, unsigned char *reduced)
{
    int hard = is_hardmax(c->op);
    if (is_reduce(c->op))
        return reduce_axes_faults(c, rank, reduced);
    if (c->op == OP_NANARGMAX || c->op == OP_NANARGMIN) {
        if (c->has_axis && !in_range(c->axis, rank))
            return BIT(ARGEXT_ERR_AXIS);
        for (int d = 0; d < rank; d++)
            reduced[d] = !c->has_axis || d == norm(c->axis, rank);
        return 0;
    }
    if (!in_range(c->axis, rank) || (hard && c->version == 1 && c->axis < 0))
        return BIT(ARGEXT_ERR_AXIS);
    int end = hard && c->version < 13 ? rank : norm(c->axis, rank) + 1;
    for (int d = norm(c->axis, rank); d < end; d++)
        reduced[d] = 1;
    return 0;
}

/* keepdims and select_last_index are 0 or 1, as is the reductions' direction. */
static unsigned attribute_faults(const call *c)
{
    unsigned f = 0;
    if (c->op <= OP_ARGMIN && (c->select_last < 0 || c->select_last > 1))
        f |= BIT(ARGEXT_ERR_ATTRIBUTE);
    if (has_keepdims(c->op) && (c->keepdims < 0 || c->keepdims > 1))
        f |= BIT(ARGEXT_ERR_ATTRIBUTE);
    if (is_reduce(c->op) && (c->direction < 0 || c->direction > 1))
        f |= BIT(ARGEXT_ERR_ATTRIBUTE);
    return f;
}

/* The output's dtype: the input's for Hardmax, int64 for ArgMax-like calls,
   an index dtype wide enough for the flattened reduced extent otherwise. */
static unsigned output_dtype_faults(const call *c, const reduction *red)
{
    int in_dt = (int)c->in.t.dtype & 0xff, ocode = (int)c->out.t.dtype;
    if (is_hardmax(c->op))
        return !known_dtype(ocode) || (ocode & 0xff) != in_dt ? BIT(ARGEXT_ERR_OUTPUT) : 0;
    if (!is_reduce(c->op))
        return ocode != ARGEXT_INT64 ? BIT(ARGEXT_ERR_OUTPUT) : 0;
    unsigned f = 0;
    if (ocode != ARGEXT_INT64 && ocode != ARGEXT_INT32 && ocode != ARGEXT_UINT64 &&
        ocode != ARGEXT_UINT32)
        f |= BIT(ARGEXT_ERR_OUTPUT);
    long double n = 1;
    for (int d = 0; d < c->in.t.rank; d++)
        if (red->reduced[d])
            n *= (long double)c->in.t.shape[d];
    if ((ocode == ARGEXT_INT32 && n - 1 > INT32_MAX) ||
        (ocode == ARGEXT_UINT32 && n - 1 > UINT32_MAX))
        f |= BIT(ARGEXT_ERR_OVERFLOW);
    return f;
}

/* The output's shape: the input's, reduced dimensions 1 or (without keep)
   removed; Hardmax's is the input's. */
static unsigned output_shape_faults(const call *c, const reduction *red)
{
    const argext_tensor *in = &c->in.t, *out = &c->out.t;
    int hard = is_hardmax(c->op);
    int o = 0, shape_ok = 1;
    for (int d = 0; d < in->rank; d++) {
        if (!hard && red->reduced[d] && !red->keep)
            continue;
        int64_t want = (!hard && red->reduced[d]) ? 1 : in->shape[d];
        if (o >= out->rank || out->shape[o] != want)
            shape_ok = 0;
        o++;
    }
    return !shape_ok || o != out->rank ? BIT(ARGEXT_ERR_OUTPUT) : 0;
}

/* The output descriptor's faults, for a call whose input is ranked. */
static unsigned output_faults(const call *c, const reduction *red)
{
    const argext_tensor *out = &c->out.t;
    if (c->out_null)
        return BIT(ARGEXT_ERR_NULL);
    unsigned f = 0;
    int oknown = known_dtype((int)out->dtype);
    if (!oknown)
        f |= BIT(ARGEXT_ERR_DTYPE) | BIT(ARGEXT_ERR_OUTPUT);
    if (out->rank < 0 || out->rank > ARGEXT_MAX_RANK)
        return f | BIT(ARGEXT_ERR_RANK) | BIT(ARGEXT_ERR_OUTPUT);
    if (out->rank > 0 && !out->shape)
        return f | BIT(ARGEXT_ERR_NULL);
    f |= layout_faults(&c->out, oknown ? itemsizes[(int)out->dtype & 0xff] : 1);
    return f | output_dtype_faults(c, red) | output_shape_faults(c, red);
}

/* A TopK output's faults: its descriptor, its dtype (exactly want) and its
   shape, the input's with the axis' extent k (only its rank when the axis is
   out of range, axis < 0). */
static unsigned topk_output_faults(const call *c, const tensor *y, int is_null, int want,
                                   int axis)
{
    const argext_tensor *in = &c->in.t, *out = &y->t;
    if (is_null)
        return BIT(ARGEXT_ERR_NULL);
    unsigned f = 0;
    int known = known_dtype((int)out->dtype);
    if (!known)
        f |= BIT(ARGEXT_ERR_DTYPE) | BIT(ARGEXT_ERR_OUTPUT);
    else if ((int)out->dtype != want)
        f |= BIT(ARGEXT_ERR_OUTPUT);
    if (out->rank < 0 || out->rank > ARGEXT_MAX_RANK)
        return f | BIT(ARGEXT_ERR_RANK) | BIT(ARGEXT_ERR_OUTPUT);
    if (out->rank > 0 && !out->shape)
        return f | BIT(ARGEXT_ERR_NULL);
    f |= layout_faults(y, known ? itemsizes[(int)out->dtype & 0xff] : 1);
    if (out->rank != in->rank)
        return f | BIT(ARGEXT_ERR_OUTPUT);
    for (int d = 0; d < in->rank && axis >= 0; d++)
        if (out->shape[d] != (d == axis ? c->k : in->shape[d]))
            f |= BIT(ARGEXT_ERR_OUTPUT);
    return f;
}

/* TopK past its input: the axis, k in [0, n], largest and sorted 0 or 1, and
   the two outputs (values: the input's dtype in native order; indices: int64). */
static unsigned topk_faults(const call *c)
{
    const argext_tensor *in = &c->in.t;
    unsigned f = 0;
    int axis = in_range(c->axis, in->rank) ? norm(c->axis, in->rank) : -1;
    if (axis < 0)
        f |= BIT(ARGEXT_ERR_AXIS);
    if (c->k < 0 || (axis >= 0 && c->k > in->shape[axis]))
        f |= BIT(ARGEXT_ERR_ATTRIBUTE);
    if (c->largest < 0 || c->largest > 1 || c->sorted < 0 || c->sorted > 1)
        f |= BIT(ARGEXT_ERR_ATTRIBUTE);
    f |= topk_output_faults(c, &c->out, c->out_null, (int)in->dtype & ~ARGEXT_BYTESWAPPED, axis);
    return f | topk_output_faults(c, &c->idx, c->idx_null, ARGEXT_INT64, axis);
}

unsigned faults(const call *c, reduction *red)
{
    const argext_tensor *in = &c->in.t;
    memset(red->reduced, 0, sizeof red->reduced);
    red->keep = 1;
    if (c->in_null)
        return BIT(ARGEXT_ERR_NULL);
    unsigned f = input_faults(c);
    if (in->rank < 1 || in->rank > ARGEXT_MAX_RANK)
        return f | BIT(ARGEXT_ERR_RANK);
    if (!in->shape)
        return f | BIT(ARGEXT_ERR_NULL);
    int known = known_dtype((int)in->dtype);
    f |= layout_faults(&c->in, known ? itemsizes[(int)in->dtype & 0xff] : 1);
    if (c->op == OP_TOPK)
        return f | topk_faults(c);
    if (is_reduce(c->op) && c->axes_null)
        return f | BIT(ARGEXT_ERR_NULL);
    f |= axis_faults(c, in->rank, red->reduced);
    f |= attribute_faults(c);
    red->keep = has_keepdims(c->op) ? c->keepdims == 1 : 1;
    /* an empty reduced dimension (not for Hardmax, whose empty input is valid) */
    for (int d = 0; d < in->rank && !is_hardmax(c->op); d++)
        if (red->reduced[d] && in->shape[d] == 0)
            f |= BIT(ARGEXT_ERR_EMPTY_AXIS);
    return f | output_faults(c, red);
}
