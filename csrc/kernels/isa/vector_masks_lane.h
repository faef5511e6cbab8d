/* vector_masks.h's primitives of one lane width (simd/for_each_lane.h). */

VINLINE uint64_t L(v_gt)(vec a, vec b) { return v_mask(L(v_cmpgt)(a, b)); }
VINLINE uint64_t L(v_ge)(vec a, vec b) { return v_mask(L(v_cmpge)(a, b)); }
VINLINE uint64_t L(v_eq)(vec a, vec b) { return v_mask(L(v_cmpeq)(a, b)); }
VINLINE vmask L(v_gtm)(vec a, vec b) { return L(v_cmpgt)(a, b); }
VINLINE vmask L(v_gem)(vec a, vec b) { return L(v_cmpge)(a, b); }
VINLINE vec L(v_sel_gt)(vec x, vec y, vec a, vec b) { return v_blend(L(v_cmpgt)(x, y), a, b); }
#define V_BLEND_LANES ARGEXT_LANE_PASTE(v_blend, WBITS) /* v_blend_32 for 32-bit lanes */
VINLINE vec L(v_sel_gt_lanes)(vec x, vec y, vec a, vec b) { return V_BLEND_LANES(L(v_cmpgt)(x, y), a, b); }
#ifdef FLANE
VINLINE vec F(v_fblend)(fmask m, vec a, vec b) { return v_blend(m, a, b); }
VINLINE vmask F(v_fvmask)(fmask m) { return m; } /* both whole-lane masks */
#endif
#undef V_BLEND_LANES
