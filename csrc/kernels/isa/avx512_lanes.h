/*
 * avx512_lanes.h - avx512.c's primitives of one lane width
 * (simd/for_each_lane.h): compares into mask registers, masked moves and
 * loads, and the maximum, spelled alike for every width.
 */

VINLINE uint64_t L(v_gt)(vec a, vec b) { return X86_EPI_MASK(cmpgt)(a, b); }
VINLINE uint64_t L(v_ge)(vec a, vec b) { return X86_EPI_MASK(cmpge)(a, b); }
VINLINE uint64_t L(v_eq)(vec a, vec b) { return X86_EPI_MASK(cmpeq)(a, b); }
VINLINE vmask L(v_gtm)(vec a, vec b) { return L(v_gt)(a, b); }
VINLINE vmask L(v_gem)(vec a, vec b) { return L(v_ge)(a, b); }
VINLINE vec L(v_sel_gt)(vec x, vec y, vec a, vec b) { return X86_EPI(mask_mov)(a, L(v_gt)(x, y), b); }
VINLINE vec L(v_sel_gt_lanes)(vec x, vec y, vec a, vec b) { return L(v_sel_gt)(x, y, a, b); }
VINLINE vec L(v_max)(vec a, vec b) { return X86_EPI(max)(a, b); }
VINLINE vec L(v_min)(vec a, vec b) { return X86_EPI(min)(a, b); }
VINLINE vec L(v_load_active)(const char *p, uint64_t active) { return X86_EPI(maskz_loadu)(active, p); }
VINLINE vec L(v_sel_active)(uint64_t active, vec a, vec fill) { return X86_EPI(mask_mov)(fill, active, a); }
