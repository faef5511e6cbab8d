/*
 * byteswap.h - the swap kernel: input of the opposite byte order into native
 * order, a bounded block at a time, for the engine's scratch (reduce.c).
 *
 * Every kernel file includes it inside its ISA target, so the compiler
 * vectorises the same loop for each level (SSE2 shifts, a byte shuffle from
 * SSSE3 on, NEON's rev). The includer provides v_prefetch.
 */
#ifndef ARGEXT_BYTESWAP_H
#define ARGEXT_BYTESWAP_H

#include <stdint.h>
#include <string.h>

/* An element's bytes reversed, as its 16-bit pieces in reverse order, each
   with its two bytes swapped: a form every compiler vectorises (a bswap
   loop is not vectorised at the SSE2 baseline). */
#define SWAP_ELEMENT(W, dst, src)                                                 \
    for (int k = 0; k < (W) / 2; k++) {                                           \
        uint16_t h;                                                               \
        memcpy(&h, (src) + (W) - 2 - 2 * k, 2);                                   \
        h = (uint16_t)(h << 8 | h >> 8);                                          \
        memcpy((dst) + 2 * k, &h, 2);                                             \
    }

/* A contiguous row is swapped a cache line at a time, each line with a
   prefetch `ahead` bytes on: memory fetches the next block while the
   kernel folds this one (the two passes would otherwise take turns). The
   address is a hint that may lie past the input, so it is formed as an
   integer, never as pointer arithmetic out of the object. */
#define SWAP_ROWS(W)                                                              \
    for (int64_t r = 0; r < rows; r++) {                                          \
        const char *q = src + r * rs;                                             \
        unsigned char *o = dst + r * n * (W);                                     \
        if (s == (W)) {                                                           \
            for (int64_t j0 = 0; j0 < n; j0 += 64 / (W)) {                        \
                int64_t j1 = n - j0 < 64 / (W) ? n : j0 + 64 / (W);               \
                v_prefetch((const char *)((uintptr_t)(q + j0 * (W)) + (uintptr_t)ahead)); \
                for (int64_t j = j0; j < j1; j++)                                 \
                    SWAP_ELEMENT(W, o + j * (W), q + j * (W))                     \
            }                                                                     \
        } else {                                                                  \
            for (int64_t j = 0; j < n; j++)                                       \
                SWAP_ELEMENT(W, o + j * (W), q + j * s)                           \
        }                                                                         \
    }

static void swap_block(unsigned char *dst, const char *src, int64_t rows, int64_t rs, int64_t n,
                       int64_t s, int itemsize, int64_t ahead)
{
    switch (itemsize) {
    case 2: SWAP_ROWS(2) break;
    case 4: SWAP_ROWS(4) break;
    default: SWAP_ROWS(8) break;
    }
}

#undef SWAP_ROWS
#undef SWAP_ELEMENT

#endif /* ARGEXT_BYTESWAP_H */
