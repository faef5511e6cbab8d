/*
 * topk_scan.h - TopK's threshold scan of one lane width (for_each_lane.h):
 * a contiguous row offered to a candidate set (kernels/topk.h).
 *
 * A row starting an empty set first gives it a threshold (topk.h): a long
 * one from a sample at its end, a short one (in L1) from its lane maxima.
 * Until the set has a threshold every element enters, so those go through
 * the baseline's loop (`scalar`). Then each block's key maximum is tested
 * against the threshold: a block holding no key above it is skipped whole
 * (random data: nearly every block once the set holds good candidates);
 * in the others, each vector with a key above it offers its lanes in
 * order; then whole vectors, and the last few elements through the
 * baseline. An element skipped would have been refused, so the set sees what
 * the baseline's loop gives it, and ends the same.
 */

/* Offers, in lane order, the lanes of k (the keys of elements i..) set in
   `above` (a comparison's bits). Each offer may raise the threshold; the
   set tests again. */
VINLINE void L(topk_lanes)(const LANE_INT *k, uint64_t above, int64_t i, argext_topk_set *set)
{
    const uint64_t lane_bits = (UINT64_C(1) << MASK_BITS(W)) - 1;
    while (above) {
        int l = ctz64(above) / MASK_BITS(W);
        argext_topk_offer(set, k[l], i + l);
        above &= ~(lane_bits << (l * MASK_BITS(W)));
    }
}

/* The keys of a vector of elements i.. above the threshold offered. */
VINLINE void L(topk_vector)(vec keys, int64_t i, argext_topk_set *set)
{
    uint64_t above = L(v_gt)(keys, L(v_set1)(set->thr));
    if (!above)
        return;
    LANE_INT k[V_BYTES / W];
    v_store((char *)k, keys);
    L(topk_lanes)(k, above, i, set);
}

/* A block that may hold candidates: its keys and their comparisons first,
   then only the vectors with a lane above the threshold, one branch each. */
VINLINE void L(topk_block)(const char *q, int64_t i, argext_topk_set *set, int op, int kind,
                           int64_t inf, int sw)
{
    LANE_INT k[BLOCK_VECS][V_BYTES / W];
    uint64_t above[BLOCK_VECS];
    unsigned hit = 0;
    const vec thr = L(v_set1)(set->thr);
    for (int v = 0; v < BLOCK_VECS; v++) {
        vec keys = L(keys_at)(q + v * V_BYTES, op, kind, inf, sw);
        v_store((char *)k[v], keys);
        above[v] = L(v_gt)(keys, thr);
        hit |= (unsigned)(above[v] != 0) << v;
    }
    for (; hit; hit &= hit - 1) {
        int v = ctz64(hit);
        L(topk_lanes)(k[v], above[v], i + v * (V_BYTES / W), set);
    }
}

/* The lanes of a vector of keys as int64 keys. */
VINLINE void L(topk_lanes_to_keys)(vec a, int64_t *keys)
{
    LANE_INT m[V_BYTES / W];
    v_store((char *)m, a);
    for (int64_t l = 0; l < V_BYTES / W; l++)
        keys[l] = m[l];
}

/* Rows of up to this many bytes are primed from their lane maxima: read
   twice, the second time from L1. */
#define TOPK_L1_ROW 16384

/* k up to this finds the k-th lane maximum in registers, the largest taken
   out k times, instead of the candidate set's selection: a short row's
   priming then costs a few vector steps, not a branchy pass per key. */
#define TOPK_KTH_IN_REGISTERS 8

/* The k-th largest lane (repeats counted) of segs vectors acc (k <= segs *
   lanes), acc spent. v_hmax gives its maximum in every lane. */
VINLINE int64_t L(topk_kth_lane)(vec *acc, int64_t segs, int64_t k)
{
    const vec gone = L(v_set1)(SMIN(W));
    for (;;) {
        vec m = acc[0];
        for (int64_t g = 1; g < segs; g++)
            m = L(v_max)(m, acc[g]);
        m = L(v_hmax)(m);
        int64_t bits = 0;
        for (int64_t g = 0; g < segs; g++) {
            for (uint64_t eq = L(v_eq)(acc[g], m); eq; eq &= eq - 1)
                bits++;
            acc[g] = L(v_sel_gt)(m, acc[g], gone, acc[g]); /* the maximum's lanes out */
        }
        k -= bits / MASK_BITS(W);
        if (k <= 0)
            return L(v_lane0)(m);
    }
}

/* Bisection steps of a short row's prime (topk_kth_count): its threshold
   then lies within 2^-12 of its lane maxima's span below their k-th
   largest (a few more candidates), where the exact one takes up to 8 * W
   dependent steps. */
#define TOPK_PRIME_STEPS 12

/* Samples up to this many vectors find their k-th largest lane by counting
   (topk_kth_count) where the level counts bits in an instruction
   (ISA_POPCOUNT) and the set has work to hold them (the gather's, free
   until it gathers: not the stack, which argext.h bounds); others through
   the set's selection. */
#define TOPK_COUNT_VECS 64
#if TOPK_COUNT_VECS * V_BYTES > ARGEXT_TOPK_WORK_BYTES
#error "topk_scan.h: a set's work holds TOPK_COUNT_VECS vectors"
#endif

/* The most vectors a prime with k up to TOPK_KTH_IN_REGISTERS keeps (on
   the stack): two per segment of 2k lanes of 8 bytes or fewer. */
#define TOPK_SMALL_PRIME_VECS (2 * ((2 * TOPK_KTH_IN_REGISTERS * 8 + V_BYTES - 1) / V_BYTES))

/* The k-th largest lane (repeats counted) of the segs vectors at acc (k <=
   segs * lanes): the largest key with k lanes or more at or above it, bisected
   between the smallest and the largest lane (8 * W steps at most), each
   step a count of lanes by comparisons and no branch per key. The
   selection's partitions mispredict about a branch per key: for k of some
   tens, they cost more than the rest of a row of a thousand. After `steps`
   steps, a key at or below it with k lanes or more at or above it: a
   threshold as safe, within 2^-steps of the lanes' span below it. */
VINLINE int64_t L(topk_kth_count)(const char *acc, int64_t segs, int64_t k, int steps)
{
    const vec ones = L(v_set1)(-1);
    vec m = v_load(acc), nm = v_xor(m, ones); /* nm: the minimum as ~max(~x) */
    for (int64_t g = 1; g < segs; g++) {
        m = L(v_max)(m, v_load(acc + g * V_BYTES));
        nm = L(v_max)(nm, v_xor(v_load(acc + g * V_BYTES), ones));
    }
    int64_t lo = ~L(v_lane0)(L(v_hmax)(nm)), hi = L(v_lane0)(L(v_hmax)(m)); /* lo <= the k-th <= hi */
    const int64_t need = k * MASK_BITS(W);
    for (; lo < hi && steps > 0; steps--) {
        const uint64_t d = (uint64_t)hi - (uint64_t)lo; /* no overflow for 8-byte lanes */
        const int64_t mid = (int64_t)((uint64_t)lo + d / 2 + (d & 1)); /* lo < mid <= hi */
        const vec below = L(v_set1)(mid - 1);
        int64_t bits = 0;
        for (int64_t g = 0; g < segs; g++)
            bits += popcount64(L(v_gt)(v_load(acc + g * V_BYTES), below));
        lo = bits >= need ? mid : lo;
        hi = bits >= need ? hi : mid - 1;
    }
    return lo;
}

/* An empty set given the threshold below kth (the k-th largest key of
   distinct elements), as argext_topk_prime does. */
VINLINE void L(topk_threshold)(argext_topk_set *set, int64_t kth)
{
    if (kth <= SMIN(W) + 1)
        return; /* no threshold: the set stays open */
    set->open = 0;
    set->thr = set->guess = kth - 1;
}

/* A long row's prime reads this many elements per k from its start (the
   more it reads, the fewer enter the set: the cost of an insertion, of
   order k, against that of a sample's element), at most a quarter of the
   row. */
#define TOPK_PRIME_PER_K 512

/* The groups of a long row's prime where its k-th largest is counted
   (topk_kth_count): 6 to 28 measured alike (Zen 5, 128256-element rows,
   k = 50). */
#define TOPK_PRIME_GROUPS 12

/* The lane maxima of the keys of group g of `groups` equal groups of the
   nv vectors at p. */
VINLINE vec L(topk_group_max)(const char *p, int64_t nv, int64_t g, int64_t groups, int op,
                              int kind, int64_t inf, int sw)
{
    int64_t v = nv * g / groups, v1 = nv * (g + 1) / groups;
    vec a = L(keys_at)(p + v * V_BYTES, op, kind, inf, sw);
    while (++v < v1)
        a = L(v_max)(a, L(keys_at)(p + v * V_BYTES, op, kind, inf, sw));
    return a;
}

