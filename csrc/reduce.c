/*
 * reduce.c - plan and run an arg reduction over strided memory.
 */
#include <stdint.h>
#include <string.h>

#include "kernels.h"
#include "reduce.h"
#include "threads.h"

/* Columns per block in the column fold: a 4096-wide row is read whole (one
   memory stream), while its keys and indices stay in L1/L2. */
#define COL_BLOCK 4096

typedef struct {
    int64_t n, in, out;
} kept_dim;

typedef struct {
    int64_t n, stride, weight; /* weight: multiplier in the flattened index */
} red_dim;

/* Odometer over nd dimensions carrying two offsets (a byte offset and a
   second stride: output bytes or flat-index weight). */
typedef struct {
    int nd;
    const int64_t *n;
    int64_t i[ARGEXT_MAX_RANK];
    int64_t a, b;
} odometer;

static void odo_start(odometer *o, int nd, const int64_t *n)
{
    o->nd = nd;
    o->n = n;
    memset(o->i, 0, sizeof(o->i[0]) * (size_t)(nd > 0 ? nd : 1));
    o->a = o->b = 0;
}

/* Advance; returns 0 once every position has been visited. */
static int odo_next(odometer *o, const int64_t *sa, const int64_t *sb)
{
    for (int d = o->nd - 1; d >= 0; d--) {
        if (++o->i[d] < o->n[d]) {
            o->a += sa[d];
            o->b += sb[d];
            return 1;
        }
        o->i[d] = 0;
        o->a -= (o->n[d] - 1) * sa[d];
        o->b -= (o->n[d] - 1) * sb[d];
    }
    return 0;
}

static void store_index(char *p, argext_dtype dt, int64_t v)
{
    switch (dt) {
    case ARGEXT_INT32: {
        int32_t x = (int32_t)v;
        memcpy(p, &x, sizeof x);
        break;
    }
    case ARGEXT_UINT32: {
        uint32_t x = (uint32_t)v;
        memcpy(p, &x, sizeof x);
        break;
    }
    case ARGEXT_UINT64: {
        uint64_t x = (uint64_t)v;
        memcpy(p, &x, sizeof x);
        break;
    }
    default:
        memcpy(p, &v, sizeof v);
        break;
    }
}

static int64_t abs64(int64_t x) { return x < 0 ? -x : x; }

/* Zero strides sort as the largest, so broadcast dimensions become outer loops. */
static uint64_t stride_rank(int64_t s) { return s == 0 ? UINT64_MAX : (uint64_t)abs64(s); }

/* The collapsed request: outer kept dimensions, the inner kept dimension,
   outer reduced dimensions ("along") and the reduced axis, with the kernels
   of the ISA level this call uses. */
typedef struct {
    const char *in;
    char *out;
    int64_t flat0; /* flat-index part of the zero-stride reduced dimensions */
    int nk, nr;    /* outer kept dims; reduced dims (the axis is the last) */
    int64_t kn[ARGEXT_MAX_RANK], kin[ARGEXT_MAX_RANK], kout[ARGEXT_MAX_RANK];
    int64_t rn[ARGEXT_MAX_RANK], rstride[ARGEXT_MAX_RANK], rweight[ARGEXT_MAX_RANK];
    kept_dim inner;
    red_dim axis;
    int column_mode, direct, last;
    argext_dtype out_dtype;
    argext_row_kernel row;
    argext_cols_kernel cols;
    argext_rows_kernel rows;
} plan;

