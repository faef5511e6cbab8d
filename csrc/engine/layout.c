/*
 * layout.c - strided walks: the iterator and the merge of dimensions.
 */
#include "engine/layout.h"

void argext_iter_seek(argext_iter *it, int nd, const argext_dim *dim, int64_t k)
{
    it->nd = nd;
    it->dim = dim;
    it->in = it->out = 0;
    for (int d = nd - 1; d >= 0; d--) {
        it->i[d] = k % dim[d].n;
        k /= dim[d].n;
        it->in += it->i[d] * dim[d].in_stride;
        it->out += it->i[d] * dim[d].out_step;
    }
}

int argext_iter_next(argext_iter *it)
{
    for (int d = it->nd - 1; d >= 0; d--) {
        const argext_dim *x = &it->dim[d];
        if (++it->i[d] < x->n) {
            it->in += x->in_stride;
            it->out += x->out_step;
            return 1;
        }
        it->i[d] = 0;
        it->in -= (x->n - 1) * x->in_stride;
        it->out -= (x->n - 1) * x->out_step;
    }
    return 0;
}

/* Zero strides sort as the largest, so broadcast dimensions become outer loops. */
static uint64_t stride_rank(int64_t s)
{
    return s == 0 ? UINT64_MAX : (uint64_t)(s < 0 ? -s : s);
}

int argext_layout_merge(argext_dim *dim, int nd, int64_t *in_base, int64_t *out_base)
{
    for (int d = 0; d < nd; d++) { /* insertion sort, stable: C order among equals */
        argext_dim x = dim[d];
        if (x.in_stride < 0) {
            *in_base += (x.n - 1) * x.in_stride;
            *out_base += (x.n - 1) * x.out_step;
            x.in_stride = -x.in_stride;
            x.out_step = -x.out_step;
        }
        int j = d;
        for (; j > 0 && stride_rank(dim[j - 1].in_stride) < stride_rank(x.in_stride); j--)
            dim[j] = dim[j - 1];
        dim[j] = x;
    }
    int m = 0;
    for (int d = 0; d < nd; d++) {
        argext_dim *outer = m > 0 ? &dim[m - 1] : NULL;
        if (outer && outer->in_stride == dim[d].in_stride * dim[d].n &&
            outer->out_step == dim[d].out_step * dim[d].n) { /* continues it: one loop */
            outer->n *= dim[d].n;
            outer->in_stride = dim[d].in_stride;
            outer->out_step = dim[d].out_step;
        } else {
            dim[m++] = dim[d];
        }
    }
    return m;
}
