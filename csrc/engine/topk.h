/*
 * topk.h - inside the engine: TopK's column path (topk_cols.c), which
 * argext_engine_topk (topk.c) takes for an axis that is not the
 * fastest-moving one.
 */
#ifndef ARGEXT_ENGINE_TOPK_H
#define ARGEXT_ENGINE_TOPK_H

#include "engine/engine.h"

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
