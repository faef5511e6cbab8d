/*
 * simd_sse.h - the SIMD template's primitives (kernels_simd.h) on 128-bit
 * x86-64 vectors, for kernels_sse2.c (SSE2, the x86-64 floor: SSE42 0) and
 * kernels_sse42.c (SSE42 1: SSE4.1's blendv, pmaxsb/pmaxsd and pcmpeqq and
 * SSE4.2's pcmpgtq replace the SSE2 sequences below; x86-64-v2, NumPy 2.4's
 * own x86-64 baseline). Included by one of them, after <emmintrin.h> (with
 * SSE42, <nmmintrin.h>) and inside its target pragma, before the template.
 */

typedef __m128i vec;
#define V_BYTES 16
/* movemask_epi8: one mask bit per byte, so w bits per w-byte lane. */
#define LANE_BITS(w) (w)

VINLINE vec v_load(const char *p) { return _mm_loadu_si128((const __m128i *)p); }
VINLINE void v_store(char *p, vec v) { _mm_storeu_si128((__m128i *)p, v); }
/* Each w-byte element's bytes reversed (byte-swapped input, w >= 2): SSSE3's
   byte shuffle, or in SSE2 the element's 16-bit words reversed, then each
   word's two bytes. */
VINLINE vec v_bswap(int w, vec x)
{
#if SSE42
    return _mm_shuffle_epi8(x, _mm_set_epi64x(ARGEXT_BSWAP_SHUFFLE_HI(w), ARGEXT_BSWAP_SHUFFLE_LO(w)));
#else
    if (w == 4)
        x = _mm_shufflehi_epi16(_mm_shufflelo_epi16(x, 0xb1), 0xb1);
    else if (w == 8)
        x = _mm_shufflehi_epi16(_mm_shufflelo_epi16(x, 0x1b), 0x1b);
    return _mm_or_si128(_mm_slli_epi16(x, 8), _mm_srli_epi16(x, 8));
#endif
}
VINLINE vec v_xor(vec a, vec b) { return _mm_xor_si128(a, b); }
VINLINE vec v_and(vec a, vec b) { return _mm_and_si128(a, b); }

VINLINE vec v_set1(int w, int64_t x)
{
    switch (w) {
    case 1: return _mm_set1_epi8((char)x);
    case 2: return _mm_set1_epi16((short)x);
    case 4: return _mm_set1_epi32((int)x);
    default: return _mm_set1_epi64x(x);
    }
}

VINLINE vec v_sub(int w, vec a, vec b)
{
    switch (w) {
    case 1: return _mm_sub_epi8(a, b);
    case 2: return _mm_sub_epi16(a, b);
    case 4: return _mm_sub_epi32(a, b);
    default: return _mm_sub_epi64(a, b);
    }
}

/* All ones where a > b (signed lanes). */
VINLINE vec v_cmpgt(int w, vec a, vec b)
{
    switch (w) {
    case 1: return _mm_cmpgt_epi8(a, b);
    case 2: return _mm_cmpgt_epi16(a, b);
    case 4: return _mm_cmpgt_epi32(a, b);
    default:
#if SSE42
        return _mm_cmpgt_epi64(a, b);
#else
    {
        /* The high halves decide unless they are equal; then the high half
           of b - a is all ones exactly when the low halves borrow (a > b,
           unsigned). The answer sits in each high half: copy it down. */
        vec hi_gt = _mm_cmpgt_epi32(a, b);
        vec hi_eq_lo_gt = _mm_and_si128(_mm_cmpeq_epi32(a, b), _mm_sub_epi64(b, a));
        return _mm_shuffle_epi32(_mm_or_si128(hi_gt, hi_eq_lo_gt), 0xf5);
    }
#endif
    }
}

VINLINE vec v_cmpeq(int w, vec a, vec b)
{
    switch (w) {
    case 1: return _mm_cmpeq_epi8(a, b);
    case 2: return _mm_cmpeq_epi16(a, b);
    case 4: return _mm_cmpeq_epi32(a, b);
    default:
#if SSE42
        return _mm_cmpeq_epi64(a, b);
#else
    {
        vec e = _mm_cmpeq_epi32(a, b); /* both halves equal */
        return _mm_and_si128(e, _mm_shuffle_epi32(e, 0xb1));
    }
#endif
    }
}

/* All ones in the negative lanes. */
VINLINE vec v_sign(int w, vec v)
{
    switch (w) {
    case 1: return _mm_cmpgt_epi8(_mm_setzero_si128(), v);
    case 2: return _mm_srai_epi16(v, 15);
    case 4: return _mm_srai_epi32(v, 31);
    default: return _mm_shuffle_epi32(_mm_srai_epi32(v, 31), 0xf5);
    }
}