/* The lane maxima of the keys of the nv vectors at p, a threshold's lower
   bounds. Float lanes (four vectors or more) take them as floats, in four
   streams, keyed at the end, unless the row holds a NaN (which the float
   extreme may drop): then as keys (topk_group_max). 16-bit floats, whose
   keys take seven instructions a vector, take each lane's key of an
   element as safe: the best but where a NaN may be. */
VINLINE vec L(topk_lane_max)(const char *p, int64_t nv, int op, int kind, int64_t inf, int sw)
{
    if (W == 2 && kind == ARGEXT_KIND_FLOAT) {
        /* The bits' extremes as int16 (MIN: the sign flipped): the largest
           if not negative, else the least. */
        const vec flip = L(v_set1)(ARGEXT_OP_IS_MIN(op) ? SMIN(W) : 0);
        vec hi = v_xor(L(v_load_row)(p, sw), flip), lo = hi;
        for (int64_t v = 1; v < nv; v++) {
            const vec x = v_xor(L(v_load_row)(p + v * V_BYTES, sw), flip);
            hi = L(v_max)(hi, x);
            lo = L(v_min)(lo, x);
        }
        return L(v_keys)(v_xor(L(v_sel_gt)(L(v_set1)(0), hi, hi, lo), flip), op, kind, inf);
    }
#ifdef FLANE
    if (kind == ARGEXT_KIND_FLOAT && nv >= 4) {
        const int min_op = ARGEXT_OP_IS_MIN(op);
        vec e[4];
        fmask nan = F(v_fgt)(L(v_set1)(0), L(v_set1)(0)); /* none */
        F(load_floats4)(e, p, op, inf, sw, &nan);
        int64_t v = 4;
        for (; v + 4 <= nv; v += 4) {
            vec x[4];
            F(load_floats4)(x, p + v * V_BYTES, op, inf, sw, &nan);
            for (int j = 0; j < 4; j++)
                e[j] = F(v_fext)(min_op, e[j], x[j]);
        }
        for (; v < nv; v++) {
            const vec x = F(v_load_floats)(p + v * V_BYTES, op, inf, sw);
            nan = v_for(nan, F(v_funord)(x, x));
            e[0] = F(v_fext)(min_op, e[0], x);
        }
        const vec m = F(v_fext)(min_op, F(v_fext)(min_op, e[0], e[1]), F(v_fext)(min_op, e[2], e[3]));
        if (ISA_FMAX_KEEPS_NAN)
            nan = F(v_funord)(m, m); /* a NaN stays the extreme */
        if (!v_fany(nan))
            return L(v_keys)(m, op, kind, inf);
    }
#endif
    return L(topk_group_max)(p, nv, 0, 1, op, kind, inf, sw);
}

/* Marks a set's work holds (topk_prime, topk_prime_blocks). */
#define TOPK_MARKS (ARGEXT_TOPK_WORK_BLOCK_BYTES / V_BYTES)

/* The key maximum of the mv vectors at q (a block or half of one, whose
   block asks memory ahead where `ahead`): as floats, keyed once, unless
   they hold a NaN. */
VINLINE vec L(topk_mark)(const char *q, int64_t mv, int op, int kind, int64_t inf, int sw,
                         int ahead)
{
#ifdef FLANE
    if (kind == ARGEXT_KIND_FLOAT) {
        fmask nan = F(v_fgt)(L(v_set1)(0), L(v_set1)(0)); /* none */
        vec e;
        if (mv == BLOCK_VECS) {
            e = F(block_ext)(q, op, inf, sw, ahead, &nan);
        } else {
            const int is_min = ARGEXT_OP_IS_MIN(op);
            vec x[4];
            if (ahead)
                prefetch_block(q);
            F(load_floats4)(x, q, op, inf, sw, &nan);
            e = F(v_fext)(is_min, F(v_fext)(is_min, x[0], x[1]), F(v_fext)(is_min, x[2], x[3]));
        }
        if (ISA_FMAX_KEEPS_NAN)
            nan = F(v_funord)(e, e); /* a NaN stays the extreme */
        if (!v_fany(nan))
            return L(v_keys)(e, op, kind, inf);
        ahead = 0;
    }
#endif
    if (mv == BLOCK_VECS)
        return L(block_max)(q, op, kind, inf, sw, ahead);
    if (ahead)
        prefetch_block(q);
    vec m = L(keys_at)(q, op, kind, inf, sw);
    for (int64_t v = 1; v < mv; v++)
        m = L(v_max)(m, L(keys_at)(q + v * V_BYTES, op, kind, inf, sw));
    return m;
}

/* An empty set primed from a sample (n >= ARGEXT_TOPK_PRIME_ROWS *
   set->cap elements: set->cap vectors or more): the keys of its last
   elements (k or more, in whole vectors: exact on ascending data), and the
   lane maxima of groups of its first vectors (TOPK_PRIME_PER_K) from the
   first vector boundary (read in order, which the prefetchers follow).
   Those are kept as marks (the key maxima of whole blocks, at most
   TOPK_MARKS), so that the gather or the scan reads again only the
   sample's blocks above its threshold (Intel Xeon, avx512, offered rows:
   float32 (64, 20000) k = 16 1.03x, int32 1.07x, float64 k = 20 1.06x).
   Each is an element's key, so their k-th largest bounds the row's k-th
   best from below; on random data, maxima of groups of many elements
   give a k-th largest near the row's own (fewer elements enter than from
   a sample of a set's worth of vectors). Where the level
   has a popcount instruction (ISA_POPCOUNT), k is above
   TOPK_KTH_IN_REGISTERS and the sample fits TOPK_COUNT_VECS vectors, that
   k-th largest is counted, without a branch per key (TOPK_PRIME_GROUPS
   groups); otherwise the set's selection takes as many groups as its key
   places hold (for k of a few, an insertion pass: measured about 3%
   faster than counting at k = 5). The selection's mispredicted partitions
   cost a k = 50 row of 128256 bfloat16 about a tenth of its time. */
VINLINE void L(topk_prime)(const char *p, int64_t n, argext_topk_set *set, int op, int kind,
                           int64_t inf, int sw)
{
    const int64_t lanes = V_BYTES / W, i = L(row_head_elements)(p);
    const int64_t ev = (set->k + lanes - 1) / lanes, e = ev * lanes;
    const int64_t quarter = (n - e) / lanes / 4, per_k = set->k * TOPK_PRIME_PER_K / lanes;
    const int64_t nv = per_k < quarter ? per_k : quarter;
    const int64_t mv = BLOCK_VECS * ((nv + TOPK_MARKS * BLOCK_VECS - 1) / (TOPK_MARKS * BLOCK_VECS));
    const int64_t nm = nv / mv;
    const int counted = ISA_POPCOUNT && set->k > TOPK_KTH_IN_REGISTERS &&
                        ev + TOPK_PRIME_GROUPS <= TOPK_COUNT_VECS;
    int64_t groups = counted ? TOPK_PRIME_GROUPS : (set->cap - e) / lanes;
    groups = groups < nm ? groups : nm;
    if (groups < 1 || !set->work)
        return; /* no whole mark, or no work to keep marks: the set stays open */
    char *acc = set->work; /* the gather's scratch, free until a gather */
    char *marks = set->work + ARGEXT_TOPK_WORK_BLOCKS;
    const int ahead = scan_ahead(set->span, kind);
    for (int64_t b = 0; b < nm; b++) {
        const char *q = p + (i + b * mv * lanes) * W;
        vec m = L(topk_mark)(q, BLOCK_VECS, op, kind, inf, sw, ahead);
        for (int64_t v = BLOCK_VECS; v < mv; v += BLOCK_VECS)
            m = L(v_max)(m, L(topk_mark)(q + v * V_BYTES, BLOCK_VECS, op, kind, inf, sw, ahead));
        v_store(marks + b * V_BYTES, m);
    }
    const char *last = p + (n - e) * W;
    for (int64_t v = 0; v < ev; v++) { /* acc holds them only when counted: ev may pass it */
        vec a = L(keys_at)(last + v * V_BYTES, op, kind, inf, sw);
        if (counted)
            v_store(acc + v * V_BYTES, a);
        else
            L(topk_lanes_to_keys)(a, set->keys + v * lanes);
    }
    for (int64_t g = 0; g < groups; g++) {
        int64_t b = nm * g / groups;
        const int64_t b1 = nm * (g + 1) / groups;
        vec a = v_load(marks + b * V_BYTES);
        while (++b < b1)
            a = L(v_max)(a, v_load(marks + b * V_BYTES));
        if (counted)
            v_store(acc + (ev + g) * V_BYTES, a);
        else
            L(topk_lanes_to_keys)(a, set->keys + e + g * lanes);
    }
    if (counted)
        L(topk_threshold)(set, L(topk_kth_count)(acc, ev + groups, set->k, 8 * W));
    else
        argext_topk_prime(set, e + groups * lanes, SMIN(W));
    set->blocks = set->open || mv > 32 ? 0 : nm; /* topk_gather_blocks: a bit per vector */
    set->mark_vecs = mv;
    /* The guess: the group maxima's k'-th largest, k' twice the k best's
       expected share of the sample's elements. Not from the last keys: on
       ascending data those are the row's best, and the guess would be too
       high for every row. */
    const int64_t guess_k = (2 * set->k * nm * mv * lanes + n - 1) / n;
    if (counted && !set->open && guess_k < set->k) {
        const int64_t kth = L(topk_kth_count)(acc + ev * V_BYTES, groups, guess_k, 8 * W);
        set->guess = kth - 1 > set->thr ? kth - 1 : set->thr;
    }
}

