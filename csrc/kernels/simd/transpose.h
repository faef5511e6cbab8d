/*
 * transpose.h - the transpose kernel (abi.h) of one lane width
 * (for_each_lane.h): rows read a square at a time, as many rows as a
 * vector has lanes by as many elements, transposed in registers by
 * butterfly stages: at the stage of m lanes (1, 2, 4, ...), vector i
 * (i without bit m) and vector i + m trade the lanes of each group of 2m
 * lanes that the transpose exchanges (a delta swap: the swaps of the
 * groups' halves and a constant mask). The rows of a block are read in order,
 * a square at a time, so that the prefetchers follow (element by element
 * across the rows, a tile's reads missed: short rows' TopK spent 3/4 of its
 * time there at avx2 on Zen 3).
 */

/* x with lanes j and j ^ m exchanged (m a power of two below the lanes). */
VINLINE vec L(swap_lanes)(vec x, int m)
{
    const int bytes = 2 * m * W; /* a group */
    if (bytes == 2)
        return v_swap16(x);
    if (bytes == 4)
        return v_swap32(x);
    if (bytes == 8)
        return v_swap64(x);
#if V_BYTES == 16
    return v_swap128(x);
#else
    if (bytes == 16)
        return v_swap128(x);
#if V_BYTES == 32
    return v_swap256(x);
#else
    if (bytes == 32)
        return v_swap256(x);
    return v_swap512(x);
#endif
#endif
}

/* log2 of a vector's lanes (a power of two up to 64). */
#define TRANSPOSE_STAGES(lanes) \
    (((lanes) >= 2) + ((lanes) >= 4) + ((lanes) >= 8) + ((lanes) >= 16) + ((lanes) >= 32) + ((lanes) >= 64))

/* The lanes' masks of the butterfly stages: high[s] all ones in the lanes
   whose index has bit s. */
VINLINE void L(transpose_high)(vec *high)
{
    enum { LANES = V_BYTES / W };
    for (int s = 0; (1 << s) < LANES; s++) {
        LANE_INT lane[LANES];
        for (int j = 0; j < LANES; j++)
            lane[j] = (LANE_INT)-((j >> s) & 1);
        high[s] = v_load((const char *)lane);
    }
}

/* The square of vectors r (lane e of vector b) transposed in place (into
   lane b of vector e). */
VINLINE void L(transpose_regs)(vec *r, const vec *high)
{
    enum { LANES = V_BYTES / W, STAGES = TRANSPOSE_STAGES(V_BYTES / W) };
    ARGEXT_UNROLL
    for (int s = 0; s < STAGES; s++) { /* a counted loop, unrolled: r stays in registers */
        const int m = 1 << s;
        ARGEXT_UNROLL
        for (int i = 0; i < LANES; i++) {
            if (i & m)
                continue;
            /* a delta swap: the lanes with bit m of a take b's lanes m before them,
               the lanes without it of b take a's lanes m after them */
            const vec d = v_and(v_xor(r[i], L(swap_lanes)(r[i + m], m)), high[s]);
            r[i] = v_xor(r[i], d);
            r[i + m] = v_xor(r[i + m], L(swap_lanes)(d, m));
        }
    }
}

/* The square of rows src + b * rs, b < lanes, from their element 0, into
   dst: element e of row b at dst + (e * ld + b) * W; where `ahead` is not
   0, the same rows' line `ahead` bytes on asked for. */
VINLINE void L(transpose_square)(char *dst, int64_t ld, const char *src, int64_t rs,
                                 const vec *high, int64_t ahead)
{
    enum { LANES = V_BYTES / W };
    vec r[LANES];
    ARGEXT_UNROLL
    for (int b = 0; b < LANES; b++) {
        if (ahead)
            argext_prefetch((const char *)((uintptr_t)src + (uintptr_t)(b * rs + ahead)));
        r[b] = v_load(src + b * rs);
    }
    L(transpose_regs)(r, high);
    ARGEXT_UNROLL
    for (int e = 0; e < LANES; e++)
        v_store(dst + e * ld * W, r[e]);
}

/* rows x n elements (rows at byte stride rs, elements contiguous) from src
   into dst, element e of row b at (e * ld + b) * W: squares, the last row
   and element squares overlapping the ones before (written twice, alike);
   rows or elements fewer than the lanes element by element. The rows
   `ahead` bytes on asked for, a line per row with the square that starts
   it. */
VINLINE void L(transpose)(char *dst, int64_t ld, const char *src, int64_t rows, int64_t rs,
                          int64_t n, int64_t ahead)
{
    enum { LANES = V_BYTES / W };
    if (rows < LANES || n < LANES) {
        transpose_prefetch(src, rows, rs, n * W, ahead);
        transpose_elements(dst, ld, src, 0, rows, rs, 0, n, W);
        return;
    }
    vec high[TRANSPOSE_STAGES(V_BYTES / W)];
    L(transpose_high)(high);
    for (int64_t b = 0;; b = b + 2 * LANES <= rows ? b + LANES : rows - LANES) {
        for (int64_t e = 0;; e = e + 2 * LANES <= n ? e + LANES : n - LANES) {
            L(transpose_square)(dst + (e * ld + b) * W, ld, src + b * rs + e * W, rs, high,
                                (e * W) % 64 < V_BYTES ? ahead : 0);
            if (e + LANES == n)
                break;
        }
        if (b + LANES == rows)
            break;
    }
}
