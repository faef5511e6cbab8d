/*
 * topk.c - TopK's run: each row along the axis offered to a candidate set
 * (kernels/topk.h) by the TopK scan of the level in use, then its k best
 * written out. Rows are split over threads in ranges; when there are fewer
 * rows than threads, each row is cut into pieces, one set each, whose k
 * best are merged by rank (key, then index), exactly the one-piece answer.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/plan.h"
#include "engine/topk.h"
#include "kernels/dtypes.h"
#include "runtime/scratch.h"
#include "runtime/threads.h"

/* Candidates a set holds beyond 2k: a compaction frees at least this many
   places, so that small k compacts rarely. */
#define SET_SLACK 64

typedef struct {
    const char *in;
    char *values, *indices;
    argext_topk_kernel scan; /* of the input's byte order */
    size_t itemsize;
    int swapped, sorted;
    int64_t n, stride, k, cap;        /* the axis, k, and a set's places */
    int64_t values_step, indices_step; /* along the axis, in bytes */
    int nk;
    argext_dim kept[ARGEXT_MAX_RANK];   /* kept dimensions: input and values offsets */
    argext_dim kept_i[ARGEXT_MAX_RANK]; /* the same: indices offsets (out_step) */
    int64_t positions, ranges, pieces;  /* ranges: 0 when rows are cut into pieces */
    argext_topk_item *items;            /* a set's places per task, then the merges' */
    int64_t *keys;                      /* as many places for the selections' keys */
    char *work;                         /* a set's work per task (ARGEXT_TOPK_WORK_BYTES) */
} topk_plan;

/* The row of kept position pos: its input, values and indices. */
static void seek(const topk_plan *t, int64_t pos, argext_iter *at, argext_iter *at_i)
{
    argext_iter_seek(at, t->nk, t->kept, pos);
    argext_iter_seek(at_i, t->nk, t->kept_i, pos);
}

/* The set's first k items written as a row's outputs: values, and indices
   as int64. */
static void write_row(const topk_plan *t, const argext_topk_set *set, const char *row,
                      char *values, char *indices)
{
    /* The plan's fields in locals: the stores through char pointers would
       have them read again per value (27 instructions a value, not 10). */
    const int64_t k = t->k, stride = t->stride, values_step = t->values_step;
    const int64_t indices_step = t->indices_step;
    const size_t w = t->itemsize;
    const int swapped = t->swapped;
    const argext_topk_item *item = set->item;
    for (int64_t j = 0; j < k; j++) {
        int64_t i = item[j].idx;
        argext_topk_copy_value(values + j * values_step, row + i * stride, w, swapped);
        memcpy(indices + j * indices_step, &i, sizeof i);
    }
}

/* An empty set over `cap` places from place `at`, with task's work (task
   -1: none, for a merge) and the elements it reads, its k best wanted in
   index order or not. */
static argext_topk_set new_set(const topk_plan *t, int64_t at, int64_t cap, int64_t task,
                               int64_t elements, int by_index)
{
    argext_topk_set set = {.item = t->items + at,
                           .keys = t->keys + at,
                           .k = t->k,
                           .cap = cap,
                           .open = 1,
                           .small = t->k <= ARGEXT_TOPK_SMALL_K,
                           .work = task < 0 ? NULL : t->work + task * ARGEXT_TOPK_WORK_BYTES,
                           .by_index = by_index,
                           .span = elements * (int64_t)t->itemsize};
    return set;
}

/* Kept positions [p0, p1), one set (task t's places) reused row by row. */
static void run_rows(const topk_plan *t, int64_t p0, int64_t p1, int64_t task)
{
    argext_iter at, at_i;
    seek(t, p0, &at, &at_i);
    for (int64_t pos = p0; pos < p1; pos++) {
        argext_topk_set set = new_set(t, task * t->cap, t->cap, task, (p1 - p0) * t->n, !t->sorted);
        const char *row = t->in + at.in;
        if (t->stride != 0) {
            t->scan(row, t->n, t->stride, 0, &set);
            argext_topk_finish(&set, t->sorted);
        } else { /* one element n times: the first k, in both orders */
            for (int64_t j = 0; j < t->k; j++)
                set.item[j].idx = j;
        }
        write_row(t, &set, row, t->values + at.out, t->indices + at_i.out);
        argext_iter_next(&at);
        argext_iter_next(&at_i);
    }
}

/* Piece c of position pos's row, into task t's set, left with its k best. */
static void run_piece(const topk_plan *t, int64_t pos, int64_t c, int64_t task)
{
    argext_iter at, at_i;
    seek(t, pos, &at, &at_i);
    int64_t e0 = argext_part_start(t->n, t->pieces, c), e1 = argext_part_start(t->n, t->pieces, c + 1);
    argext_topk_set set = new_set(t, task * t->cap, t->cap, task, e1 - e0, 1);
    t->scan(t->in + at.in + e0 * t->stride, e1 - e0, t->stride, e0, &set);
    argext_topk_finish(&set, 0); /* in index order, for the merge */
}

