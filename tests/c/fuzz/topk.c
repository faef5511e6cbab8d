/*
 * topk.c - argext_topk in the harness: k, largest and sorted, the two outputs
 * (values and int64 indices: right, strided, overlapping themselves or each
 * other, or wrong in one way), long rows of pseudo-random elements, and the
 * reference: each row's elements sorted by the rule of argext.h (NaN first,
 * then by value, largest or smallest first, equal ones by the lower index),
 * the first k kept, put in index order when sorted == 0.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_api.h"

#define LONG_ROW_ELEMENTS (1 << 18) /* a lengthened axis keeps the input this small */

static int valid_axis(const call *c)
{
    const argext_tensor *in = &c->in.t;
    if (!in->shape || in->rank < 1 || in->rank > ARGEXT_MAX_RANK)
        return -1;
    if (c->axis < -in->rank || c->axis >= in->rank)
        return -1;
    return (int)(c->axis < 0 ? c->axis + in->rank : c->axis);
}

/* Rarely, a long axis (up to 4095): the scans' blocks and the candidate set's
   compaction are reached only by rows longer than the 8 draw_input gives. */
static void lengthen_axis(source *s, call *c, int axis)
{
    tensor *x = &c->in;
    if (pick(s, 4) != 0)
        return;
    int64_t n = pick(s, 256) + 256 * (int64_t)pick(s, 16), others = 1;
    for (int d = 0; d < x->t.rank; d++)
        if (d != axis)
            others *= x->shape[d] > 0 ? x->shape[d] : 1;
    if (others * n <= LONG_ROW_ELEMENTS && x->shape[axis] >= 0)
        x->shape[axis] = n;
}

/* k: mostly in [0, n] (small, n, or anywhere), rarely negative or past n. */
static int64_t draw_k(source *s, int64_t n)
{
    int kind = pick(s, 16);
    if (kind == 0)
        return pick(s, 2) ? INT64_MIN : -pick_in(s, 1, 2);
    if (kind == 1)
        return pick(s, 2) || n > INT64_MAX - 2 ? INT64_MAX : n + pick_in(s, 1, 2);
    if (kind == 2)
        return 0;
    if (kind == 3)
        return n;
    if (kind < 10)
        return pick(s, n < 8 ? (int)n + 1 : 9);
    int64_t r = pick(s, 256) + 256 * (int64_t)pick(s, 256);
    return n < INT64_MAX ? r % (n + 1) : r;
}

/* An output: the input's shape with the axis' extent k (as far as the call
   lets one be formed), dtype dt; maybe wrong in one way, maybe strided, and
   rarely a zero stride (elements written over each other). */
static void draw_topk_output(source *s, const call *c, tensor *y, int dt, int axis)
{
    const argext_tensor *in = &c->in.t;
    int rank = 0;
    for (int d = 0; d < in->rank && d <= ARGEXT_MAX_RANK && in->shape; d++) {
        int64_t k = c->k >= 0 && c->k < ((int64_t)1 << 40) ? c->k : 1;
        y->shape[rank++] = d == axis ? k : in->shape[d];
    }
    finish_output(s, y, rank, dt);
    if (y->t.strides && y->t.rank > 0 && pick(s, 16) == 0)
        y->strides[pick(s, y->t.rank)] = 0;
}

/* Values written into the indices' memory: the indices' strides (8-byte
   elements) hold each value inside its index, so the buffer covers both. */
static void draw_sharing(source *s, call *c)
{
    tensor *v = &c->out, *i = &c->idx;
    c->shared = pick(s, 8) == 0 && v->t.rank == i->t.rank && v->t.rank >= 0 &&
                v->t.rank <= ARGEXT_MAX_RANK;
    for (int d = 0; c->shared && d < v->t.rank; d++)
        c->shared = v->shape[d] == i->shape[d];
    if (!c->shared)
        return;
    for (int d = 0; d < v->t.rank; d++)
        v->strides[d] = stride_of(i, d, 8);
    v->t.strides = v->strides;
}

void draw_topk(source *s, call *c, int huge)
{
    int axis = valid_axis(c);
    if (axis >= 0 && !huge)
        lengthen_axis(s, c, axis);
    int64_t n = axis >= 0 && c->in.shape[axis] >= 0 ? c->in.shape[axis] : 8;
    c->k = draw_k(s, n);
    c->largest = pick(s, 16) == 0 ? (int)pick_in(s, -1, 2) : pick(s, 2);
    c->sorted = pick(s, 16) == 0 ? (int)pick_in(s, -1, 2) : pick(s, 2);
    draw_topk_output(s, c, &c->out, (int)c->in.t.dtype & 0xff, axis);
    draw_topk_output(s, c, &c->idx, ARGEXT_INT64, axis);
    c->idx_null = pick(s, 64) == 0;
    draw_sharing(s, c);
}

void share_topk_outputs(call *c)
{
    if (!c->shared || !c->out.buffer || !c->idx.buffer)
        return;
    free(c->out.buffer);
    c->out.buffer = NULL;
    c->out.bytes = 0;
    c->out.t.data = c->idx.t.data;
}

static uint64_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005u + 1442695040888963407u;
    return *state >> 33;
}

/* fill_input's elements, or a pseudo-random stream (a long row outlasts the
   input's bytes): raw bytes, some special values among them, or only those. */
