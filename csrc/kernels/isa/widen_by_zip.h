/*
 * widen_by_zip.h - v_store_index_S (simd/contract.h) for 128-bit ISAs
 * (SSE, NEON), written once: a lane mask is widened to 64-bit lanes by
 * interleaving it with itself (the ISA's v_zip_lo_S / v_zip_hi_S, S up to
 * s32), then stored two indices at a time (v_store_index_pair).
 */

VINLINE void v_store_index_s64(int64_t *idx, vmask up, int64_t f) { v_store_index_pair(idx, up, f); }

VINLINE void v_store_index_s32(int64_t *idx, vmask up, int64_t f)
{
    v_store_index_s64(idx, v_zip_lo_s32(up), f);
    v_store_index_s64(idx + 2, v_zip_hi_s32(up), f);
}

VINLINE void v_store_index_s16(int64_t *idx, vmask up, int64_t f)
{
    v_store_index_s32(idx, v_zip_lo_s16(up), f);
    v_store_index_s32(idx + 4, v_zip_hi_s16(up), f);
}

VINLINE void v_store_index_s8(int64_t *idx, vmask up, int64_t f)
{
    v_store_index_s16(idx, v_zip_lo_s8(up), f);
    v_store_index_s16(idx + 8, v_zip_hi_s8(up), f);
}
