/*
 * reduce.c - plan and run an arg reduction over strided memory.
 */
#include <stdint.h>
#include <string.h>

#include "kernels.h"
#include "reduce.h"

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

void argext_reduce(const argext_reduction *r)
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

    kept_dim inner = nk > 0 ? kept[--nk] : (kept_dim){1, 0, 0};
    const red_dim *axis = &red[nr - 1];
    /* Reduce along rows when the axis walks memory faster than the inner
       dimension; otherwise fold whole rows of contiguous columns. */
    int column_mode = inner.n > 1 && (axis->n == 1 || abs64(inner.in) < abs64(axis->stride));

    const argext_kernel_table *kt = argext_active_kernels();
    argext_row_kernel row = kt->row[r->op][r->dtype];
    argext_cols_kernel cols = kt->cols[r->op][r->dtype];
    argext_rows_kernel rows = kt->rows[r->op][r->dtype];

    int64_t kn[ARGEXT_MAX_RANK], kin[ARGEXT_MAX_RANK], kout[ARGEXT_MAX_RANK];
    int64_t rn[ARGEXT_MAX_RANK], rstride[ARGEXT_MAX_RANK], rweight[ARGEXT_MAX_RANK];
    for (int j = 0; j < nk; j++) {
        kn[j] = kept[j].n;
        kin[j] = kept[j].in;
        kout[j] = kept[j].out;
    }
    for (int j = 0; j < nr - 1; j++) {
        rn[j] = red[j].n;
        rstride[j] = red[j].stride;
        rweight[j] = red[j].weight;
    }

    /* Row indices that are already the output: contiguous (aligned) int64. */
    int direct = r->out_dtype == ARGEXT_INT64 && inner.out == (int64_t)sizeof(int64_t) &&
                 flat0 == 0 && axis->weight == 1;
    int64_t keys[COL_BLOCK]; /* 8-byte slots hold any key type */
    int64_t idx[COL_BLOCK];
    odometer outer, along;
    odo_start(&outer, nk, kn);
    do {
        const char *pin = in + outer.a;
        char *pout = out + outer.b;
        if (column_mode) {
            for (int64_t j0 = 0; j0 < inner.n; j0 += COL_BLOCK) {
                int64_t bn = inner.n - j0 < COL_BLOCK ? inner.n - j0 : COL_BLOCK;
                const char *p = pin + j0 * inner.in;
                int init = 1;
                odo_start(&along, nr - 1, rn);
                do {
                    cols(p + along.a, axis->n, axis->stride, axis->weight, bn, inner.in,
                         along.b, r->last, init, keys, idx);
                    init = 0;
                } while (odo_next(&along, rstride, rweight));
                for (int64_t j = 0; j < bn; j++)
                    store_index(pout + (j0 + j) * inner.out, r->out_dtype, flat0 + idx[j]);
            }
        } else if (nr == 1 && direct && (uintptr_t)pout % sizeof(int64_t) == 0) {
            rows(pin, inner.n, inner.in, axis->n, axis->stride, r->last, (int64_t *)pout);
        } else if (nr == 1) {
            /* One reduced run per row: whole rows in batches, no per-row call. */
            for (int64_t j0 = 0; j0 < inner.n; j0 += COL_BLOCK) {
                int64_t bn = inner.n - j0 < COL_BLOCK ? inner.n - j0 : COL_BLOCK;
                rows(pin + j0 * inner.in, bn, inner.in, axis->n, axis->stride, r->last, idx);
                for (int64_t j = 0; j < bn; j++)
                    store_index(pout + (j0 + j) * inner.out, r->out_dtype,
                                flat0 + idx[j] * axis->weight);
            }
        } else {
            for (int64_t j = 0; j < inner.n; j++) {
                const char *p = pin + j * inner.in;
                int64_t best = 0;
                int init = 1;
                odo_start(&along, nr - 1, rn);
                do {
                    int64_t i = row(p + along.a, axis->n, axis->stride, r->last, init, keys);
                    if (i >= 0)
                        best = along.b + i * axis->weight;
                    init = 0;
                } while (odo_next(&along, rstride, rweight));
                store_index(pout + j * inner.out, r->out_dtype, flat0 + best);
            }
        }
    } while (odo_next(&outer, kin, kout));
}