/* Streams of a group's two largest per lane (topk_group_top2): each
   vector's step waits on its stream's last, a float maximum's latency. */
#define TOPK_TOP2_STREAMS 4

/* (h, l), the two largest keys per lane (h >= l), given x: as keys, then
   as floats (is_min: the two smallest). */
VINLINE void L(top2_step)(vec *h, vec *l, vec x)
{
    *l = L(v_max)(*l, L(v_sel_gt)(*h, x, *h, x)); /* the smaller of h and x */
    *h = L(v_max)(*h, x);
}

/* (h, l) given another lane's two largest (xh, xl). */
VINLINE void L(top2_merge)(vec *h, vec *l, vec xh, vec xl)
{
    *l = L(v_max)(L(v_sel_gt)(*h, xh, *h, xh), L(v_max)(*l, xl));
    *h = L(v_max)(*h, xh);
}

#ifdef FLANE
VINLINE void F(top2_step)(int is_min, vec *h, vec *l, vec x)
{
    *l = F(v_fext)(is_min, *l, F(v_fext)(!is_min, *h, x));
    *h = F(v_fext)(is_min, *h, x);
}

VINLINE void F(top2_merge)(int is_min, vec *h, vec *l, vec xh, vec xl)
{
    *l = F(v_fext)(is_min, F(v_fext)(!is_min, *h, xh), F(v_fext)(is_min, *l, xl));
    *h = F(v_fext)(is_min, *h, xh);
}
#endif

/* The two largest keys, per lane, of group g of `groups` equal groups of
   the nv vectors at p (TOPK_TOP2_STREAMS vectors or more each), into *hi
   and *lo: keys of distinct elements, or the least key where a lane had
   one element (no element of the row is below it: a threshold as safe).
   Float lanes take them as floats, keyed at the end (the key is monotone;
   -0.0 and +0.0 key alike), unless the group holds a NaN (a magnitude
   above infinity's), which the float extreme may drop: then as keys. */
VINLINE void L(topk_group_top2)(const char *p, int64_t nv, int64_t g, int64_t groups, int op,
                                int kind, int64_t inf, int sw, vec *hi, vec *lo)
{
    const int64_t v0 = nv * g / groups, v1 = nv * (g + 1) / groups, S = TOPK_TOP2_STREAMS;
    vec h[TOPK_TOP2_STREAMS], l[TOPK_TOP2_STREAMS];
#ifdef FLANE
    if (kind == ARGEXT_KIND_FLOAT) {
        const int min_op = ARGEXT_OP_IS_MIN(op);
        const vec magnitude = L(v_set1)(SMAX(W));
        const vec least = L(v_set1)(min_op ? inf : (int64_t)((uint64_t)inf | (uint64_t)SMIN(W)));
        vec mag = L(v_set1)(0); /* the largest magnitude: a NaN's is above inf's */
        ARGEXT_UNROLL
        for (int64_t s = 0; s < S; s++) {
            h[s] = F(v_load_floats)(p + (v0 + s) * V_BYTES, op, inf, sw);
            l[s] = least;
            mag = L(v_max)(mag, v_and(h[s], magnitude));
        }
        int64_t v = v0 + S;
        for (; v + S <= v1; v += S) {
            vec m = L(v_set1)(0); /* off mag's chain */
            ARGEXT_UNROLL
            for (int64_t s = 0; s < S; s++) {
                const vec x = F(v_load_floats)(p + (v + s) * V_BYTES, op, inf, sw);
                m = L(v_max)(m, v_and(x, magnitude));
                F(top2_step)(min_op, &h[s], &l[s], x);
            }
            mag = L(v_max)(mag, m);
        }
        for (; v < v1; v++) {
            const vec x = F(v_load_floats)(p + v * V_BYTES, op, inf, sw);
            mag = L(v_max)(mag, v_and(x, magnitude));
            F(top2_step)(min_op, &h[0], &l[0], x);
        }
        ARGEXT_UNROLL
        for (int64_t s = 1; s < S; s++)
            F(top2_merge)(min_op, &h[0], &l[0], h[s], l[s]);
        if (!L(v_gt)(mag, L(v_set1)(inf))) {
            char two[2 * V_BYTES];
            v_store(two, h[0]);
            v_store(two + V_BYTES, l[0]);
            *hi = L(keys_at)(two, op, kind, inf, 0);
            *lo = L(keys_at)(two + V_BYTES, op, kind, inf, 0);
            return;
        }
    }
#endif
    ARGEXT_UNROLL
    for (int64_t s = 0; s < S; s++) {
        h[s] = L(keys_at)(p + (v0 + s) * V_BYTES, op, kind, inf, sw);
        l[s] = L(v_set1)(SMIN(W));
    }
    int64_t v = v0 + S;
    for (; v + S <= v1; v += S)
        ARGEXT_UNROLL
        for (int64_t s = 0; s < S; s++) {
            const vec x = L(keys_at)(p + (v + s) * V_BYTES, op, kind, inf, sw);
            L(top2_step)(&h[s], &l[s], x);
        }
    for (; v < v1; v++) {
        const vec x = L(keys_at)(p + v * V_BYTES, op, kind, inf, sw);
        L(top2_step)(&h[0], &l[0], x);
    }
    ARGEXT_UNROLL
    for (int64_t s = 1; s < S; s++)
        L(top2_merge)(&h[0], &l[0], h[s], l[s]);
    *hi = h[0];
    *lo = l[0];
}

/* The k-th largest lane (repeats counted) of the n vectors at acc (n 1
   or 2, k <= n * lanes, k < 128): the largest lane with k lanes or more at
   or above it. Each lane's count is kept in a vector, a compare per
   broadcast lane and vector, none waiting on another (topk_kth_lane's
   steps each wait on the last). */
VINLINE int64_t L(topk_kth_counted)(const vec *acc, int64_t n, int64_t k)
{
    const vec none = L(v_set1)(0), one = L(v_set1)(-1);
    vec count[2] = {none, none};
    LANE_INT lane[2][V_BYTES / W];
    for (int64_t u = 0; u < n; u++)
        v_store((char *)lane[u], acc[u]);
    for (int64_t u = 0; u < n; u++)
        for (int64_t j = 0; j < V_BYTES / W; j++) { /* one more where a lane <= key */
            const vec key = L(v_set1)(lane[u][j]);
            for (int64_t t = 0; t < n; t++)
                count[t] = L(v_sub)(count[t], L(v_sel_gt)(acc[t], key, one, none));
        }
    const vec fewer = L(v_set1)(k - 1), least = L(v_set1)(SMIN(W));
    /* counts wrap past 127 for bytes: that lane is then the least, no k-th for k < 128 */
    vec best = least;
    for (int64_t t = 0; t < n; t++)
        best = L(v_max)(best, L(v_sel_gt)(count[t], fewer, least, acc[t]));
    return L(v_lane0)(L(v_hmax)(best));
}

/* An empty set primed from the lane maxima of each of `segs` segments of
   the row's whole vectors (segs * lanes >= 2k keys of distinct elements):
   short rows then offer little more than their k best. k up to
   TOPK_KTH_IN_REGISTERS takes each segment's two largest per lane: a
   threshold at about the row's own k-th best (a lane rarely holds three
   of them), for a few instructions more per vector on a row read from
   memory anyway. */
