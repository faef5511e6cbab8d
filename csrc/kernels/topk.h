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
 * The set holds up to `cap` (> k) items, in increasing index order (the
 * order in which elements are offered). Until it first fills, everything
 * enters; a full set is compacted to its k best, whose worst key becomes
 * the threshold: an element enters only with a key above it. An equal key
 * cannot displace any of the k, which all rank before it. A compaction
 * selects the k-th best key K (a linear-time selection on a copy of the
 * keys) and keeps, in order, every item above K and the first ones at K:
 * it takes O(cap) and frees cap - k >= k + 1 places, so a whole row costs
 * O(n), however many elements enter. A set primed by a
 * sample (argext_topk_prime) starts with a threshold: on ascending data,
 * where every element would enter, a sample from the row's end refuses
 * nearly all of them; on random data a sample of many elements saves the
 * first compactions or insertions.
 *
 * A small set (k <= ARGEXT_TOPK_SMALL_K) keeps its k best in rank order
 * instead, each element that enters inserted in place: the threshold is
 * then always the k-th best so far (fewest elements enter), and a short
 * row costs no selection at all. A short row scanned by a SIMD level
 * (simd/topk_scan.h, topk_short) bypasses offers: it gathers the elements
 * above a threshold and ranks them itself (argext_topk_ranked), writing
 * the k best in index order where the set wants them so (argext_topk_kept).
 */
#ifndef ARGEXT_KERNELS_TOPK_H
#define ARGEXT_KERNELS_TOPK_H

#include <stdint.h>

typedef struct {
    int64_t key, idx;
} argext_topk_item;

typedef struct argext_topk_set {
    argext_topk_item *item; /* cap places */
    int64_t *keys;          /* cap places: the selection's copy of the keys */
    int64_t k, cap, count;
    int64_t thr; /* the threshold, once the set has been compacted (filled) */
    /* A threshold at or above thr that the k best likely clear (a long row's
       prime guesses, simd/topk_scan.h): a gather starts from it, and reads
       the row again from thr if fewer than k keys clear it. thr elsewhere. */
    int64_t guess;
    int open;    /* 1 until then: every element enters */
    int small;   /* 1: items in rank order, at most k */
    char *work;  /* ARGEXT_TOPK_WORK_BYTES for a row's prime and gather, or NULL */
    int by_index; /* 1: the k best are wanted in index order (finish's sorted = 0) */
    /* The marks its prime left in work (simd/topk_scan.h): key maxima of
       mark_vecs vectors each from the row's first vector boundary, a short
       row's whole (topk_prime_blocks) or a long row's sample (topk_prime),
       which the gather or the scan reads again only where they clear the
       threshold; 0: none. */
    int64_t blocks, mark_vecs;
    /* Bytes the set's task reads: whether its scans ask memory ahead
       (simd/template.h's scan_ahead). */
    int64_t span;
} argext_topk_set;

/* Most candidates a short row's scan gathers (simd/topk_scan.h) before it
   keeps only their k best, and the scratch a set carries for that (work):
   their keys (up to 8 bytes) and int32 indices, with a vector's lanes (64
   at most) to spare; then the marks of a row's prime (blocks).
   The engine's memory, not the stack: a call keeps within the stack
   argext.h promises. */
#define ARGEXT_TOPK_GATHER 512
#define ARGEXT_TOPK_WORK_KEYS ((ARGEXT_TOPK_GATHER + 64) * 8) /* the keys' bytes, then the indices */
#define ARGEXT_TOPK_WORK_BLOCKS (ARGEXT_TOPK_WORK_KEYS + (ARGEXT_TOPK_GATHER + 64) * 4)
#define ARGEXT_TOPK_WORK_BLOCK_BYTES 16384
#define ARGEXT_TOPK_WORK_BYTES (ARGEXT_TOPK_WORK_BLOCKS + ARGEXT_TOPK_WORK_BLOCK_BYTES)

/* k up to this makes a small set. */
#define ARGEXT_TOPK_SMALL_K 64

/* Inserts an element into a small set in rank order. */
void argext_topk_insert(argext_topk_set *s, int64_t key, int64_t idx);

/* An empty set given its k best by a kernel that ranked a short row
   itself (simd/topk_scan.h): item[0, k) written in rank order, as a small
   set keeps them, whatever k. */
