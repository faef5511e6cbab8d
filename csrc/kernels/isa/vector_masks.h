/*
 * vector_masks.h - the comparison-result primitives of the SIMD contract
 * (simd/contract.h) for ISAs whose comparisons give vectors of whole-lane
 * masks (SSE2, SSE4.2, AVX2, NEON), written once from the ISA's own
 * v_cmpgt_S, v_cmpge_S, v_cmpeq_S (all ones where true), v_blend (m ? b : a,
 * per byte) and v_mask (a mask vector as MASK_BITS(w) bits per lane).
 */

typedef vec vmask;
typedef vec fmask;
VINLINE fmask v_for(fmask a, fmask b) { return v_or(a, b); }
VINLINE uint64_t v_fbits(fmask m) { return v_mask(m); }

#define LANE_FILE "kernels/isa/vector_masks_lane.h"
#include "kernels/simd/for_each_lane.h"
