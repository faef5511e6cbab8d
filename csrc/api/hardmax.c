/*
 * hardmax.c - ONNX Hardmax (opsets 1, 11: the input coerced to 2-D at
 * `axis`; 13: one axis): 1.0 at the first maximum of each row, 0.0
 * elsewhere, in the input's dtype and shape. The engine finds each row's
 * index (ArgMax into an int64 buffer); the output pass then writes the
 * zeros and the ones, split over threads.
 */
#include <stdlib.h>
#include <string.h>

#include "api/request.h"
#include "api/status.h"
#include "engine/engine.h"
#include "engine/layout.h"
#include "kernels/dtypes.h"
#include "kernels/ops.h"
#include "runtime/threads.h"

/* The output pass, and the int64 row indices after it in the same block. */
typedef struct {
    int64_t idx_strides[ARGEXT_MAX_RANK]; /* the indices: C-contiguous over the kept dimensions */
    int64_t idx_shape[ARGEXT_MAX_RANK];
    int64_t rows;                         /* one index per kept position */
    char *zero_base;                      /* zero fill: the output as runs, by element ranges */
    argext_dim zero_dims[ARGEXT_MAX_RANK];
    int zero_nd;
    argext_dim zero_run;
    int64_t elements;
    char *out;                            /* ones: row k's 1 at kept offset + its index's offset */
    argext_dim row_dims[ARGEXT_MAX_RANK]; /* a row's dimensions, outermost first */
    argext_dim kept_dims[ARGEXT_MAX_RANK]; /* the kept dimensions, in C order */
    int nr, nk;
    int64_t parts;
    unsigned char one[8];                 /* 1.0 in the output's byte order */
    size_t itemsize;
    int64_t idx[];                        /* rows entries */
} output_pass;

/* Hardmax's type constraint: float16, float32, float64; bfloat16 from 13. */
static int hardmax_dtype(int dt, int version)
{
    return dt == ARGEXT_FLOAT16 || dt == ARGEXT_FLOAT32 || dt == ARGEXT_FLOAT64 ||
           (dt == ARGEXT_BFLOAT16 && version >= 13);
}

/* The version, the dtype (before the rank: a 0-d integer is a dtype fault),
   the axis and the output; marks the reduced dimensions: the axis (13) or
   every dimension from it on (1, 11). */
static argext_status check(argext_request *q, const argext_tensor *input,
                           const argext_tensor *output, int64_t axis, int version)
{
    argext_status st;
    int64_t given = axis;
    if ((st = argext_request_data(q, input)) != ARGEXT_OK)
        return st;
    if (version != 1 && version != 11 && version != 13)
        return argext_refuse(ARGEXT_ERR_ATTRIBUTE, ARGEXT_ARG_VERSION, -1, version);
    if (!hardmax_dtype((int)input->dtype & ~ARGEXT_BYTESWAPPED, version))
        return argext_refuse(ARGEXT_ERR_DTYPE, ARGEXT_ARG_DATA, -1, (int64_t)input->dtype);
    if ((st = argext_request_rank(q)) != ARGEXT_OK)
        return st;
    if (version == 1 && axis < 0)
        return argext_refuse(ARGEXT_ERR_AXIS, ARGEXT_ARG_AXIS, -1, given);
    if ((st = argext_request_axis(q, &axis, ARGEXT_ARG_AXIS, -1, given)) != ARGEXT_OK)
        return st;
    for (int d = (int)axis + 1; version != 13 && d < input->rank; d++)
        q->reduced[d] = 1;
    return argext_request_like_input(q, output);
}

/* Sets elements [e0, e1) (in the runs' order) to +0.0, all bits zero in
   every float dtype. */
static void zero_task(void *context, int64_t t)
{
    const output_pass *o = (const output_pass *)context;
    int64_t e0 = argext_part_start(o->elements, o->parts, t);
    int64_t e1 = argext_part_start(o->elements, o->parts, t + 1);
    const int64_t run_n = o->zero_run.n, run_stride = o->zero_run.in_stride;
    argext_iter it;
    argext_iter_seek(&it, o->zero_nd, o->zero_dims, e0 / run_n);
    for (int64_t j0 = e0 % run_n; e0 < e1; j0 = 0) {
        int64_t len = run_n - j0 < e1 - e0 ? run_n - j0 : e1 - e0;
        char *q = o->zero_base + it.in + j0 * run_stride;
        if (run_stride == (int64_t)o->itemsize) {
            memset(q, 0, (size_t)len * o->itemsize);
        } else {
            for (int64_t j = 0; j < len; j++)
                memset(q + j * run_stride, 0, o->itemsize);
        }
        e0 += len;
        argext_iter_next(&it);
    }
}

/* Writes the 1 of rows [k0, k1) of part t. */
static void ones_task(void *context, int64_t t)
{
    const output_pass *o = (const output_pass *)context;
    int64_t k0 = argext_part_start(o->rows, o->parts, t);
    int64_t k1 = argext_part_start(o->rows, o->parts, t + 1);
    argext_iter row, at;
    argext_iter_seek(&row, o->nk, o->kept_dims, k0);
    for (int64_t k = k0; k < k1; k++) {
        argext_iter_seek(&at, o->nr, o->row_dims, o->idx[k]);
        memcpy(o->out + row.in + at.in, o->one, o->itemsize);
        argext_iter_next(&row);
    }
}

