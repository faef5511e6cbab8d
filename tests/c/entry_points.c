/*
 * entry_points.c - every entry point on random valid requests, on shapes
 * that cross the kernels' block sizes, at rank 64, and a seeded fuzz loop of
 * random (often invalid) requests.
 */
#include <string.h>

#include "driver.h"

/* Deterministic coverage: every op x dtype x ISA on random valid shapes,
   plus shapes that cross the kernels' block sizes along each axis (or, with
   one_axis, along a random one). */
void test_entry_points(int cases_per_combo, int one_axis)
{
    static const int64_t long_shapes[][3] = {
        {1, 700, 1}, {3, 1100, 1}, {2, 3, 1500}, {1, 1, 2600}, {600, 2, 1}, {1030, 3, 1}, {2, 257, 5},
        {1, 1, 9000},  /* several branch-free chunks of int8 at 128 bits */
        {150, 1, 2}, {70, 2, 4}, {40, 1, 8}, {33, 2, 16}, {17, 2, 32}, {9, 1, 64}, /* dense short rows */
        {300, 1, 70}}; /* TopK's columns: a partial vector, 8-bit row tags past one chunk */
    for (int op = 0; op < OP_COUNT; op++)
        for (int dt = 0; dt < ARGEXT_DTYPE_COUNT; dt++) {
            for (int c = 0; c < cases_per_combo; c++) {
                request q;
                random_request(&q, op, dt, (int)rnd_in(1, 5), 3000);
                run_request(&q);
            }
            for (size_t s = 0; s < sizeof long_shapes / sizeof long_shapes[0]; s++)
                for (int axis = 0; axis < 3; axis++) {
                    if (one_axis && rnd() % 3)
                        continue;
                    request q;
                    random_request(&q, op, dt, 3, 1);
                    memcpy(q.shape, long_shapes[s], sizeof long_shapes[s]);
                    q.axis = axis;
                    q.naxes = 1 + (int)(rnd() % 2);
                    q.axes[0] = axis;
                    q.axes[1] = (axis + 1) % 3;
                    if (op == OP_HARDMAX)
                        q.version = 13;
                    if (op == OP_TOPK) /* k small (primed sets), across compactions, or all */
                        q.k = rnd() % 4 == 0 ? q.shape[axis]
                              : rnd() % 2    ? rnd_in(1, q.shape[axis] < 16 ? q.shape[axis] : 16)
                                             : rnd_in(1, q.shape[axis] < 300 ? q.shape[axis] : 300);
                    run_request(&q);
                }
        }
    /* Rank 64 (ARGEXT_MAX_RANK): dims of 1 with a few of 2 and 3. */
    for (int op = 0; op < OP_COUNT; op++) {
        request q;
        random_request(&q, op, ARGEXT_FLOAT32, MAXR, 1);
        for (int d = 0; d < MAXR; d++)
            q.shape[d] = d % 16 == 3 ? 2 : d % 16 == 9 ? 3 : 1;
        q.axis = 9;
        q.naxes = 3;
        q.axes[0] = 3;
        q.axes[1] = -1 - 6;
        q.axes[2] = 25;
        run_request(&q);
    }
}

/* Random requests, many of them invalid. */
void fuzz(long iterations)
{
    for (long it = 0; it < iterations; it++) {
        request q;
        int op = (int)(rnd() % OP_COUNT);
        random_request(&q, op, (int)(rnd() % ARGEXT_DTYPE_COUNT), (int)rnd_in(1, 6), 800);
        switch (rnd() % 12) { /* one mutation, or none */
        case 0: q.dtype = (int)rnd_in(-2, ARGEXT_DTYPE_COUNT + 2); break;
        case 1: q.axis = rnd_in(-q.rank - 2, q.rank + 1); break;
        case 2:
            q.keepdims = (int)rnd_in(-1, 2), q.last = (int)rnd_in(-1, 2);
            q.largest = (int)rnd_in(-1, 2), q.sorted = (int)rnd_in(-1, 2);
            break;
        case 3: q.naxes = (int)rnd_in(-1, q.rank + 1); break;
        case 4: q.axes[rnd() % (unsigned)q.rank] = rnd_in(-q.rank - 2, q.rank + 1); break;
        case 5: q.version = (int)rnd_in(0, 14); break;
        case 6: q.out_dtype = (int)rnd_in(-2, ARGEXT_DTYPE_COUNT + 2); break;
        case 7: q.out_mutation = (int)rnd_in(1, 3); break;
        case 8: q.negative_dim = (int)(rnd() % (unsigned)q.rank); break;
        case 9: q.shape[rnd() % (unsigned)q.rank] = 0; break;
        case 10: q.k = rnd_in(-2, q.k + 2); break;
        default: break;
        }
        if (q.naxes > MAXR)
            q.naxes = MAXR;
        run_request(&q);
    }
}

