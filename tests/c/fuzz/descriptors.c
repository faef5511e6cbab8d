/*
 * descriptors.c - the input and output descriptors of a call: drawing their
 * dtype, rank, shape and byte strides (right or wrong), judging their layout
 * as argext.h defines it, and allocating buffers that cover every element.
 */
#include <math.h>
#include <stdlib.h>

#include "fuzz_api.h"

#define MAX_RANK 6          /* the ranks drawn, besides rank 64 and 65 */
#define MAX_BYTES (1 << 20) /* the largest input or output buffer */

/* Whether the shape and strides are valid per argext.h, and the element
   count; the byte offsets an element may take are [*lo, *hi). */
int layout(const tensor *x, size_t size, int64_t *count, int64_t *lo, int64_t *hi)
{
    long double elements = 1, extent = 0, low = 0, high = 0; /* wide: overflow is measured */
    int empty = 0;
    for (int d = 0; d < x->t.rank; d++) {
        int64_t n = x->t.shape[d];
        if (n < 0)
            return 0;
        if (n == 0)
            empty = 1;
        else
            elements *= n;
        if (x->t.strides && n > 1) {
            long double s = (long double)x->t.strides[d];
            if (x->t.strides[d] == INT64_MIN)
                return 0;
            extent += fabsl(s) * (n - 1);
            if (s < 0)
                low += s * (n - 1);
            else
                high += s * (n - 1);
        }
        if (x->t.strides && x->t.strides[d] == INT64_MIN)
            return 0;
    }
    if (elements * size > (long double)INT64_MAX || extent > (long double)INT64_MAX)
        return 0;
    *count = empty ? 0 : (int64_t)elements;
    if (!x->t.strides) {
        low = 0;
        high = *count ? (long double)(*count - 1) * size : 0;
    }
    *lo = (int64_t)low;
    *hi = (int64_t)high + (int64_t)size;
    return 1;
}

/* The C-order stride of dimension d (saturated: a huge shape is refused anyway). */
static int64_t c_stride(const tensor *x, int d, size_t size)
{
    int64_t s = (int64_t)size;
    for (int e = x->t.rank - 1; e > d; e--)
        if (__builtin_mul_overflow(s, x->shape[e] > 0 ? x->shape[e] : 1, &s))
            return INT64_MAX;
    return s;
}

int64_t stride_of(const tensor *x, int d, size_t size)
{
    return x->t.strides ? x->t.strides[d] : c_stride(x, d, size);
}

/* Allocates a buffer covering every element and points t.data at element 0;
   0 when the layout is invalid or the buffer would exceed MAX_BYTES. */
int place(tensor *x, size_t size)
{
    int64_t count, lo, hi;
    if (!layout(x, size, &count, &lo, &hi))
        return 0;
    x->count = count;
    if (count == 0) {
        x->bytes = 1;
        x->buffer = malloc(1);
        x->t.data = x->buffer;
        return x->buffer != NULL;
    }
    if (hi - lo > MAX_BYTES)
        return 0;
    x->bytes = (size_t)(hi - lo) + 1; /* + 1: room for a misaligned start */
    x->buffer = malloc(x->bytes);
    if (!x->buffer)
        return 0;
    x->t.data = x->buffer - lo;
    return 1;
}

/* Byte offset of element `flat` (row-major over the shape) of x. */
int64_t offset_of(const tensor *x, int64_t flat, size_t size)
{
    int64_t off = 0;
    for (int d = x->t.rank - 1; d >= 0; d--) {
        int64_t n = x->t.shape[d];
        off += (flat % n) * stride_of(x, d, size);
        flat /= n;
    }
    return off;
}

/* Byte strides: C order or a small multiple of the element size (zero and
   negative included), rarely off by one byte or near INT64_MIN. */
static void draw_strides(source *s, tensor *x, int rank, size_t size, int huge)
{
    for (int d = 0; d < rank; d++) {
        int k = pick(s, 16);
        x->strides[d] = k < 8 ? c_stride(x, d, size) : (k - 11) * (int64_t)size; /* -3..4 */
        if (huge && x->shape[d] > 1000)
            x->strides[d] = 0;
        if (pick(s, 32) == 0 && x->strides[d] < INT64_MAX)
            x->strides[d] += 1; /* not a multiple of the element size */
        if (pick(s, 256) == 0)
            x->strides[d] = INT64_MIN + pick(s, 2) * (INT64_MAX / 2);
    }
    x->t.strides = x->strides;
}

/* The input: dtype, byte order, rank, shape, strides. *huge: a dimension of
   2**31 or more (a valid call is then too long to run here). */
void draw_input(source *s, tensor *x, int *huge)
{
    int dt = pick(s, ARGEXT_DTYPE_COUNT);
    x->t.dtype = (argext_dtype)(dt | (pick(s, 4) == 0 ? ARGEXT_BYTESWAPPED : 0));
    if (pick(s, 64) == 0)
        x->t.dtype = (argext_dtype)pick_in(s, -2, 253); /* mostly an unknown code */
    int r = pick(s, 64);
    x->t.rank = r == 0 ? 65 : r == 1 ? 64 : r == 2 ? -1 : pick(s, MAX_RANK + 1);
    int rank = x->t.rank < 0 ? 0 : x->t.rank;
    *huge = 0;
    for (int d = 0; d < rank && d < ARGEXT_MAX_RANK + 1; d++) {
        int kind = pick(s, 32);
        if (kind == 0) {
            x->shape[d] = -pick_in(s, 1, 3);
        } else if (kind == 1) {
            static const int64_t big[4] = {(int64_t)1 << 31, ((int64_t)1 << 32) + 1,
                                           (int64_t)1 << 62, INT64_MAX};
            x->shape[d] = big[pick(s, 4)];
            *huge = 1;
        } else {
            x->shape[d] = rank > 8 ? 1 : pick(s, kind < 16 ? 4 : 9);
        }
    }
    x->t.shape = pick(s, 128) == 0 ? NULL : x->shape;
    x->t.strides = NULL;
    if (pick(s, 2) && rank <= ARGEXT_MAX_RANK)
        draw_strides(s, x, rank, itemsizes[dt], *huge);
}

