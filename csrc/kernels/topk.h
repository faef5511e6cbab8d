/*
 * topk.h - TopK's candidates (topk.c): what a TopK scan kernel (abi.h)
 * offers, kept down to the k best.
 *
 * A candidate is an item: its key as a signed 64-bit lane value (the SIMD
 * template's keys, simd/keys.h: unsigned keys with their sign bit flipped,
 * then widened), so that one signed comparison ranks every dtype, and its
 * index. Items rank by key, larger first, then by index, lower first: every
 * item is distinct, and the k best are one set whatever the order in which
 * they were offered.
 *
 * The set holds up to `cap` (> k) items, unordered. Until it first fills,
 * everything enters; a full set is compacted to its k best (a linear-time
 * selection), whose worst key becomes the threshold: an element enters
 * only with a key above it. An equal key cannot displace any of the k,
 * which all rank before it when elements are offered in increasing index
 * order. Each compaction takes O(cap) and frees cap - k >= k + 1 places, so
 * a whole row costs O(n), however many elements enter.
 */
#ifndef ARGEXT_KERNELS_TOPK_H
#define ARGEXT_KERNELS_TOPK_H

#include <stdint.h>

typedef struct {
    int64_t key, idx;
} argext_topk_item;

typedef struct argext_topk_set {
    argext_topk_item *item; /* cap places */
    int64_t k, cap, count;
    int64_t thr; /* the threshold, once the set has been compacted */
    int open;    /* 1 until then: every element enters */
} argext_topk_set;

/* Keeps the set's k best items (count > k), in no order, and their worst
   key as the threshold. */
void argext_topk_compact(argext_topk_set *s);

/* The set's best min(k, count) items as its first items: in rank order
   (sorted) or in increasing index order; count becomes that number. */
void argext_topk_finish(argext_topk_set *s, int sorted);

/* Offers the element of index idx and key `key` (a lane value). */
static inline void argext_topk_offer(argext_topk_set *s, int64_t key, int64_t idx)
{
    if (!s->open && key <= s->thr)
        return;
    s->item[s->count].key = key;
    s->item[s->count].idx = idx;
    if (++s->count == s->cap)
        argext_topk_compact(s);
}

#endif /* ARGEXT_KERNELS_TOPK_H */