static void make_plan(const argext_reduction *r, plan *pl)
{
    kept_dim kept[ARGEXT_MAX_RANK];
    red_dim red[ARGEXT_MAX_RANK];
    int nk = 0, nr = 0;
    const char *in = r->data;
    char *out = r->out;
    int64_t flat0 = 0, weight = 1;

    /* Reduced dimensions, innermost first. A zero-stride one holds equal
       values, so its best index is fixed: 0 for first, n-1 for last. */
    for (int d = r->rank - 1; d >= 0; d--) {
        if (!r->reduced[d])
            continue;
        int64_t n = r->shape[d];
        if (n != 1) {
            if (r->strides[d] == 0) {
                flat0 += r->last ? (n - 1) * weight : 0;
            } else if (nr > 0 && red[nr - 1].stride * red[nr - 1].n == r->strides[d] &&
                       red[nr - 1].weight * red[nr - 1].n == weight) {
                red[nr - 1].n *= n; /* contiguous with the one inside it: merge */
            } else {
                red[nr++] = (red_dim){n, r->strides[d], weight};
            }
        }
        weight *= n;
    }
    if (nr == 0)
        red[nr++] = (red_dim){1, 0, 0};
    for (int a = 0, b = nr - 1; a < b; a++, b--) { /* outermost first */
        red_dim t = red[a];
        red[a] = red[b];
        red[b] = t;
    }

    /* Kept dimensions: positive input strides, sorted outermost first. */
    for (int d = 0; d < r->rank; d++) {
        if (r->reduced[d] || r->shape[d] == 1)
            continue;
        kept_dim k = {r->shape[d], r->strides[d], r->out_strides[d]};
        if (k.in < 0) {
            in += (k.n - 1) * k.in;
            out += (k.n - 1) * k.out;
            k.in = -k.in;
            k.out = -k.out;
        }
        int j = nk++;
        while (j > 0 && stride_rank(kept[j - 1].in) < stride_rank(k.in)) {
            kept[j] = kept[j - 1];
            j--;
        }
        kept[j] = k;
    }
    int nc = 0;
    for (int j = 0; j < nk; j++) {
        if (nc > 0 && kept[nc - 1].in == kept[j].in * kept[j].n &&
            kept[nc - 1].out == kept[j].out * kept[j].n) {
            kept[nc - 1].n *= kept[j].n;
            kept[nc - 1].in = kept[j].in;
            kept[nc - 1].out = kept[j].out;
        } else {
            kept[nc++] = kept[j];
        }
    }
    nk = nc;

    pl->in = in;
    pl->out = out;
    pl->flat0 = flat0;
    pl->inner = nk > 0 ? kept[--nk] : (kept_dim){1, 0, 0};
    pl->axis = red[nr - 1];
    pl->nk = nk;
    pl->nr = nr;
    /* Reduce along rows when the axis walks memory faster than the inner
       dimension; otherwise fold whole rows of contiguous columns. */
    pl->column_mode = pl->inner.n > 1 &&
                      (pl->axis.n == 1 || abs64(pl->inner.in) < abs64(pl->axis.stride));
    /* Row indices that are already the output: contiguous (aligned) int64. */
    pl->direct = r->out_dtype == ARGEXT_INT64 && pl->inner.out == (int64_t)sizeof(int64_t) &&
                 flat0 == 0 && pl->axis.weight == 1;
    pl->last = r->last;
    pl->out_dtype = r->out_dtype;

    const argext_kernel_table *kt = argext_active_kernels();
    pl->row = kt->row[r->op][r->dtype];
    pl->cols = kt->cols[r->op][r->dtype];
    pl->rows = kt->rows[r->op][r->dtype];
    for (int j = 0; j < nk; j++) {
        pl->kn[j] = kept[j].n;
        pl->kin[j] = kept[j].in;
        pl->kout[j] = kept[j].out;
    }
    for (int j = 0; j < nr - 1; j++) {
        pl->rn[j] = red[j].n;
        pl->rstride[j] = red[j].stride;
        pl->rweight[j] = red[j].weight;
    }
}

/* Positions the odometer at the position `linear` (row-major) of its space. */
static void odo_seek(odometer *o, int64_t linear, const int64_t *sa, const int64_t *sb)
{
    for (int d = o->nd - 1; d >= 0; d--) {
        o->i[d] = linear % o->n[d];
        linear /= o->n[d];
        o->a += o->i[d] * sa[d];
        o->b += o->i[d] * sb[d];
    }
}

