/*
 * vector_masks.h - the comparison-result primitives of the SIMD contract
 * (simd/contract.h) for ISAs whose comparisons give vectors of whole-lane
 * masks (SSE2, SSE4.2, AVX2, NEON), written once from the ISA's own
 * v_cmpgt_S, v_cmpge_S, v_cmpeq_S (all ones where true), v_blend (m ? b : a,
 * per byte), optionally v_blend_32 and v_blend_64 (by whole lanes, with
 * ISA_BLEND_LANES) and v_mask (a mask vector as MASK_BITS(w) bits per lane).
 */

typedef vec vmask;
typedef vec fmask;
VINLINE fmask v_for(fmask a, fmask b) { return v_or(a, b); }
VINLINE uint64_t v_fbits(fmask m) { return v_mask(m); }

/* m ? b : a by whole lanes of 8 to 64 bits: the ISA's 32- and 64-bit lane
   blends where it has them (ISA_BLEND_LANES), else its byte blend. gcc
   turns a byte blend's mask into a byte compare against zero and repeats
   it for each blend that shares the mask (avx2: 165 pcmpgtb in each
   TopK register kernel); blendvps/blendvpd it takes as they are. */
#ifndef ISA_BLEND_LANES
VINLINE vec v_blend_32(vec m, vec a, vec b) { return v_blend(m, a, b); }
VINLINE vec v_blend_64(vec m, vec a, vec b) { return v_blend(m, a, b); }
#endif
VINLINE vec v_blend_8(vec m, vec a, vec b) { return v_blend(m, a, b); }
VINLINE vec v_blend_16(vec m, vec a, vec b) { return v_blend(m, a, b); }

#define LANE_FILE "kernels/isa/vector_masks_lane.h"
#include "kernels/simd/for_each_lane.h"