static inline void argext_topk_ranked(argext_topk_set *s)
{
    s->count = s->k;
    s->thr = s->item[s->k - 1].key;
    s->open = 0;
    s->small = 1;
}

/* The same, item[0, k) written in index order, for a set that wants them
   so (by_index), and thr their worst key: no sort by index after. */
static inline void argext_topk_kept(argext_topk_set *s, int64_t thr)
{
    s->count = s->k;
    s->thr = thr;
    s->open = 0;
    s->small = 0;
}

/* Elements still to offer before the set has a threshold (open sets). */
static inline int64_t argext_topk_room(const argext_topk_set *s)
{
    return (s->small ? s->k : s->cap) - s->count;
}

/* Keeps the set's k best items (count > k), in index order, and their
   worst key as the threshold. */
void argext_topk_compact(argext_topk_set *s);

/* Rows this many times a set's places or longer are scanned by an empty
   set primed first (argext_topk_prime) from the keys of a sample: a set's
   worth of keys at their end (the baseline); the keys of their last k or
   more and lane maxima of groups of their first elements (SIMD). */
#define ARGEXT_TOPK_PRIME_ROWS 64

/* Gives an empty open set a threshold from its keys[0, m) (k <= m <= cap):
   the keys of m distinct elements among those it is then offered. The
   row's k-th best is at least their k-th largest key, so an element below
   that cannot be among the k best: one below it becomes the threshold,
   unless that is at or below `floor` (the lane type's minimum). */
void argext_topk_prime(argext_topk_set *s, int64_t m, int64_t floor);

/* The set's best min(k, count) items as its first items: in rank order
   (sorted) or in increasing index order; count becomes that number. */
void argext_topk_finish(argext_topk_set *s, int sorted);

/* Offers the element of index idx and key `key` (a lane value). */
static inline void argext_topk_offer(argext_topk_set *s, int64_t key, int64_t idx)
{
    if (!s->open && key <= s->thr)
        return;
    if (s->small) {
        argext_topk_insert(s, key, idx);
        return;
    }
    s->item[s->count].key = key;
    s->item[s->count].idx = idx;
    if (++s->count == s->cap)
        argext_topk_compact(s);
}

/* k up to this is taken by the column kernels (abi.h): each row costs them
   O(k) per column. */
#define ARGEXT_TOPK_COLS_K 16

/* k up to this is also taken by the register kernels (abi.h), which keep a
   vector of columns' k best in registers over all the rows (in 1, 2, 4 or 8
   slots) and write the outputs themselves. */
#define ARGEXT_TOPK_REGS_K 8

/* The columns a register kernel's span skips before its whole vectors
   start (the skipped ones are a vector of their own): the first column
   (below align / w, align a power of two) whose int64 index, value and
   input element (w bytes each) are aligned to `align` bytes, or, failing
   that, the most of them, the stores first. */
static inline int64_t argext_topk_regs_lead(const char *in, const char *values,
                                            const char *indices, int64_t w, int64_t align)
{
    int64_t best = 0, score = -1;
    for (int64_t c = 0; c < align / w; c++) {
        int64_t s = 4 * !(((uintptr_t)indices + (uintptr_t)(c * 8)) % (uintptr_t)align) +
                    2 * !(((uintptr_t)values + (uintptr_t)(c * w)) % (uintptr_t)align) +
                    !(((uintptr_t)in + (uintptr_t)(c * w)) % (uintptr_t)align);
        if (s > score)
            best = c, score = s;
    }
    return best;
}

/* A column's k best (keys[t * step], rows idx[t * step], rank order, m of
   them filled) offered the key of a later row: it enters after every key
   at or above its own (those rows came first). */
static inline void argext_topk_col_insert(int64_t *keys, int64_t *idx, int64_t step, int64_t m,
                                          int64_t k, int64_t key, int64_t row)
{
    if (m == k && key <= keys[(k - 1) * step])
        return;
    int64_t t = m == k ? k - 1 : m;
    for (; t > 0 && keys[(t - 1) * step] < key; t--) {
        keys[t * step] = keys[(t - 1) * step];
        idx[t * step] = idx[(t - 1) * step];
    }
    keys[t * step] = key;
    idx[t * step] = row;
}

#endif /* ARGEXT_KERNELS_TOPK_H */
