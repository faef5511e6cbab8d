/*
 * template.h - the one SIMD kernel template, included at the end of each
 * ISA file (kernels/isa/<name>.c) once it has defined the primitives of the
 * contract (contract.h), inside its target (targets.h).
 *
 * The template is written once per lane width: for_each_lane.h includes
 * lane.h for s8, s16, s32 and s64, so each width's code calls that width's
 * primitives (v_max_s32 ...), chosen at compile time; instances.h then
 * defines, for every dtype and operator, the kernels of abi.h as calls of
 * their lane width's entries with the dtype's and operator's constants, and
 * the level's kernel table. Layouts not vectorised here go to the baseline's
 * kernels (kernels/baseline.c), so results are those of the baseline bit
 * for bit.
 *
 * The shapes, one file each: the row scan (row_scan.h, with row_block.h,
 * row_floats.h, row_filter.h), the column fold (cols_fold.h; cols_narrow.h for
 * fewer columns than a vector), dense short
 * rows (rows_dense.h), masked short rows (row_short.h), and the byte swap
 * (kernels/byteswap.h).
 */
#include <string.h>

#include "kernels/abi.h"
#include "kernels/dtypes.h"
#include "kernels/isa_tables.h"
#include "kernels/platform.h"
#include "kernels/table.h"

#include "kernels/simd/contract.h"
#include "kernels/transpose.h"

/* Vectors per block of a contiguous row: the block's maximum is found
   first; the block is searched only when it beats the best so far. */
#define BLOCK_VECS 8

/* Blocks per branch-free chunk of a row scan (block indices fit int8 lanes). */
#define CHUNK_BLOCKS 64

/* Rows of a column fold noted in row bytes between flushes to indices
   (a row less the chunk's first fits a byte beside -1). */
#define ROW_CHUNK 128
/* Rows of a column fold taken branch-free (unless ISA_FOLD_ALL_PAIRS);
   after them few columns improve (about one in r at row r of random data),
   so a test skips most stores. */
#define CHUNKED_ROWS 256
/* Column folds of at most TILE_ROWS rows take them all in registers,
   a line of columns at a time (cols_tile): AMD Zen 3, avx2, float32 from
   DRAM, 1.4-1.9x the row-at-a-time fold for 2 to 16 rows; with more, the
   streams of all rows at once read slower (32 rows 0.56-0.89x). From
   TILE_PREFETCH_ROWS rows on, each row's line TILE_PREFETCH bytes ahead is
   asked for (16 rows 1.0 -> 1.4-1.6x; fewer measured no gain). */
#define TILE_ROWS 16
/* Rows a fold's tile may take where tiles are tall (ARGEXT_FOLD_TILES_TALL:
   cpu_features.c's argext_cpu_fold_tiles). */
#define TALL_TILE_ROWS 24
/* Bytes of a narrow block's rows (under 8 vectors) a tile of more rows
   takes: its vectors' second pass finds them in L1. */
#define NARROW_TILE_BYTES 16384
#define TILE_PREFETCH_ROWS 9
#define TILE_PREFETCH 512
/* Rows a column fold in cache takes a pass where its tiles are tall and
   its lanes are floats at 64-byte vectors (cols_chunks): one load and store
   of the best per eight rows where pairs take four. */
#define OCT_ROWS 8
#define TILE_VECS (V_BYTES >= 64 ? 1 : 64 / V_BYTES)
/* Rows of a column fold read alone that store without a test first (most
   of their columns improve on random data). */
#define DENSE_ROWS 32
/* Rows ahead of the one a column fold reads alone that it asks for: two
   with 64-byte vectors (one prefetch per line), one with narrower vectors,
   whose prefetches repeat per line (the better of each on Zen 5 in DRAM). */
#define ROWS_AHEAD (V_BYTES >= 64 ? 2 : 1)

/* Most elements of a row the dense short-row kernel takes, and the vectors
   of such a row of the widest type. */
#define DENSE_ROW_MAX 64
#define DENSE_ROW_VECS (DENSE_ROW_MAX * 8 / V_BYTES)

/* Largest and smallest signed value of a w-byte lane. */
#define SMAX(w) ((int64_t)((UINT64_C(1) << (8 * (w)-1)) - 1))
#define SMIN(w) (-SMAX(w) - 1)

