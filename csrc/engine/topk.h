/*
 * topk.h - inside the engine: TopK's column path (topk_cols.c), which
 * argext_engine_topk (topk.c) takes for an axis that is not the
 * fastest-moving one.
 */
#ifndef ARGEXT_ENGINE_TOPK_H
#define ARGEXT_ENGINE_TOPK_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "engine/engine.h"

/* An element of w bytes into the other byte order: the common sizes by
   shifts a compiler makes one byte swap (a loop of bytes, per element,
   made byte-swapped tiles 1.4-1.8x the native time). */
static inline void argext_topk_copy_swapped(char *dst, const char *src, size_t w)
{
    if (w == 2) {
        uint16_t v;
        memcpy(&v, src, 2);
        v = (uint16_t)(v << 8 | v >> 8);
        memcpy(dst, &v, 2);
    } else if (w == 4) {
        uint32_t v;
        memcpy(&v, src, 4);
        v = v << 24 | (v & 0xff00u) << 8 | (v >> 8 & 0xff00u) | v >> 24;
        memcpy(dst, &v, 4);
    } else if (w == 8) {
        uint64_t v;
        memcpy(&v, src, 8);
        v = v << 32 | v >> 32;
        v = (v & UINT64_C(0x0000ffff0000ffff)) << 16 | (v >> 16 & UINT64_C(0x0000ffff0000ffff));
        v = (v & UINT64_C(0x00ff00ff00ff00ff)) << 8 | (v >> 8 & UINT64_C(0x00ff00ff00ff00ff));
        memcpy(dst, &v, 8);
    } else {
        for (size_t b = 0; b < w; b++)
            dst[b] = src[w - 1 - b];
    }
}

/* An output value: an input element of w bytes (1, 2, 4 or 8) bit for
   bit, into native order (swapped: the input's is the other one), copied
   inline, not by a call per value. */
static inline void argext_topk_copy_value(char *dst, const char *src, size_t w, int swapped)
{
    if (swapped)
        argext_topk_copy_swapped(dst, src, w);
    else if (w == 4)
        memcpy(dst, src, 4);
    else if (w == 2)
        memcpy(dst, src, 2);
    else if (w == 8)
        memcpy(dst, src, 8);
    else
        *dst = *src;
}

/* Whether the column path takes the request: k <= ARGEXT_TOPK_COLS_K and a
   kept dimension of finer stride than the axis. */
int argext_topk_cols_apply(const argext_topk_request *r);

/* Writes every output of a request the column path takes. */
argext_status argext_engine_topk_cols(const argext_topk_request *r);

/* Whether the tile path takes the request (rows path): 2 <= k <=
   ARGEXT_TOPK_COLS_K, rows of up to 512 bytes and 256 elements. */
int argext_topk_tiles_apply(const argext_topk_request *r);

/* Writes every output of a request the tile path takes: short rows
   transposed a tile at a time into scratch, then the column kernels. */
argext_status argext_engine_topk_tiles(const argext_topk_request *r);

#endif /* ARGEXT_ENGINE_TOPK_H */
