/*
 * layouts.c - strided views for the driver's inputs and outputs: random
 * strides (negative, zero, permuted, padded, unaligned), each view in its
 * own exactly-sized allocation.
 */
#include <stdlib.h>
#include <string.h>

#include "driver.h"

int64_t count_of(int rank, const int64_t *shape)
{
    int64_t n = 1;
    for (int d = 0; d < rank; d++)
        n *= shape[d];
    return n;
}

/* Steps per dimension in {1, 2, 3, -1, -2} (0 = broadcast when allowed), a
   random memory order of the dimensions, sometimes one byte off alignment. */
void make_layout(layout *L, size_t itemsize, int rank, const int64_t *shape, int broadcast)
{
    static const int64_t steps[8] = {1, 1, 1, 1, 2, 3, -1, -2};
    int perm[MAXR];
    L->rank = rank;
    for (int d = 0; d < rank; d++) {
        L->shape[d] = shape[d];
        perm[d] = d;
    }
    if (rnd() % 3 == 0)
        for (int d = rank - 1; d > 0; d--) {
            int j = (int)rnd_in(0, d), t = perm[d];
            perm[d] = perm[j];
            perm[j] = t;
        }
    int64_t unit = (int64_t)itemsize, offset = 0;
    for (int k = rank - 1; k >= 0; k--) {
        int d = perm[k];
        int64_t n = shape[d], step = steps[rnd() % 8];
        if (broadcast && rnd() % 8 == 0) {
            L->strides[d] = 0;
            continue;
        }
        int64_t a = step < 0 ? -step : step;
        L->strides[d] = step * unit;
        if (step < 0 && n > 0)
            offset += (n - 1) * a * unit;
        unit *= n > 0 ? (n - 1) * a + 1 : 1;
    }
    size_t misalign = rnd() % 4 == 0;
    L->bytes = (size_t)unit;
    L->alloc = malloc(L->bytes + misalign);
    if (!L->alloc) {
        fprintf(stderr, "driver: out of memory\n");
        exit(2);
    }
    memset(L->alloc, SENTINEL, L->bytes + misalign);
    L->data = (char *)L->alloc + misalign + offset;
    L->bytes += misalign;
}

/* Odometer over a shape: advances idx in row-major order, 0 at the end. */
int next_index(int rank, const int64_t *shape, int64_t *idx)
{
    for (int d = rank - 1; d >= 0; d--) {
        if (++idx[d] < shape[d])
            return 1;
        idx[d] = 0;
    }
    return 0;
}

int64_t offset_of(int rank, const int64_t *strides, const int64_t *idx)
{
    int64_t off = 0;
    for (int d = 0; d < rank; d++)
        off += idx[d] * strides[d];
    return off;
}

void fill_random(layout *L, int dt)
{
    int64_t idx[MAXR] = {0};
    if (count_of(L->rank, L->shape) == 0)
        return;
    rare_specials = rnd() % 2;
    do
        random_element(dt, L->data + offset_of(L->rank, L->strides, idx));
    while (next_index(L->rank, L->shape, idx));
}

/* A copy of L's allocation with every element's bytes reversed (the input
   in the opposite byte order, at the same offsets). */
unsigned char *byteswapped_copy(const layout *L, int dt)
{
    size_t size = dtype_size(dt), start = (size_t)(L->data - (char *)L->alloc);
    unsigned char *swapped = malloc(L->bytes);
    if (!swapped) {
        fprintf(stderr, "driver: out of memory\n");
        exit(2);
    }
    memcpy(swapped, L->alloc, L->bytes);
    int64_t z[MAXR] = {0};
    if (count_of(L->rank, L->shape) == 0)
        return swapped;
    do {
        size_t off = start + (size_t)offset_of(L->rank, L->strides, z);
        for (size_t b = 0; b < size; b++)
            swapped[off + b] = L->alloc[off + size - 1 - b];
    } while (next_index(L->rank, L->shape, z));
    return swapped;
}