VINLINE void L(topk_prime_lanes)(const char *p, int64_t n, argext_topk_set *set, int op,
                                 int kind, int64_t inf, int sw)
{
    const int64_t lanes = V_BYTES / W, nv = n / lanes, segs = (2 * set->k + lanes - 1) / lanes;
    if (segs * lanes > set->cap || nv < segs)
        return; /* k too large for the set's key places: it stays open */
    if (set->k <= TOPK_KTH_IN_REGISTERS) {
        vec acc[TOPK_SMALL_PRIME_VECS];
        int64_t kth;
        if (lanes >= 3 * set->k) { /* lane maxima enough: 3k keys and more */
            acc[0] = L(topk_lane_max)(p, nv, op, kind, inf, sw);
            kth = L(topk_kth_counted)(acc, 1, set->k);
        } else if (nv >= TOPK_TOP2_STREAMS * segs) {
            for (int64_t g = 0; g < segs; g++)
                L(topk_group_top2)(p, nv, g, segs, op, kind, inf, sw, &acc[2 * g], &acc[2 * g + 1]);
            kth = segs == 1 ? L(topk_kth_counted)(acc, 2, set->k)
                            : L(topk_kth_lane)(acc, 2 * segs, set->k);
        } else {
            for (int64_t g = 0; g < segs; g++)
                acc[g] = L(topk_group_max)(p, nv, g, segs, op, kind, inf, sw);
            kth = L(topk_kth_lane)(acc, segs, set->k);
        }
        L(topk_threshold)(set, kth);
        return;
    }
    char *acc = set->work; /* the gather's scratch, free until a gather */
    const int counted = ISA_POPCOUNT && acc && segs <= TOPK_COUNT_VECS;
    for (int64_t g = 0; g < segs; g++) {
        vec a = L(topk_group_max)(p, nv, g, segs, op, kind, inf, sw);
        if (counted)
            v_store(acc + g * V_BYTES, a);
        else
            L(topk_lanes_to_keys)(a, set->keys + g * lanes);
    }
    if (counted)
        L(topk_threshold)(set, L(topk_kth_count)(acc, segs, set->k, TOPK_PRIME_STEPS));
    else
        argext_topk_prime(set, segs * lanes, SMIN(W));
}

#ifdef FLANE
/* Into *ft, the float x (in every lane) against which a float lane is
   above the threshold thr (its key above it) exactly where it is above x
   (MAX) or below x (MIN), or is a NaN. Returns 0, with nothing set, where
   no such x is normal or infinite: a denormal or zero x would compare
   wrongly on a thread that reads denormals as zero, and none is a float
   below -inf. */
VINLINE int F(topk_float_thr)(int64_t thr, int op, int64_t inf, vec *ft)
{
    const int64_t key = ARGEXT_OP_IS_MIN(op) ? ~thr : thr; /* MIN: below the float of key ~thr */
    if (key < -inf || key > inf)
        return 0;
    const int64_t mag = key < 0 ? -key : key;
    if (mag < (inf & -inf)) /* inf & -inf: the least normal float's bits */
        return 0;
    *ft = L(v_set1)(key < 0 ? (int64_t)((uint64_t)SMIN(W) | (uint64_t)mag) : key);
    return 1;
}

#endif

/* k from TOPK_GATHER_K up to a quarter of ARGEXT_TOPK_GATHER (the most
   candidates a row gathers, kernels/topk.h) is taken by topk_gather_scan.
   k = 2 offers its few candidates to the set for less (measured 5-8% on
   Zen 5, float32 rows of 1000; k = 3 alike). */
#define TOPK_GATHER_K 3

/* Rows past L1 are gathered from this k: below it the set's rank-order
   insertions, whose threshold rises with each one, skip more blocks than
   a gather (argmax's time over TopK's, logits (32, 128256), Zen 5:
   bfloat16 k = 5 0.78 offered, 0.68 gathered; float32 (64, 20000) k = 16
   0.47 and 0.41; bfloat16 k = 50 0.41 and 0.435; float32 k = 128 0.24 and
   0.30). */
#define TOPK_LONG_GATHER_K 32

/* A gather's places per k (at least four vectors, at most
   ARGEXT_TOPK_GATHER): when they fill, it keeps its k best and raises its
   threshold to their k-th. Long rows keep early: their prime's threshold,
   from a fifth of the row, lets a few k through on random data, and a
   threshold raised within the row skips more blocks (argmax's time over
   TopK's, logits (32, 128256), Zen 5, 8k places against 3k: bfloat16 and
   float16 k = 50 0.44 and 0.49, float32 k = 128 0.30 and 0.31, ascending
   k = 50 0.80 alike; 2k measured as 3k). Rows in L1 keep 8k: their lane
   maxima's threshold lets few more than k through. */
#define TOPK_LONG_GATHER_ROOM_K 3
#define TOPK_L1_GATHER_ROOM_K 8

/* The places of the gathered keys[c, ...) up to a whole vector filled with
   the lane type's minimum, which no count of topk_kth_count or topk_rank
   takes for a key above it (every gathered key is above the threshold). */
VINLINE int64_t L(topk_pad)(LANE_INT *keys, int64_t c)
{
    const int64_t lanes = V_BYTES / W, nv = (c + lanes - 1) / lanes;
    for (int64_t j = c; j < nv * lanes; j++)
        keys[j] = (LANE_INT)SMIN(W);
    return nv;
}

/* The gathered keys[0, c) and idx[0, c) (c > k, in index order) kept down
   to their k best, in order: every one above the k-th best key, and the
   first ones at it. Returns that key, the new threshold. */
VINLINE int64_t L(topk_keep)(LANE_INT *keys, int32_t *idx, int64_t c, int64_t k)
{
    const int64_t kth = L(topk_kth_count)((const char *)keys, L(topk_pad)(keys, c), k, 8 * W);
    int64_t above = 0, m = 0;
    for (int64_t j = 0; j < c; j++)
        above += keys[j] > kth;
    for (int64_t j = 0, at = k - above; j < c; j++) {
        int keep = keys[j] > kth || (keys[j] == kth && at-- > 0);
        keys[m] = keys[j];
        idx[m] = idx[j];
        m += keep;
    }
    return kth;
}

/* The gathered keys[0, c) (c >= k, of distinct elements, in index order)
   ranked, and the k best written to the set's items at their ranks, or in
   index order where the set wants them so (by_index): a key's rank is the
   count of the gathered ones before it, larger keys and equal keys
   earlier, each count a vector compare and a popcount (c of a few k: no
   sort, no branch per key). */
VINLINE void L(topk_rank)(LANE_INT *keys, const int32_t *idx, int64_t c, int64_t i0,
                          argext_topk_set *set)
{
    const int64_t lanes = V_BYTES / W, nv = L(topk_pad)(keys, c), k = set->k;
    int64_t m = 0, worst = 0;
    for (int64_t j = 0; j < c; j++) {
        const vec key = L(v_set1)(keys[j]);
        const int64_t bj = j / lanes, before = (j % lanes) * MASK_BITS(W);
        int64_t bits = 0;
        for (int64_t b = 0; b < nv; b++)
            bits += popcount64(b < bj ? L(v_ge)(v_load((const char *)(keys + b * lanes)), key)
                                      : L(v_gt)(v_load((const char *)(keys + b * lanes)), key));
        const uint64_t eq = L(v_eq)(v_load((const char *)(keys + bj * lanes)), key);
        bits += popcount64(before ? eq & ((UINT64_C(1) << before) - 1) : 0);
        const int64_t rank = bits / MASK_BITS(W);
        if (rank < k) {
            const int64_t at = set->by_index ? m++ : rank;
            set->item[at].key = keys[j];
            set->item[at].idx = i0 + idx[j];
            worst = rank == k - 1 ? keys[j] : worst;
        }
    }
    if (set->by_index)
        argext_topk_kept(set, worst);
    else
        argext_topk_ranked(set);
}

/* The gather's state: keys and indices of the candidates so far (in the
   set's work), in index order, c of them, above the threshold thr (t in
   every lane; ft its float form where use_float, topk_float_thr; bits its
   bit form where use_bits, bits_thr). */
typedef struct {
    LANE_INT *keys;
    int32_t *idx;
    int64_t c, thr, k, limit;
    vec t, ft;
    L(bits_form) bits;
    int use_float, use_bits;
} L(topk_gather);

/* The gather's threshold thr: its vector forms. */
VINLINE void L(topk_gather_thr)(L(topk_gather) *g, int64_t thr, int op, int kind, int64_t inf)
{
    g->thr = thr;
    g->t = L(v_set1)(thr);
    g->ft = g->t; /* unused unless use_float */
    g->use_float = 0;
    g->use_bits = L(bits_thr)(thr, op, kind, inf, &g->bits);
#ifdef FLANE
    g->use_float = kind == ARGEXT_KIND_FLOAT && F(topk_float_thr)(thr, op, inf, &g->ft);
#endif
    (void)op, (void)kind, (void)inf;
}

