/*
 * topk_scan.h - TopK's threshold scan of one lane width (for_each_lane.h):
 * a contiguous row offered to a candidate set (kernels/topk.h).
 *
 * Until the set has a threshold every element enters, so those go through
 * the baseline's loop (`scalar`). Then each block's key maximum is tested
 * against the threshold: a block holding no key above it is skipped whole
 * (random data: nearly every block once the set holds good candidates);
 * in the others, each vector with a key above it offers its lanes in
 * order. An element skipped would have been refused, so the set sees what
 * the baseline's loop gives it, and ends the same.
 */

/* The keys of the vector of elements i.. offered lane by lane, if one of
   them beats the threshold. */
VINLINE void L(topk_vector)(vec keys, int64_t i, argext_topk_set *set)
{
    if (!L(v_gt)(keys, L(v_set1)(set->thr)))
        return;
    LANE_INT k[V_BYTES / W];
    v_store((char *)k, keys);
    for (int l = 0; l < V_BYTES / W; l++)
        argext_topk_offer(set, k[l], i + l);
}

/* Whether the scan takes rows of n elements, byte stride s (the rest go to
   the baseline). */
VINLINE int L(topk_vectorised)(int kind, int64_t n, int64_t s)
{
    return !L(scalar)(kind) && s == W && n >= (V_BYTES / W) * BLOCK_VECS;
}

/* n elements at p, indices i0..; `scalar` is the baseline's kernel for the
   same input (byte-swapped when sw), for the open set and the tail. */
VINLINE void L(topk_scan)(const char *p, int64_t n, int64_t i0, argext_topk_set *set, int op,
                          int kind, int64_t inf, int sw, argext_topk_kernel scalar)
{
    const int64_t lanes = V_BYTES / W, block = lanes * BLOCK_VECS;
    int64_t i = 0;
    if (set->open) {
        i = set->cap - set->count < n ? set->cap - set->count : n;
        scalar(p, i, W, i0, set);
    }
    for (; i + block <= n; i += block) {
        const char *q = p + i * W;
        if (!L(v_gt)(L(block_max)(q, op, kind, inf, sw), L(v_set1)(set->thr)))
            continue;
        for (int v = 0; v < BLOCK_VECS; v++)
            L(topk_vector)(L(keys_at)(q + v * V_BYTES, op, kind, inf, sw), i0 + i + v * lanes, set);
    }
    if (i < n)
        scalar(p + i * W, n - i, W, i0 + i, set);
}