/* Bytes ahead of a row scan that it asks memory for, a block at a time
   (more lines in flight than the hardware prefetcher keeps), where
   scan_ahead says so; dense short rows ask a row or a vector at a time, on
   every CPU (Zen 4: rows of 16 0.94-0.98x without), as do rows_mid.h's of
   at most DENSE_ROW_MAX elements (mid_prefetch). The address may lie past
   the input: it is formed as an integer. */
#define PREFETCH_AHEAD 8192
VINLINE void prefetch_ahead(const char *q, int64_t bytes)
{
    for (int64_t l = 0; l < bytes; l += 64)
        argext_prefetch((const char *)((uintptr_t)q + PREFETCH_AHEAD + (uintptr_t)l));
}
VINLINE void prefetch_block(const char *q) { prefetch_ahead(q, BLOCK_VECS * V_BYTES); }

/* Whether the scans of a kernel call reading `bytes` ask ahead (the
   blocks' prefetch_block, the row scan's tail), by argext_row_prefetch:
   always, never (Zen 4: float32 rows of 100-256 from DRAM 1.08-1.22x
   without), or on Zen 3 (ARGEXT_ROW_PREFETCH_BY_SIZE) at 32-byte vectors
   in calls of SCAN_AHEAD_BYTES or more, integers only below
   SCAN_AHEAD_INT_BYTES (its L3). Zen 3, avx2, against none, calls of
   16 MiB (in L3, where the hardware prefetchers alone read 24-27 GB/s):
   float32 1-D and rows of 1000-4096 1.31-1.52x, float64 rows of 500
   1.36x, float16 and bfloat16 1.31-1.42x, int32 1.18-1.30x, int8 1.15x;
   4 MiB 1.00-1.15x; from DRAM (64 MiB) floats 0.96-1.24x, integers
   0.93-0.98x; in L2 (256 KiB) 0.89-0.99x; at sse4.2 0.95-1.01x. */
#define SCAN_AHEAD_BYTES (4 << 20)
#define SCAN_AHEAD_INT_BYTES (32 << 20)
/* Where ARGEXT_ROW_PREFETCH_IN_CACHE's Intel Xeon reads at DRAM's speed:
   its 480 MiB L3 (shared with other guests) held 64 MiB, not 128. */
#define SCAN_CACHE_BYTES (96 << 20)
VINLINE int scan_ahead(int64_t bytes, int kind)
{
    switch (argext_row_prefetch_mode()) {
    case ARGEXT_ROW_PREFETCH_ON:
    case ARGEXT_ROW_PREFETCH_IN_CACHE:
        return 1;
    case ARGEXT_ROW_PREFETCH_BY_SIZE:
        return V_BYTES == 32 && bytes >= SCAN_AHEAD_BYTES &&
               (kind == ARGEXT_KIND_FLOAT || bytes < SCAN_AHEAD_INT_BYTES);
    default:
        return 0;
    }
}

/* scan_ahead for a single row of `bytes` (a 1-D scan, or a piece of a
   long row), which ARGEXT_ROW_PREFETCH_IN_CACHE does not ask ahead from
   SCAN_CACHE_BYTES on, where the data lies past the cache (SCAN_CACHE_BYTES,
   cpu_features.c). */
VINLINE int scan_ahead_row(int64_t bytes, int kind)
{
    if (argext_row_prefetch_mode() == ARGEXT_ROW_PREFETCH_IN_CACHE)
        return bytes < SCAN_CACHE_BYTES;
    return scan_ahead(bytes, kind);
}

/* Whether count rows of row_bytes each (lanes of lane_bytes) scan without
   asking ahead where they otherwise would: under
   ARGEXT_ROW_PREFETCH_IN_CACHE, float32 and float64 rows of
   SCAN_PLAIN_ROW_BYTES or more in calls past the cache. Intel Xeon, 1 GiB,
   input 16 bytes past a line, against asking: float32 rows of 1024-4096
   avx512 0.99-1.03x, avx2 1.19-1.22x, sse4.2 1.01-1.37x; float64 rows of
   512 1.04x, 1.50x, 1.23x. Never asking at all lost elsewhere (float32
   rows of 512 avx2 0.70x, float64 rows of 500 avx512 0.84x, float16 rows
   of 2048 sse4.2 0.78x, int32 rows of 1024 avx512 0.83x, int8 avx2
   0.89-0.94x). */
