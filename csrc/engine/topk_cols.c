/*
 * topk_cols.c - TopK along an axis that is not the fastest-moving one:
 * blocks of columns of the innermost kept dimension go to the level's TopK
 * column kernel, which keeps each column's k best over the axis' rows in
 * one pass, instead of a strided row scan per column. Blocks (times the
 * other kept positions) are split over threads in ranges.
 *
 * Short rows take the same kernels: a tile of rows is transposed into
 * scratch (in L1), whose columns they then are. A row scan costs a
 * candidate set, a prime and its branches per row; a tile costs a copy and
 * the kernels' branch-free compare-and-shift network per element.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/plan.h"
#include "engine/topk.h"
#include "kernels/dtypes.h"
#include "kernels/platform.h"
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

/* Each of bn columns' k rows (column j's at idx[t * ld + j]) in
   increasing order (sorted == 0). */
static void index_order(int64_t *idx, int64_t k, int64_t bn, int64_t ld)
{
    for (int64_t j = 0; j < bn; j++)
        for (int64_t a = 1; a < k; a++) {
            int64_t x = idx[a * ld + j], b = a;
            for (; b > 0 && idx[(b - 1) * ld + j] > x; b--)
                idx[b * ld + j] = idx[(b - 1) * ld + j];
            idx[b * ld + j] = x;
        }
}

/* A block's bn columns written out: the k rows of each (idx, rank order). */
static void write_block(const cols_plan *t, const char *in, char *values, char *indices,
                        int64_t bn, int64_t *idx)
{
    if (!t->sorted)
        index_order(idx, t->k, bn, bn);
    for (int64_t s = 0; s < t->k; s++) {
        char *v = values + s * t->values_step, *x = indices + s * t->indices_step;
        for (int64_t j = 0; j < bn; j++) {
            int64_t row = idx[s * bn + j];
            argext_topk_copy_value(v + j * t->vs, in + row * t->rs + j * t->cs, t->itemsize,
                                   t->swapped);
            memcpy(x + j * t->is, &row, sizeof row);
        }
    }
}

/* Runs tasks 0..ranges-1 of `task`, *mem first pointed at per_task int64
   places for each (the calling thread's scratch when they fit, else the
   heap); ARGEXT_ERR_NOMEM, nothing run, when neither can be had. */
static argext_status run_tasks(int64_t ranges, int64_t per_task, int64_t **mem, argext_task task,
                               void *context)
{
    size_t need = (size_t)(ranges * per_task) * sizeof(int64_t);
    void *scratch = argext_scratch_acquire(sizeof(argext_engine_scratch)), *heap = NULL;
    *mem = scratch && need <= sizeof(argext_engine_scratch) ? (int64_t *)scratch : NULL;
    if (!*mem)
        *mem = heap = malloc(need);
    if (!*mem) {
        if (scratch)
            argext_scratch_release(scratch);
        return ARGEXT_ERR_NOMEM;
    }
    if (ranges == 1)
        task(context, 0);
    else
        argext_run_parallel(ranges, task, context);
    free(heap);
    if (scratch)
        argext_scratch_release(scratch);
    return ARGEXT_OK;
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
    return run_tasks(t.ranges, t.per_task, &t.mem, cols_task, &t);
}

/* Rows of up to this many bytes and elements go in tiles
   (argext_topk_tiles_apply): int8 rows of 512 took twice the row scan's
   time, their 8-bit row tags flushed every 128 rows (Zen 5). With k up to
   the register kernel's, rows of up to TILE_REGS_ROW_BYTES: transposed
   by the level's kernel, avx2 on Zen 3, float32 rows of 130-192 took
   0.35-0.7x the row scan's time at k = 2-8, float64 rows of 70-96
   0.35-0.7x; float32 rows of 256 1.05x, float64 of 200 1.25x, and at
   k = 16 (the column kernel) float32 rows of 192 1.23x. */
#define TILE_ROW_BYTES 512
#define TILE_REGS_ROW_BYTES 768
#define TILE_ROW_ELEMENTS 256
/* Rows per tile: its columns (a multiple of every vector's lanes); the
   tile (32 KiB at most; 48 KiB for the register kernel's rows) stays in
   L1 or close. */
#define TILE_COLS 64

