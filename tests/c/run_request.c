/*
 * run_request.c - one request run and checked: accepted exactly when valid;
 * then the result equals the reference, only output elements are written
 * and the input is unchanged; when refused, nothing is written.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"

/* One request's call: its buffers and what the driver expects of it. */
typedef struct {
    const request *q;
    unsigned char reduced[MAXR];
    int ok, rank, swapped;
    layout in, out;
    layout indices;            /* topk's second output */
    unsigned char *in_swapped; /* the input in the opposite byte order, or NULL */
    unsigned char *in_copy;    /* the input as passed, to see that it is not modified */
} call;

static void *must_alloc(size_t bytes)
{
    void *p = malloc(bytes > 0 ? bytes : 1);
    if (!p) {
        fprintf(stderr, "driver: out of memory\n");
        exit(2);
    }
    return p;
}

/* Input memory for the (non-negative) shape, unknown dtypes getting bytes;
   sometimes passed in the opposite byte order: a copy with every element's
   bytes reversed, flagged ARGEXT_BYTESWAPPED (the reference reads the
   native original). */
static void make_input(call *c)
{
    const request *q = c->q;
    int valid = valid_dtype(q->dtype);
    c->rank = q->rank < 0 ? 0 : q->rank > MAXR ? MAXR : q->rank;
    make_layout(&c->in, valid ? dtype_size(q->dtype) : 1, c->rank, q->shape, 1);
    if (valid)
        fill_random(&c->in, q->dtype);
    c->swapped = valid && dtype_size(q->dtype) > 1 && rnd() % 4 == 0;
    c->in_swapped = c->swapped ? byteswapped_copy(&c->in, q->dtype) : NULL;
    if (c->swapped)
        strncat(where, " byteswapped", sizeof where - strlen(where) - 1);
    c->in_copy = must_alloc(c->in.bytes);
    memcpy(c->in_copy, c->swapped ? c->in_swapped : c->in.alloc, c->in.bytes);
}

/* The output the request describes, mutated as it asks. */
static void make_output(call *c)
{
    const request *q = c->q;
    int64_t oshape[MAXR + 1]; /* room for mutation 3 */
    int orank = output_shape(q, c->reduced, oshape);
    if (q->out_mutation == 1 && orank > 0)
        oshape[rnd() % (unsigned)orank]++;
    else if (q->out_mutation == 2 && orank > 0)
        orank--;
    else if (q->out_mutation != 0 && orank < MAXR) /* a rank-0 output can only gain a dimension */
        oshape[orank++] = 1;
    make_layout(&c->out, valid_dtype(q->out_dtype) ? dtype_size(q->out_dtype) : 8, orank, oshape, 0);
    if (q->op == OP_TOPK) { /* the indices: the request's own shape, never mutated */
        int64_t ishape[MAXR];
        make_layout(&c->indices, 8, output_shape(q, c->reduced, ishape), ishape, 0);
    }
}

static void zero_output(const call *c)
{
    int64_t z[MAXR] = {0};
    if (count_of(c->out.rank, c->out.shape) == 0)
        return;
    do
        memset(c->out.data + offset_of(c->out.rank, c->out.strides, z), 0, dtype_size(c->q->dtype));
    while (next_index(c->out.rank, c->out.shape, z));
}

