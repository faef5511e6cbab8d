/*
 * reduce.c - plan and run an arg reduction over strided memory.
 */
#include <stdint.h>
#include <string.h>

#include "kernels/dtypes.h"
#include "engine/reduce.h"

/* Bytes of byte-swapped short rows swapped per many-rows kernel call: they
   stay in L1 between the swap and the kernel. */
#define SWAP_ROW_BYTES 16384

/* ------------------------------------------------------------ iterator */

void argext_iter_seek(argext_iter *it, int nd, const argext_dim *dim, int64_t k)
{
    it->nd = nd;
    it->dim = dim;
    it->a = it->b = 0;
    for (int d = nd - 1; d >= 0; d--) {
        it->i[d] = k % dim[d].n;
        k /= dim[d].n;
        it->a += it->i[d] * dim[d].a;
        it->b += it->i[d] * dim[d].b;
    }
}

int argext_iter_next(argext_iter *it)
{
    for (int d = it->nd - 1; d >= 0; d--) {
        const argext_dim *x = &it->dim[d];
        if (++it->i[d] < x->n) {
            it->a += x->a;
            it->b += x->b;
            return 1;
        }
        it->i[d] = 0;
        it->a -= (x->n - 1) * x->a;
        it->b -= (x->n - 1) * x->b;
    }
    return 0;
}

/* ------------------------------------------------------------ plan */

void argext_store_index(char *p, argext_dtype dt, int64_t v)
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

void argext_plan_build(argext_plan *p, const argext_reduction *r)
{
    argext_dim *red = p->along, *kept = p->kept;
    int nk = 0, nr = 0;
    int64_t weight = 1;
    p->in = r->data;
    p->out = r->out;
    p->dtype = (argext_dtype)(r->dtype & ~ARGEXT_BYTESWAPPED);
    p->itemsize = argext_itemsize(p->dtype);
    p->swapped = (r->dtype & ARGEXT_BYTESWAPPED) && p->itemsize > 1;
    p->out_dtype = r->out_dtype;
    p->last = r->last;
    p->flat0 = 0;

    /* Reduced dimensions, innermost first. A zero-stride one holds equal
       values, so its best index is fixed: 0 for first, n-1 for last. */
    for (int d = r->rank - 1; d >= 0; d--) {
        if (!r->reduced[d])
            continue;
        int64_t n = r->shape[d];
        if (n != 1) {
            if (r->strides[d] == 0) {
                p->flat0 += r->last ? (n - 1) * weight : 0;
            } else if (nr > 0 && red[nr - 1].a * red[nr - 1].n == r->strides[d] &&
                       red[nr - 1].b * red[nr - 1].n == weight) {
                red[nr - 1].n *= n; /* contiguous with the one inside it: merge */
            } else {
                red[nr++] = (argext_dim){n, r->strides[d], weight};
            }
        }
        weight *= n;
    }
    if (nr == 0)
        red[nr++] = (argext_dim){1, 0, 0};
    p->axis = red[0]; /* the innermost */
    for (int a = 1, b = nr - 1; a < b; a++, b--) { /* the others, outermost first */
        argext_dim t = red[a];
        red[a] = red[b];
        red[b] = t;
    }
    memmove(red, red + 1, sizeof(red[0]) * (size_t)(nr - 1));
    p->nr = nr - 1;

    /* Kept dimensions: positive input strides, sorted outermost first. */
    const char *in = r->data;
    char *out = r->out;
    for (int d = 0; d < r->rank; d++) {
        if (r->reduced[d] || r->shape[d] == 1)
            continue;
        argext_dim k = {r->shape[d], r->strides[d], r->out_strides[d]};
        if (k.a < 0) {
            in += (k.n - 1) * k.a;
            out += (k.n - 1) * k.b;
            k.a = -k.a;
            k.b = -k.b;
        }
        int j = nk++;
        while (j > 0 && stride_rank(kept[j - 1].a) < stride_rank(k.a)) {
            kept[j] = kept[j - 1];
            j--;
        }
        kept[j] = k;
    }
    int nc = 0;
    for (int j = 0; j < nk; j++) {
        if (nc > 0 && kept[nc - 1].a == kept[j].a * kept[j].n &&
            kept[nc - 1].b == kept[j].b * kept[j].n) {
            kept[nc - 1].n *= kept[j].n;
            kept[nc - 1].a = kept[j].a;
            kept[nc - 1].b = kept[j].b;
        } else {
            kept[nc++] = kept[j];
        }
    }
    nk = nc;
    p->in = in;
    p->out = out;
    p->inner = nk > 0 ? kept[--nk] : (argext_dim){1, 0, 0};
    p->nk = nk;
    p->positions = p->inner.n;
    for (int j = 0; j < nk; j++)
        p->positions *= kept[j].n;

    /* Reduce along rows when the axis walks memory faster than the inner
       dimension; otherwise fold whole rows of contiguous columns. */
    p->column_mode =
        p->inner.n > 1 && (p->axis.n == 1 || abs64(p->inner.a) < abs64(p->axis.a));
    /* Row indices that are already the output: contiguous int64. */
    p->direct = p->nr == 0 && r->out_dtype == ARGEXT_INT64 &&
                p->inner.b == (int64_t)sizeof(int64_t) && p->flat0 == 0 && p->axis.b == 1;

    const argext_kernel_table *kt = argext_active_kernels();
    /* byte-swapped rows: a row kernel that swaps as it reads */
    p->row = (p->swapped ? kt->row_swapped : kt->row)[r->op][p->dtype];
    p->cols = kt->cols[r->op][p->dtype];
    p->cols_swapped = kt->cols_swapped[r->op][p->dtype];
    p->rows = kt->rows[r->op][p->dtype];
    p->swap = kt->swap;
}