/* Whether the block at q may hold a key above the threshold: its float
   extreme against ft (fewer instructions than keys), or its key maximum. */
VINLINE int L(topk_block_hit)(const L(topk_gather) *g, const char *q, int op, int kind,
                              int64_t inf, int sw, int ahead)
{
#ifdef FLANE
    if (g->use_float) {
        fmask nan = F(v_fgt)(g->ft, g->ft); /* none */
        vec e = F(block_ext)(q, op, inf, sw, ahead, &nan);
        if (ISA_FMAX_KEEPS_NAN)
            nan = F(v_funord)(e, e);
        return v_fany(v_for(nan, ARGEXT_OP_IS_MIN(op) ? F(v_fgt)(g->ft, e) : F(v_fgt)(e, g->ft)));
    }
#endif
    if (g->use_bits)
        return L(bits_block)(q, &g->bits, sw, ahead);
    return L(v_gt)(L(block_max)(q, op, kind, inf, sw, ahead), g->t) != 0;
}

/* The bits of the lanes of the vector at q at or below the threshold
   (where all are set, no candidate), a NaN's never set. */
VINLINE uint64_t L(topk_at_or_below)(const L(topk_gather) *g, const char *q, int op, int kind,
                                     int64_t inf, int sw)
{
#ifdef FLANE
    if (g->use_float) {
        const vec x = F(v_load_floats)(q, op, inf, sw);
        return v_fbits(ARGEXT_OP_IS_MIN(op) ? F(v_fge)(x, g->ft) : F(v_fge)(g->ft, x));
    }
#endif
    if (g->use_bits)
        return ~L(bits_above)(&g->bits, L(v_load_row)(q, sw));
    return ~L(v_gt)(L(keys_at)(q, op, kind, inf, sw), g->t);
}

/* The keys x of the vector of elements i.. in `above` (a comparison's bits)
   gathered; a full gather first keeps its k best. */
VINLINE void L(topk_gather_vector)(L(topk_gather) *g, vec x, uint64_t above, int64_t i, int op,
                                   int kind, int64_t inf)
{
    if (g->c + V_BYTES / W > g->limit) {
        L(topk_gather_thr)(g, L(topk_keep)(g->keys, g->idx, g->c, g->k), op, kind, inf);
        g->c = g->k;
        above &= L(v_gt)(x, g->t);
    }
    g->c += L(v_compress_store)(g->keys + g->c, g->idx + g->c, x, above, (int32_t)i);
}

/* A block that may hold candidates: its keys and their comparisons first,
   then only the vectors with a lane above the threshold gathered. */
VINLINE void L(topk_gather_block)(L(topk_gather) *g, const char *q, int64_t i, int op, int kind,
                                  int64_t inf, int sw)
{
    vec x[BLOCK_VECS];
    uint64_t above[BLOCK_VECS];
    unsigned hit = 0;
    const int bits = g->use_bits; /* a gathered vector may change it */
    for (int v = 0; v < BLOCK_VECS; v++) { /* with bits, keys only of the vectors gathered */
        x[v] = bits ? L(v_load_row)(q + v * V_BYTES, sw) : L(keys_at)(q + v * V_BYTES, op, kind, inf, sw);
        above[v] = bits ? L(bits_above)(&g->bits, x[v]) : L(v_gt)(x[v], g->t);
        hit |= (unsigned)(above[v] != 0) << v;
    }
    for (; hit; hit &= hit - 1) {
        int v = ctz64(hit);
        const vec keys = bits ? L(v_keys)(x[v], op, kind, inf) : x[v];
        L(topk_gather_vector)(g, keys, above[v], i + v * (V_BYTES / W), op, kind, inf);
    }
}

/* A bit of topk_gather_l1's hit words per this many bytes (a line): the
   narrower levels' vectors two or four to a bit, each bit's test costing
   more than their compares (measured at avx2 and sse2 per vector: 1.05x
   and 1.10x the time of blocks at k = 5). */
#define TOPK_HIT_BYTES 64

/* The whole lines of a row of n elements in L1 (its prime read it)
   gathered: a bit per line holding a key above the threshold, 64 lines
   at a time and without a branch, then the vectors of those lines. A
   branch per block mispredicted at each of the few hits a row has.
   From i on; returns where it stopped. */
VINLINE int64_t L(topk_gather_l1)(L(topk_gather) *g, const char *p, int64_t n, int64_t i, int op,
                                  int kind, int64_t inf, int sw)
{
    const int64_t lanes = V_BYTES / W, per = TOPK_HIT_BYTES / V_BYTES, line = per * lanes;
    const uint64_t all = lanes * MASK_BITS(W) >= 64 ? ~UINT64_C(0)
                                                     : (UINT64_C(1) << (lanes * MASK_BITS(W))) - 1;
    while (i + line <= n) {
        const int64_t nl = (n - i) / line < 64 ? (n - i) / line : 64;
        uint64_t hit = 0;
        for (int64_t b = 0; b < nl; b++) {
            uint64_t below = all;
            for (int64_t v = 0; v < per; v++)
                below &= L(topk_at_or_below)(g, p + (i + b * line + v * lanes) * W, op, kind, inf, sw);
            hit |= (uint64_t)(below != all) << b;
        }
        for (; hit; hit &= hit - 1) /* the threshold may rise: each vector compared again */
            for (int64_t v = 0, at = i + ctz64(hit) * line; v < per; v++, at += lanes) {
                const vec x = L(keys_at)(p + at * W, op, kind, inf, sw);
                const uint64_t above = L(v_gt)(x, g->t);
                if (above)
                    L(topk_gather_vector)(g, x, above, at, op, kind, inf);
            }
        i += nl * line;
    }
    return i;
}

/* Whether a set with a threshold takes its row of n elements by a gather
   (topk_gather_scan): k from TOPK_GATHER_K up to a quarter of the gather's
   places, the set's work to gather in, and int32 indices. */
VINLINE int L(topk_gathers)(const argext_topk_set *set, int64_t n)
{
    return set->k >= TOPK_GATHER_K && set->k <= ARGEXT_TOPK_GATHER / 4 && set->work &&
           n <= INT32_MAX;
}

#if TOPK_L1_ROW / (BLOCK_VECS / 2) > ARGEXT_TOPK_WORK_BLOCK_BYTES
#error "topk_scan.h: a set's work holds a vector per mark of a row in L1"
#endif

/* Rows of up to this many blocks mark each half block in
   topk_prime_blocks at 64-byte vectors, as do 16-bit float rows (whose
   keys cost seven instructions a vector): a hit mark's vectors are tested
   again one by one, and in short rows most marks hit. Intel Xeon, avx512,
   k = 5, against whole blocks: float32 rows of 1000 1.07-1.11x, int32
   1.10x, float16 rows of 4000 1.11x; half blocks in float32 rows of 2000
   and 4000 0.94-0.96x, float64 rows of 1000 0.93-0.95x (more marks to
   make and test). */
#define TOPK_HALF_MARK_BLOCKS 8

/* Vectors per mark of topk_prime_blocks for a row of n elements from i. */
VINLINE int64_t L(topk_mark_vecs)(int64_t n, int64_t i, int kind)
{
    const int64_t blocks = (n - i) / (V_BYTES / W * BLOCK_VECS);
    return V_BYTES == 64 && (blocks <= TOPK_HALF_MARK_BLOCKS ||
                             (W == 2 && kind == ARGEXT_KIND_FLOAT))
               ? BLOCK_VECS / 2
               : BLOCK_VECS;
}

/* A prime for rows in L1 gathered with k up to TOPK_KTH_IN_REGISTERS,
   which reads the row from memory once: the key maximum of each whole
   block (or half block: topk_mark_vecs) from the first vector boundary
   kept in the set's work (set->blocks), so that the gather reads again
   only the blocks above the threshold (topk_gather_blocks: a few of the
   row's, where testing every line took it as long as the first read);
   the threshold from those maxima as topk_prime_lanes takes it from
   vectors. Float blocks are
   reduced as floats and keyed once, unless they hold a NaN. Returns 0,
   the set untouched, for the other rows and k; rows of fewer than k
   blocks or two per segment (the k best then hit nearly every block); and
   rows whose vectors hold 3k lanes or more (topk_prime_lanes primes them
   in one cheap pass from their lane maxima) unless their keys cost seven
   instructions a vector (float16, bfloat16) or their lanes are four bytes
   wide in 64-byte vectors (avx512, k up to 5), and they have 2k blocks (k
   blocks for those four-byte lanes: Intel Xeon, float32 rows of 1000, 7
   blocks, k = 5 1.22x the lane maxima's speed, (4096, 1000) 1.17x, int32
   1.01x; float16 and bfloat16 at avx2 with k blocks 1.11x and 0.80x). At
   avx2 on Zen 3, rows of 1000 float32 k = 3, 5, 8 and float64 k = 5 took
   0.7-0.8x the time; int8 and bfloat16 rows of 1000, k = 5 (lane maxima,
   few blocks) 1.2-1.3x, bfloat16 rows of 4000 0.65x. At avx512 on Zen 4,
   against the lane maxima's prime and a test of every line: float32 rows
   of 4000, k = 3 and 5, 0.73-0.78x the time, of 2000 0.87-0.94x, of 1000
   k = 3 0.85x (k = 5 1.0-1.03x, noise), int32 and uint32 rows of 4000
   0.77-0.78x; int16 and int8 0.93-1.1x (noise), left to the lane maxima. */