static argext_status call_argext(const call *c)
{
    const request *q = c->q;
    int64_t shape_arg[MAXR];
    memcpy(shape_arg, q->shape, sizeof(int64_t) * (size_t)c->rank);
    if (q->negative_dim >= 0)
        shape_arg[q->negative_dim] = -1;
    char *data = c->swapped ? (char *)c->in_swapped + (c->in.data - (char *)c->in.alloc) : c->in.data;
    argext_tensor in = {data, (argext_dtype)(q->dtype | (c->swapped ? ARGEXT_BYTESWAPPED : 0)),
                        q->rank, shape_arg, c->in.strides};
    argext_tensor out = {c->out.data, (argext_dtype)q->out_dtype, c->out.rank, c->out.shape,
                         c->out.strides};
    argext_tensor indices = {c->indices.data, ARGEXT_INT64, c->indices.rank, c->indices.shape,
                             c->indices.strides};
    switch (q->op) {
    case OP_TOPK: return argext_topk(&in, &out, &indices, q->axis, q->k, q->largest, q->sorted);
    case OP_NANMAX: return argext_nanargmax(&in, &out, q->all_axes ? NULL : &q->axis, q->keepdims);
    case OP_NANMIN: return argext_nanargmin(&in, &out, q->all_axes ? NULL : &q->axis, q->keepdims);
    case OP_ARGMAX: return argext_argmax(&in, &out, q->axis, q->keepdims, q->last);
    case OP_ARGMIN: return argext_argmin(&in, &out, q->axis, q->keepdims, q->last);
    case OP_REDUCE_MAX:
        return argext_reduce_argmax(&in, &out, q->axes, q->naxes, (argext_direction)q->last);
    case OP_REDUCE_MIN:
        return argext_reduce_argmin(&in, &out, q->axes, q->naxes, (argext_direction)q->last);
    default:
        if (q->onto_zeros && c->ok)
            zero_output(c);
        return q->onto_zeros ? argext_hardmax_onto_zeros(&in, &out, q->axis, q->version)
                             : argext_hardmax(&in, &out, q->axis, q->version);
    }
}

/* Hardmax: 1 exactly at each kept position's reference index, 0 elsewhere;
   each element checked is reset to the sentinel. Returns the wrong ones. */
static long check_hardmax(const call *c, const int64_t *ostrides, const int64_t *expected)
{
    const request *q = c->q;
    int64_t idx[MAXR] = {0};
    long bad = 0;
    if (count_of(c->rank, q->shape) == 0)
        return 0;
    do {
        int64_t k = 0, r = 0;
        for (int d = 0; d < c->rank; d++) {
            if (c->reduced[d])
                r = r * q->shape[d] + idx[d];
            else
                k = k * q->shape[d] + idx[d];
        }
        char *p = c->out.data + offset_of(c->rank, ostrides, idx);
        value v = read_value(q->dtype, p);
        int one = r == expected[k];
        int good = v.kind == FLOAT    ? !v.nan && v.f == (one ? 1.0 : 0.0) && !signbit(v.f)
                   : v.kind == SIGNED ? v.i == one
                                      : v.u == (uint64_t)one;
        bad += !good;
        memset(p, SENTINEL, dtype_size(q->dtype));
    } while (next_index(c->rank, q->shape, idx));
    return bad;
}

/* An index output: the reference's index at every kept position; each
   element checked is reset to the sentinel. Returns the wrong ones. */
static long check_indices(const call *c, const int64_t *ostrides, const int64_t *kept_shape,
                          const int64_t *expected)
{
    int64_t idx[MAXR] = {0}, k = 0;
    long bad = 0;
    if (count_of(c->rank, kept_shape) == 0)
        return 0;
    do {
        char *p = c->out.data + offset_of(c->rank, ostrides, idx);
        int64_t got = read_index(c->q->out_dtype, p);
        if (got != expected[k] && bad++ < 3)
            fprintf(stderr, "  [%s] kept position %" PRId64 ": got %" PRId64 ", expected %" PRId64 "\n",
                    where, k, got, expected[k]);
        memset(p, SENTINEL, dtype_size(c->q->out_dtype));
        k++;
    } while (next_index(c->rank, kept_shape, idx));
    return bad;
}

/* TopK: the reference's indices, and the input's elements at them bit for
   bit as values; each element checked is reset to the sentinel. Returns
   the wrong ones. */
static long check_topk(const call *c)
{
    const request *q = c->q;
    int a = (int)(q->axis < 0 ? q->axis + c->rank : q->axis);
    int64_t kept_shape[MAXR], pos[MAXR] = {0}, kpos = 0;
    memcpy(kept_shape, q->shape, sizeof(int64_t) * (size_t)c->rank);
    kept_shape[a] = 1;
    int64_t nkept = count_of(c->rank, kept_shape);
    if (nkept == 0 || q->k == 0)
        return 0;
    int64_t *expected = must_alloc(sizeof(int64_t) * (size_t)(nkept * q->k));
    reference_topk(&c->in, q->dtype, a, q->k, q->largest, q->sorted, expected);
    size_t w = dtype_size(q->dtype);
    long bad = 0;
    do {
        for (int64_t j = 0; j < q->k; j++) {
            int64_t e = expected[kpos * q->k + j], at[MAXR];
            memcpy(at, pos, sizeof at);
            at[a] = j;
            char *v = c->out.data + offset_of(c->rank, c->out.strides, at);
            char *i = c->indices.data + offset_of(c->rank, c->indices.strides, at);
            at[a] = e;
            int64_t got = read_index(ARGEXT_INT64, i);
            int same = memcmp(v, c->in.data + offset_of(c->rank, c->in.strides, at), w) == 0;
            if ((got != e || !same) && bad++ < 3)
                fprintf(stderr, "  [%s] kept position %" PRId64 " rank %" PRId64 ": index %" PRId64
                        ", expected %" PRId64 "%s\n", where, kpos, j, got, e, same ? "" : ", value differs");
            memset(v, SENTINEL, w);
            memset(i, SENTINEL, 8);
        }
        kpos++;
    } while (next_index(c->rank, kept_shape, pos));
    free(expected);
    return bad;
}