#define SCAN_PLAIN_ROW_BYTES 4096
VINLINE int scan_plain_rows(int64_t count, int64_t row_bytes, int kind, int lane_bytes)
{
    return argext_row_prefetch_mode() == ARGEXT_ROW_PREFETCH_IN_CACHE &&
           kind == ARGEXT_KIND_FLOAT && lane_bytes >= 4 && row_bytes >= SCAN_PLAIN_ROW_BYTES &&
           count * row_bytes >= SCAN_CACHE_BYTES;
}

/* Bytes ahead of dense short rows that they ask memory for, a line at a
   time: farther than a row scan (measured on Zen 5, rows of 16 float32
   from DRAM: 8 KiB ahead 85% of the read probe, 2 KiB 69%, none 78%). */
#define DENSE_PREFETCH_AHEAD 8192
VINLINE void prefetch_dense(const char *q, int64_t bytes)
{
    for (int64_t l = 0; l < bytes; l += 64)
        argext_prefetch((const char *)((uintptr_t)q + DENSE_PREFETCH_AHEAD + (uintptr_t)l));
}

/* Dense rows of a power-of-two width (rows_dense.h's packed, square and
   wide rows) ask as prefetch_dense does, but not where the row scans never
   ask (Zen 4): there the hardware prefetchers alone read them faster from
   DRAM (avx512, against 8 KiB ahead: float32 rows of 16 1.16-1.28x, of 32
   1.04-1.22x, of 64 1.09-1.16x, float64 rows of 8 1.09x, int32 rows of 16
   1.10x, int16 rows of 32 0.99-1.04x, float32 rows of 2-8 and int8 rows of
   16-64 1.0-1.05x; avx2 0.99-1.10x; in cache 1.01x). Rows of one to two
   vectors (square pairs, rows_mid) keep asking: float32 rows of 20 and 24
   took 1.25-1.30x the time without, int32 of 20 1.55x. */
VINLINE void prefetch_dense_rows(const char *q, int64_t bytes)
{
    if (argext_row_prefetch_mode() != ARGEXT_ROW_PREFETCH_OFF)
        prefetch_dense(q, bytes);
}

/* A many-rows call over dense short rows writing at least this many
   indices (1 MiB) stores them, where dense_streams says so, by whole
   64-byte lines of non-temporal stores (v_stream), each line's indices
   staged in L1 first: output that large is not read back from cache, and
   a plain store that misses reads its line first (an index per row of 16
   float32 is an eighth of the input read). The engine's batches into
   scratch are smaller. */
#define DENSE_STREAM_ROWS 131072
/* Whether such a call over rows of row_bytes streams its indices: rows
   shorter than a line always (their indices are a quarter of what they read
   or more), longer ones where the CPU says so (platform.h's
   argext_dense_rows). */
VINLINE int dense_streams(int64_t row_bytes)
{
    return row_bytes < 64 || argext_dense_rows_mode() == ARGEXT_DENSE_ROWS_STREAMED;
}
/* Whether dense rows of exactly a vector go as squares: below 64-byte
   vectors always, with them where the CPU says so. */
VINLINE int dense_squares(void)
{
    return V_BYTES < 64 || argext_dense_rows_mode() == ARGEXT_DENSE_ROWS_STREAMED;
}
/* Most indices a stream stages at once: a vector's rows, at least a line's 8. */
#define DENSE_STAGE_ROWS (V_BYTES / 2 > 8 ? V_BYTES / 2 : 8)

/* Eight indices from src to the 64-byte aligned dst by non-temporal stores. */
VINLINE void dense_stream_line(int64_t *dst, const int64_t *src)
{
    for (int b = 0; b < 64; b += V_BYTES)
        v_stream((char *)dst + b, v_load((const char *)src + b));
}

/* The running best of a row scan, as a signed lane value. */
typedef struct {
    int64_t best, bi;
    vec bestv;
    int force; /* the first block of a new row always sets the best */
    int ahead; /* the blocks ask memory ahead (scan_ahead) */
} row_state;

#include "kernels/byteswap.h" /* TopK's scalar loads of swapped lanes (topk_scan.h) */

#define LANE_FILE "kernels/simd/lane.h"
#include "kernels/simd/for_each_lane.h"

#include "kernels/simd/instances.h"
