/*
 * contract.h - what an ISA file provides before it includes the SIMD
 * template (template.h); the build fails when anything is missing.
 *
 * Vectors (whole):
 *   vec, V_BYTES             the integer vector type and its size in bytes
 *   MASK_BITS(w)             bits per w-byte lane in a comparison's bits
 *   v_load, v_store          unaligned
 *   v_stream(p, v)           a store to vector-aligned p that may bypass the
 *                            caches (non-temporal), for output not read
 *                            again soon; v_stream_fence() orders them
 *                            before later stores (a plain store and nothing
 *                            where the ISA has none)
 *   v_and, v_or, v_xor
 *   v_low64(v)               the low 64 bits
 *   v_swap16 .. v_swapN      the halves of each aligned group of 16, 32, ...
 *                            bits exchanged, up to N = 8 * V_BYTES
 * Per integer lane width S = s8, s16, s32, s64 (keys as signed lanes):
 *   v_set1_S(x), v_sub_S(a, b), v_max_S(a, b), v_min_S(a, b)
 *   v_sign_S(v)              all ones in the negative lanes
 *   v_sel_gt_S(x, y, a, b)   x > y ? b : a, per lane
 *   v_sel_gt_lanes_S(...)    the same by a blend of whole lanes where the ISA
 *                            has one (x86: blendvps/blendvpd): for selects
 *                            sharing masks (TopK's register network), where gcc
 *                            repeats a byte blend's mask test per blend; the
 *                            row scans measured slower with it (Zen 3)
 *   v_gt_S, v_ge_S, v_eq_S   a comparison as MASK_BITS bits per lane
 *   vmask, v_gtm_S, v_gem_S  a comparison as v_store_index_S consumes it
 *   v_store_index_S(idx, up, f)   idx[l] = f for every lane l set in up
 *   v_bswap_S (S >= s16)     each element's bytes reversed
 * Per float lane width F = f32, f64 (float32/float64 compared as floats):
 *   v_fmax_F, v_fmin_F       the larger (smaller); with a NaN operand, as
 *                            ISA_FMAX_KEEPS_NAN says
 *   fmask, v_fgt_F, v_fge_F, v_feq_F, v_funord_F   ordered compares (false
 *                            with NaN) and the unordered test
 *   v_for, v_fany, v_fbits   or, any lane set, MASK_BITS bits per lane
 *   v_fblend_F(m, a, b)      m ? b : a, per lane
 *   v_fvmask_F(m)            a float comparison as a vmask of its lanes
 * Capabilities, each 0 or 1 but the last's set of widths, each chosen here
 * and nowhere else:
 *   ISA_CMP_S64        64-bit lanes compare in one instruction. 0: the
 *                      int64/uint64 column folds and batched rows run the
 *                      baseline's scalar loops, which beat an emulated
 *                      compare (float64 stays: it compares as floats).
 *   ISA_FILTER_SCAN    integer row scans of 32- and 64-bit lanes test each
 *                      block against the best instead of keeping lane
 *                      maxima (the ISA's maximum is emulated). 1 requires
 *                      v_filter_S, v_filter_threshold_S, v_filter_any_S
 *                      (S = s32, s64; see sse.h).
 *   ISA_MASKED_LOAD    rows shorter than a vector go in one masked vector.
 *                      1 requires v_load_active_S(p, active) (lanes outside
 *                      `active` unread) and v_sel_active_S(active, a, fill).
 *                      0: they run the baseline.
 *   ISA_MASKED_STORE   the column fold's rows note each column's row
 *                      in a byte. 1 requires v_store_row_S(rows, up, r)
 *                      (a masked byte store, or the bytes blended: AVX2, SSE4.2).
 *                      0: they store indices directly (v_store_index_S).
 *   ISA_FOLD_ALL_PAIRS the column fold (ISA_MASKED_STORE 1) takes every
 *                      row in pairs by row bytes. 0: the first occurrence's
 *                      rows after CHUNKED_ROWS (template.h) go alone, a
 *                      test skipping the stores of a vector that improves
 *                      no column.
 *   ISA_LANE_INDEX     dense short rows find their indices eight rows at a
 *                      time in one vector of int64 lanes (V_BYTES 64).
 *                      1 requires v_row_index8(e, r0, per, bits, last).
 *                      0: one row at a time from the masks' bits.
 *   ISA_FMAX_KEEPS_NAN v_fmax_F/v_fmin_F return NaN for a NaN operand
 *                      (NEON). 1 requires v_fmax_num_F/v_fmin_num_F (the
 *                      number where one operand is NaN). 0 (x86: the
 *                      second operand): they are v_fmax_F/v_fmin_F.
 *   ISA_POPCOUNT       popcount64 (platform.h) takes a few instructions at
 *                      this level. 0: a library call (x86-64 without POPCNT).
 *   ISA_COMPRESS       32- and 64-bit lanes pack the lanes a comparison
 *                      selects in an instruction. 1 requires v_compress_S
 *                      (v, bits): those lanes from lane 0, in order, the
 *                      rest zero; and v_compress_index_S(idx, i, bits):
 *                      their indices i + lane likewise as int32, stored
 *                      from idx (a vector's lanes of room) (S = s32, s64).
 *                      0: derived.h's v_compress_store_S copies lane by lane.
 *   ISA_MINMAX_WIDTHS  the lane widths W (a sum of 1, 2, 4, 8) whose
 *                      v_max_S and v_min_S are one instruction each; the
 *                      others' are a compare and a blend, which TopK's
 *                      register network shares with its tags' blends.
 *   ISA                the level's row in isa_list.h (AVX2, ...)
 * The primitives built once from these for every ISA are in derived.h.
 */

