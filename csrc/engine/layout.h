/*
 * layout.h - strided walks (layout.c): a dimension, the one iterator, and
 * the sort-and-merge of dimensions that makes a walk as few loops as memory
 * allows. Strides are bytes and may be negative or zero; nothing is copied.
 */
#ifndef ARGEXT_ENGINE_LAYOUT_H
#define ARGEXT_ENGINE_LAYOUT_H

#include <stdint.h>

#include "argext.h"

/*
 * One dimension of a walk that carries two offsets at once: an input's byte
 * offset and an output-side one. Kept dimensions step the output's byte
 * offset; reduced dimensions step the flat index written out (out_step is
 * the dimension's weight in it). A walk over one tensor leaves out_step 0.
 */
typedef struct {
    int64_t n;         /* extent */
    int64_t in_stride; /* input bytes per step */
    int64_t out_step;  /* per step: output bytes (kept) or flat index (reduced) */
} argext_dim;

/* The one strided iterator: a row-major odometer over nd dimensions that
   carries both offsets. */
typedef struct {
    int nd;
    const argext_dim *dim;
    int64_t i[ARGEXT_MAX_RANK];
    int64_t in, out;
} argext_iter;

/* Starts at position k (row-major) of the nd dimensions. */
void argext_iter_seek(argext_iter *it, int nd, const argext_dim *dim, int64_t k);
/* Advances; returns 0 once every position has been visited (offsets back at 0). */
int argext_iter_next(argext_iter *it);

/*
 * Makes dim[0..nd) (extents > 1) the fewest loops that visit the same
 * elements: negative input strides turned positive (*in_base and *out_base
 * move to the elements' new starts), dimensions sorted by input stride,
 * largest first (zero strides count as the largest: broadcast dimensions
 * become outer loops), and a dimension merged into the one outside it where
 * both offsets continue it. Returns the new count.
 */
int argext_layout_merge(argext_dim *dim, int nd, int64_t *in_base, int64_t *out_base);

#endif /* ARGEXT_ENGINE_LAYOUT_H */