/* ------------------------------------------------------------ running */

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Elements [e0, e1) of the row at q, numbered row-major over the reduced
   dimensions; returns the flat index of the new best, or -1. */
static int64_t fold_row(const argext_plan *p, const char *q, int64_t e0, int64_t e1, int init,
                        void *key)
{
    int64_t best = -1, an = p->axis.n, i0 = e0 % an;
    argext_iter al;
    argext_iter_seek(&al, p->nr, p->along, e0 / an);
    while (e0 < e1) {
        int64_t i1 = min64(an, i0 + (e1 - e0));
        int64_t i = p->row(q + al.a + i0 * p->axis.a, i1 - i0, p->axis.a, p->last, init, key);
        if (i >= 0)
            best = al.b + (i0 + i) * p->axis.b;
        init = 0;
        e0 += i1 - i0;
        i0 = 0;
        if (!argext_iter_next(&al))
            break;
    }
    return best;
}

/* bn columns at q folded over the axis into s->keys / s->idx. */
static void fold_cols(const argext_plan *p, const char *q, int64_t bn, int64_t f0, int init,
                      argext_arena *s)
{
    if (!p->swapped) {
        p->cols(q, p->axis.n, p->axis.a, p->axis.b, bn, p->inner.a, f0, p->last, init, s->keys,
                s->idx);
        return;
    }
    /* byte-swapped: read in place where the kernel can, else through scratch */
    if (p->cols_swapped(q, p->axis.n, p->axis.a, p->axis.b, bn, p->inner.a, f0, p->last, init,
                        s->keys, s->idx))
        return;
    int64_t w = bn * (int64_t)p->itemsize, chunk = ARGEXT_SWAP_BYTES / w;
    chunk = chunk > 0 ? chunk : 1;
    for (int64_t r0 = 0; r0 < p->axis.n; r0 += chunk) {
        int64_t m = min64(chunk, p->axis.n - r0);
        p->swap(s->swap, q + r0 * p->axis.a, m, p->axis.a, bn, p->inner.a, (int)p->itemsize,
                m * p->axis.a);
        p->cols((const char *)s->swap, m, w, p->axis.b, bn, (int64_t)p->itemsize,
                f0 + r0 * p->axis.b, p->last, init && r0 == 0, s->keys, s->idx);
    }
}