/* Position pos's pieces merged: their k items each (a piece has at least k
   elements) into one set, then written. */
static void merge_pieces(const topk_plan *t, int64_t pos)
{
    argext_topk_set set = new_set(t, t->positions * t->pieces * t->cap, t->pieces * t->k, -1, 0, 0);
    set.small = 0;
    for (int64_t c = 0; c < t->pieces; c++) /* in index order, as a set keeps them */
        memcpy(set.item + c * t->k, t->items + (pos * t->pieces + c) * t->cap,
               sizeof(argext_topk_item) * (size_t)t->k);
    set.count = t->pieces * t->k;
    argext_topk_finish(&set, t->sorted);
    argext_iter at, at_i;
    seek(t, pos, &at, &at_i);
    write_row(t, &set, t->in + at.in, t->values + at.out, t->indices + at_i.out);
}

static void topk_task(void *context, int64_t task)
{
    const topk_plan *t = (const topk_plan *)context;
    if (t->ranges)
        run_rows(t, argext_part_start(t->positions, t->ranges, task),
                 argext_part_start(t->positions, t->ranges, task + 1), task);
    else
        run_piece(t, task / t->pieces, task % t->pieces, task);
}

static void plan_topk(topk_plan *t, const argext_topk_request *r)
{
    const argext_kernel_table *kt = argext_active_kernels();
    int dt = r->dtype & ~ARGEXT_BYTESWAPPED, op = r->largest ? ARGEXT_OP_MAX : ARGEXT_OP_MIN;
    t->itemsize = argext_itemsize(dt);
    t->swapped = (r->dtype & ARGEXT_BYTESWAPPED) && t->itemsize > 1;
    t->scan = (t->swapped ? kt->topk_swapped : kt->topk)[op][dt];
    t->in = r->data;
    t->values = r->values;
    t->indices = r->indices;
    t->sorted = r->sorted;
    t->n = r->shape[r->axis];
    t->stride = r->strides[r->axis];
    t->k = r->k;
    t->cap = t->k < (t->n - SET_SLACK) / 2 ? 2 * t->k + SET_SLACK : t->n; /* no overflow */
    t->values_step = r->values_strides[r->axis];
    t->indices_step = r->indices_strides[r->axis];
    t->nk = 0;
    t->positions = 1;
    for (int d = 0; d < r->rank; d++) {
        if (d == r->axis)
            continue;
        t->kept[t->nk] = (argext_dim){r->shape[d], r->strides[d], r->values_strides[d]};
        t->kept_i[t->nk++] = (argext_dim){r->shape[d], 0, r->indices_strides[d]};
        t->positions *= r->shape[d];
    }
}

/* Tasks: ranges of rows, or each row in pieces when rows are fewer than
   parts (a piece keeps at least k elements). */
static int64_t plan_tasks(topk_plan *t, int parts)
{
    t->ranges = t->positions < parts ? t->positions : parts;
    t->pieces = 1;
    if (t->positions >= parts || t->n / parts < t->k || t->stride == 0)
        return t->ranges;
    t->ranges = 0;
    t->pieces = parts;
    return t->positions * t->pieces;
}

/* k == 1's values: the walk of the values output (a plan's kept walk, in
   the reduction's order of positions) and how to read a row's element. */
typedef struct {
    argext_plan values;
    int64_t n, stride; /* the axis */
    size_t itemsize;
    int swapped;
} value_copy;

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* m rows' values from their indices (steps in bytes); w and swapped are
   constants where the caller inlines it, so that a value is one load and
   one store. */
static inline void copy_run(char *values, int64_t vs, const char *in, int64_t is,
                            const char *indices, int64_t xs, int64_t m, uint64_t n,
                            int64_t stride, size_t w, int swapped)
{
    for (int64_t j = 0; j < m; j++) {
        int64_t i;
        memcpy(&i, indices + j * xs, sizeof i);
        if ((uint64_t)i < n) /* else a value overwrote it: overlapping outputs */
            argext_topk_copy_value(values + j * vs, in + j * is + i * stride, w, swapped);
    }
}

/* The reduction's `written` hook: positions [k0, k1) of plan p, whose
   indices it has just written, get the values at them while their rows
   are in cache. Both walks step their inner runs together. */