#if !defined(V_BYTES) || !defined(ISA) || !defined(MASK_BITS)
#error "SIMD contract: the ISA file must define V_BYTES, MASK_BITS and ISA"
#endif
#if !defined(ISA_CMP_S64) || !defined(ISA_FILTER_SCAN) || !defined(ISA_MASKED_LOAD) || \
    !defined(ISA_MASKED_STORE) || !defined(ISA_FMAX_KEEPS_NAN) || !defined(ISA_LANE_INDEX) || \
    !defined(ISA_POPCOUNT) || !defined(ISA_COMPRESS) || !defined(ISA_MINMAX_WIDTHS) || \
    !defined(ISA_FOLD_ALL_PAIRS)
#error "SIMD contract: the ISA file must define every ISA_ capability"
#endif

/* Every primitive, by its type: an ISA that lacks one, or gives it another
   type, fails to compile here. Never called. */
typedef vec (*contract_unary)(vec);
typedef vec (*contract_binary)(vec, vec);
typedef uint64_t (*contract_compare)(vec, vec);
typedef vmask (*contract_vmask)(vec, vec);
typedef fmask (*contract_fcompare)(vec, vec);
typedef vec (*contract_unary_bits)(vec, uint64_t);

static inline void contract_vector(void)
{
    vec (*load)(const char *) = v_load;
    void (*store)(char *, vec) = v_store;
    void (*stream)(char *, vec) = v_stream;
    void (*stream_fence)(void) = v_stream_fence;
    uint64_t (*low64)(vec) = v_low64;
    contract_binary bitwise[] = {v_and, v_or, v_xor};
    contract_unary swaps[] = {v_swap16, v_swap32, v_swap64, v_swap128,
#if V_BYTES >= 32
                              v_swap256,
#endif
#if V_BYTES >= 64
                              v_swap512,
#endif
    };
    fmask (*f_or)(fmask, fmask) = v_for;
    int (*f_any)(fmask) = v_fany;
    uint64_t (*f_bits)(fmask) = v_fbits;
    (void)load, (void)store, (void)stream, (void)stream_fence, (void)low64, (void)bitwise,
        (void)swaps, (void)f_or, (void)f_any, (void)f_bits;
#if ISA_LANE_INDEX
    vec (*row_index8)(const uint64_t *, int64_t, int64_t, int64_t, int) = v_row_index8;
    (void)row_index8;
#if V_BYTES != 64
#error "SIMD contract: ISA_LANE_INDEX needs vectors of eight int64 lanes"
#endif
#endif
}

#define LANE_FILE "kernels/simd/contract_lane.h"
#include "kernels/simd/for_each_lane.h"
