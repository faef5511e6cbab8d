/*
 * topk_cols.c - TopK along an axis that is not the fastest-moving one:
 * blocks of columns of the innermost kept dimension go to the level's TopK
 * column kernel, which keeps each column's k best over the axis' rows in
 * one pass, instead of a strided row scan per column. Blocks (times the
 * other kept positions) are split over threads in ranges.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/plan.h"
#include "engine/topk.h"
#include "kernels/dtypes.h"
#include "runtime/scratch.h"
#include "runtime/threads.h"

/* A block's keys and tags (2 * k lane values per column) fit this many
   bytes, so that the kernel's row-by-row updates stay in L1. */
#define STATE_BYTES 16384
#define BLOCK_MIN 64
#define BLOCK_MAX 4096
/* Bytes of each row that a unit of the register kernel reads (it keeps its
   state in registers): few units, each a long run of every row. */
#define REGS_SPAN_BYTES 16384
/* Outputs of this many bytes or more are written with streaming stores:
   they would only evict the input from the caches. */
#define STREAM_BYTES (8 << 20)

typedef struct {
    const char *in;
    char *values, *indices;
    argext_topk_cols_kernel kernel;
    argext_topk_regs_kernel regs; /* NULL: the outputs' columns are not contiguous */
    size_t itemsize;
    int swapped, sorted, nk;
    int stream; /* the outputs bypass the caches: they outsize them */
    int64_t n, rs, k;                  /* the axis: rows, byte stride; and k */
    int64_t values_step, indices_step; /* along the axis */
    int64_t cols, cs, vs, is;          /* the columns: extent, input/values/indices strides */
    int64_t block;                     /* columns per block of the column kernel */
    int64_t span, spans;               /* columns per unit, units per kept position */
    argext_dim kept[ARGEXT_MAX_RANK];   /* the other kept dimensions: input and values */
    argext_dim kept_i[ARGEXT_MAX_RANK]; /* the same: indices */
    int64_t units, ranges, per_task;    /* spans in all; tasks; int64 places per task */
    int64_t *mem;
} cols_plan;

/* The kept dimension whose columns the kernel reads: the one of smallest
   byte stride, if finer than the axis'; -1 if none. */
static int column_dim(const argext_topk_request *r)
{
    int best = -1;
    int64_t axis = llabs(r->strides[r->axis]);
    for (int d = 0; d < r->rank; d++) {
        int64_t s = llabs(r->strides[d]);
        if (d == r->axis || r->shape[d] < 2 || s == 0 || s >= axis)
            continue;
        if (best < 0 || s < llabs(r->strides[best]))
            best = d;
    }
    return best;
}

int argext_topk_cols_apply(const argext_topk_request *r)
{
    return r->k <= ARGEXT_TOPK_COLS_K && r->strides[r->axis] != 0 && column_dim(r) >= 0;
}

/* Columns per block: the kernel's state within STATE_BYTES. */
static int64_t block_of(int64_t k, int64_t itemsize, int64_t cols)
{
    int64_t b = STATE_BYTES / (2 * k * itemsize) / BLOCK_MIN * BLOCK_MIN;
    b = b < BLOCK_MIN ? BLOCK_MIN : b > BLOCK_MAX ? BLOCK_MAX : b;
    return b < cols ? b : cols;
}

/* The columns' strides made positive (all three flipped: the columns are
   independent, so any order of them gives the same outputs). */
static void plan_columns(cols_plan *t, const argext_topk_request *r, int c)
{
    t->cols = r->shape[c];
    t->cs = r->strides[c];
    t->vs = r->values_strides[c];
    t->is = r->indices_strides[c];
    if (t->cs < 0) {
        t->in += (t->cols - 1) * t->cs;
        t->values += (t->cols - 1) * t->vs;
        t->indices += (t->cols - 1) * t->is;
        t->cs = -t->cs, t->vs = -t->vs, t->is = -t->is;
    }
    t->block = block_of(t->k, (int64_t)t->itemsize, t->cols);
}