/* The output as runs for the zero fill: dimensions merged by the engine's
   rule (zero strides only revisit elements: dropped). */
static void plan_zeros(output_pass *o, const argext_request *q)
{
    const argext_tensor *out = q->out;
    int nd = 0;
    for (int d = 0; d < out->rank; d++)
        if (out->shape[d] != 1 && q->out_strides[d] != 0)
            o->zero_dims[nd++] = (argext_dim){out->shape[d], q->out_strides[d], 0};
    int64_t base = 0, unused = 0;
    nd = argext_layout_merge(o->zero_dims, nd, &base, &unused);
    o->zero_base = (char *)out->data + base;
    o->zero_run = nd > 0 ? o->zero_dims[--nd] : (argext_dim){1, (int64_t)o->itemsize, 0};
    o->zero_nd = nd;
    o->elements = q->count;
}

/* A row's output dimensions, merged where one flat index step is one stride
   step (version 13 and contiguous coerced rows map an index to its offset
   with one multiply), and the kept ones in C order, the order of idx. */
static void plan_ones(output_pass *o, const argext_request *q)
{
    const argext_tensor *out = q->out;
    o->out = (char *)out->data;
    o->nr = o->nk = 0;
    for (int d = 0; d < out->rank; d++) {
        int64_t n = out->shape[d], stride = q->out_strides[d];
        argext_dim *outer = o->nr > 0 ? &o->row_dims[o->nr - 1] : NULL;
        if (n == 1)
            continue;
        if (!q->reduced[d])
            o->kept_dims[o->nk++] = (argext_dim){n, stride, 0};
        else if (outer && outer->in_stride == stride * n)
            *outer = (argext_dim){outer->n * n, stride, 0};
        else
            o->row_dims[o->nr++] = (argext_dim){n, stride, 0};
    }
}

/* 1.0 in the output's dtype and byte order. */
static void set_one(output_pass *o, int dtype)
{
    o->itemsize = argext_itemsize(dtype & ~ARGEXT_BYTESWAPPED);
    uint64_t bits = argext_one_bits(dtype & ~ARGEXT_BYTESWAPPED);
    int big_endian = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    big_endian = 1;
#endif
    int reverse = big_endian != !!(dtype & ARGEXT_BYTESWAPPED); /* bits's low byte last */
    for (size_t i = 0; i < o->itemsize; i++) {
        size_t byte = reverse ? o->itemsize - 1 - i : i;
        o->one[i] = (unsigned char)(bits >> (8 * byte));
    }
}

/* The index of each row's first maximum into o->idx. */
static argext_status find_rows(output_pass *o, const argext_request *q)
{
    const argext_tensor *in = q->data;
    o->rows = 1;
    for (int d = in->rank - 1; d >= 0; d--) {
        o->idx_shape[d] = q->reduced[d] ? 1 : in->shape[d];
        o->idx_strides[d] = o->rows * (int64_t)sizeof(int64_t);
        o->rows *= o->idx_shape[d];
    }
    argext_reduction r = {
        .data = (const char *)in->data, .dtype = (int)in->dtype, .rank = in->rank,
        .shape = in->shape, .strides = q->in_strides, .reduced = q->reduced,
        .out = (char *)o->idx, .out_dtype = ARGEXT_INT64, .out_strides = o->idx_strides,
        .op = ARGEXT_OP_MAX, .last = 0,
    };
    return argext_engine_reduce(&r);
}

static argext_status hardmax(const argext_tensor *input, const argext_tensor *output,
                             int64_t axis, int version, int output_is_zero)
{
    argext_request q;
    argext_status st = check(&q, input, output, axis, version);
    if (st != ARGEXT_OK || q.count == 0)
        return st == ARGEXT_OK ? argext_succeed() : st;
    int64_t rows = q.count; /* at most one row per element: the block's bound */
    for (int d = 0; d < input->rank; d++)
        rows /= q.reduced[d] ? input->shape[d] : 1;
    output_pass *o = (output_pass *)malloc(sizeof *o + (size_t)rows * sizeof(int64_t));
    if (!o)
        return argext_refuse(ARGEXT_ERR_NOMEM, ARGEXT_ARG_NONE, -1, 0);
    if (find_rows(o, &q) != ARGEXT_OK) {
        free(o);
        return argext_refuse(ARGEXT_ERR_NOMEM, ARGEXT_ARG_NONE, -1, 0);
    }
    set_one(o, (int)output->dtype);
    /* The output pass touches every output page (a fresh output's pages are
       faulted in by the ones): split by the output's size. */
    int parts = argext_parts_for(q.count * (int64_t)o->itemsize);
    if (!output_is_zero) {
        plan_zeros(o, &q);
        o->parts = parts;
        argext_run_parallel(parts, zero_task, o);
    }
    plan_ones(o, &q);
    o->parts = parts < o->rows ? parts : o->rows;
    argext_run_parallel(o->parts, ones_task, o);
    free(o);
    return argext_succeed();
}

argext_status argext_hardmax(const argext_tensor *input, const argext_tensor *output,
                             int64_t axis, int version)
{
    return hardmax(input, output, axis, version, 0);
}

argext_status argext_hardmax_onto_zeros(const argext_tensor *input, const argext_tensor *output,
                                        int64_t axis, int version)
{
    return hardmax(input, output, axis, version, 1);
}