/* Columns or rows [j0, j1) of the inner dimension at one outer position. */
static void run_inner(const plan *pl, const char *pin, char *pout, int64_t j0, int64_t j1)
{
    int64_t keys[COL_BLOCK]; /* 8-byte slots hold any key type */
    int64_t idx[COL_BLOCK];
    const red_dim *axis = &pl->axis;
    const kept_dim *inner = &pl->inner;
    odometer along;
    if (pl->column_mode) {
        for (; j0 < j1; j0 += COL_BLOCK) {
            int64_t bn = j1 - j0 < COL_BLOCK ? j1 - j0 : COL_BLOCK;
            const char *p = pin + j0 * inner->in;
            int init = 1;
            odo_start(&along, pl->nr - 1, pl->rn);
            do {
                pl->cols(p + along.a, axis->n, axis->stride, axis->weight, bn, inner->in, along.b,
                         pl->last, init, keys, idx);
                init = 0;
            } while (odo_next(&along, pl->rstride, pl->rweight));
            for (int64_t j = 0; j < bn; j++)
                store_index(pout + (j0 + j) * inner->out, pl->out_dtype, pl->flat0 + idx[j]);
        }
    } else if (pl->nr == 1 && pl->direct &&
               (uintptr_t)(pout + j0 * inner->out) % sizeof(int64_t) == 0) {
        pl->rows(pin + j0 * inner->in, j1 - j0, inner->in, axis->n, axis->stride, pl->last,
                 (int64_t *)(pout + j0 * inner->out));
    } else if (pl->nr == 1) {
        /* One reduced run per row: whole rows in batches, no per-row call. */
        for (; j0 < j1; j0 += COL_BLOCK) {
            int64_t bn = j1 - j0 < COL_BLOCK ? j1 - j0 : COL_BLOCK;
            pl->rows(pin + j0 * inner->in, bn, inner->in, axis->n, axis->stride, pl->last, idx);
            for (int64_t j = 0; j < bn; j++)
                store_index(pout + (j0 + j) * inner->out, pl->out_dtype,
                            pl->flat0 + idx[j] * axis->weight);
        }
    } else {
        for (int64_t j = j0; j < j1; j++) {
            const char *p = pin + j * inner->in;
            int64_t best = 0;
            int init = 1;
            odo_start(&along, pl->nr - 1, pl->rn);
            do {
                int64_t i = pl->row(p + along.a, axis->n, axis->stride, pl->last, init, keys);
                if (i >= 0)
                    best = along.b + i * axis->weight;
                init = 0;
            } while (odo_next(&along, pl->rstride, pl->rweight));
            store_index(pout + j * inner->out, pl->out_dtype, pl->flat0 + best);
        }
    }
}

/* Kept positions [k0, k1): position k is outer position k / inner.n, inner
   index k % inner.n. */
static void run_kept(const plan *pl, int64_t k0, int64_t k1)
{
    const int64_t n = pl->inner.n;
    odometer outer;
    odo_start(&outer, pl->nk, pl->kn);
    odo_seek(&outer, k0 / n, pl->kin, pl->kout);
    for (int64_t o = k0 / n; o * n < k1; o++) {
        int64_t j0 = o * n < k0 ? k0 - o * n : 0, j1 = (o + 1) * n > k1 ? k1 - o * n : n;
        run_inner(pl, pl->in + outer.a, pl->out + outer.b, j0, j1);
        odo_next(&outer, pl->kin, pl->kout);
    }
}

/* ------------------------------------------------------------------------
 * The split over threads (threads.h). Results do not depend on it:
 * - many kept positions: each part takes a range of them (rows, or columns
 *   when reducing an outer axis);
 * - few kept positions, long reductions: each one's reduced elements, in
 *   row-major order, are cut into pieces; each piece finds its best element,
 *   then the pieces' bests are folded in index order through the row kernel
 *   itself (one element each), so the comparison, the NaN rule and the
 *   first/last rule are exactly those of one sequential pass.
 */

/* Tasks of one call; a piece result is 16 bytes. */
#define MAX_PIECES 256

typedef struct {
    int64_t flat;    /* flat index over the reduced dims */
    const char *at;  /* the element */
} piece_best;

typedef struct {
    const plan *pl;
    int64_t ranges;   /* kept-range split: its number of ranges, and pieces == 0 */
    int64_t pieces;   /* piece split: pieces per kept position */
    piece_best *best; /* kept * pieces results */
} split;

/* The best of reduced elements [e0, e1) (row-major over along dims and the
   axis) at kept position k. */