VINLINE int L(topk_prime_blocks)(const char *p, int64_t n, argext_topk_set *set, int op, int kind,
                                 int64_t inf, int sw)
{
    const int64_t lanes = V_BYTES / W, block = lanes * BLOCK_VECS, k = set->k;
    const int64_t segs = (2 * k + lanes - 1) / lanes, i = L(row_head_elements)(p);
    const int64_t nb = (n - i) / block, mv = L(topk_mark_vecs)(n, i, kind);
    const int64_t mark = lanes * mv, nm = (n - i) / mark;
    const int by_blocks = (kind == ARGEXT_KIND_FLOAT && W == 2) || (V_BYTES == 64 && W == 4);
    const int lane_maxima = lanes >= 3 * k;
    const int64_t fewest = V_BYTES == 64 && W == 4 ? k : 2 * k; /* blocks, with lane maxima */
    if (k > TOPK_KTH_IN_REGISTERS || !L(topk_gathers)(set, n) || n * W > TOPK_L1_ROW ||
        nb < 2 * segs || nb < k || (lane_maxima && (!by_blocks || nb < fewest)))
        return 0;
    char *marks = set->work + ARGEXT_TOPK_WORK_BLOCKS;
    const int ahead = scan_ahead(set->span, kind);
    if (mv == BLOCK_VECS) /* each loop of a constant mark */
        for (int64_t b = 0; b < nm; b++)
            v_store(marks + b * V_BYTES,
                    L(topk_mark)(p + (i + b * mark) * W, BLOCK_VECS, op, kind, inf, sw, ahead));
    else
        for (int64_t b = 0; b < nm; b++) /* a block's worth asked for every other mark */
            v_store(marks + b * V_BYTES, L(topk_mark)(p + (i + b * mark) * W, BLOCK_VECS / 2, op,
                                                      kind, inf, sw, ahead && b % 2 == 0));
    const int64_t tail = (n - i - nm * mark) / lanes; /* whole vectors after: a last mark */
    if (tail > 0) {
        const char *q = p + (i + nm * mark) * W;
        vec m = L(keys_at)(q, op, kind, inf, sw);
        for (int64_t v = 1; v < tail; v++)
            m = L(v_max)(m, L(keys_at)(q + v * V_BYTES, op, kind, inf, sw));
        v_store(marks + nm * V_BYTES, m);
    }
    vec acc[TOPK_SMALL_PRIME_VECS];
    int64_t kth;
    if (lanes >= 3 * k) { /* lane maxima enough, as in topk_prime_lanes */
        acc[0] = v_load(marks);
        for (int64_t b = 1; b < nm; b++)
            acc[0] = L(v_max)(acc[0], v_load(marks + b * V_BYTES));
        kth = L(topk_kth_counted)(acc, 1, k);
    } else {
        for (int64_t g = 0; g < segs; g++) {
            int64_t b = nm * g / segs;
            const int64_t b1 = nm * (g + 1) / segs;
            acc[2 * g] = v_load(marks + b * V_BYTES);
            acc[2 * g + 1] = L(v_set1)(SMIN(W));
            while (++b < b1)
                L(top2_step)(&acc[2 * g], &acc[2 * g + 1], v_load(marks + b * V_BYTES));
        }
        kth = segs == 1 ? L(topk_kth_counted)(acc, 2, k) : L(topk_kth_lane)(acc, 2 * segs, k);
    }
    L(topk_threshold)(set, kth);
    set->blocks = set->open ? 0 : nm + (tail > 0);
    set->mark_vecs = mv;
    return 1;
}

/* The nb marks of a row of n elements from element i, key maxima of mv
   vectors each, its prime kept (topk_prime_blocks; the last may be its
   whole vectors left) gathered: a bit per mark above the threshold, 64
   marks at a time, then a bit per vector of such a mark with a lane
   above it (a float compare where the threshold has a float form), then
   those vectors: a branch per mark and per vector gathered, not per
   vector read. Returns where its whole vectors end. */
VINLINE int64_t L(topk_gather_blocks)(L(topk_gather) *g, const char *p, int64_t n, int64_t i,
                                      int64_t nb, const char *marks, int64_t mv, int op, int kind,
                                      int64_t inf, int sw)
{
    const int64_t lanes = V_BYTES / W, block = lanes * mv;
    const uint64_t all = lanes * MASK_BITS(W) >= 64 ? ~UINT64_C(0)
                                                     : (UINT64_C(1) << (lanes * MASK_BITS(W))) - 1;
    for (int64_t b0 = 0; b0 < nb; b0 += 64) {
        const int64_t m = nb - b0 < 64 ? nb - b0 : 64;
        uint64_t hit = 0;
        for (int64_t b = 0; b < m; b++)
            hit |= (uint64_t)(L(v_gt)(v_load(marks + (b0 + b) * V_BYTES), g->t) != 0) << b;
        for (; hit; hit &= hit - 1) {
            const int64_t at = i + (b0 + ctz64(hit)) * block;
            const int64_t nv = (n - at) / lanes < mv ? (n - at) / lanes : mv;
            unsigned vh = 0;
            for (int64_t v = 0; v < nv; v++) {
                const char *q = p + (at + v * lanes) * W;
                vh |= (unsigned)(L(topk_at_or_below)(g, q, op, kind, inf, sw) != all) << v;
            }
            for (; vh; vh &= vh - 1) { /* the threshold may rise: each vector compared again */
                const int64_t e = at + ctz64(vh) * lanes;
                const vec x = L(keys_at)(p + e * W, op, kind, inf, sw);
                L(topk_gather_vector)(g, x, L(v_gt)(x, g->t), e, op, kind, inf);
            }
        }
    }
    return i + (n - i) / lanes * lanes;
}

/* A row into a set given a threshold by a prime and nothing else (k and n
   as topk_gathers takes them): the keys above the threshold gathered with
   their indices, in index order, a vector at a time (v_compress_store),
   where offers would insert each in the set; blocks with none are skipped
   on the marks the prime kept (topk_gather_blocks: a row in L1, a long
   row's sampled start), or in rows in L1 lines on a hit word
   (topk_gather_l1), after a long row's sample blocks on their maximum.
   Intel Xeon, avx512, logits (32, 128256) k = 50, against reading the
   sample again block by block: float32 1.07-1.13x, bfloat16 1.07x,
   float16 1.03x, float64 1.11x; ascending 1.21x. It starts from the
   prime's guess (set->guess): where fewer
   than k keys clear it, it reads the row again from the sure threshold.
   A full gather (TOPK_LONG_GATHER_ROOM_K) keeps its k
   best (topk_keep: O(room) per room - k or more gathered, so rows of equal
   keys stay linear) and raises the threshold. What is left
   is kept to the k best where it holds more than 2k (a count of c keys
   costs c vector compares), and they are ranked (topk_rank) into the set.
   The keys and indices gathered live in the set's work. */