/* The elements: raw bytes, or values from the special table (ties, NaN, ...). */
void fill_input(source *s, tensor *x)
{
    int dt = (int)x->t.dtype & 0xff;
    int swapped = ((int)x->t.dtype & ARGEXT_BYTESWAPPED) != 0;
    size_t size = itemsizes[dt];
    int specials = pick(s, 3); /* 0: raw bytes; else a value from the special table */
    if (x->count > (int64_t)x->bytes) { /* elements repeat (zero strides): fill the bytes */
        for (size_t k = 0; k < x->bytes; k++)
            x->buffer[k] = (unsigned char)byte_of(s);
        return;
    }
    for (int64_t e = 0; e < x->count; e++) {
        unsigned char *p = (unsigned char *)x->t.data + offset_of(x, e, size);
        if (specials)
            store_special(p, dt, swapped, pick(s, specials == 1 ? 3 : 8));
        else
            for (size_t k = 0; k < size; k++)
                p[k] = (unsigned char)byte_of(s);
    }
}

/* The output's dtype for the call: the input's for Hardmax (either byte
   order), int64 for the others, any index dtype for the reductions. */
static int draw_output_dtype(source *s, const call *c)
{
    int hard = is_hardmax(c->op);
    int dt = hard ? ((int)c->in.t.dtype & 0xff) : ARGEXT_INT64;
    if (is_reduce(c->op)) {
        static const int index_dtypes[4] = {ARGEXT_INT64, ARGEXT_INT32, ARGEXT_UINT64,
                                            ARGEXT_UINT32};
        dt = index_dtypes[pick(s, 4)];
    }
    if (hard && pick(s, 2))
        dt |= ARGEXT_BYTESWAPPED;
    return dt;
}

/* Wrong in one way, rarely: a dimension off by one, the rank off by one, an
   unknown dtype or the other byte order. */
static void draw_output_fault(source *s, tensor *y, int rank)
{
    int wrong = pick(s, 16);
    if (wrong == 0 && rank > 0) {
        int d = pick(s, rank);
        y->shape[d] = y->shape[d] < INT64_MAX && pick(s, 2) ? y->shape[d] + 1 : y->shape[d] - 1;
    }
    else if (wrong == 1)
        y->t.rank += pick(s, 2) ? 1 : -1;
    else if (wrong == 2)
        y->t.dtype = (argext_dtype)pick_in(s, -1, 14);
    else if (wrong == 3)
        y->t.dtype = (argext_dtype)((int)y->t.dtype ^ ARGEXT_BYTESWAPPED);
    if (y->t.rank > rank)
        y->shape[rank] = 1;
}

/* The output descriptor: right for the call (C order or strided, negative
   strides included) or wrong in one way. */
void draw_output(source *s, call *c, const reduction *red)
{
    tensor *y = &c->out;
    const argext_tensor *in = &c->in.t;
    int hard = is_hardmax(c->op);
    int dt = draw_output_dtype(s, c);
    int rank = 0;
    for (int d = 0; d < in->rank && d <= ARGEXT_MAX_RANK && in->shape; d++) {
        if (!hard && red->reduced[d] && !red->keep)
            continue;
        y->shape[rank++] = !hard && red->reduced[d] ? 1 : in->shape[d];
    }
    finish_output(s, y, rank, dt);
}

/* C order, or strided: every dimension padded and maybe reversed, in C order. */
static void draw_output_strides(source *s, tensor *y)
{
    if (y->t.rank < 0 || y->t.rank > ARGEXT_MAX_RANK || !pick(s, 2))
        return;
    int odt = (int)y->t.dtype & 0xff;
    int64_t step = odt < ARGEXT_DTYPE_COUNT ? (int64_t)itemsizes[odt] : 8;
    for (int d = y->t.rank - 1; d >= 0; d--) {
        int64_t n = y->shape[d] > 0 ? y->shape[d] : 1;
        y->strides[d] = pick(s, 3) == 0 ? -step : step;
        if (__builtin_mul_overflow(step, n < INT64_MAX ? n + pick(s, 2) : n, &step))
            step = INT64_MAX / 2;
    }
    y->t.strides = y->strides;
}

void finish_output(source *s, tensor *y, int rank, int dt)
{
    y->t.rank = rank;
    y->t.shape = y->shape;
    y->t.strides = NULL;
    y->t.dtype = (argext_dtype)dt;
    draw_output_fault(s, y, rank);
    draw_output_strides(s, y);
}

/* The byte offset of the output element of kept position k (row-major over
   the kept dimensions) of an ArgMax-like call. */
int64_t out_offset(const call *c, const reduction *red, int64_t k, size_t size)
{
    const tensor *x = &c->in, *y = &c->out;
    int64_t off = 0;
    int o = y->t.rank - 1;
    for (int d = x->t.rank - 1; d >= 0; d--) {
        if (red->reduced[d]) {
            o -= red->keep;
            continue;
        }
        int64_t n = x->t.shape[d];
        off += (k % n) * stride_of(y, o, size);
        k /= n;
        o--;
    }
    return off;
}