/* Kept positions [j0, j1) of one inner run. */
static void run_inner(const argext_plan *p, const char *pin, char *pout, int64_t j0, int64_t j1,
                      argext_arena *s)
{
    const argext_dim *inner = &p->inner;
    if (p->column_mode) {
        for (int64_t jb = j0; jb < j1; jb += ARGEXT_COL_BLOCK) {
            int64_t bn = min64(ARGEXT_COL_BLOCK, j1 - jb);
            const char *q = pin + jb * inner->a;
            int init = 1;
            argext_iter al;
            argext_iter_seek(&al, p->nr, p->along, 0);
            do {
                fold_cols(p, q + al.a, bn, al.b, init, s);
                init = 0;
            } while (argext_iter_next(&al));
            for (int64_t j = 0; j < bn; j++)
                argext_store_index(pout + (jb + j) * inner->b, p->out_dtype, p->flat0 + s->idx[j]);
        }
        return;
    }
    int64_t row_bytes = p->axis.n * (int64_t)p->itemsize;
    if (p->nr == 0 && !p->swapped && p->direct &&
        (uintptr_t)(pout + j0 * inner->b) % sizeof(int64_t) == 0) {
        p->rows(pin + j0 * inner->a, j1 - j0, inner->a, p->axis.n, p->axis.a, p->last,
                (int64_t *)(void *)(pout + j0 * inner->b));
    } else if (p->nr == 0 && (!p->swapped || row_bytes <= SWAP_ROW_BYTES / 2)) {
        /* One reduced run per row: whole rows in batches, no per-row call. */
        int64_t batch = p->swapped ? SWAP_ROW_BYTES / row_bytes : ARGEXT_COL_BLOCK;
        batch = min64(batch, ARGEXT_COL_BLOCK);
        for (int64_t jb = j0; jb < j1; jb += batch) {
            int64_t bn = min64(batch, j1 - jb);
            const char *q = pin + jb * inner->a;
            if (p->swapped) {
                p->swap(s->swap, q, bn, inner->a, p->axis.n, p->axis.a, (int)p->itemsize,
                        bn * inner->a);
                p->rows((const char *)s->swap, bn, row_bytes, p->axis.n, (int64_t)p->itemsize,
                        p->last, s->idx);
            } else {
                p->rows(q, bn, inner->a, p->axis.n, p->axis.a, p->last, s->idx);
            }
            for (int64_t j = 0; j < bn; j++)
                argext_store_index(pout + (jb + j) * inner->b, p->out_dtype,
                                   p->flat0 + s->idx[j] * p->axis.b);
        }
    } else {
        int64_t count = p->axis.n;
        for (int d = 0; d < p->nr; d++)
            count *= p->along[d].n;
        for (int64_t j = j0; j < j1; j++) {
            int64_t key;
            int64_t best = fold_row(p, pin + j * inner->a, 0, count, 1, &key);
            argext_store_index(pout + j * inner->b, p->out_dtype, p->flat0 + best);
        }
    }
}

void argext_plan_run(const argext_plan *p, int64_t k0, int64_t k1, argext_arena *s)
{
    if (k0 >= k1)
        return;
    int64_t per = p->inner.n, j = k0 % per;
    argext_iter outer;
    argext_iter_seek(&outer, p->nk, p->kept, k0 / per);
    for (;;) {
        int64_t jb = min64(per, j + (k1 - k0));
        run_inner(p, p->in + outer.a, p->out + outer.b, j, jb, s);
        k0 += jb - j;
        j = 0;
        if (k0 >= k1 || !argext_iter_next(&outer))
            return;
    }
}

int64_t argext_plan_row_part(const argext_plan *p, int64_t k, int64_t e0, int64_t e1, int init,
                             void *key)
{
    argext_iter outer;
    argext_iter_seek(&outer, p->nk, p->kept, k / p->inner.n);
    const char *q = p->in + outer.a + (k % p->inner.n) * p->inner.a;
    return fold_row(p, q, e0, e1, init, key);
}

void argext_plan_store(const argext_plan *p, int64_t k, int64_t index)
{
    argext_iter outer;
    argext_iter_seek(&outer, p->nk, p->kept, k / p->inner.n);
    argext_store_index(p->out + outer.b + (k % p->inner.n) * p->inner.b, p->out_dtype,
                       p->flat0 + index);
}

int argext_plan_better(const argext_plan *p, const void *key_a, int64_t a, const void *key_b,
                       int64_t b)
{
    int c = 0;
    switch (p->dtype) {
#define BETTER_CASE(ENUM, NAME, ET, KT, KMAX, ...)  \
    case ARGEXT_##ENUM: {                      \
        KT x, y;                               \
        memcpy(&x, key_a, sizeof x);           \
        memcpy(&y, key_b, sizeof y);           \
        c = (x > y) - (x < y);                 \
        break;                                 \
    }
    ARGEXT_DTYPES(BETTER_CASE)
#undef BETTER_CASE
    default: break;
    }
    if (c != 0)
        return c > 0;
    return p->last ? a > b : a < b;
}