VINLINE void L(topk_gather_scan)(const char *p, int64_t n, int64_t i0, argext_topk_set *set,
                                 int op, int kind, int64_t inf, int sw)
{
    const int64_t lanes = V_BYTES / W, block = lanes * BLOCK_VECS;
    const int ahead = scan_ahead(set->span, kind);
    L(topk_gather) g;
    g.keys = (LANE_INT *)set->work;
    g.idx = (int32_t *)(set->work + ARGEXT_TOPK_WORK_KEYS);
    g.k = set->k;
    const int64_t room_k = n * W <= TOPK_L1_ROW ? TOPK_L1_GATHER_ROOM_K : TOPK_LONG_GATHER_ROOM_K;
    g.limit = room_k * g.k > 4 * lanes ? room_k * g.k : 4 * lanes;
    g.limit = g.limit < ARGEXT_TOPK_GATHER ? g.limit : ARGEXT_TOPK_GATHER;
    for (int64_t from = set->guess;; from = set->thr) {
        g.c = 0;
        L(topk_gather_thr)(&g, from, op, kind, inf);
        int64_t i = L(row_head_elements)(p);
        if (i > 0) { /* the first vector's lanes before the boundary */
            const vec x = L(keys_at)(p, op, kind, inf, sw);
            const uint64_t head = (UINT64_C(1) << (i * MASK_BITS(W))) - 1;
            L(topk_gather_vector)(&g, x, L(v_gt)(x, g.t) & head, 0, op, kind, inf);
        }
        if (set->blocks) { /* a short row's marks end with it, a long row's with its sample */
            const int64_t marked = i + set->blocks * set->mark_vecs * lanes;
            i = L(topk_gather_blocks)(&g, p, marked < n ? marked : n, i, set->blocks,
                                      set->work + ARGEXT_TOPK_WORK_BLOCKS, set->mark_vecs, op,
                                      kind, inf, sw);
        }
        else if (n * W <= TOPK_L1_ROW)
            i = L(topk_gather_l1)(&g, p, n, i, op, kind, inf, sw);
        for (; i + block <= n; i += block)
            if (L(topk_block_hit)(&g, p + i * W, op, kind, inf, sw, ahead))
                L(topk_gather_block)(&g, p + i * W, i, op, kind, inf, sw);
        for (; i + lanes <= n; i += lanes) {
            const vec x = L(keys_at)(p + i * W, op, kind, inf, sw);
            L(topk_gather_vector)(&g, x, L(v_gt)(x, g.t), i, op, kind, inf);
        }
        if (i < n) { /* the last vector, less its lanes already read */
            const vec x = L(keys_at)(p + (n - lanes) * W, op, kind, inf, sw);
            const uint64_t seen = (UINT64_C(1) << ((i - (n - lanes)) * MASK_BITS(W))) - 1;
            L(topk_gather_vector)(&g, x, L(v_gt)(x, g.t) & ~seen, n - lanes, op, kind, inf);
        }
        if (g.c >= g.k || from == set->thr)
            break; /* else the guess was too high: again from the sure threshold */
    }
    if (g.c > 2 * g.k) {
        L(topk_keep)(g.keys, g.idx, g.c, g.k);
        g.c = g.k;
    }
    L(topk_rank)(g.keys, g.idx, g.c, i0, set);
}

/* The gathered keys[0, c) and idx[0, c) put in index order (an insertion
   sort: few, nearly in order). */
VINLINE void L(topk_by_index)(LANE_INT *keys, int32_t *idx, int64_t c)
{
    for (int64_t j = 1; j < c; j++) {
        const LANE_INT key = keys[j];
        const int32_t i = idx[j];
        int64_t t = j;
        for (; t > 0 && idx[t - 1] > i; t--) {
            keys[t] = keys[t - 1];
            idx[t] = idx[t - 1];
        }
        keys[t] = key;
        idx[t] = i;
    }
}

/* The nv elements of a lane of a block from element at (a vector apart)
   of a row of floats with no NaN gathered: each keyed as a scalar and
   given a place, kept where its key is above the threshold (no branch). */
VINLINE void L(topk_lane_keys)(L(topk_gather) *g, const char *p, int64_t at, int64_t nv, int sw,
                               int64_t flip)
{
    const int64_t lanes = V_BYTES / W;
    for (int64_t v = 0; v < nv; v++) {
        LANE_INT x;
        if (sw)
            swap_element((unsigned char *)&x, p + (at + v * lanes) * W, W);
        else
            memcpy(&x, p + (at + v * lanes) * W, W);
        const LANE_INT m = (LANE_INT)(x & SMAX(W));
        const LANE_INT key = (LANE_INT)((x < 0 ? -m : m) ^ flip);
        g->keys[g->c] = key;
        g->idx[g->c] = (int32_t)(at + v * lanes);
        g->c += key > g->thr;
    }
}

#ifdef FLANE
/* A float row in L1 with k from TOPK_GATHER_K up to its lanes (and below
   a third of them, where its lane maxima alone prime it) taken whole: one
   read keeps each block's float extreme (its mark) and the two best marks
   per lane; the k-th of those 2 * lanes keys (each a distinct element's)
   bounds the row's k-th best from below; the marks above it name the
   blocks that may hold candidates, whose vectors with a lane above it are
   gathered lane by lane (a mark's lane above it names the lane of its
   block holding the candidates), each element given a place and kept
   where its key is above the threshold, without a branch. No keys but
   the candidates', no test per block while reading, and no vector stored
   to be read again a lane at a time (topk_prime_blocks and its gather).
   At avx2 only: at sse4.2 (four float32 lanes, eight keys) the threshold
   lets more through than topk_prime_blocks' (0.95x, Zen 3), and at avx512
   sixteen lanes gathered one by one lost (Zen 4, k from 3 to 16:
   0.83-0.90x). Returns 0, the set untouched, for other rows and for a row
   holding a NaN (which float extremes may drop). */
VINLINE int F(topk_l1)(const char *p, int64_t n, int64_t i0, argext_topk_set *set, int op,
                       int kind, int64_t inf, int sw)
{
    const int64_t lanes = V_BYTES / W, block = lanes * BLOCK_VECS, k = set->k;
    const int64_t nb = n / block, tail = (n - nb * block) / lanes, nm = nb + (tail > 0);
    if (V_BYTES != 32 || kind != ARGEXT_KIND_FLOAT || k > lanes || 3 * k <= lanes ||
        !L(topk_gathers)(set, n) || n * W > TOPK_L1_ROW || nb < 2 || nm > 64)
        return 0;
    const int is_min = ARGEXT_OP_IS_MIN(op), ahead = scan_ahead(set->span, kind);
    char *marks = set->work + ARGEXT_TOPK_WORK_BLOCKS;
    fmask nan = F(v_fgt)(L(v_set1)(0), L(v_set1)(0)); /* none */
    vec h = F(block_ext)(p, op, inf, sw, ahead, &nan);
    vec l = L(v_set1)(is_min ? inf : (int64_t)((uint64_t)inf | (uint64_t)SMIN(W))); /* -inf, MIN +inf */
    v_store(marks, h);
    for (int64_t b = 1; b < nb; b++) {
        const vec e = F(block_ext)(p + b * block * W, op, inf, sw, ahead, &nan);
        v_store(marks + b * V_BYTES, e);
        F(top2_step)(is_min, &h, &l, e);
    }
    if (tail > 0) {
        const char *q = p + nb * block * W;
        vec e = F(v_load_floats)(q, op, inf, sw);
        nan = v_for(nan, F(v_funord)(e, e));
        for (int64_t v = 1; v < tail; v++) {
            const vec x = F(v_load_floats)(q + v * V_BYTES, op, inf, sw);
            nan = v_for(nan, F(v_funord)(x, x));
            e = F(v_fext)(is_min, e, x);
        }
        v_store(marks + nb * V_BYTES, e);
        F(top2_step)(is_min, &h, &l, e);
    }
    if (ISA_FMAX_KEEPS_NAN)
        nan = F(v_funord)(h, h); /* a NaN stays the extreme */
    if (v_fany(nan))
        return 0;
    vec acc[2] = {L(v_keys)(h, op, kind, inf), L(v_keys)(l, op, kind, inf)};
    const int64_t kth = L(topk_kth_counted)(acc, 2, k);
    if (kth <= SMIN(W) + 1)
        return 0;
    L(topk_gather) g;
    g.keys = (LANE_INT *)set->work;
    g.idx = (int32_t *)(set->work + ARGEXT_TOPK_WORK_KEYS);
    g.k = k;
    g.c = 0;
    g.limit = TOPK_L1_GATHER_ROOM_K * k > 4 * lanes ? TOPK_L1_GATHER_ROOM_K * k : 4 * lanes;
    L(topk_gather_thr)(&g, kth - 1, op, kind, inf);
    uint64_t hit = 0;
    for (int64_t b = 0; b < nm; b++) {
        const vec e = v_load(marks + b * V_BYTES);
        const uint64_t above =
            g.use_float ? v_fbits(is_min ? F(v_fgt)(g.ft, e) : F(v_fgt)(e, g.ft))
                        : L(v_gt)(L(v_keys)(e, op, kind, inf), g.t);
        hit |= (uint64_t)(above != 0) << b;
    }
    const uint64_t lane_bits = (UINT64_C(1) << MASK_BITS(W)) - 1;
    const int64_t flip = is_min ? -1 : 0;
    int shuffled = 0; /* a block gave two lanes or more: candidates out of index order */
    for (; hit; hit &= hit - 1) {
        const int64_t b = ctz64(hit), nv = b < nb ? BLOCK_VECS : tail;
        const vec e = v_load(marks + b * V_BYTES);
        uint64_t above = g.use_float ? v_fbits(is_min ? F(v_fgt)(g.ft, e) : F(v_fgt)(e, g.ft))
                                     : L(v_gt)(L(v_keys)(e, op, kind, inf), g.t);
        /* Two lanes or more: the block's candidates out of index order, and
           a full gather cannot refuse the block's keys at its k-th (one of
           a lower index may be still to come). */
        const int lanes_out_of_order = (above & ~(lane_bits << ctz64(above))) != 0;
        shuffled |= lanes_out_of_order;
        for (; above; above &= ~(lane_bits << ctz64(above))) {
            if (g.c + BLOCK_VECS > g.limit) {
                if (shuffled)
                    L(topk_by_index)(g.keys, g.idx, g.c);
                const int64_t kth_so_far = L(topk_keep)(g.keys, g.idx, g.c, k);
                L(topk_gather_thr)(&g, kth_so_far - lanes_out_of_order, op, kind, inf);
                g.c = k;
            }
            const int64_t at = b * block + ctz64(above) / MASK_BITS(W);
            if (nv == BLOCK_VECS) /* a constant count: unrolled */
                L(topk_lane_keys)(&g, p, at, BLOCK_VECS, sw, flip);
            else
                L(topk_lane_keys)(&g, p, at, nv, sw, flip);
        }
    }
    if (shuffled)
        L(topk_by_index)(g.keys, g.idx, g.c);
    const int64_t i = nb * block + tail * lanes;
    if (i < n) { /* the last vector, less its lanes already read */
        const vec x = L(keys_at)(p + (n - lanes) * W, op, kind, inf, sw);
        const uint64_t seen = (UINT64_C(1) << ((i - (n - lanes)) * MASK_BITS(W))) - 1;
        L(topk_gather_vector)(&g, x, L(v_gt)(x, g.t) & ~seen, n - lanes, op, kind, inf);
    }
    if (g.c > 2 * k) {
        L(topk_keep)(g.keys, g.idx, g.c, k);
        g.c = k;
    }
    L(topk_rank)(g.keys, g.idx, g.c, i0, set);
    return 1;
}