typedef struct {
    const char *in;
    char *values, *indices;
    argext_topk_cols_kernel kernel; /* native order: the tile is */
    argext_topk_regs_kernel regs;
    argext_transpose_kernel transpose;
    size_t itemsize;
    int swapped, sorted, nk;
    int64_t n, stride, k;              /* the axis: extent, byte stride; and k */
    int64_t values_step, indices_step; /* along the axis */
    argext_dim row, row_i;             /* the innermost kept dimension: rows walked in tiles */
    argext_dim kept[ARGEXT_MAX_RANK];   /* the other kept dimensions: input and values */
    argext_dim kept_i[ARGEXT_MAX_RANK]; /* the same: indices */
    int64_t positions, ranges, per_task; /* per_task: int64 places */
    int64_t *mem;
} tiles_plan;

int argext_topk_tiles_apply(const argext_topk_request *r)
{
    int64_t w = (int64_t)argext_itemsize(r->dtype & ~ARGEXT_BYTESWAPPED);
    int64_t bytes = r->k <= ARGEXT_TOPK_REGS_K ? TILE_REGS_ROW_BYTES : TILE_ROW_BYTES;
    return r->k >= 2 && r->k <= ARGEXT_TOPK_COLS_K && r->strides[r->axis] != 0 &&
           r->shape[r->axis] * w <= bytes && r->shape[r->axis] <= TILE_ROW_ELEMENTS;
}

static void plan_tiles(tiles_plan *t, const argext_topk_request *r)
{
    const argext_kernel_table *kt = argext_active_kernels();
    int dt = r->dtype & ~ARGEXT_BYTESWAPPED, op = r->largest ? ARGEXT_OP_MAX : ARGEXT_OP_MIN;
    int a = r->axis;
    size_t w = argext_itemsize(dt);
    *t = (tiles_plan){.in = r->data, .values = r->values, .indices = r->indices,
                      .kernel = kt->topk_cols[op][dt], .regs = kt->topk_regs[op][dt],
                      .transpose = kt->transpose,
                      .itemsize = w, .swapped = (r->dtype & ARGEXT_BYTESWAPPED) && w > 1,
                      .sorted = r->sorted, .n = r->shape[a], .stride = r->strides[a], .k = r->k,
                      .values_step = r->values_strides[a], .indices_step = r->indices_strides[a],
                      .row = {1, 0, 0}, .row_i = {1, 0, 0}, .positions = 1};
    /* the rows of a tile: along the kept dimension of more than one row
       whose rows lie closest ((N, C, 1, 1) over C: not a trailing 1) */
    int rd = -1;
    for (int d = 0; d < r->rank; d++)
        if (d != a && r->shape[d] > 1 && (rd < 0 || llabs(r->strides[d]) < llabs(r->strides[rd])))
            rd = d;
    for (int d = 0; d < r->rank; d++) {
        if (d == a)
            continue;
        t->positions *= r->shape[d];
        if (d == rd) {
            t->row = (argext_dim){r->shape[d], r->strides[d], r->values_strides[d]};
            t->row_i = (argext_dim){r->shape[d], 0, r->indices_strides[d]};
            continue;
        }
        t->kept[t->nk] = (argext_dim){r->shape[d], r->strides[d], r->values_strides[d]};
        t->kept_i[t->nk++] = (argext_dim){r->shape[d], 0, r->indices_strides[d]};
    }
    /* the tile, the values' tile (bytes, in int64 places), then rows and work */
    t->per_task = (t->n + t->k) * TILE_COLS * (int64_t)w / 8 + 3 * t->k * TILE_COLS;
}

/* bn rows from `in` (byte stride row.in_stride) into the tile: element e
   of row b at e * TILE_COLS + b, native order. Contiguous rows of native
   order by the transpose kernel, squares of a vector's rows and elements
   at a time, in order. Otherwise each pass writes a line of the tile and
   reads an element of every row, the rows' lines staying in L1 from one
   pass to the next; the next bn rows' lines are asked for as these are
   first read: the prefetchers do not follow this pattern (measured 2.8x
   the time of rows in cache). The addresses may lie past the input: they
   are formed as integers. */
static void fill_tile(const tiles_plan *t, const char *in, int64_t bn, char *tile)
{
    const size_t w = t->itemsize;
    const int64_t rs = t->row.in_stride, line = 64;
    const uintptr_t ahead = (uintptr_t)in + (uintptr_t)(bn * rs);
    if (!t->swapped && t->stride == (int64_t)w) {
        t->transpose(tile, TILE_COLS, in, bn, rs, t->n, (int)w, bn * rs);
        return;
    }
    for (int64_t e = 0; e < t->n; e++) {
        const char *src = in + e * t->stride;
        char *dst = tile + e * TILE_COLS * (int64_t)w;
        if (e % (line / (int64_t)w) == 0)
            for (int64_t b = 0; b < bn; b++)
                argext_prefetch((const char *)(ahead + (uintptr_t)(e * t->stride + b * rs)));
        if (t->swapped)
            for (int64_t b = 0; b < bn; b++)
                argext_topk_copy_swapped(dst + b * (int64_t)w, src + b * rs, w);
        else if (w == 4) /* sizes copied inline, not by a call per element */
            for (int64_t b = 0; b < bn; b++)
                memcpy(dst + b * 4, src + b * rs, 4);
        else if (w == 2)
            for (int64_t b = 0; b < bn; b++)
                memcpy(dst + b * 2, src + b * rs, 2);
        else if (w == 8)
            for (int64_t b = 0; b < bn; b++)
                memcpy(dst + b * 8, src + b * rs, 8);
        else
            for (int64_t b = 0; b < bn; b++)
                dst[b] = src[b * rs];
    }
}