static void plan_cols(cols_plan *t, const argext_topk_request *r)
{
    const argext_kernel_table *kt = argext_active_kernels();
    int dt = r->dtype & ~ARGEXT_BYTESWAPPED, op = r->largest ? ARGEXT_OP_MAX : ARGEXT_OP_MIN;
    int c = column_dim(r), a = r->axis;
    size_t w = argext_itemsize(dt);
    int swapped = (r->dtype & ARGEXT_BYTESWAPPED) && w > 1;
    *t = (cols_plan){.in = r->data, .values = r->values, .indices = r->indices,
                     .kernel = (swapped ? kt->topk_cols_swapped : kt->topk_cols)[op][dt],
                     .itemsize = w, .swapped = swapped, .sorted = r->sorted,
                     .n = r->shape[a], .rs = r->strides[a], .k = r->k,
                     .values_step = r->values_strides[a], .indices_step = r->indices_strides[a]};
    plan_columns(t, r, c);
    if (!swapped && t->cs == (int64_t)w && t->vs == (int64_t)w && t->is == 8 &&
        t->k <= ARGEXT_TOPK_REGS_K)
        t->regs = kt->topk_regs[op][dt];
    t->span = t->block;
    if (t->regs)
        t->span = REGS_SPAN_BYTES / (int64_t)w < t->cols ? REGS_SPAN_BYTES / (int64_t)w : t->cols;
    t->spans = (t->cols + t->span - 1) / t->span;
    t->units = t->spans;
    for (int d = 0; d < r->rank; d++) {
        if (d == r->axis || d == c)
            continue;
        t->kept[t->nk] = (argext_dim){r->shape[d], r->strides[d], r->values_strides[d]};
        t->kept_i[t->nk++] = (argext_dim){r->shape[d], 0, r->indices_strides[d]};
        t->units *= r->shape[d];
    }
    double out_bytes = (double)t->units / (double)t->spans * (double)t->cols * (double)t->k *
                       (double)(w + 8);
    t->stream = out_bytes >= (double)STREAM_BYTES;
    t->per_task = 3 * t->k * t->block; /* rows out, then the kernel's work */
}

/* Each column's k rows in increasing order (sorted == 0). */
static void index_order(int64_t *idx, int64_t k, int64_t bn)
{
    for (int64_t j = 0; j < bn; j++)
        for (int64_t a = 1; a < k; a++) {
            int64_t x = idx[a * bn + j], b = a;
            for (; b > 0 && idx[(b - 1) * bn + j] > x; b--)
                idx[b * bn + j] = idx[(b - 1) * bn + j];
            idx[b * bn + j] = x;
        }
}

/* One element copied into native order. */
static void copy_value(char *dst, const char *src, size_t w, int swapped)
{
    if (swapped)
        for (size_t b = 0; b < w; b++)
            dst[b] = src[w - 1 - b];
    else if (w == 4)
        memcpy(dst, src, 4);
    else if (w == 2)
        memcpy(dst, src, 2);
    else
        memcpy(dst, src, w);
}

/* A block's bn columns written out: the k rows of each (idx, rank order). */
static void write_block(const cols_plan *t, const char *in, char *values, char *indices,
                        int64_t bn, int64_t *idx)
{
    if (!t->sorted)
        index_order(idx, t->k, bn);
    for (int64_t s = 0; s < t->k; s++) {
        char *v = values + s * t->values_step, *x = indices + s * t->indices_step;
        for (int64_t j = 0; j < bn; j++) {
            int64_t row = idx[s * bn + j];
            copy_value(v + j * t->vs, in + row * t->rs + j * t->cs, t->itemsize, t->swapped);
            memcpy(x + j * t->is, &row, sizeof row);
        }
    }
}

/* Units [u0, u1), unit u the columns of span u % spans of kept position
   u / spans: the register kernel's, or the column kernel's in blocks. */