/* The blocks from i on while the threshold has a float form
   (topk_float_thr): each block's float extreme against it, as in the
   row scan's float chunks (fewer instructions than keys), then the block
   that may hold candidates as in topk_scan. Returns where it stopped. */
VINLINE int64_t F(topk_blocks)(const char *p, int64_t n, int64_t i, int64_t i0,
                               argext_topk_set *set, int op, int kind, int64_t inf, int sw)
{
    const int64_t block = (V_BYTES / W) * BLOCK_VECS;
    const int is_min = ARGEXT_OP_IS_MIN(op);
    const int ahead = scan_ahead(set->span, kind);
    vec ft;
    if (!F(topk_float_thr)(set->thr, op, inf, &ft))
        return i;
    for (; i + block <= n; i += block) {
        const char *q = p + i * W;
        fmask nan = F(v_fgt)(ft, ft); /* none */
        vec e = F(block_ext)(q, op, inf, sw, ahead, &nan);
        if (ISA_FMAX_KEEPS_NAN)
            nan = F(v_funord)(e, e);
        if (!v_fany(v_for(nan, is_min ? F(v_fgt)(ft, e) : F(v_fgt)(e, ft))))
            continue;
        L(topk_block)(q, i0 + i, set, op, kind, inf, sw);
        if (!F(topk_float_thr)(set->thr, op, inf, &ft))
            return i + block;
    }
    return i;
}
#endif

/* The blocks from i on while the threshold has a bit form
   (bits_thr), as topk_blocks takes float ones. Returns where it
   stopped. */
VINLINE int64_t L(topk_bits_blocks)(const char *p, int64_t n, int64_t i, int64_t i0,
                                    argext_topk_set *set, int op, int kind, int64_t inf, int sw)
{
    const int64_t block = (V_BYTES / W) * BLOCK_VECS;
    const int ahead = scan_ahead(set->span, kind);
    L(bits_form) b;
    if (!L(bits_thr)(set->thr, op, kind, inf, &b))
        return i;
    for (; i + block <= n; i += block) {
        if (!L(bits_block)(p + i * W, &b, sw, ahead))
            continue;
        L(topk_block)(p + i * W, i0 + i, set, op, kind, inf, sw);
        if (!L(bits_thr)(set->thr, op, kind, inf, &b))
            return i + block;
    }
    return i;
}

/* The sample of a long row offered (its prime's marks, from element i,
   the first vector boundary): the blocks of each mark above the set's
   threshold offered (topk_block), the others skipped, where the scan read
   them all again. Returns where the sample ends. */
VINLINE int64_t L(topk_offer_marks)(const char *p, int64_t i, int64_t i0, argext_topk_set *set,
                                    int op, int kind, int64_t inf, int sw)
{
    const int64_t lanes = V_BYTES / W, mv = set->mark_vecs;
    const char *marks = set->work + ARGEXT_TOPK_WORK_BLOCKS;
    for (int64_t b = 0; b < set->blocks; b++, i += mv * lanes)
        if (L(v_gt)(v_load(marks + b * V_BYTES), L(v_set1)(set->thr)))
            for (int64_t v = 0; v < mv; v += BLOCK_VECS)
                L(topk_block)(p + (i + v * lanes) * W, i0 + i + v * lanes, set, op, kind, inf,
                              sw);
    return i;
}

/* Whether the scan takes rows of n elements, byte stride s (the rest go to
   the baseline). */
VINLINE int L(topk_vectorised)(int kind, int64_t n, int64_t s)
{
    return !L(scalar)(kind) && s == W && n >= 2 * (V_BYTES / W);
}

/* n elements at p, indices i0..; `scalar` is the baseline's kernel for the
   same input, for the open set and the tail;
   `gather` the instance's topk_gather_scan (of the same op and kind). */
VINLINE void L(topk_scan)(const char *p, int64_t n, int64_t i0, argext_topk_set *set, int op,
                          int kind, int64_t inf, int sw, argext_topk_kernel scalar,
                          argext_topk_kernel gather)
{
    const int64_t lanes = V_BYTES / W, block = lanes * BLOCK_VECS;
    int64_t i = 0;
    if (set->open && set->count == 0) {
#ifdef FLANE
        if (F(topk_l1)(p, n, i0, set, op, kind, inf, sw))
            return;
#endif
        if (n >= ARGEXT_TOPK_PRIME_ROWS * set->cap)
            L(topk_prime)(p, n, set, op, kind, inf, sw);
        else if (!L(topk_prime_blocks)(p, n, set, op, kind, inf, sw) && n * W <= TOPK_L1_ROW)
            L(topk_prime_lanes)(p, n, set, op, kind, inf, sw);
        if (!set->open && L(topk_gathers)(set, n) &&
            (n * W <= TOPK_L1_ROW || set->k >= TOPK_LONG_GATHER_K)) {
            gather(p, n, W, i0, set);
            return;
        }
        if (!set->open && set->blocks) { /* a long row's sample, offered by its marks */
            const int64_t head = L(row_head_elements)(p);
            if (head > 0)
                scalar(p, head, W, i0, set);
            i = L(topk_offer_marks)(p, head, i0, set, op, kind, inf, sw);
        }
    }
    if (set->open) {
        i = argext_topk_room(set) < n ? argext_topk_room(set) : n;
        scalar(p, i, W, i0, set);
    }
    if (i + block <= n) { /* the blocks from a vector boundary on */
        const int64_t head = L(row_head_elements)(p + i * W);
        if (head > 0)
            scalar(p + i * W, head, W, i0 + i, set);
        i += head;
    }
#ifdef FLANE
    if (kind == ARGEXT_KIND_FLOAT && !set->open)
        i = F(topk_blocks)(p, n, i, i0, set, op, kind, inf, sw);
#endif
    if (!set->open)
        i = L(topk_bits_blocks)(p, n, i, i0, set, op, kind, inf, sw);
    const int ahead = scan_ahead(set->span, kind);
    for (; i + block <= n; i += block) {
        const char *q = p + i * W;
        if (L(v_gt)(L(block_max)(q, op, kind, inf, sw, ahead), L(v_set1)(set->thr)))
            L(topk_block)(q, i0 + i, set, op, kind, inf, sw);
    }
    for (; i + lanes <= n; i += lanes)
        L(topk_vector)(L(keys_at)(p + i * W, op, kind, inf, sw), i0 + i, set);
    if (i < n)
        scalar(p + i * W, n - i, W, i0 + i, set);
}