void fill_topk_input(source *s, tensor *x)
{
    if (pick(s, 2) == 0) {
        fill_input(s, x);
        return;
    }
    uint64_t state = byte_of(s) | (uint64_t)byte_of(s) << 8;
    int dt = (int)x->t.dtype & 0xff, swapped = ((int)x->t.dtype & ARGEXT_BYTESWAPPED) != 0;
    size_t size = itemsizes[dt];
    int mode = pick(s, 3); /* 0: raw; 1: one in 8 special; 2: all special (ties) */
    if (x->count > (int64_t)x->bytes) { /* elements repeat (zero strides): fill the bytes */
        for (size_t k = 0; k < x->bytes; k++)
            x->buffer[k] = (unsigned char)next_random(&state);
        return;
    }
    for (int64_t e = 0; e < x->count; e++) {
        unsigned char *p = (unsigned char *)x->t.data + offset_of(x, e, size);
        uint64_t r = next_random(&state);
        if (mode == 2 || (mode == 1 && r % 8 == 0))
            store_special(p, dt, swapped, (int)(r >> 3) % 8);
        else
            for (size_t k = 0; k < size; k++)
                p[k] = (unsigned char)(k == 0 ? r : next_random(&state));
    }
}

/* ---- the reference ------------------------------------------------------------------ */

typedef struct {
    value v;
    int64_t index;
} ranked;

static int sort_dt, sort_largest; /* qsort's context (one call at a time) */

static int by_index(const void *pa, const void *pb)
{
    const ranked *a = pa, *b = pb;
    return (a->index > b->index) - (a->index < b->index);
}

/* NaN first, then the value (largest or smallest first), then the lower index. */
static int by_rank(const void *pa, const void *pb)
{
    const ranked *a = pa, *b = pb;
    if (a->v.nan != b->v.nan)
        return a->v.nan ? -1 : 1;
    int cmp = a->v.nan ? 0 : compare(a->v, b->v, sort_dt);
    if (cmp != 0)
        return sort_largest ? -cmp : cmp;
    return by_index(pa, pb);
}

/* The byte offset of element j along the axis in row `row` (row-major over
   the other dimensions) of x. */
static int64_t row_offset(const tensor *x, int axis, int64_t row, int64_t j, size_t size)
{
    int64_t off = 0;
    for (int d = x->t.rank - 1; d >= 0; d--) {
        if (d == axis) {
            off += j * stride_of(x, d, size);
            continue;
        }
        int64_t n = x->t.shape[d];
        off += (row % n) * stride_of(x, d, size);
        row /= n;
    }
    return off;
}

/* Row `row`'s k values and indices against the sorted row. */
static void check_row(const call *c, int axis, int64_t row, ranked *buf, argext_isa level)
{
    const tensor *x = &c->in;
    int dt = (int)x->t.dtype & 0xff, swapped = ((int)x->t.dtype & ARGEXT_BYTESWAPPED) != 0;
    size_t size = itemsizes[dt];
    const unsigned char *in = x->t.data;
    int64_t n = x->t.shape[axis];
    for (int64_t j = 0; j < n; j++) {
        buf[j].v = load_value(in + row_offset(x, axis, row, j, size), dt, swapped);
        buf[j].index = j;
    }
    qsort(buf, (size_t)n, sizeof *buf, by_rank);
    if (!c->sorted)
        qsort(buf, (size_t)c->k, sizeof *buf, by_index);
    for (int64_t j = 0; j < c->k; j++) {
        int64_t got;
        memcpy(&got, (const unsigned char *)c->idx.t.data + row_offset(&c->idx, axis, row, j, 8),
               8);
        CHECK(got == buf[j].index, "topk dtype %d ISA %s largest %d sorted %d: row %lld, "
              "index %lld: got %lld, want %lld", (int)x->t.dtype, argext_isa_name(level),
              c->largest, c->sorted, (long long)row, (long long)j, (long long)got,
              (long long)buf[j].index);
        const unsigned char *src = in + row_offset(x, axis, row, buf[j].index, size);
        unsigned char want[8];
        for (size_t b = 0; b < size; b++)
            want[b] = src[swapped ? size - 1 - b : b];
        CHECK(memcmp((const unsigned char *)c->out.t.data +
                         row_offset(&c->out, axis, row, j, size), want, size) == 0,
              "topk dtype %d ISA %s: row %lld, value %lld is not element %lld's bits",
              (int)x->t.dtype, argext_isa_name(level), (long long)row, (long long)j,
              (long long)buf[j].index);
    }
}

/* Whether an output's elements lie over each other (a zero stride). */
static int overlaps_itself(const tensor *y)
{
    for (int d = 0; y->t.strides && d < y->t.rank; d++)
        if (y->t.strides[d] == 0 && y->t.shape[d] > 1)
            return 1;
    return 0;
}

int topk_outputs_overlap(const call *c)
{
    return c->shared || overlaps_itself(&c->out) || overlaps_itself(&c->idx);
}

void check_topk(const call *c, argext_status st, argext_isa level)
{
    CHECK(st == ARGEXT_OK, "topk: a valid call returned %d (%s)", st, argext_status_string(st));
    /* overlapping outputs: any element may win; the run must only stay in bounds */
    if (topk_outputs_overlap(c))
        return;
    int axis = valid_axis(c);
    const argext_tensor *in = &c->in.t;
    int64_t rows = 1, n = in->shape[axis];
    for (int d = 0; d < in->rank; d++)
        rows *= d == axis ? 1 : in->shape[d];
    if (c->k == 0 || rows == 0 || n == 0)
        return;
    ranked *buf = malloc((size_t)n * sizeof *buf);
    CHECK(buf != NULL, "out of memory");
    sort_dt = (int)in->dtype & 0xff;
    sort_largest = c->largest;
    for (int64_t row = 0; row < rows; row++)
        check_row(c, axis, row, buf, level);
    free(buf);
}