static void run_units(const cols_plan *t, int64_t u0, int64_t u1, int64_t *mem)
{
    int64_t *idx = mem, *work = mem + t->k * t->block, pos = u0 / t->spans;
    argext_iter at, at_i;
    argext_iter_seek(&at, t->nk, t->kept, pos);
    argext_iter_seek(&at_i, t->nk, t->kept_i, pos);
    for (int64_t u = u0; u < u1; u++) {
        if (u / t->spans != pos) {
            argext_iter_next(&at);
            argext_iter_next(&at_i);
            pos++;
        }
        int64_t c0, c1;
        if (t->regs) {
            /* The spans after the first start where the outputs are aligned: a
               vector never shares a cache line of them with another span's (a
               plain store to a line that streaming stores wrote waits for memory). */
            int64_t b = u % t->spans;
            int64_t lead = argext_topk_regs_lead(t->in + at.in, t->values + at.out,
                                                 t->indices + at_i.out, (int64_t)t->itemsize, 64);
            c0 = b ? lead + b * t->span : 0;
            c1 = lead + (b + 1) * t->span;
            c0 = c0 < t->cols ? c0 : t->cols;
            c1 = c1 < t->cols ? c1 : t->cols;
        } else {
            c0 = (u % t->spans) * t->span;
            c1 = t->cols - c0 < t->span ? t->cols : c0 + t->span;
        }
        if (c0 >= c1)
            continue;
        const char *in = t->in + at.in + c0 * t->cs;
        char *values = t->values + at.out + c0 * t->vs;
        char *indices = t->indices + at_i.out + c0 * t->is;
        if (t->regs && t->regs(in, t->n, t->rs, c1 - c0, t->k, t->sorted, values, t->values_step,
                               indices, t->indices_step, t->stream))
            continue;
        for (int64_t b = c0; b < c1; b += t->block) {
            int64_t bn = c1 - b < t->block ? c1 - b : t->block;
            const char *q = t->in + at.in + b * t->cs;
            t->kernel(q, t->n, t->rs, bn, t->cs, t->k, bn, idx, work);
            write_block(t, q, t->values + at.out + b * t->vs, t->indices + at_i.out + b * t->is, bn,
                        idx);
        }
    }
}

static void cols_task(void *context, int64_t task)
{
    const cols_plan *t = (const cols_plan *)context;
    run_units(t, argext_part_start(t->units, t->ranges, task),
              argext_part_start(t->units, t->ranges, task + 1), t->mem + task * t->per_task);
}

/* r with its column dimension merged with each kept dimension that
   continues it in the input and both outputs (that dimension's extent then
   1): a C-contiguous (4, 21, 512, 512) over axis 1 has 512 * 512 columns,
   so that each run of columns is long. */
static void merge_columns(argext_topk_request *m, int64_t *shape, const argext_topk_request *r)
{
    int c = column_dim(r);
    *m = *r;
    memcpy(shape, r->shape, sizeof(int64_t) * (size_t)r->rank);
    m->shape = shape;
    for (int merged = 1; merged;) {
        merged = 0;
        for (int d = 0; d < r->rank; d++)
            if (d != r->axis && d != c && shape[d] > 1 &&
                r->strides[d] == shape[c] * r->strides[c] &&
                r->values_strides[d] == shape[c] * r->values_strides[c] &&
                r->indices_strides[d] == shape[c] * r->indices_strides[c]) {
                shape[c] *= shape[d];
                shape[d] = 1;
                merged = 1;
            }
    }
}

argext_status argext_engine_topk_cols(const argext_topk_request *r)
{
    cols_plan t;
    argext_topk_request m;
    int64_t shape[ARGEXT_MAX_RANK];
    merge_columns(&m, shape, r);
    plan_cols(&t, &m);
    if (t.units == 0)
        return ARGEXT_OK;
    int64_t per_unit = t.n * t.span * (int64_t)t.itemsize; /* n <= SIZE_MAX / itemsize */
    int64_t bytes = t.units > INT64_MAX / per_unit ? INT64_MAX : t.units * per_unit;
    int parts = argext_parts_for(bytes);
    t.ranges = t.units < parts ? t.units : parts;
    size_t need = (size_t)(t.ranges * t.per_task) * sizeof(int64_t);
    void *scratch = argext_scratch_acquire(sizeof(argext_engine_scratch)), *heap = NULL;
    t.mem = scratch && need <= sizeof(argext_engine_scratch) ? (int64_t *)scratch : NULL;
    if (!t.mem)
        t.mem = heap = malloc(need);
    if (!t.mem) {
        if (scratch)
            argext_scratch_release(scratch);
        return ARGEXT_ERR_NOMEM;
    }
    if (t.ranges == 1)
        cols_task(&t, 0);
    else
        argext_run_parallel(t.ranges, cols_task, &t);
    free(heap);
    if (scratch)
        argext_scratch_release(scratch);
    return ARGEXT_OK;
}