static void copy_values(void *context, const argext_plan *p, int64_t k0, int64_t k1)
{
    const value_copy *c = (const value_copy *)context;
    const argext_plan *v = &c->values;
    const int64_t is = p->inner.in_stride, xs = p->inner.out_step, vs = v->inner.out_step;
    const uint64_t n = (uint64_t)c->n; /* in registers: the values' stores may alias *c */
    const int64_t s = c->stride;
    int64_t ja = k0 % p->inner.n, jv = k0 % v->inner.n;
    argext_iter at, at_v;
    argext_iter_seek(&at, p->nk, p->kept, k0 / p->inner.n);
    argext_iter_seek(&at_v, v->nk, v->kept, k0 / v->inner.n);
    while (k0 < k1) {
        const int64_t m = min64(k1 - k0, min64(p->inner.n - ja, v->inner.n - jv));
        const char *in = p->in + at.in + ja * is, *indices = p->out + at.out + ja * xs;
        char *values = v->out + at_v.out + jv * vs;
        switch (c->swapped ? 0 : c->itemsize) {
        case 4:
            copy_run(values, vs, in, is, indices, xs, m, n, s, 4, 0);
            break;
        case 2:
            copy_run(values, vs, in, is, indices, xs, m, n, s, 2, 0);
            break;
        case 8:
            copy_run(values, vs, in, is, indices, xs, m, n, s, 8, 0);
            break;
        default:
            copy_run(values, vs, in, is, indices, xs, m, n, s, c->itemsize, c->swapped);
            break;
        }
        k0 += m;
        if ((ja += m) == p->inner.n) {
            ja = 0;
            argext_iter_next(&at);
        }
        if ((jv += m) == v->inner.n) {
            jv = 0;
            argext_iter_next(&at_v);
        }
    }
}

/* k == 1 by the arg reduction: its rule (NaN first, the lower index among
   equal keys, -0.0 equal to +0.0) is TopK's, and its kernels read a row
   once where the set's scan reads it twice (prime, then threshold). Each
   block of rows gets its values as soon as its indices are written, while
   it is in cache (short rows in DRAM would be read from there twice). */
static argext_status topk_by_reduction(const argext_topk_request *r)
{
    unsigned char reduced[ARGEXT_MAX_RANK] = {0};
    reduced[r->axis] = 1;
    const int dt = r->dtype & ~ARGEXT_BYTESWAPPED;
    value_copy c;
    c.n = r->shape[r->axis];
    c.stride = r->strides[r->axis];
    c.itemsize = argext_itemsize(dt);
    c.swapped = (r->dtype & ARGEXT_BYTESWAPPED) && c.itemsize > 1;
    argext_reduction q = {
        .data = r->data, .dtype = r->dtype, .rank = r->rank, .shape = r->shape,
        .strides = r->strides, .reduced = reduced, .out = r->values,
        .out_dtype = ARGEXT_INT64, .out_strides = r->values_strides,
        .op = r->largest ? ARGEXT_OP_MAX : ARGEXT_OP_MIN, .last = 0, .nan_best = NULL,
    };
    argext_plan_kept(&c.values, &q);
    q.out = r->indices;
    q.out_strides = r->indices_strides;
    q.written = copy_values;
    q.written_context = &c;
    return argext_engine_reduce(&q);
}

argext_status argext_engine_topk(const argext_topk_request *r)
{
    if (argext_topk_cols_apply(r))
        return argext_engine_topk_cols(r);
    if (r->k == 1)
        return topk_by_reduction(r);
    topk_plan t;
    plan_topk(&t, r);
    if (t.positions == 0)
        return ARGEXT_OK;
    if (argext_topk_tiles_apply(r))
        return argext_engine_topk_tiles(r);
    int64_t bytes = t.positions > INT64_MAX / t.n ? INT64_MAX : t.positions * t.n;
    bytes = bytes > INT64_MAX / 8 ? INT64_MAX : bytes * (int64_t)t.itemsize;
    int64_t tasks = plan_tasks(&t, argext_parts_for(bytes));
    int64_t merge = t.ranges ? 0 : t.pieces * t.k; /* pieces < 1024 and k <= n / pieces */
    int64_t places = t.cap > (INT64_MAX - merge) / tasks ? INT64_MAX : tasks * t.cap + merge;
    const size_t place = sizeof(argext_topk_item) + sizeof(int64_t);
    /* the places, then each task's work, counted in places (tasks: a few
       threads' worth) */
    const int64_t work = (tasks * ARGEXT_TOPK_WORK_BYTES + (int64_t)place - 1) / (int64_t)place;
    const int64_t total = places > INT64_MAX - work ? INT64_MAX : places + work;
    void *scratch = argext_scratch_acquire(sizeof(argext_engine_scratch));
    void *heap = NULL;
    t.items = NULL;
    if (scratch && total <= (int64_t)(sizeof(argext_engine_scratch) / place))
        t.items = (argext_topk_item *)scratch;
    else if ((uint64_t)total <= SIZE_MAX / place)
        t.items = heap = malloc((size_t)total * place);
    if (!t.items) {
        if (scratch)
            argext_scratch_release(scratch);
        return ARGEXT_ERR_NOMEM;
    }
    t.keys = (int64_t *)(t.items + places);
    t.work = (char *)(t.keys + places);
    if (tasks == 1)
        topk_task(&t, 0);
    else
        argext_run_parallel(tasks, topk_task, &t);
    for (int64_t pos = 0; !t.ranges && pos < t.positions; pos++)
        merge_pieces(&t, pos);
    free(heap);
    if (scratch)
        argext_scratch_release(scratch);
    return ARGEXT_OK;
}
