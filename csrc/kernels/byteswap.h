/*
 * byteswap.h - the swap kernel: input of the opposite byte order into native
 * order, a bounded block at a time, for the engine's scratch; and the
 * byte-swapped row kernel of the layouts no kernel reads in place.
 *
 * Every kernel file includes it inside its ISA target, so the compiler
 * vectorises the same loop for each level (SSE2 shifts, a byte shuffle from
 * SSSE3 on, NEON's rev).
 */
#ifndef ARGEXT_BYTESWAP_H
#define ARGEXT_BYTESWAP_H

#include <stdint.h>
#include <string.h>

#include "kernels/abi.h"
#include "kernels/platform.h"

/* An element's bytes reversed, as its 16-bit pieces in reverse order, each
   with its two bytes swapped: a form every compiler vectorises (a bswap
   loop is not vectorised at the SSE2 baseline). */
VINLINE void swap_element(unsigned char *dst, const char *src, int itemsize)
{
    for (int k = 0; k < itemsize / 2; k++) {
        uint16_t h;
        memcpy(&h, src + itemsize - 2 - 2 * k, 2);
        h = (uint16_t)(h << 8 | h >> 8);
        memcpy(dst + 2 * k, &h, 2);
    }
}

/* A contiguous row is swapped SWAP_RUN_BYTES at a time, each run's lines
   first asked for `ahead` bytes on: memory fetches the next block while the
   kernel folds this one (the two passes would otherwise take turns). A
   run's swap is one vector loop (a line at a time, the loop's control and
   tail cost more than the line's shuffle: byte-swapped argmax, Zen 4,
   (1000, 1000) float32 1.3x the time, float64 1.23x). The address is a
   hint that may lie past the input, so it is formed as an integer, never
   as pointer arithmetic out of the object. */
#define SWAP_RUN_BYTES 1024

VINLINE void swap_rows(unsigned char *dst, const char *src, int64_t rows, int64_t rs, int64_t n,
                       int64_t s, int itemsize, int64_t ahead)
{
    const int64_t line = 64 / itemsize, run = SWAP_RUN_BYTES / itemsize;
    for (int64_t r = 0; r < rows; r++) {
        const char *q = src + r * rs;
        unsigned char *o = dst + r * n * itemsize;
        if (s != itemsize) {
            for (int64_t j = 0; j < n; j++)
                swap_element(o + j * itemsize, q + j * s, itemsize);
            continue;
        }
        for (int64_t j0 = 0; j0 < n; j0 += run) {
            int64_t j1 = n - j0 < run ? n : j0 + run;
            for (int64_t j = j0; j < j1; j += line)
                argext_prefetch((const char *)((uintptr_t)(q + j * itemsize) + (uintptr_t)ahead));
            for (int64_t j = j0; j < j1; j++)
                swap_element(o + j * itemsize, q + j * itemsize, itemsize);
        }
    }
}

/* Each element size compiled apart (a constant itemsize unrolls the swap). */
VINLINE void swap_block(unsigned char *dst, const char *src, int64_t rows, int64_t rs, int64_t n,
                       int64_t s, int itemsize, int64_t ahead)
{
    switch (itemsize) {
    case 2: swap_rows(dst, src, rows, rs, n, s, 2, ahead); break;
    case 4: swap_rows(dst, src, rows, rs, n, s, 4, ahead); break;
    default: swap_rows(dst, src, rows, rs, n, s, 8, ahead); break;
    }
}

/* Bytes of a row swapped at a time onto the stack by row_swapped_blocks. */
#define SWAP_ROW_BLOCK 2048

/* A row of the opposite byte order (n elements of itemsize bytes, byte
   stride s) through the native-order row kernel `row`, a block at a time;
   one byte has nothing to swap. */
static int64_t row_swapped_blocks(argext_row_kernel row, const char *p, int64_t n, int64_t s,
                                  int itemsize, int last, int init, void *bestp)
{
    if (itemsize == 1)
        return row(p, n, s, last, init, bestp);
    unsigned char buf[SWAP_ROW_BLOCK];
    int64_t best = -1, chunk = SWAP_ROW_BLOCK / itemsize;
    for (int64_t i0 = 0; i0 < n; i0 += chunk) {
        int64_t m = n - i0 < chunk ? n - i0 : chunk;
        swap_block(buf, p + i0 * s, 1, 0, m, s, itemsize, m * s);
        int64_t i = row((const char *)buf, m, itemsize, last, init, bestp);
        if (i >= 0)
            best = i0 + i;
        init = 0;
    }
    return best;
}

#endif /* ARGEXT_BYTESWAP_H */
