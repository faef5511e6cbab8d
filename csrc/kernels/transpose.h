/*
 * transpose.h - the transpose kernel's scalar form (abi.h): the baseline's
 * kernel, and what a SIMD level's kernel (simd/transpose.h) leaves to it,
 * rows or elements short of a square of its vectors.
 */
#ifndef ARGEXT_TRANSPOSE_H
#define ARGEXT_TRANSPOSE_H

#include <stdint.h>
#include <string.h>

#include "kernels/platform.h"

/* Elements [e0, e1) of rows [b0, b1) (byte stride rs, elements contiguous,
   w bytes each) from src into dst: element e of row b at (e * ld + b) * w. */
VINLINE void transpose_elements(char *dst, int64_t ld, const char *src, int64_t b0, int64_t b1,
                                int64_t rs, int64_t e0, int64_t e1, int w)
{
    for (int64_t b = b0; b < b1; b++)
        for (int64_t e = e0; e < e1; e++) /* sizes copied inline, not by a call each */
            switch (w) {
            case 1:
                dst[e * ld + b] = src[b * rs + e];
                break;
            case 2:
                memcpy(dst + (e * ld + b) * 2, src + b * rs + e * 2, 2);
                break;
            case 4:
                memcpy(dst + (e * ld + b) * 4, src + b * rs + e * 4, 4);
                break;
            default:
                memcpy(dst + (e * ld + b) * 8, src + b * rs + e * 8, 8);
            }
}

/* The lines of rows [0, rows) of `bytes` bytes each, `ahead` bytes on,
   asked for: the rows a caller transposes next, read across the rows,
   which the prefetchers do not follow. The address is formed as an
   integer: it may lie past the input. */
VINLINE void transpose_prefetch(const char *src, int64_t rows, int64_t rs, int64_t bytes,
                                int64_t ahead)
{
    for (int64_t b = 0; b < rows; b++)
        for (int64_t e = 0; e < bytes; e += 64)
            argext_prefetch((const char *)((uintptr_t)src + (uintptr_t)(b * rs + e + ahead)));
}

#endif /* ARGEXT_TRANSPOSE_H */