/* m ? b : a, per byte (m: whole lanes of ones or zeros). */
VINLINE vec v_blend(vec m, vec a, vec b)
{
#if SSE42
    return _mm_blendv_epi8(a, b, m);
#else
    return _mm_or_si128(_mm_and_si128(m, b), _mm_andnot_si128(m, a));
#endif
}

/* x > y ? b : a, per lane. */
VINLINE vec v_sel_gt(int w, vec x, vec y, vec a, vec b) { return v_blend(v_cmpgt(w, x, y), a, b); }

/* Float lanes (w = 4: float32, 8: float64), compared as floats: the larger
   (is_min: the smaller). A lane holding NaN gives either operand. */
VINLINE vec v_fext(int w, int is_min, vec a, vec b)
{
    if (w == 4)
        return _mm_castps_si128(is_min ? _mm_min_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b))
                                       : _mm_max_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b)));
    return _mm_castpd_si128(is_min ? _mm_min_pd(_mm_castsi128_pd(a), _mm_castsi128_pd(b))
                                   : _mm_max_pd(_mm_castsi128_pd(a), _mm_castsi128_pd(b)));
}

/* Float-lane comparisons for the float row scan: masks as whole lanes of
   ones; a comparison with NaN is false (ordered), except v_funord. */
typedef vec fmask;
/* cmpgt, cmpge, cmpunord on float32 or float64 lanes (op: gt, ge, unord). */
#define v_fcmp(w, a, b, op)                                                                   \
    ((w) == 4 ? _mm_castps_si128(_mm_cmp##op##_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b))) \
              : _mm_castpd_si128(_mm_cmp##op##_pd(_mm_castsi128_pd(a), _mm_castsi128_pd(b))))
#define v_fgt(w, a, b) v_fcmp(w, a, b, gt)
#define v_fge(w, a, b) v_fcmp(w, a, b, ge)
#define v_funord(w, a, b) v_fcmp(w, a, b, unord)
#define v_feq(w, a, b) v_fcmp(w, a, b, eq)
#define v_fbits(m) v_mask(m)
VINLINE fmask v_for(fmask a, fmask b) { return _mm_or_si128(a, b); }
VINLINE int v_fany(fmask m) { return _mm_movemask_epi8(m) != 0; }
/* m ? b : a, per lane. */
VINLINE vec v_fblend(int w, fmask m, vec a, vec b)
{
    (void)w;
    return v_blend(m, a, b);
}

VINLINE vec v_max(int w, vec a, vec b)
{
    switch (w) {
#if SSE42
    case 1: return _mm_max_epi8(a, b);
    case 4: return _mm_max_epi32(a, b);
#else
    case 1: { /* the unsigned maximum of the sign-flipped bytes */
        const vec top = _mm_set1_epi8(-128);
        return _mm_xor_si128(_mm_max_epu8(_mm_xor_si128(a, top), _mm_xor_si128(b, top)), top);
    }
#endif
    case 2: return _mm_max_epi16(a, b);
    default: return v_sel_gt(w, b, a, a, b);
    }
}

VINLINE uint64_t v_mask(vec m) { return (uint32_t)_mm_movemask_epi8(m); }
VINLINE uint64_t v_gt(int w, vec a, vec b) { return v_mask(v_cmpgt(w, a, b)); }
VINLINE uint64_t v_ge(int w, vec a, vec b) { return v_mask(v_cmpgt(w, b, a)) ^ 0xffffu; }
VINLINE uint64_t v_eq(int w, vec a, vec b) { return v_mask(v_cmpeq(w, a, b)); }

/* Comparison results as the kernels' column fold consumes them. */
typedef vec vmask;
VINLINE vmask v_gtm(int w, vec a, vec b) { return v_cmpgt(w, a, b); }
VINLINE vmask v_gem(int w, vec a, vec b) { return v_xor(v_cmpgt(w, b, a), _mm_set1_epi8(-1)); }

/* idx[l] = f for every lane l set in `up` (int64 indices, 2 per store): the
   lane masks are widened to 64 bits by interleaving them with themselves. */
VINLINE void v_store_index(int w, int64_t *idx, vmask up, int64_t f)
{
    const vec fv = _mm_set1_epi64x(f);
    vec part[8];
    int parts = 1;
    part[0] = up;
    for (int lw = w; lw < 8; lw *= 2, parts *= 2)
        for (int k = parts - 1; k >= 0; k--) {
            vec m = part[k];
            switch (lw) {
            case 1:
                part[2 * k] = _mm_unpacklo_epi8(m, m);
                part[2 * k + 1] = _mm_unpackhi_epi8(m, m);
                break;
            case 2:
                part[2 * k] = _mm_unpacklo_epi16(m, m);
                part[2 * k + 1] = _mm_unpackhi_epi16(m, m);
                break;
            default:
                part[2 * k] = _mm_unpacklo_epi32(m, m);
                part[2 * k + 1] = _mm_unpackhi_epi32(m, m);
                break;
            }
        }
    for (int c = 0; c < parts; c++) {
        __m128i *q = (__m128i *)(idx + 2 * c);
        _mm_storeu_si128(q, v_blend(part[c], _mm_loadu_si128(q), fv));
    }
}

/* No byte-granular masked store: the dense rows store indices directly;
   no byte-granular masked load: rows shorter than a vector run the baseline. */
#define HAS_STORE_ROW 0
#define HAS_ACTIVE_LOAD 0
/* SSE4.2's pcmpgtq; SSE2 emulates it in five instructions. */
#define HAS_CMP64 SSE42

/* SSE2 has no pmaxsd or pcmpgtq: its int32/int64 row scans test each block
   against the best so far (filter_block) and rank only blocks that pass. */
#define HAS_FILTER_SCAN (!SSE42)
#define FILTER_SCAN(w, kind) (HAS_FILTER_SCAN && (w) >= 4 && (kind) != KIND_FLOAT)
VINLINE vec v_or(vec a, vec b) { return _mm_or_si128(a, b); }
/* Lanes whose top bit is set where key k may pass the threshold thr (from
   v_filter_threshold): int32, k > thr exactly; int64, k / 2 (rounded down,
   in unsigned order, so that the difference cannot overflow) > thr, which
   holds whenever k > best or k >= best. */
VINLINE vec v_filter(int w, vec k, vec thr)
{
    if (w == 4)
        return _mm_cmpgt_epi32(k, thr);
    return _mm_sub_epi64(thr, _mm_srli_epi64(_mm_xor_si128(k, _mm_set1_epi64x(INT64_MIN)), 1));
}
/* The threshold for v_filter from the best key, or 0 if no key can be
   ruled out. */
VINLINE int v_filter_threshold(int w, int64_t best, int last, vec *thr)
{
    if (w == 4) {
        if (last && best == INT32_MIN)
            return 0;
        *thr = _mm_set1_epi32((int)(best - last));
        return 1;
    }
    uint64_t half = ((uint64_t)best ^ (UINT64_C(1) << 63)) >> 1;
    if (half == 0)
        return 0;
    *thr = _mm_set1_epi64x((int64_t)(half - 1));
    return 1;
}
VINLINE int v_filter_any(int w, vec m) { return (_mm_movemask_epi8(m) & (w == 8 ? 0x8080 : 0xffff)) != 0; }

/* The maximum of each aligned group of `bytes` bytes (a power of two),
   in every lane of the group: the butterfly steps shorter than the group.
   Of keys, or (is_float) of float32/float64 lanes without NaN, their
   extreme (is_min: the minimum). */
#define HEXT(y) (is_float ? v_fext(w, is_min, x, y) : v_max(w, x, y))
VINLINE vec v_hext_within(int w, vec x, int bytes, int is_float, int is_min)
{
    if (bytes > 8)
        x = HEXT(_mm_shuffle_epi32(x, 0x4e));
    if (w <= 4 && bytes > 4)
        x = HEXT(_mm_shuffle_epi32(x, 0xb1));
    if (w <= 2 && bytes > 2)
        x = HEXT(_mm_or_si128(_mm_slli_epi32(x, 16), _mm_srli_epi32(x, 16)));
    if (w == 1 && bytes > 1)
        x = HEXT(_mm_or_si128(_mm_slli_epi16(x, 8), _mm_srli_epi16(x, 8)));
    return x;
}
#undef HEXT

/* Lane 0, sign-extended. */
VINLINE int64_t v_lane0(int w, vec v)
{
    int64_t x = _mm_cvtsi128_si64(v);
    switch (w) {
    case 1: return (int8_t)x;
    case 2: return (int16_t)x;
    case 4: return (int32_t)x;
    default: return x;
    }
}

VINLINE void v_prefetch(const char *p) { _mm_prefetch(p, _MM_HINT_T0); }
/* MXCSR.DAZ (bit 6). */
VINLINE int v_denormals_are_zero(void) { return (_mm_getcsr() & 0x40) != 0; }