/* An accepted request's output against the reference, and the all-NaN status. */
static void check_result(const call *c, int all_nan)
{
    const request *q = c->q;
    int64_t kept_shape[MAXR], ostrides[MAXR];
    if (q->op == OP_TOPK) {
        long bad = check_topk(c);
        CHECK(bad == 0, "%ld wrong output elements", bad);
        return;
    }
    for (int d = 0, o = 0; d < c->rank; d++) {
        kept_shape[d] = c->reduced[d] ? 1 : q->shape[d];
        int dropped = is_keepdims_op(q->op) && c->reduced[d] && !q->keepdims;
        ostrides[d] = dropped ? 0 : c->out.strides[o++];
    }
    int64_t nkept = count_of(c->rank, kept_shape);
    int64_t *expected = must_alloc(sizeof(int64_t) * (size_t)nkept);
    int scan_last = q->op == OP_HARDMAX || is_nan_op(q->op) ? 0 : q->last;
    reference(&c->in, q->dtype, c->reduced, is_min_op(q->op), scan_last, is_nan_op(q->op), expected);
    int want_all_nan = 0;
    for (int64_t k = 0; is_nan_op(q->op) && k < nkept; k++)
        want_all_nan |= expected[k] < 0;
    CHECK(all_nan == want_all_nan, "all-NaN status %d for %s all-NaN slice", all_nan,
          want_all_nan ? "an" : "no");
    long bad = q->op == OP_HARDMAX ? check_hardmax(c, ostrides, expected)
                                   : check_indices(c, ostrides, kept_shape, expected);
    CHECK(bad == 0, "%ld wrong output elements", bad);
    free(expected);
}

void run_request(const request *q)
{
    call c = {q, {0}, 0, 0, 0, {0}, {0}, {0}, NULL, NULL};
    describe(q);
    int axes_ok = q->rank >= 1 && q->rank <= MAXR && reduced_dims(q, c.reduced);
    if (!axes_ok)
        memset(c.reduced, 0, sizeof c.reduced);
    c.ok = expect_ok(q, c.reduced, axes_ok);
    make_input(&c);
    make_output(&c);
    argext_status st = call_argext(&c);

    /* A NaN-skipping op on an all-NaN slice writes its whole output and says so. */
    int all_nan = st == ARGEXT_ERR_ALL_NAN && is_nan_op(q->op);
    CHECK((st == ARGEXT_OK || all_nan) == c.ok, "status %d (%s), expected %s", st,
          argext_status_string(st), c.ok ? "success" : "an error");
    CHECK(memcmp(c.in_copy, c.swapped ? c.in_swapped : c.in.alloc, c.in.bytes) == 0, "input modified");
    if ((st == ARGEXT_OK || all_nan) && c.ok)
        check_result(&c, all_nan);
    /* Output elements were reset to the sentinel: the whole buffer must be. */
    size_t stray = 0;
    for (size_t b = 0; b < c.out.bytes; b++)
        stray += c.out.alloc[b] != SENTINEL;
    for (size_t b = 0; b < c.indices.bytes; b++)
        stray += c.indices.alloc[b] != SENTINEL;
    CHECK(stray == 0, "%zu bytes written outside the output (or by a refused call)", stray);
    free(c.in_copy);
    free(c.in_swapped);
    free(c.in.alloc);
    free(c.out.alloc);
    free(c.indices.alloc);
}
