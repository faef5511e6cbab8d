/*
 * topk.c - TopK's candidates: the set's compaction (a selection) and its
 * final order (a sort), on items that are all distinct.
 */
#include "kernels/topk.h"

/* Rank order: the larger key, then the lower index; or index order alone. */
static int before(const argext_topk_item *a, const argext_topk_item *b, int by_index)
{
    if (by_index)
        return a->idx < b->idx;
    return a->key > b->key || (a->key == b->key && a->idx < b->idx);
}

static void swap_items(argext_topk_item *v, int64_t a, int64_t b)
{
    argext_topk_item t = v[a];
    v[a] = v[b];
    v[b] = t;
}

/* Ranges this short are sorted by insertion. */
#define SHORT_RANGE 16

static void insertion_sort(argext_topk_item *v, int64_t lo, int64_t hi, int by_index)
{
    for (int64_t i = lo + 1; i < hi; i++) {
        argext_topk_item x = v[i];
        int64_t j = i;
        for (; j > lo && before(&x, &v[j - 1], by_index); j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

static void sift_down(argext_topk_item *v, int64_t root, int64_t n, int by_index)
{
    for (int64_t child; (child = 2 * root + 1) < n; root = child) {
        if (child + 1 < n && before(&v[child], &v[child + 1], by_index))
            child++;
        if (!before(&v[root], &v[child], by_index))
            return;
        swap_items(v, root, child);
    }
}

/* The worst case of the quick passes, bounded: O(n log n) whatever the data. */
static void heap_sort(argext_topk_item *v, int64_t n, int by_index)
{
    for (int64_t i = n / 2; i-- > 0;)
        sift_down(v, i, n, by_index);
    for (int64_t end = n - 1; end > 0; end--) {
        swap_items(v, 0, end);
        sift_down(v, 0, end, by_index);
    }
}

/* Partitions [lo, hi) (hi - lo > 2) around the median of its first, middle
   and last items; returns the pivot's place p: [lo, p) ranks before it,
   (p, hi) after. */
static int64_t partition(argext_topk_item *v, int64_t lo, int64_t hi, int by_index)
{
    int64_t mid = lo + (hi - lo) / 2;
    if (before(&v[mid], &v[lo], by_index))
        swap_items(v, lo, mid);
    if (before(&v[hi - 1], &v[mid], by_index)) {
        swap_items(v, mid, hi - 1);
        if (before(&v[mid], &v[lo], by_index))
            swap_items(v, lo, mid);
    }
    swap_items(v, lo, mid);
    const argext_topk_item pivot = v[lo];
    int64_t i = lo + 1, j = hi - 1;
    for (;;) {
        while (i <= j && before(&v[i], &pivot, by_index))
            i++;
        while (i <= j && before(&pivot, &v[j], by_index))
            j--;
        if (i >= j)
            break;
        swap_items(v, i++, j--);
    }
    swap_items(v, lo, j);
    return j;
}

/* Partitions allowed before a range falls back to the heap sort. */
static int depth_limit(int64_t n)
{
    int d = 8;
    for (; n > 1; n >>= 1)
        d += 2;
    return d;
}

static void sort_items(argext_topk_item *v, int64_t n, int by_index)
{
    int64_t lo = 0, hi = n;
    int depth = depth_limit(n);
    while (hi - lo > SHORT_RANGE) {
        if (depth-- == 0) {
            heap_sort(v + lo, hi - lo, by_index);
            return;
        }
        int64_t p = partition(v, lo, hi, by_index);
        if (p - lo < hi - p) { /* the shorter side by recursion: O(log n) deep */
            sort_items(v + lo, p - lo, by_index);
            lo = p + 1;
        } else {
            sort_items(v + p + 1, hi - p - 1, by_index);
            hi = p;
        }
    }
    insertion_sort(v, lo, hi, by_index);
}

/* The k best of n items as the first k, in no order (introselect). */
static void select_best(argext_topk_item *v, int64_t n, int64_t k)
{
    int64_t lo = 0, hi = n;
    int depth = depth_limit(n);
    while (hi - lo > SHORT_RANGE) {
        if (depth-- == 0)
            break;
        int64_t p = partition(v, lo, hi, 0);
        if (p == k || p == k - 1)
            return;
        if (p < k)
            lo = p + 1;
        else
            hi = p;
    }
    sort_items(v + lo, hi - lo, 0);
}

void argext_topk_compact(argext_topk_set *s)
{
    select_best(s->item, s->count, s->k);
    s->count = s->k;
    int64_t thr = s->item[0].key;
    for (int64_t j = 1; j < s->k; j++)
        thr = s->item[j].key < thr ? s->item[j].key : thr;
    s->thr = thr;
    s->open = 0;
}

void argext_topk_finish(argext_topk_set *s, int sorted)
{
    if (s->count > s->k) {
        select_best(s->item, s->count, s->k);
        s->count = s->k;
    }
    sort_items(s->item, s->count, !sorted);
}