static piece_best reduce_piece(const plan *pl, int64_t k, int64_t e0, int64_t e1)
{
    const int64_t n = pl->axis.n, stride = pl->axis.stride;
    int64_t key[1];
    odometer outer, along;
    odo_start(&outer, pl->nk, pl->kn);
    odo_seek(&outer, k / pl->inner.n, pl->kin, pl->kout);
    const char *p = pl->in + outer.a + (k % pl->inner.n) * pl->inner.in;
    odo_start(&along, pl->nr - 1, pl->rn);
    odo_seek(&along, e0 / n, pl->rstride, pl->rweight);
    piece_best best = {0, p};
    for (int64_t e = e0; e < e1;) {
        int64_t i0 = e % n, m = n - i0 < e1 - e ? n - i0 : e1 - e;
        const char *q = p + along.a + i0 * stride;
        int64_t i = pl->row(q, m, stride, pl->last, e == e0, key);
        if (i >= 0) {
            best.flat = along.b + (i0 + i) * pl->axis.weight;
            best.at = q + i * stride;
        }
        e += m;
        odo_next(&along, pl->rstride, pl->rweight);
    }
    return best;
}

static void split_task(void *context, int64_t t)
{
    const split *sp = (const split *)context;
    const plan *pl = sp->pl;
    if (sp->pieces == 0) { /* kept range t of sp->ranges */
        int64_t total = pl->inner.n, parts = sp->ranges;
        for (int j = 0; j < pl->nk; j++)
            total *= pl->kn[j];
        run_kept(pl, total / parts * t + (t < total % parts ? t : total % parts),
                 total / parts * (t + 1) + (t + 1 < total % parts ? t + 1 : total % parts));
        return;
    }
    int64_t k = t / sp->pieces, c = t % sp->pieces;
    int64_t count = pl->axis.n;
    for (int j = 0; j < pl->nr - 1; j++)
        count *= pl->rn[j];
    sp->best[t] = reduce_piece(pl, k, count / sp->pieces * c, c + 1 == sp->pieces ? count :
                               count / sp->pieces * (c + 1));
}

/* Folds kept position k's piece bests, in index order, and writes its index. */
static void merge_pieces(const plan *pl, int64_t k, const piece_best *best, int64_t pieces)
{
    int64_t key[1], flat = 0;
    for (int64_t c = 0; c < pieces; c++)
        if (pl->row(best[c].at, 1, pl->axis.stride, pl->last, c == 0, key) >= 0)
            flat = best[c].flat;
    odometer outer;
    odo_start(&outer, pl->nk, pl->kn);
    odo_seek(&outer, k / pl->inner.n, pl->kin, pl->kout);
    store_index(pl->out + outer.b + (k % pl->inner.n) * pl->inner.out, pl->out_dtype,
                pl->flat0 + flat);
}

void argext_reduce(const argext_reduction *r)
{
    plan pl;
    make_plan(r, &pl);
    int64_t kept = pl.inner.n, count = pl.axis.n;
    for (int j = 0; j < pl.nk; j++)
        kept *= pl.kn[j];
    for (int j = 0; j < pl.nr - 1; j++)
        count *= pl.rn[j];
    int64_t bytes = kept > INT64_MAX / count ? INT64_MAX : kept * count;
    bytes = bytes > INT64_MAX / 8 ? INT64_MAX : bytes * (int64_t)argext_dtype_size(r->dtype);
    int parts = argext_parts_for(bytes);
    if (parts == 1) {
        run_kept(&pl, 0, kept);
        return;
    }
    split sp = {&pl, parts, 0, NULL};
    /* Column folds keep their rows whole (a piece would read one column's
       elements far apart): they split by columns, at most one per part. */
    if (kept >= 8 * (int64_t)parts || pl.column_mode) {
        sp.ranges = kept < parts ? kept : parts;
        argext_run_parallel(sp.ranges, split_task, &sp);
        return;
    }
    /* Few long reductions: kept * pieces tasks, at least `parts` of them. */
    piece_best best[MAX_PIECES];
    sp.pieces = parts < MAX_PIECES / kept ? parts : MAX_PIECES / kept;
    if (sp.pieces > count)
        sp.pieces = count;
    if (sp.pieces < 1)
        sp.pieces = 1;
    sp.best = best;
    argext_run_parallel(kept * sp.pieces, split_task, &sp);
    for (int64_t k = 0; k < kept; k++)
        merge_pieces(&pl, k, best + k * sp.pieces, sp.pieces);
}