/* A tile of bn rows: each one's k best into vt (values, rank t of row b at
   t * TILE_COLS + b) and it (indices, likewise), by the register kernel
   or else the column kernel. */
static void tile_best(const tiles_plan *t, const char *tile, int64_t bn, char *vt, int64_t *it,
                      int64_t *work)
{
    const int64_t w = (int64_t)t->itemsize;
    if (t->regs(tile, t->n, TILE_COLS * w, bn, t->k, t->sorted, vt, TILE_COLS * w, (char *)it,
                TILE_COLS * 8, 0))
        return;
    t->kernel(tile, t->n, TILE_COLS * w, bn, w, t->k, TILE_COLS, it, work);
    if (!t->sorted)
        index_order(it, t->k, bn, TILE_COLS);
    for (int64_t s = 0; s < t->k; s++)
        for (int64_t b = 0; b < bn; b++)
            argext_topk_copy_value(vt + (s * TILE_COLS + b) * w,
                                   tile + (it[s * TILE_COLS + b] * TILE_COLS + b) * w, (size_t)w, 0);
}

/* Positions [p0, p1) in tiles, within runs of the innermost kept dimension. */
static void run_tiles(const tiles_plan *t, int64_t p0, int64_t p1, int64_t *mem)
{
    const int64_t w = (int64_t)t->itemsize;
    char *tile = (char *)mem, *vt = tile + t->n * TILE_COLS * w;
    int64_t *it = mem + (t->n + t->k) * TILE_COLS * w / 8, *work = it + t->k * TILE_COLS;
    argext_iter at, at_i;
    argext_iter_seek(&at, t->nk, t->kept, p0 / t->row.n);
    argext_iter_seek(&at_i, t->nk, t->kept_i, p0 / t->row.n);
    for (int64_t pos = p0, j = p0 % t->row.n; pos < p1;) {
        int64_t bn = t->row.n - j < TILE_COLS ? t->row.n - j : TILE_COLS;
        bn = p1 - pos < bn ? p1 - pos : bn;
        fill_tile(t, t->in + at.in + j * t->row.in_stride, bn, tile);
        tile_best(t, tile, bn, vt, it, work);
        char *values = t->values + at.out + j * t->row.out_step;
        char *indices = t->indices + at_i.out + j * t->row_i.out_step;
        for (int64_t b = 0; b < bn; b++) {
            char *v = values + b * t->row.out_step, *x = indices + b * t->row_i.out_step;
            for (int64_t s = 0; s < t->k; s++, v += t->values_step, x += t->indices_step) {
                argext_topk_copy_value(v, vt + (s * TILE_COLS + b) * w, (size_t)w, 0);
                memcpy(x, &it[s * TILE_COLS + b], 8);
            }
        }
        pos += bn;
        j += bn;
        if (j == t->row.n) {
            j = 0;
            argext_iter_next(&at);
            argext_iter_next(&at_i);
        }
    }
}

static void tiles_task(void *context, int64_t task)
{
    const tiles_plan *t = (const tiles_plan *)context;
    run_tiles(t, argext_part_start(t->positions, t->ranges, task),
              argext_part_start(t->positions, t->ranges, task + 1), t->mem + task * t->per_task);
}

argext_status argext_engine_topk_tiles(const argext_topk_request *r)
{
    tiles_plan t;
    plan_tiles(&t, r);
    if (t.positions == 0)
        return ARGEXT_OK;
    int64_t per_row = t.n * (int64_t)t.itemsize; /* <= TILE_ROW_BYTES */
    int64_t bytes = t.positions > INT64_MAX / per_row ? INT64_MAX : t.positions * per_row;
    int parts = argext_parts_for(bytes);
    t.ranges = t.positions < parts ? t.positions : parts;
    return run_tasks(t.ranges, t.per_task, &t.mem, tiles_task, &t);
}
