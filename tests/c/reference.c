/*
 * reference.c - the scalar reference: plain loops over decoded values.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"

/* For each kept position (row-major over the kept dimensions), the
   row-major flat index over the reduced dimensions of its best element:
   one pass over the input in row-major order visits each kept position's
   reduced elements in increasing flat index. */
void reference(const layout *in, int dt, const unsigned char *reduced, int is_min,
                      int last, int nan_as_inf, int64_t *best_idx)
{
    int rank = in->rank;
    int64_t kept_shape[MAXR], idx[MAXR] = {0};
    for (int d = 0; d < rank; d++)
        kept_shape[d] = reduced[d] ? 1 : in->shape[d];
    int64_t nkept = count_of(rank, kept_shape);
    value *best = malloc(sizeof(value) * (size_t)(nkept > 0 ? nkept : 1));
    char *number = calloc((size_t)(nkept > 0 ? nkept : 1), 1); /* a non-NaN seen */
    if (count_of(rank, in->shape) == 0) {
        free(best);
        free(number);
        return;
    }
    do {
        int64_t k = 0, r = 0;
        for (int d = 0; d < rank; d++) {
            if (reduced[d])
                r = r * in->shape[d] + idx[d];
            else
                k = k * in->shape[d] + idx[d];
        }
        value v = read_value(dt, in->data + offset_of(rank, in->strides, idx));
        number[k] |= !v.nan;
        if (nan_as_inf && v.nan) { /* nanargmax/nanargmin: NumPy replaces NaN by -inf/+inf */
            v.nan = 0;
            v.f = is_min ? INFINITY : -INFINITY;
        }
        int b = r == 0 ? 1 : better(is_min, &v, &best[k]);
        if (b > 0 || (last && b == 0)) {
            best[k] = v;
            best_idx[k] = r;
        }
    } while (next_index(rank, in->shape, idx));
    for (int64_t k = 0; nan_as_inf && k < nkept; k++)
        if (!number[k])
            best_idx[k] = -1; /* an all-NaN slice */
    free(best);
    free(number);
}


/* The row being sorted by reference_topk (qsort has no context argument). */
static const value *sort_values;
static int sort_is_min;

/* Best first; equal values by index, lower first. */
static int rank_order(const void *pa, const void *pb)
{
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    int o = better(sort_is_min, &sort_values[a], &sort_values[b]);
    return o ? -o : (a > b) - (a < b);
}

static int index_order(const void *pa, const void *pb)
{
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    return (a > b) - (a < b);
}

void reference_topk(const layout *in, int dt, int axis, int64_t k, int largest, int sorted,
                    int64_t *idx)
{
    int rank = in->rank;
    int64_t n = in->shape[axis], kept_shape[MAXR], pos[MAXR] = {0}, kpos = 0;
    for (int d = 0; d < rank; d++)
        kept_shape[d] = d == axis ? 1 : in->shape[d];
    value *row = malloc(sizeof(value) * (size_t)(n > 0 ? n : 1));
    int64_t *order = malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
    sort_values = row;
    sort_is_min = !largest;
    do {
        for (int64_t i = 0; i < n; i++) {
            pos[axis] = i;
            row[i] = read_value(dt, in->data + offset_of(rank, in->strides, pos));
            order[i] = i;
        }
        pos[axis] = 0;
        qsort(order, (size_t)n, sizeof *order, rank_order);
        if (!sorted)
            qsort(order, (size_t)k, sizeof *order, index_order);
        memcpy(idx + kpos++ * k, order, sizeof(int64_t) * (size_t)k);
    } while (next_index(rank, kept_shape, pos));
    free(row);
    free(order);
}
