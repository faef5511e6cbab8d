/*
 * plan.c - a request planned as [outer, axis, inner].
 */
#include <string.h>

#include "engine/plan.h"
#include "kernels/dtypes.h"
#include "kernels/ops.h"

static int64_t abs64(int64_t x) { return x < 0 ? -x : x; }

/* The reduced dimensions: the innermost in p->axis, the others outermost
   first in p->reduced, merged where memory and the flat index both allow;
   sets p->flat0, p->nr and p->count (the elements a fold visits). A
   zero-stride dimension holds equal values, so its best index is fixed: 0
   for first, n-1 for last. */
static void plan_reduced(argext_plan *p, const argext_reduction *r)
{
    argext_dim *red = p->reduced;
    int nr = 0;
    int64_t weight = 1;
    p->flat0 = 0;
    for (int d = r->rank - 1; d >= 0; d--) {
        if (!r->reduced[d])
            continue;
        int64_t n = r->shape[d];
        if (n != 1) {
            argext_dim *inside = nr > 0 ? &red[nr - 1] : NULL;
            if (r->strides[d] == 0) {
                p->flat0 += r->last ? (n - 1) * weight : 0;
            } else if (inside && inside->in_stride * inside->n == r->strides[d] &&
                       inside->out_step * inside->n == weight) {
                inside->n *= n; /* continues the one inside it: merge */
            } else {
                red[nr++] = (argext_dim){n, r->strides[d], weight};
            }
        }
        weight *= n;
    }
    if (nr == 0)
        red[nr++] = (argext_dim){1, 0, 0};
    p->axis = red[0];
    for (int a = 1, b = nr - 1; a < b; a++, b--) { /* the others, outermost first */
        argext_dim t = red[a];
        red[a] = red[b];
        red[b] = t;
    }
    memmove(red, red + 1, sizeof(red[0]) * (size_t)(nr - 1));
    p->nr = nr - 1;
    p->count = p->axis.n;
    for (int j = 0; j < p->nr; j++)
        p->count *= red[j].n;
}

/* The kept dimensions as the fewest loops. */
void argext_plan_kept(argext_plan *p, const argext_reduction *r)
{
    int nk = 0;
    for (int d = 0; d < r->rank; d++)
        if (!r->reduced[d] && r->shape[d] != 1)
            p->kept[nk++] = (argext_dim){r->shape[d], r->strides[d], r->out_strides[d]};
    int64_t in_base = 0, out_base = 0;
    nk = argext_layout_merge(p->kept, nk, &in_base, &out_base);
    p->in = r->data + in_base;
    p->out = r->out + out_base;
    p->inner = nk > 0 ? p->kept[--nk] : (argext_dim){1, 0, 0};
    p->nk = nk;
    p->positions = p->inner.n;
    for (int j = 0; j < nk; j++)
        p->positions *= p->kept[j].n;
}

void argext_plan_build(argext_plan *p, const argext_reduction *r)
{
    p->dtype = (argext_dtype)(r->dtype & ~ARGEXT_BYTESWAPPED);
    p->itemsize = argext_itemsize(p->dtype);
    p->swapped = (r->dtype & ARGEXT_BYTESWAPPED) && p->itemsize > 1;
    p->out_dtype = r->out_dtype;
    p->last = r->last;
    p->nan_check = ARGEXT_OP_SKIPS_NAN(r->op) &&
                   (p->dtype == ARGEXT_FLOAT16 || p->dtype == ARGEXT_BFLOAT16 ||
                    p->dtype == ARGEXT_FLOAT32 || p->dtype == ARGEXT_FLOAT64);
    plan_reduced(p, r);
    argext_plan_kept(p, r);
    p->written = r->written;
    p->written_context = r->written_context;
    const int64_t rows = ARGEXT_WRITTEN_BLOCK_BYTES / (int64_t)p->itemsize / p->count;
    p->block = rows > 1 ? rows : 1;

    /* Reduce along rows when the axis walks memory faster than the inner
       dimension; otherwise fold whole rows of contiguous columns. */
    p->column_mode = p->inner.n > 1 &&
                     (p->axis.n == 1 || abs64(p->inner.in_stride) < abs64(p->axis.in_stride));
    /* Row indices that are already the output: contiguous int64. */
    p->direct = p->nr == 0 && r->out_dtype == ARGEXT_INT64 &&
                p->inner.out_step == (int64_t)sizeof(int64_t) && p->flat0 == 0 &&
                p->axis.out_step == 1;

    const argext_kernel_table *kt = argext_active_kernels();
    /* byte-swapped rows: a row kernel that swaps as it reads */
    p->row = (p->swapped ? kt->row_swapped : kt->row)[r->op][p->dtype];
    p->cols = kt->cols[r->op][p->dtype];
    p->cols_swapped = kt->cols_swapped[r->op][p->dtype];
    p->cols_unasked = kt->cols_unasked[p->dtype];
    p->rows = kt->rows[r->op][p->dtype];
    p->swap = kt->swap;
}
