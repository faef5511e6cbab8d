/*
 * entries.h - the kernel shapes of abi.h for one lane width
 * (for_each_lane.h), as instances.h calls them for each dtype and operator:
 * the layouts not vectorised here (strided rows or columns, rows or column
 * blocks narrower than one vector, the 64-bit integer lanes an ISA without
 * ISA_CMP_S64 leaves scalar) go to the baseline's kernel of the same
 * dtype and operator, so results are those of the baseline bit for bit.
 */

/* Integer dtypes of 64-bit lanes where the ISA has no 64-bit compare: the
   baseline's scalar loop beats an emulated compare. float64 stays: its row
   blocks take their extreme by float compares. */
VINLINE int L(scalar)(int kind) { return !ISA_CMP_S64 && W == 8 && kind != ARGEXT_KIND_FLOAT; }

/* ... except rows of a few blocks or more, where the ISA filters blocks. */
VINLINE int L(scalar_row)(int kind, int64_t n)
{
    return L(scalar)(kind) && !(ISA_FILTER_SCAN && n >= 4 * (V_BYTES / W) * BLOCK_VECS);
}

/* Whether rows of n elements scan their chunks as floats: float32/float64
   rows long enough for a block, where denormals are not read as zero (asked
   once per kernel call: reading the FP control register is slow). */
VINLINE int L(float_compares)(int kind) { return kind == ARGEXT_KIND_FLOAT && W >= 4 && !argext_denormals_are_zero(); }
VINLINE int L(native_blocks)(int kind, int64_t n) { return n >= (V_BYTES / W) * BLOCK_VECS && L(float_compares)(kind); }

VINLINE int64_t L(row_entry)(const char *p, int64_t n, int64_t s, int last, int init, void *bestp,
                             int op, int kind, int64_t inf, int sw)
{
    int64_t best = init ? 0 : L(key_to_lane)(bestp, kind);
    int64_t bi = L(row_scan)(p, n, last, init, &best, op, kind, inf, L(native_blocks)(kind, n), sw,
                             scan_ahead_row(n * W, kind));
    L(lane_to_key)(best, bestp, kind);
    (void)s;
    return bi;
}

/* Whether the row scan takes rows of n elements, byte stride s. */
VINLINE int L(row_vectorised)(int kind, int64_t n, int64_t s)
{
    return !L(scalar_row)(kind, n) && s == W && n >= V_BYTES / W;
}

/* Whether the column fold takes bn columns, byte stride cs. */
VINLINE int L(cols_vectorised)(int kind, int64_t bn, int64_t cs)
{
    return !L(scalar)(kind) && cs == W && bn >= V_BYTES / W;
}

/* Whether the column fold takes bn contiguous columns over `rows` rows
   (byte stride rs) without asking ahead (cols_fold_asks). */
VINLINE int L(cols_unasked)(int64_t rows, int64_t rs, int64_t bn, int kind)
{
    return !L(scalar)(kind) && bn >= V_BYTES / W && !L(cols_fold_asks)(rows, rs, bn, kind);
}

/* Whether rows_mid takes contiguous rows of n elements, each starting
   `aligned` on a vector: where it measured faster than the row scan on Zen 5
   (BENCHMARKS.md, 4 MiB in cache), up to about 512 bytes of keys, more for
   float32/float64 by float compares; but not, for 32- and 64-bit lanes at
   16- and 64-byte vectors, aligned rows of two whole blocks or more, which
   the row scan takes without a head or a tail, faster. Rows off a vector
   boundary (NumPy's large arrays start 16 bytes past a line) stay here:
   Zen 4, avx512, float32 rows of 256 from DRAM 12 -> 21 GB/s. Longer rows,
   up to mid_block_bytes, on the levels of MID_BLOCK_ROWS. */
VINLINE int L(mid_rows)(int kind, int floats, int64_t n, int aligned, int last, int dram)
{
    const int64_t lanes = V_BYTES / W, block = lanes * BLOCK_VECS;
    if (V_BYTES != 32 && W >= 4 && aligned && n % block == 0 && n >= 2 * block)
        return 0;
    const int64_t most = MID_BLOCK_ROWS ? L(mid_block_bytes)(floats, last, aligned, dram) / W
                                        : L(mid_row_vecs)(floats) * lanes;
    return n >= lanes && n <= most && !L(scalar)(kind);
}

/* The batched rows: dense short rows first, then rows shorter than a
   vector (each in one), rows of a few vectors, then row by row. */
VINLINE void L(rows_entry)(const char *p, int64_t count, int64_t ps, int64_t n, int64_t s, int last,
                           int64_t *idx, int op, int kind, int64_t inf, argext_rows_kernel baseline)
{
    if (s == W && ps == n * W && n >= 2 && n <= DENSE_ROW_MAX && (n & (n - 1)) == 0 && !L(scalar)(kind)) {
        /* a long call streams its indices from a line boundary on: the rows
           before it by the baseline */
        const int stream = count >= DENSE_STREAM_ROWS && (uintptr_t)idx % 8 == 0 && dense_streams(ps);
        if (stream) {
            int64_t head = (int64_t)((64 - (uintptr_t)idx % 64) % 64 / 8);
            baseline(p, head, ps, n, s, last, idx);
            p += head * ps;
            idx += head;
            count -= head;
        }
        int64_t done = L(rows_dense)(p, count, n, last, idx, op, kind, inf, L(float_compares)(kind),
                                     stream);
        if (stream)
            v_stream_fence();
        p += done * ps;
        idx += done;
        count -= done;
    }
#if !ISA_MASKED_LOAD
    if (s == W && n >= 2 && n < V_BYTES / W && ps >= n * W && !L(scalar)(kind)) {
        const int64_t done = L(rows_short)(p, count, ps, n, last, idx, op, kind, inf);
        p += done * ps;
        idx += done;
        count -= done;
    }
#else
    if (s == W && n < V_BYTES / W) {
        for (int64_t k = 0; k < count; k++)
            idx[k] = L(row_short)(p + k * ps, n, last, op, kind, inf);
        return;
    }
#endif
    const int floats = L(float_compares)(kind);
    const int aligned = ((uintptr_t)p | (uintptr_t)ps) % V_BYTES == 0;
    const int dram = count * (ps < 0 ? -ps : ps) >= MID_DRAM_BYTES;
    if (s == W && L(mid_rows)(kind, floats, n, aligned, last, dram)) {
        L(rows_mid)(p, count, ps, n, last, dram, idx, op, kind, inf, floats);
        return;
    }
    if (!L(row_vectorised)(kind, n, s)) {
        baseline(p, count, ps, n, s, last, idx);
        return;
    }
    const int native = L(native_blocks)(kind, n);
    const int ahead = (count == 1 ? scan_ahead_row(n * W, kind) : scan_ahead(count * n * W, kind)) &&
                      !scan_plain_rows(count, n * W, kind, W);
    for (int64_t k = 0; k < count; k++) {
        int64_t best;
        idx[k] = L(row_scan)(p + k * ps, n, last, 1, &best, op, kind, inf, native, 0, ahead);
    }
}
