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

/* The k-th largest of v[0, n) (1 <= k <= n) into *kth, v reordered
   (Hoare partitions around the median of three, as in Wirth's selection);
   0 once past the depth limit, for the caller's guaranteed path. */
static int kth_largest(int64_t *v, int64_t n, int64_t k, int64_t *kth)
{
    int64_t lo = 0, hi = n - 1, t = k - 1;
    for (int depth = depth_limit(n); lo < hi; depth--) {
        if (depth == 0)
            return 0;
        int64_t a = v[lo], b = v[lo + (hi - lo) / 2], c = v[hi];
        int64_t x = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
        int64_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] > x)
                i++;
            while (v[j] < x)
                j--;
            if (i <= j) {
                int64_t y = v[i];
                v[i++] = v[j];
                v[j--] = y;
            }
        }
        if (t <= j)
            hi = j;
        else if (t >= i)
            lo = i;
        else
            break; /* between j and i: keys equal to x */
    }
    *kth = v[t];
    return 1;
}

/* k up to this is selected by insertion into a short sorted array: one
   pass without the partitions' mispredicted branches. */
#define SMALL_K 16

static int64_t kth_largest_small(const int64_t *v, int64_t n, int64_t k)
{
    int64_t best[SMALL_K], have = 0;
    for (int64_t j = 0; j < n; j++) {
        int64_t key = v[j], i = have;
        if (have == k && key <= best[k - 1])
            continue;
        if (have == k)
            i = k - 1; /* the last one drops out */
        else
            have++;
        for (; i > 0 && best[i - 1] < key; i--)
            best[i] = best[i - 1];
        best[i] = key;
    }
    return best[k - 1];
}

/* The k-th largest of the set's keys[0, n) (n >= k) into *kth; 0 when the
   selection passed its depth limit. */
static int kth_of_keys(argext_topk_set *s, int64_t n, int64_t *kth)
{
    if (s->k > SMALL_K)
        return kth_largest(s->keys, n, s->k, kth);
    *kth = kth_largest_small(s->keys, n, s->k);
    return 1;
}

/* The k-th best key of the set's items (count >= k). */
static int64_t kth_key(argext_topk_set *s)
{
    for (int64_t j = 0; j < s->count; j++)
        s->keys[j] = s->item[j].key;
    int64_t kth;
    if (kth_of_keys(s, s->count, &kth))
        return kth;
    select_best(s->item, s->count, s->k); /* O(n log n) at worst */
    sort_items(s->item, s->k, 1);
    s->count = s->k;
    kth = s->item[0].key;
    for (int64_t j = 1; j < s->k; j++)
        kth = s->item[j].key < kth ? s->item[j].key : kth;
    return kth;
}

/* The set's k best, in index order: every item above the k-th best key,
   and the first ones at it. */
static void keep_best(argext_topk_set *s)
{
    int64_t kth = kth_key(s), above = 0, m = 0;
    for (int64_t j = 0; j < s->count; j++)
        above += s->item[j].key > kth;
    for (int64_t j = 0, at = s->k - above; j < s->count; j++) {
        int64_t key = s->item[j].key;
        int keep = key > kth || (key == kth && at-- > 0);
        s->item[m] = s->item[j];
        m += keep;
    }
    s->count = s->k;
    s->thr = kth;
}

void argext_topk_compact(argext_topk_set *s)
{
    keep_best(s);
    s->open = 0;
}

void argext_topk_prime(argext_topk_set *s, int64_t m, int64_t floor)
{
    int64_t kth;
    if (!kth_of_keys(s, m, &kth) || kth <= floor + 1)
        return; /* no threshold: the set stays open */
    s->open = 0;
    s->thr = s->guess = kth - 1;
}

void argext_topk_insert(argext_topk_set *s, int64_t key, int64_t idx)
{
    /* after every item at or above key: equal keys came first */
    int64_t j = s->count < s->k ? s->count++ : s->k - 1;
    for (; j > 0 && s->item[j - 1].key < key; j--)
        s->item[j] = s->item[j - 1];
    s->item[j].key = key;
    s->item[j].idx = idx;
    if (s->count == s->k) {
        s->thr = s->item[s->k - 1].key;
        s->open = 0;
    }
}

void argext_topk_finish(argext_topk_set *s, int sorted)
{
    if (s->small) { /* in rank order already */
        if (!sorted)
            sort_items(s->item, s->count, 1);
        return;
    }
    if (s->count > s->k)
        keep_best(s);
    if (sorted)
        sort_items(s->item, s->count, 0);
}
