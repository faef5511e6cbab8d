/*
 * reference.c - the harness's own scalar answer for a valid call (sharing no
 * code with argext), and the check of argext's status and output against it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_api.h"

/* How the extreme of a slice is chosen. */
typedef struct {
    int is_min;   /* ArgMin-like: the smallest wins */
    int skip_nan; /* nanargmax/nanargmin */
    int last;     /* the last of equal extremes (select_last_index, direction) */
} ranking;

/* The byte offset in the input of the element at kept position k and
   reduced position r (each row-major over its dimensions). */
static int64_t element_offset(const tensor *x, const reduction *red, int64_t k, int64_t r,
                              size_t size)
{
    int64_t off = 0;
    for (int d = x->t.rank - 1; d >= 0; d--) {
        int64_t n = x->t.shape[d], i;
        if (red->reduced[d]) {
            i = r % n;
            r /= n;
        } else {
            i = k % n;
            k /= n;
        }
        off += i * stride_of(x, d, size);
    }
    return off;
}

/* The answer for kept position k: the reduced position of the extreme, or of
   the first (last) NaN; -1 for an all-NaN slice of nanargmax/nanargmin. */
static int64_t slice_answer(const tensor *x, const reduction *red, ranking how, int64_t k,
                            int64_t red_n)
{
    int dt = (int)x->t.dtype & 0xff, swapped = ((int)x->t.dtype & ARGEXT_BYTESWAPPED) != 0;
    int64_t best = -1, first_nan = -1, last_nan = -1, nans = 0;
    value bv = {0, 0, 0, 0};
    for (int64_t r = 0; r < red_n; r++) {
        int64_t off = element_offset(x, red, k, r, itemsizes[dt]);
        value v = load_value((const unsigned char *)x->t.data + off, dt, swapped);
        if (v.nan && how.skip_nan) {
            /* NumPy's nanargmax/nanargmin: NaN ranked as the losing infinity (so
               [nan, inf] gives 0 for nanargmin), an all-NaN slice gives -1 */
            v.nan = 0;
            v.f = how.is_min ? INFINITY : -INFINITY;
            nans++;
        } else if (v.nan) {
            if (first_nan < 0)
                first_nan = r;
            last_nan = r;
            continue;
        }
        int cmp = best < 0 ? 1 : compare(v, bv, dt) * (how.is_min ? -1 : 1);
        if (cmp > 0 || (cmp == 0 && how.last)) {
            best = r;
            bv = v;
        }
    }
    if (how.skip_nan)
        return nans == red_n ? -1 : best;
    return first_nan >= 0 ? (how.last ? last_nan : first_nan) : best;
}

/* Each output position's answer, row-major over the kept dimensions: the
   flat index (row-major over the reduced dimensions) of the extreme; -1 for
   an all-NaN slice of nanargmax/nanargmin, and *all_nan the first such slice. */
static int64_t *reference(const call *c, const reduction *red, int64_t *nslices, int *all_nan)
{
    const tensor *x = &c->in;
    int64_t kept_n = 1, red_n = 1;
    for (int d = 0; d < x->t.rank; d++) {
        if (red->reduced[d])
            red_n *= x->t.shape[d];
        else
            kept_n *= x->t.shape[d];
    }
    int64_t *res = malloc((size_t)(kept_n ? kept_n : 1) * sizeof *res);
    CHECK(res != NULL, "out of memory");
    ranking how;
    how.is_min = c->op == OP_ARGMIN || c->op == OP_REDUCE_ARGMIN || c->op == OP_NANARGMIN;
    how.skip_nan = c->op == OP_NANARGMAX || c->op == OP_NANARGMIN;
    how.last = (c->op <= OP_ARGMIN && c->select_last) || (is_reduce(c->op) && c->direction);
    *all_nan = -1;
    for (int64_t k = 0; k < kept_n; k++) {
        res[k] = slice_answer(x, red, how, k, red_n);
        if (how.skip_nan && res[k] < 0 && *all_nan < 0)
            *all_nan = (int)k;
    }
    *nslices = kept_n;
    return res;
}

static int64_t read_index(const unsigned char *p, int dt)
{
    switch (dt) {
    case ARGEXT_INT32: { int32_t v; memcpy(&v, p, 4); return v; }
    case ARGEXT_UINT32: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { int64_t v; memcpy(&v, p, 8); return v; }
    }
}

/* ArgMax-like answers: the index of each kept position, in the output's dtype. */
static void check_indices(const call *c, const reduction *red, const int64_t *res, int64_t nslices,
                          argext_isa level)
{
    int out_dt = (int)c->out.t.dtype & 0xff;
    for (int64_t k = 0; k < nslices; k++) {
        const unsigned char *p = (const unsigned char *)c->out.t.data +
                                 out_offset(c, red, k, itemsizes[out_dt]);
        int64_t got = read_index(p, out_dt);
        CHECK(got == res[k], "op %d, dtype %d, ISA %s: slice %lld: got %lld, want %lld", c->op,
              (int)c->in.t.dtype, argext_isa_name(level), (long long)k, (long long)got,
              (long long)res[k]);
    }
}

/* Hardmax's answer: 1.0 at the reduced position res[k] of each kept row k,
   0.0 elsewhere, in the output's dtype and byte order. */
static void check_hardmax(const call *c, const reduction *red, const int64_t *res)
{
    const tensor *x = &c->in, *y = &c->out;
    int dt = (int)y->t.dtype & 0xff, swapped = ((int)y->t.dtype & ARGEXT_BYTESWAPPED) != 0;
    size_t size = itemsizes[dt];
    unsigned char one[8], zero[8] = {0};
    store_special(one, dt, swapped, 2);
    for (int64_t e = 0; e < x->count; e++) {
        int64_t kk = 0, rr = 0, kscale = 1, rscale = 1, flat = e;
        for (int d = x->t.rank - 1; d >= 0; d--) {
            int64_t n = x->t.shape[d], i = flat % n;
            flat /= n;
            if (red->reduced[d]) {
                rr += i * rscale;
                rscale *= n;
            } else {
                kk += i * kscale;
                kscale *= n;
            }
        }
        const unsigned char *p = (const unsigned char *)y->t.data + offset_of(y, e, size);
        CHECK(memcmp(p, res[kk] == rr ? one : zero, size) == 0,
              "hardmax element %lld (row %lld): want %s", (long long)e, (long long)kk,
              res[kk] == rr ? "1" : "0");
    }
}

void check_accepted(const call *c, const reduction *red, argext_status st, argext_error err,
                    argext_isa level)
{
    int64_t nslices;
    int all_nan;
    int64_t *res = reference(c, red, &nslices, &all_nan);
    if (all_nan >= 0) {
        CHECK(st == ARGEXT_ERR_ALL_NAN && err.value == all_nan,
              "all-NaN slice %d: status %d, value %lld", all_nan, st, (long long)err.value);
    } else {
        CHECK(st == ARGEXT_OK, "op %d: a valid call returned %d (%s), arg %d index %d value %lld",
              c->op, st, argext_status_string(st), err.arg, err.index, (long long)err.value);
    }
    if (is_hardmax(c->op))
        check_hardmax(c, red, res);
    else
        check_indices(c, red, res, nslices, level);
    free(res);
}
