/*
 * driver.c - C test and fuzz driver for the argext core (no Python).
 *
 * Every entry point runs on random shapes, strides (negative, zero,
 * permuted, padded, unaligned) and all twelve dtypes, under every ISA level
 * this CPU supports, and is checked against the scalar reference below:
 * plain loops over decoded double / int64 / uint64 values, sharing nothing
 * with the kernels. A table of bad descriptors must be refused with the
 * right status, and a seeded fuzz loop of random (often invalid) requests
 * must succeed exactly when the request is valid. Every call checks that
 * nothing outside the output's elements is written, that the input is not
 * modified, and that a refused call writes nothing at all.
 *
 * The same checks run again with 1, 2, 3 and 7 threads and a part size so
 * small that every call splits (rows, columns, pieces of one row), on argext's
 * pool and on host parallel-fors (one running the parts in reverse order, one
 * starting a thread per part), and from several threads at once.
 *
 * Built by .ci/sanitize under ASan+UBSan, ThreadSanitizer and valgrind.
 * Usage: [ARGEXT_ISA=level] driver [fuzz_iterations [seed [threads]]] (threads 0 skips
 * the threaded checks); prints "driver: N passed, M failed". With ARGEXT_ISA, that
 * level only.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pthread.h>

#include "argext.h"
#include "engine/reduce.h"  /* the engine's sub-range entry points */
#include "runtime/threads.h" /* argext_set_min_part_bytes */

/* Flushing denormal inputs to zero for float compares (fp_flush) and
   restoring the previous state (fp_restore), where the driver knows how. */
#if defined(__x86_64__) || defined(_M_X64)
#include <xmmintrin.h>
#define HAVE_FLUSH 1
typedef unsigned fp_state;
static fp_state fp_flush(void)
{
    const unsigned csr = _mm_getcsr();
    _mm_setcsr(csr | 0x8040); /* MXCSR DAZ and FTZ */
    return csr;
}
static void fp_restore(fp_state csr) { _mm_setcsr(csr); }
#elif defined(__aarch64__) && defined(__GNUC__)
#define HAVE_FLUSH 1
typedef uint64_t fp_state;
static fp_state fp_flush(void)
{
    uint64_t fpcr, fz = UINT64_C(1) << 24; /* FPCR.FZ */
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
    __asm__ volatile("msr fpcr, %0" : : "r"(fpcr | fz));
    return fpcr;
}
static void fp_restore(fp_state fpcr) { __asm__ volatile("msr fpcr, %0" : : "r"(fpcr)); }
#endif

#define MAXR ARGEXT_MAX_RANK
#define SENTINEL 0xA5

/* ------------------------------------------------------------ checking */

static long n_pass, n_fail;
static char where[512]; /* the case being run, for failure messages */

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (cond) {                                                          \
            n_pass++;                                                        \
        } else {                                                             \
            if (++n_fail <= 40) {                                            \
                fprintf(stderr, "FAIL line %d [%s]: ", __LINE__, where);     \
                fprintf(stderr, __VA_ARGS__);                                \
                fputc('\n', stderr);                                         \
            }                                                                \
        }                                                                    \
    } while (0)

static uint64_t rng_state;

static uint64_t rnd(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int64_t rnd_in(int64_t lo, int64_t hi) { return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1)); }

/* ------------------------------------------------------------ values */

static const size_t SIZES[ARGEXT_DTYPE_COUNT] = {2, 2, 4, 8, 1, 2, 4, 8, 1, 2, 4, 8};
static const char *const NAMES[ARGEXT_DTYPE_COUNT] = {
    "float16", "bfloat16", "float32", "float64", "int8", "int16",
    "int32", "int64", "uint8", "uint16", "uint32", "uint64"};

enum { FLOAT, SIGNED, UNSIGNED };

typedef struct {
    int kind, nan;
    double f;
    int64_t i;
    uint64_t u;
} value;

static int kind_of(int dt)
{
    return dt <= ARGEXT_FLOAT64 ? FLOAT : dt <= ARGEXT_INT64 ? SIGNED : UNSIGNED;
}

static value read_value(int dt, const char *p)
{
    value v = {kind_of(dt), 0, 0, 0, 0};
    switch (dt) {
    case ARGEXT_FLOAT16: {
        uint16_t b;
        memcpy(&b, p, 2);
        int e = (b >> 10) & 31, m = b & 1023;
        double mag = e == 31 ? (m ? NAN : INFINITY) : e == 0 ? ldexp(m, -24) : ldexp(m + 1024, e - 25);
        v.f = (b >> 15) ? -mag : mag;
        break;
    }
    case ARGEXT_BFLOAT16: {
        uint16_t b;
        float f;
        uint32_t w;
        memcpy(&b, p, 2);
        w = (uint32_t)b << 16;
        memcpy(&f, &w, 4);
        v.f = f;
        break;
    }
    case ARGEXT_FLOAT32: { float f; memcpy(&f, p, 4); v.f = f; break; }
    case ARGEXT_FLOAT64: memcpy(&v.f, p, 8); break;
    case ARGEXT_INT8: { int8_t x; memcpy(&x, p, 1); v.i = x; break; }
    case ARGEXT_INT16: { int16_t x; memcpy(&x, p, 2); v.i = x; break; }
    case ARGEXT_INT32: { int32_t x; memcpy(&x, p, 4); v.i = x; break; }
    case ARGEXT_INT64: memcpy(&v.i, p, 8); break;
    case ARGEXT_UINT8: { uint8_t x; memcpy(&x, p, 1); v.u = x; break; }
    case ARGEXT_UINT16: { uint16_t x; memcpy(&x, p, 2); v.u = x; break; }
    case ARGEXT_UINT32: { uint32_t x; memcpy(&x, p, 4); v.u = x; break; }
    default: memcpy(&v.u, p, 8); break;
    }
    v.nan = v.kind == FLOAT && isnan(v.f);
    return v;
}

/* 1: a is strictly better than b, 0: as good, -1: worse. NaN beats
   everything for both operators; -0.0 == +0.0 by double comparison. */
static int better(int is_min, const value *a, const value *b)
{
    if (a->nan || b->nan)
        return a->nan - b->nan;
    int o;
    if (a->kind == FLOAT)
        o = (a->f > b->f) - (a->f < b->f);
    else if (a->kind == SIGNED)
        o = (a->i > b->i) - (a->i < b->i);
    else
        o = (a->u > b->u) - (a->u < b->u);
    return is_min ? -o : o;
}

/* A random element, mostly small values (many ties) and some specials. */
/* Specials (NaN, infinities, integer extremes) in 1 of 8 elements, or with
   rare_specials in 1 of 4096: long float rows then have chunks free of NaN,
   which the float scans rank without the key fallback. */
static int rare_specials;

static void random_element(int dt, char *p)
{
    static const uint16_t f16_small[7] = {0xc200, 0xc000, 0xbc00, 0x0000, 0x3c00, 0x4000, 0x4200};
    static const uint16_t f16_special[11] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe00,
                                             0x7c01, 0x0001, 0x8001, 0x7bff, 0xfbff};
    static const uint16_t bf16_small[7] = {0xc040, 0xc000, 0xbf80, 0x0000, 0x3f80, 0x4000, 0x4040};
    static const uint16_t bf16_special[11] = {0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0xffc0,
                                              0x7f81, 0x0001, 0x8001, 0x7f7f, 0xff7f};
    static const double f_special[9] = {0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, 1e-300, -1e300, 3.5};
    uint64_t r = rnd();
    int special = (r & (rare_specials ? 4095 : 7)) == 0;
    int small = (int)((r >> 8) % 7); /* value small - 3 */
    unsigned pick = (unsigned)(r >> 16);
    switch (dt) {
    case ARGEXT_FLOAT16: {
        uint16_t b = special ? f16_special[pick % 11] : f16_small[small];
        memcpy(p, &b, 2);
        break;
    }
    case ARGEXT_BFLOAT16: {
        uint16_t b = special ? bf16_special[pick % 11] : bf16_small[small];
        memcpy(p, &b, 2);
        break;
    }
    case ARGEXT_FLOAT32: {
        float f = special ? (float)f_special[pick % 9] : (float)(small - 3);
        memcpy(p, &f, 4);
        break;
    }
    case ARGEXT_FLOAT64: {
        double f = special ? f_special[pick % 9] : (double)(small - 3);
        memcpy(p, &f, 8);
        break;
    }
    default: {
        /* Integers: the type's extremes and their neighbours as specials. */
        int bits = (int)SIZES[dt] * 8;
        int is_signed = kind_of(dt) == SIGNED;
        uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
        uint64_t top = is_signed ? mask >> 1 : mask; /* bit pattern of the max */
        uint64_t lo = is_signed ? (top + 1) & mask : 0; /* bit pattern of the min */
        uint64_t specials[6] = {top, (top - 1) & mask, lo, (lo + 1) & mask, 0, (uint64_t)1 << (bits - 2)};
        uint64_t x = special ? specials[pick % 6]
                             : (is_signed ? (uint64_t)(int64_t)(small - 3) & mask : (uint64_t)small);
        switch (SIZES[dt]) { /* through the sized type: any byte order */
        case 1: { uint8_t y = (uint8_t)x; memcpy(p, &y, 1); break; }
        case 2: { uint16_t y = (uint16_t)x; memcpy(p, &y, 2); break; }
        case 4: { uint32_t y = (uint32_t)x; memcpy(p, &y, 4); break; }
        default: memcpy(p, &x, 8); break;
        }
    }
    }
}

/* ------------------------------------------------------------ layouts */

/* A strided view in its own exactly-sized allocation (so that ASan and
   valgrind see any access outside it). */
typedef struct {
    int rank;
    int64_t shape[MAXR], strides[MAXR];
    unsigned char *alloc;
    char *data;
    size_t bytes;
} layout;

static int64_t count_of(int rank, const int64_t *shape)
{
    int64_t n = 1;
    for (int d = 0; d < rank; d++)
        n *= shape[d];
    return n;
}

/* Steps per dimension in {1, 2, 3, -1, -2} (0 = broadcast when allowed), a
   random memory order of the dimensions, sometimes one byte off alignment. */
static void make_layout(layout *L, size_t itemsize, int rank, const int64_t *shape, int broadcast)
{
    static const int64_t steps[8] = {1, 1, 1, 1, 2, 3, -1, -2};
    int perm[MAXR];
    L->rank = rank;
    for (int d = 0; d < rank; d++) {
        L->shape[d] = shape[d];
        perm[d] = d;
    }
    if (rnd() % 3 == 0)
        for (int d = rank - 1; d > 0; d--) {
            int j = (int)rnd_in(0, d), t = perm[d];
            perm[d] = perm[j];
            perm[j] = t;
        }
    int64_t unit = (int64_t)itemsize, offset = 0;
    for (int k = rank - 1; k >= 0; k--) {
        int d = perm[k];
        int64_t n = shape[d], step = steps[rnd() % 8];
        if (broadcast && rnd() % 8 == 0) {
            L->strides[d] = 0;
            continue;
        }
        int64_t a = step < 0 ? -step : step;
        L->strides[d] = step * unit;
        if (step < 0 && n > 0)
            offset += (n - 1) * a * unit;
        unit *= n > 0 ? (n - 1) * a + 1 : 1;
    }
    size_t misalign = rnd() % 4 == 0;
    L->bytes = (size_t)unit;
    L->alloc = malloc(L->bytes + misalign);
    if (!L->alloc) {
        fprintf(stderr, "driver: out of memory\n");
        exit(2);
    }
    memset(L->alloc, SENTINEL, L->bytes + misalign);
    L->data = (char *)L->alloc + misalign + offset;
    L->bytes += misalign;
}

/* Odometer over a shape: advances idx in row-major order, 0 at the end. */
static int next_index(int rank, const int64_t *shape, int64_t *idx)
{
    for (int d = rank - 1; d >= 0; d--) {
        if (++idx[d] < shape[d])
            return 1;
        idx[d] = 0;
    }
    return 0;
}

static int64_t offset_of(int rank, const int64_t *strides, const int64_t *idx)
{
    int64_t off = 0;
    for (int d = 0; d < rank; d++)
        off += idx[d] * strides[d];
    return off;
}

static void fill_random(layout *L, int dt)
{
    int64_t idx[MAXR] = {0};
    if (count_of(L->rank, L->shape) == 0)
        return;
    rare_specials = rnd() % 2;
    do
        random_element(dt, L->data + offset_of(L->rank, L->strides, idx));
    while (next_index(L->rank, L->shape, idx));
}

/* ------------------------------------------------------------ reference */

/* For each kept position (row-major over the kept dimensions), the
   row-major flat index over the reduced dimensions of its best element:
   one pass over the input in row-major order visits each kept position's
   reduced elements in increasing flat index. */
static void reference(const layout *in, int dt, const unsigned char *reduced, int is_min,
                      int last, int nan_as_inf, int64_t *best_idx)
{
    int rank = in->rank;
    int64_t kept_shape[MAXR], idx[MAXR] = {0};
    for (int d = 0; d < rank; d++)
        kept_shape[d] = reduced[d] ? 1 : in->shape[d];
    int64_t nkept = count_of(rank, kept_shape);
    value *best = malloc(sizeof(value) * (size_t)(nkept > 0 ? nkept : 1));
    char *number = calloc((size_t)(nkept > 0 ? nkept : 1), 1); /* a non-NaN seen */
    if (count_of(rank, in->shape) == 0) {
        free(best);
        free(number);
        return;
    }
    do {
        int64_t k = 0, r = 0;
        for (int d = 0; d < rank; d++) {
            if (reduced[d])
                r = r * in->shape[d] + idx[d];
            else
                k = k * in->shape[d] + idx[d];
        }
        value v = read_value(dt, in->data + offset_of(rank, in->strides, idx));
        number[k] |= !v.nan;
        if (nan_as_inf && v.nan) { /* nanargmax/nanargmin: NumPy replaces NaN by -inf/+inf */
            v.nan = 0;
            v.f = is_min ? INFINITY : -INFINITY;
        }
        int b = r == 0 ? 1 : better(is_min, &v, &best[k]);
        if (b > 0 || (last && b == 0)) {
            best[k] = v;
            best_idx[k] = r;
        }
    } while (next_index(rank, in->shape, idx));
    for (int64_t k = 0; nan_as_inf && k < nkept; k++)
        if (!number[k])
            best_idx[k] = -1; /* an all-NaN slice */
    free(best);
    free(number);
}

/* ------------------------------------------------------------ cases */

enum { OP_ARGMAX, OP_ARGMIN, OP_REDUCE_MAX, OP_REDUCE_MIN, OP_HARDMAX, OP_NANMAX, OP_NANMIN, OP_COUNT };
static const char *const OP_NAMES[OP_COUNT] = {"argmax", "argmin", "reduce_argmax", "reduce_argmin",
                                               "hardmax", "nanargmax", "nanargmin"};
#define IS_NAN_OP(op) ((op) == OP_NANMAX || (op) == OP_NANMIN)
/* Ops whose output is ArgMax's: int64, the reduced axes kept as 1 or removed. */
#define IS_KEEPDIMS_OP(op) ((op) == OP_ARGMAX || (op) == OP_ARGMIN || IS_NAN_OP(op))

/* One request; any field may be invalid. */
typedef struct {
    int op, dtype, rank;
    int64_t shape[MAXR];
    int64_t axis;        /* argmax, argmin, hardmax, nanargmax, nanargmin */
    int all_axes;        /* nanargmax, nanargmin: axis NULL, every axis */
    int keepdims, last;  /* last: select_last_index or direction */
    int naxes;
    int64_t axes[MAXR];
    int version;         /* hardmax */
    int onto_zeros;      /* hardmax: argext_hardmax_onto_zeros on a zeroed output */
    int out_dtype;
    int out_mutation;    /* 0 none, 1 grow a dimension, 2 drop the last dimension, 3 add one */
    int negative_dim;    /* -1, or the dimension given as -1 in the descriptor */
} request;

static int valid_dtype(int dt) { return dt >= 0 && dt < ARGEXT_DTYPE_COUNT; }

/* Whether argext_hardmax applies ONNX's type constraint (float16/32/64, and
   bfloat16 from version 13; argext.h documents it): probed once in main(),
   then held to strictly for every dtype and version. */
static int hardmax_float_only;

static int hardmax_dtype_ok(int dt, int version)
{
    if (!hardmax_float_only)
        return valid_dtype(dt);
    return dt == ARGEXT_FLOAT16 || dt == ARGEXT_FLOAT32 || dt == ARGEXT_FLOAT64 ||
           (dt == ARGEXT_BFLOAT16 && version == 13);
}

static int is_index_dtype(int dt)
{
    return dt == ARGEXT_INT64 || dt == ARGEXT_INT32 || dt == ARGEXT_UINT64 || dt == ARGEXT_UINT32;
}

/* The reduced dimensions of a request; 0 when its axes are invalid. */
static int reduced_dims(const request *q, unsigned char *reduced)
{
    memset(reduced, 0, MAXR);
    if (q->op == OP_REDUCE_MAX || q->op == OP_REDUCE_MIN) {
        if (q->naxes < 1 || q->naxes > q->rank)
            return 0;
        for (int i = 0; i < q->naxes; i++) {
            int64_t a = q->axes[i];
            if (a < -q->rank || a >= q->rank)
                return 0;
            a = a < 0 ? a + q->rank : a;
            if (reduced[a])
                return 0;
            reduced[a] = 1;
        }
        return 1;
    }
    if (IS_NAN_OP(q->op) && q->all_axes) {
        memset(reduced, 1, (size_t)q->rank);
        return 1;
    }
    if (q->axis < -q->rank || q->axis >= q->rank || (q->op == OP_HARDMAX && q->version == 1 && q->axis < 0))
        return 0;
    int64_t a = q->axis < 0 ? q->axis + q->rank : q->axis;
    int through = q->op == OP_HARDMAX && q->version != 13 ? q->rank : (int)a + 1;
    for (int64_t d = a; d < through; d++)
        reduced[d] = 1;
    return 1;
}

/* The correct output shape; returns its rank. */
static int output_shape(const request *q, const unsigned char *reduced, int64_t *shape)
{
    int o = 0;
    for (int d = 0; d < q->rank; d++) {
        if (q->op == OP_HARDMAX)
            shape[o++] = q->shape[d];
        else if (!reduced[d])
            shape[o++] = q->shape[d];
        else if (!IS_KEEPDIMS_OP(q->op))
            shape[o++] = 1;
        else if (q->keepdims)
            shape[o++] = 1;
    }
    return o;
}

static int64_t index_limit(int dt)
{
    return dt == ARGEXT_INT32 ? INT32_MAX : dt == ARGEXT_UINT32 ? (int64_t)UINT32_MAX : INT64_MAX;
}

/* Whether argext must accept the request (independent of its check order). */
static int expect_ok(const request *q, const unsigned char *reduced, int axes_ok)
{
    if (!valid_dtype(q->dtype) || q->rank < 1 || q->rank > MAXR || !axes_ok || q->negative_dim >= 0 ||
        q->out_mutation != 0)
        return 0;
    int64_t count = 1;
    for (int d = 0; d < q->rank; d++)
        if (reduced[d])
            count *= q->shape[d];
    switch (q->op) {
    case OP_ARGMAX:
    case OP_ARGMIN:
        return (q->keepdims == 0 || q->keepdims == 1) && (q->last == 0 || q->last == 1) &&
               q->out_dtype == ARGEXT_INT64 && count > 0;
    case OP_NANMAX:
    case OP_NANMIN:
        return (q->keepdims == 0 || q->keepdims == 1) && q->out_dtype == ARGEXT_INT64 && count > 0;
    case OP_REDUCE_MAX:
    case OP_REDUCE_MIN:
        return (q->last == 0 || q->last == 1) && is_index_dtype(q->out_dtype) && count > 0 &&
               count - 1 <= index_limit(q->out_dtype);
    default:
        return (q->version == 1 || q->version == 11 || q->version == 13) && q->out_dtype == q->dtype &&
               hardmax_dtype_ok(q->dtype, q->version);
    }
}

static int64_t read_index(int dt, const char *p)
{
    value v = read_value(dt, p);
    return kind_of(dt) == SIGNED ? v.i : (int64_t)v.u;
}

static void describe(const request *q)
{
    int n = snprintf(where, sizeof where, "%s dtype=%d(%s) shape=[", OP_NAMES[q->op], q->dtype,
                     valid_dtype(q->dtype) ? NAMES[q->dtype] : "?");
    for (int d = 0; d < q->rank && n < 300; d++)
        n += snprintf(where + n, sizeof where - (size_t)n, "%s%" PRId64, d ? "," : "", q->shape[d]);
    if (q->op == OP_REDUCE_MAX || q->op == OP_REDUCE_MIN) {
        n += snprintf(where + n, sizeof where - (size_t)n, "] axes=[");
        for (int i = 0; i < q->naxes && n < 400; i++)
            n += snprintf(where + n, sizeof where - (size_t)n, "%s%" PRId64, i ? "," : "", q->axes[i]);
        snprintf(where + n, sizeof where - (size_t)n, "] last=%d out=%d mut=%d neg=%d isa=%s", q->last,
                 q->out_dtype, q->out_mutation, q->negative_dim, argext_isa_name(argext_get_isa()));
    } else {
        snprintf(where + n, sizeof where - (size_t)n,
                 "] axis=%" PRId64 " keepdims=%d last=%d version=%d out=%d mut=%d neg=%d isa=%s", q->axis,
                 q->keepdims, q->last, q->version, q->out_dtype, q->out_mutation, q->negative_dim,
                 argext_isa_name(argext_get_isa()));
    }
}

/* Runs a request and checks it: accepted exactly when valid; then the
   result equals the reference, only output elements are written and the
   input is unchanged; when refused, nothing is written. */
static void run_request(const request *q)
{
    unsigned char reduced[MAXR];
    describe(q);
    int axes_ok = q->rank >= 1 && q->rank <= MAXR && reduced_dims(q, reduced);
    if (!axes_ok)
        memset(reduced, 0, sizeof reduced);
    int ok = expect_ok(q, reduced, axes_ok);

    /* Input memory for the (non-negative) shape; unknown dtypes get bytes. */
    size_t in_size = valid_dtype(q->dtype) ? SIZES[q->dtype] : 1;
    int rank = q->rank < 0 ? 0 : q->rank > MAXR ? MAXR : q->rank;
    layout in, out;
    make_layout(&in, in_size, rank, q->shape, 1);
    if (valid_dtype(q->dtype))
        fill_random(&in, q->dtype);
    /* Sometimes the input is passed in the opposite byte order: a copy with
       every element's bytes reversed, flagged ARGEXT_BYTESWAPPED; the
       reference reads the native original. */
    int swapped = valid_dtype(q->dtype) && SIZES[q->dtype] > 1 && rnd() % 4 == 0;
    unsigned char *in_swapped = NULL;
    if (swapped) {
        in_swapped = malloc(in.bytes);
        memcpy(in_swapped, in.alloc, in.bytes);
        int64_t z[MAXR] = {0};
        if (count_of(rank, q->shape) > 0)
            do {
                size_t off = (size_t)(in.data - (char *)in.alloc) + (size_t)offset_of(rank, in.strides, z);
                for (size_t b = 0; b < SIZES[q->dtype]; b++)
                    in_swapped[off + b] = in.alloc[off + SIZES[q->dtype] - 1 - b];
            } while (next_index(rank, q->shape, z));
    }
    if (swapped)
        strncat(where, " byteswapped", sizeof where - strlen(where) - 1);
    unsigned char *in_copy = malloc(in.bytes);
    memcpy(in_copy, swapped ? in_swapped : in.alloc, in.bytes);

    int64_t oshape[MAXR + 1];  /* room for mutation 3 */
    int orank = output_shape(q, reduced, oshape);
    if (q->out_mutation == 1 && orank > 0)
        oshape[rnd() % (unsigned)orank]++;
    else if (q->out_mutation == 2 && orank > 0)
        orank--;
    else if (q->out_mutation != 0 && orank < MAXR) /* a rank-0 output can only gain a dimension */
        oshape[orank++] = 1;
    size_t out_size = valid_dtype(q->out_dtype) ? SIZES[q->out_dtype] : 8;
    make_layout(&out, out_size, orank, oshape, 0);

    int64_t shape_arg[MAXR];
    memcpy(shape_arg, q->shape, sizeof(int64_t) * (size_t)rank);
    if (q->negative_dim >= 0)
        shape_arg[q->negative_dim] = -1;
    argext_tensor tin = {swapped ? (char *)in_swapped + (in.data - (char *)in.alloc) : in.data,
                         (argext_dtype)(q->dtype | (swapped ? ARGEXT_BYTESWAPPED : 0)), q->rank,
                         shape_arg, in.strides};
    argext_tensor tout = {out.data, (argext_dtype)q->out_dtype, orank, out.shape, out.strides};
    int is_min = q->op == OP_ARGMIN || q->op == OP_REDUCE_MIN || q->op == OP_NANMIN;
    argext_status st;
    switch (q->op) {
    case OP_NANMAX:
        st = argext_nanargmax(&tin, &tout, q->all_axes ? NULL : &q->axis, q->keepdims);
        break;
    case OP_NANMIN:
        st = argext_nanargmin(&tin, &tout, q->all_axes ? NULL : &q->axis, q->keepdims);
        break;
    case OP_ARGMAX: st = argext_argmax(&tin, &tout, q->axis, q->keepdims, q->last); break;
    case OP_ARGMIN: st = argext_argmin(&tin, &tout, q->axis, q->keepdims, q->last); break;
    case OP_REDUCE_MAX:
        st = argext_reduce_argmax(&tin, &tout, q->axes, q->naxes, (argext_direction)q->last);
        break;
    case OP_REDUCE_MIN:
        st = argext_reduce_argmin(&tin, &tout, q->axes, q->naxes, (argext_direction)q->last);
        break;
    default:
        if (q->onto_zeros && ok && count_of(out.rank, out.shape) > 0) {
            int64_t z[MAXR] = {0};
            do
                memset(out.data + offset_of(out.rank, out.strides, z), 0, SIZES[q->dtype]);
            while (next_index(out.rank, out.shape, z));
        }
        st = q->onto_zeros ? argext_hardmax_onto_zeros(&tin, &tout, q->axis, q->version)
                           : argext_hardmax(&tin, &tout, q->axis, q->version);
        break;
    }

    /* A NaN-skipping op on an all-NaN slice writes its whole output and says so. */
    int all_nan = st == ARGEXT_ERR_ALL_NAN && IS_NAN_OP(q->op);
    CHECK((st == ARGEXT_OK || all_nan) == ok, "status %d (%s), expected %s", st,
          argext_status_string(st), ok ? "success" : "an error");
    CHECK(memcmp(in_copy, swapped ? in_swapped : in.alloc, in.bytes) == 0, "input modified");
    if ((st == ARGEXT_OK || all_nan) && ok) {
        int64_t kept_shape[MAXR], idx[MAXR] = {0}, ostrides[MAXR];
        for (int d = 0, o = 0; d < rank; d++) {
            kept_shape[d] = reduced[d] ? 1 : q->shape[d];
            int dropped = IS_KEEPDIMS_OP(q->op) && reduced[d] && !q->keepdims;
            ostrides[d] = dropped ? 0 : out.strides[o++];
        }
        int64_t nkept = count_of(rank, kept_shape);
        int64_t *expected = malloc(sizeof(int64_t) * (size_t)(nkept > 0 ? nkept : 1));
        reference(&in, q->dtype, reduced, is_min, q->op == OP_HARDMAX || IS_NAN_OP(q->op) ? 0 : q->last,
                  IS_NAN_OP(q->op), expected);
        int want_all_nan = 0;
        for (int64_t k = 0; IS_NAN_OP(q->op) && k < nkept; k++)
            want_all_nan |= expected[k] < 0;
        CHECK(all_nan == want_all_nan, "status %d (%s) for %s all-NaN slice", st,
              argext_status_string(st), want_all_nan ? "an" : "no");
        long bad = 0;
        if (q->op == OP_HARDMAX) {
            /* 1 exactly at each kept position's reference index, 0 elsewhere. */
            if (count_of(rank, q->shape) > 0)
                do {
                    int64_t k = 0, r = 0;
                    for (int d = 0; d < rank; d++) {
                        if (reduced[d])
                            r = r * q->shape[d] + idx[d];
                        else
                            k = k * q->shape[d] + idx[d];
                    }
                    char *p = out.data + offset_of(rank, ostrides, idx);
                    value v = read_value(q->dtype, p);
                    int one = r == expected[k];
                    int good = v.kind == FLOAT ? !v.nan && v.f == (one ? 1.0 : 0.0) && !signbit(v.f)
                               : v.kind == SIGNED ? v.i == one : v.u == (uint64_t)one;
                    bad += !good;
                    memset(p, SENTINEL, SIZES[q->dtype]);
                } while (next_index(rank, q->shape, idx));
        } else if (nkept > 0) {
            int64_t k = 0;
            do {
                char *p = out.data + offset_of(rank, ostrides, idx);
                int64_t got = read_index(q->out_dtype, p);
                if (got != expected[k] && bad++ < 3)
                    fprintf(stderr, "  [%s] kept position %" PRId64 ": got %" PRId64 ", expected %" PRId64 "\n",
                            where, k, got, expected[k]);
                memset(p, SENTINEL, SIZES[q->out_dtype]);
                k++;
            } while (next_index(rank, kept_shape, idx));
        }
        CHECK(bad == 0, "%ld wrong output elements", bad);
        free(expected);
    }
    /* Output elements were reset to the sentinel: the whole buffer must be. */
    size_t stray = 0;
    for (size_t b = 0; b < out.bytes; b++)
        stray += out.alloc[b] != SENTINEL;
    CHECK(stray == 0, "%zu bytes written outside the output (or by a refused call)", stray);
    free(in_copy);
    free(in_swapped);
    free(in.alloc);
    free(out.alloc);
}

/* A random shape of `rank` dims with at most ~max_count elements. */
static void random_shape(int rank, int64_t *shape, int64_t max_count)
{
    int64_t count = 1;
    for (int d = 0; d < rank; d++) {
        int64_t n = rnd() % 4 == 0 ? rnd_in(1, 40) : rnd_in(1, 5);
        if (rnd() % 40 == 0)
            n = 0;
        while (n > 1 && count * n > max_count)
            n /= 2;
        shape[d] = n;
        count *= n > 0 ? n : 1;
    }
}

/* A valid request of the given op and dtype on a random shape. */
static void random_request(request *q, int op, int dtype, int rank, int64_t max_count)
{
    memset(q, 0, sizeof *q);
    q->op = op;
    q->dtype = dtype;
    q->rank = rank;
    q->negative_dim = -1;
    random_shape(rank, q->shape, max_count);
    q->axis = rnd_in(-rank, rank - 1);
    q->keepdims = (int)(rnd() & 1);
    q->last = (int)(rnd() & 1);
    static const int versions[3] = {1, 11, 13};
    q->version = versions[rnd() % 3];
    if (op == OP_HARDMAX && q->version == 1 && q->axis < 0)
        q->axis += rank;
    q->onto_zeros = op == OP_HARDMAX && rnd() % 2;
    q->all_axes = IS_NAN_OP(op) && rnd() % 3 == 0;
    /* A random non-empty subset of the axes, in random order, some negative. */
    int perm[MAXR];
    for (int d = 0; d < rank; d++)
        perm[d] = d;
    for (int d = rank - 1; d > 0; d--) {
        int j = (int)rnd_in(0, d), t = perm[d];
        perm[d] = perm[j];
        perm[j] = t;
    }
    q->naxes = (int)rnd_in(1, rank);
    for (int i = 0; i < q->naxes; i++)
        q->axes[i] = perm[i] - (rnd() % 3 == 0 ? rank : 0);
    static const int index_dtypes[4] = {ARGEXT_INT64, ARGEXT_INT32, ARGEXT_UINT64, ARGEXT_UINT32};
    q->out_dtype = op == OP_HARDMAX ? dtype
                   : op == OP_REDUCE_MAX || op == OP_REDUCE_MIN ? index_dtypes[rnd() % 4]
                                                                : ARGEXT_INT64;
}

/* Deterministic coverage: every op x dtype x ISA on random valid shapes,
   plus shapes that cross the kernels' block sizes along each axis (or, with
   one_axis, along a random one). */
static void test_entry_points(int cases_per_combo, int one_axis)
{
    static const int64_t long_shapes[][3] = {
        {1, 700, 1}, {3, 1100, 1}, {2, 3, 1500}, {1, 1, 2600}, {600, 2, 1}, {1030, 3, 1}, {2, 257, 5},
        {1, 1, 9000},  /* several branch-free chunks of int8 at 128 bits */
        {150, 1, 2}, {70, 2, 4}, {40, 1, 8}, {33, 2, 16}, {17, 2, 32}, {9, 1, 64}}; /* dense short rows */
    for (int op = 0; op < OP_COUNT; op++)
        for (int dt = 0; dt < ARGEXT_DTYPE_COUNT; dt++) {
            for (int c = 0; c < cases_per_combo; c++) {
                request q;
                random_request(&q, op, dt, (int)rnd_in(1, 5), 3000);
                run_request(&q);
            }
            for (size_t s = 0; s < sizeof long_shapes / sizeof long_shapes[0]; s++)
                for (int axis = 0; axis < 3; axis++) {
                    if (one_axis && rnd() % 3)
                        continue;
                    request q;
                    random_request(&q, op, dt, 3, 1);
                    memcpy(q.shape, long_shapes[s], sizeof long_shapes[s]);
                    q.axis = axis;
                    q.naxes = 1 + (int)(rnd() % 2);
                    q.axes[0] = axis;
                    q.axes[1] = (axis + 1) % 3;
                    if (op == OP_HARDMAX)
                        q.version = 13;
                    run_request(&q);
                }
        }
    /* Rank 64 (ARGEXT_MAX_RANK): dims of 1 with a few of 2 and 3. */
    for (int op = 0; op < OP_COUNT; op++) {
        request q;
        random_request(&q, op, ARGEXT_FLOAT32, MAXR, 1);
        for (int d = 0; d < MAXR; d++)
            q.shape[d] = d % 16 == 3 ? 2 : d % 16 == 9 ? 3 : 1;
        q.axis = 9;
        q.naxes = 3;
        q.axes[0] = 3;
        q.axes[1] = -1 - 6;
        q.axes[2] = 25;
        run_request(&q);
    }
}

/* Random requests, many of them invalid. */
static void fuzz(long iterations)
{
    for (long it = 0; it < iterations; it++) {
        request q;
        int op = (int)(rnd() % OP_COUNT);
        random_request(&q, op, (int)(rnd() % ARGEXT_DTYPE_COUNT), (int)rnd_in(1, 6), 800);
        switch (rnd() % 12) { /* one mutation, or none */
        case 0: q.dtype = (int)rnd_in(-2, ARGEXT_DTYPE_COUNT + 2); break;
        case 1: q.axis = rnd_in(-q.rank - 2, q.rank + 1); break;
        case 2: q.keepdims = (int)rnd_in(-1, 2); q.last = (int)rnd_in(-1, 2); break;
        case 3: q.naxes = (int)rnd_in(-1, q.rank + 1); break;
        case 4: q.axes[rnd() % (unsigned)q.rank] = rnd_in(-q.rank - 2, q.rank + 1); break;
        case 5: q.version = (int)rnd_in(0, 14); break;
        case 6: q.out_dtype = (int)rnd_in(-2, ARGEXT_DTYPE_COUNT + 2); break;
        case 7: q.out_mutation = (int)rnd_in(1, 3); break;
        case 8: q.negative_dim = (int)(rnd() % (unsigned)q.rank); break;
        case 9: q.shape[rnd() % (unsigned)q.rank] = 0; break;
        default: break;
        }
        if (q.naxes > MAXR)
            q.naxes = MAXR;
        run_request(&q);
    }
}

/* ------------------------------------------------------------ bad descriptors */

static void expect_status(const char *what, argext_status got, argext_status want)
{
    snprintf(where, sizeof where, "bad descriptor: %s", what);
    CHECK(got == want, "status %d (%s), expected %d (%s)", got, argext_status_string(got), want,
          argext_status_string(want));
}

static void test_bad_descriptors(void)
{
    float data[24] = {0};
    int64_t out[24], out_copy[24];
    for (int i = 0; i < 24; i++)
        out[i] = out_copy[i] = 0x5a5a5a5a5a5a5a5a;
    int64_t shape[MAXR + 2], ones[MAXR + 2];
    for (int d = 0; d < MAXR + 2; d++)
        ones[d] = 1;
    shape[0] = 2, shape[1] = 3, shape[2] = 4;
    const int64_t out_shape[3] = {2, 1, 4}, out_drop[2] = {2, 4}, out_bad[3] = {2, 2, 4};
    const int64_t axes01[2] = {0, 1}, axes00[2] = {0, 0}, axes0m3[2] = {0, -3}, axes_big[1] = {3};
    argext_tensor in = {data, ARGEXT_FLOAT32, 3, shape, NULL};
    argext_tensor o = {out, ARGEXT_INT64, 3, out_shape, NULL};
    argext_tensor t;

    expect_status("valid argmax", argext_argmax(&in, &o, 1, 1, 0), ARGEXT_OK);
    for (int i = 0; i < 24; i++)
        out[i] = 0x5a5a5a5a5a5a5a5a;
    expect_status("NULL data tensor", argext_argmax(NULL, &o, 1, 1, 0), ARGEXT_ERR_NULL);
    expect_status("NULL output tensor", argext_argmax(&in, NULL, 1, 1, 0), ARGEXT_ERR_NULL);
    t = in, t.data = NULL;
    expect_status("NULL data pointer", argext_argmin(&t, &o, 1, 1, 0), ARGEXT_ERR_NULL);
    t = o, t.data = NULL;
    expect_status("NULL output pointer", argext_argmin(&in, &t, 1, 1, 0), ARGEXT_ERR_NULL);
    t = in, t.shape = NULL;
    expect_status("NULL shape", argext_argmax(&t, &o, 1, 1, 0), ARGEXT_ERR_NULL);
    t = o, t.shape = NULL;
    expect_status("NULL output shape", argext_argmax(&in, &t, 1, 1, 0), ARGEXT_ERR_NULL);
    t = in, t.dtype = (argext_dtype)ARGEXT_DTYPE_COUNT;
    expect_status("dtype 12", argext_argmax(&t, &o, 1, 1, 0), ARGEXT_ERR_DTYPE);
    t = in, t.dtype = (argext_dtype)-1;
    expect_status("dtype -1", argext_argmax(&t, &o, 1, 1, 0), ARGEXT_ERR_DTYPE);
    t = in, t.rank = -1;
    expect_status("rank -1", argext_argmax(&t, &o, 0, 1, 0), ARGEXT_ERR_RANK);
    t = in, t.rank = 0;
    expect_status("rank 0", argext_argmax(&t, &o, 0, 1, 0), ARGEXT_ERR_RANK);
    t = in, t.rank = MAXR + 1, t.shape = ones;
    expect_status("rank 65", argext_argmax(&t, &o, 0, 1, 0), ARGEXT_ERR_RANK);
    expect_status("rank 65 reduce", argext_reduce_argmax(&t, &o, axes01, 1, ARGEXT_FIRST), ARGEXT_ERR_RANK);
    expect_status("rank 65 hardmax", argext_hardmax(&t, &o, 0, 13), ARGEXT_ERR_RANK);

    int64_t neg[3] = {2, -1, 4};
    t = in, t.shape = neg;
    expect_status("negative dim", argext_argmax(&t, &o, 0, 1, 0), ARGEXT_ERR_SHAPE);
    int64_t huge[3] = {INT64_MAX, 2, 1};
    t = in, t.shape = huge;
    expect_status("dims overflow", argext_argmax(&t, &o, 0, 1, 0), ARGEXT_ERR_SHAPE);
    int64_t huge2[3] = {(int64_t)1 << 31, (int64_t)1 << 31, 4};
    t = in, t.shape = huge2;
    expect_status("product overflows bytes", argext_reduce_argmax(&t, &o, axes01, 2, ARGEXT_FIRST),
                  ARGEXT_ERR_SHAPE);
    const int64_t big_strides[3] = {INT64_MAX / 2, 4, 1};
    int64_t shape3[3] = {3, 3, 1};
    t = in, t.shape = shape3, t.strides = big_strides;
    expect_status("stride extent overflow", argext_argmax(&t, &o, 0, 1, 0), ARGEXT_ERR_SHAPE);
    const int64_t min_strides[3] = {INT64_MIN, 4, 4};
    t = in, t.strides = min_strides;
    expect_status("INT64_MIN stride", argext_argmax(&t, &o, 0, 1, 0), ARGEXT_ERR_SHAPE);

    expect_status("axis 3", argext_argmax(&in, &o, 3, 1, 0), ARGEXT_ERR_AXIS);
    expect_status("axis -4", argext_argmin(&in, &o, -4, 1, 0), ARGEXT_ERR_AXIS);
    expect_status("axis INT64_MAX", argext_argmax(&in, &o, INT64_MAX, 1, 0), ARGEXT_ERR_AXIS);
    expect_status("axis INT64_MIN", argext_argmax(&in, &o, INT64_MIN, 1, 0), ARGEXT_ERR_AXIS);
    expect_status("keepdims 2", argext_argmax(&in, &o, 1, 2, 0), ARGEXT_ERR_ATTRIBUTE);
    expect_status("select_last_index -1", argext_argmax(&in, &o, 1, 1, -1), ARGEXT_ERR_ATTRIBUTE);
    t = o, t.dtype = ARGEXT_INT32;
    expect_status("argmax int32 output", argext_argmax(&in, &t, 1, 1, 0), ARGEXT_ERR_OUTPUT);
    t = o, t.shape = out_bad;
    expect_status("argmax wrong output shape", argext_argmax(&in, &t, 1, 1, 0), ARGEXT_ERR_OUTPUT);
    t = o, t.shape = out_drop, t.rank = 2;
    expect_status("keepdims=1 with dropped output", argext_argmax(&in, &t, 1, 1, 0), ARGEXT_ERR_OUTPUT);
    expect_status("keepdims=0 valid", argext_argmax(&in, &t, 1, 0, 0), ARGEXT_OK);
    for (int i = 0; i < 24; i++)
        out[i] = 0x5a5a5a5a5a5a5a5a;
    t = o, t.rank = 4, t.shape = ones;
    expect_status("output rank too high", argext_argmax(&in, &t, 1, 1, 0), ARGEXT_ERR_OUTPUT);
    int64_t empty_shape[3] = {2, 0, 4};
    t = in, t.shape = empty_shape;
    expect_status("empty axis", argext_argmax(&t, &o, 1, 1, 0), ARGEXT_ERR_EMPTY_AXIS);

    expect_status("reduce NULL axes", argext_reduce_argmax(&in, &o, NULL, 1, ARGEXT_FIRST), ARGEXT_ERR_NULL);
    expect_status("reduce naxes 0", argext_reduce_argmax(&in, &o, axes01, 0, ARGEXT_FIRST), ARGEXT_ERR_AXIS);
    expect_status("reduce naxes -1", argext_reduce_argmin(&in, &o, axes01, -1, ARGEXT_FIRST), ARGEXT_ERR_AXIS);
    expect_status("reduce naxes > rank", argext_reduce_argmax(&in, &o, axes01, 4, ARGEXT_FIRST), ARGEXT_ERR_AXIS);
    expect_status("reduce duplicate axes", argext_reduce_argmax(&in, &o, axes00, 2, ARGEXT_FIRST), ARGEXT_ERR_AXIS);
    expect_status("reduce axes 0 and -3", argext_reduce_argmax(&in, &o, axes0m3, 2, ARGEXT_FIRST), ARGEXT_ERR_AXIS);
    expect_status("reduce axis 3", argext_reduce_argmax(&in, &o, axes_big, 1, ARGEXT_FIRST), ARGEXT_ERR_AXIS);
    expect_status("reduce direction 2", argext_reduce_argmax(&in, &o, axes01 + 1, 1, (argext_direction)2),
                  ARGEXT_ERR_ATTRIBUTE);
    t = o, t.dtype = ARGEXT_FLOAT32;
    expect_status("reduce float32 output", argext_reduce_argmax(&in, &t, axes01 + 1, 1, ARGEXT_FIRST),
                  ARGEXT_ERR_OUTPUT);
    t = o, t.dtype = ARGEXT_INT16;
    expect_status("reduce int16 output", argext_reduce_argmin(&in, &t, axes01 + 1, 1, ARGEXT_FIRST),
                  ARGEXT_ERR_OUTPUT);
    t = o, t.shape = out_drop, t.rank = 2;
    expect_status("reduce dropped output", argext_reduce_argmax(&in, &t, axes01 + 1, 1, ARGEXT_FIRST),
                  ARGEXT_ERR_OUTPUT);
    /* 2**32 + 1 equal elements through a zero stride: one more than uint32 indexes. */
    const int64_t bshape[1] = {((int64_t)1 << 32) + 1}, bstride[1] = {0}, one[1] = {1}, axis0[1] = {0};
    argext_tensor broad = {data, ARGEXT_FLOAT32, 1, bshape, bstride};
    t = o, t.rank = 1, t.shape = one, t.dtype = ARGEXT_UINT32;
    expect_status("uint32 index overflow", argext_reduce_argmax(&broad, &t, axis0, 1, ARGEXT_FIRST),
                  ARGEXT_ERR_OVERFLOW);
    t.dtype = ARGEXT_INT32;
    expect_status("int32 index overflow", argext_reduce_argmax(&broad, &t, axis0, 1, ARGEXT_LAST),
                  ARGEXT_ERR_OVERFLOW);
    CHECK(memcmp(out, out_copy, sizeof out) == 0, "a refused call wrote to the output");
    t.dtype = ARGEXT_INT64;
    expect_status("int64 index, 2**32+1 zero-stride elements, last",
                  argext_reduce_argmax(&broad, &t, axis0, 1, ARGEXT_LAST), ARGEXT_OK);
    CHECK(out[0] == ((int64_t)1 << 32), "last index over a zero stride: %" PRId64, out[0]);

    float hout[24];
    argext_tensor ho = {hout, ARGEXT_FLOAT32, 3, shape, NULL};
    expect_status("hardmax valid", argext_hardmax(&in, &ho, -1, 13), ARGEXT_OK);
    expect_status("hardmax version 12", argext_hardmax(&in, &ho, 1, 12), ARGEXT_ERR_ATTRIBUTE);
    expect_status("hardmax version 0", argext_hardmax(&in, &ho, 1, 0), ARGEXT_ERR_ATTRIBUTE);
    expect_status("hardmax v1 axis -1", argext_hardmax(&in, &ho, -1, 1), ARGEXT_ERR_AXIS);
    expect_status("hardmax v11 axis 3", argext_hardmax(&in, &ho, 3, 11), ARGEXT_ERR_AXIS);
    t = ho, t.dtype = ARGEXT_FLOAT64;
    expect_status("hardmax output dtype", argext_hardmax(&in, &t, 1, 13), ARGEXT_ERR_OUTPUT);
    t = ho, t.shape = out_shape;
    expect_status("hardmax output shape", argext_hardmax(&in, &t, 1, 13), ARGEXT_ERR_OUTPUT);
    t = ho, t.rank = 2;
    expect_status("hardmax output rank", argext_hardmax(&in, &t, 1, 13), ARGEXT_ERR_OUTPUT);
    t = ho, t.data = NULL;
    expect_status("hardmax NULL output data", argext_hardmax(&in, &t, 1, 13), ARGEXT_ERR_NULL);

    /* Empty tensors need no data pointer. */
    int64_t zero_rows[2] = {0, 3}, zero_out[2] = {0, 1};
    argext_tensor ein = {NULL, ARGEXT_INT8, 2, zero_rows, NULL};
    argext_tensor eout = {NULL, ARGEXT_INT64, 2, zero_out, NULL};
    expect_status("empty input, kept dim 0", argext_argmax(&ein, &eout, 1, 1, 0), ARGEXT_OK);
    /* The output (0, 1) is wrong too, but outputs are checked last (argext.c). */
    expect_status("empty input, reduced dim 0", argext_argmax(&ein, &eout, 0, 1, 0), ARGEXT_ERR_EMPTY_AXIS);

    /* ISA and string queries. */
    snprintf(where, sizeof where, "isa queries");
    CHECK(argext_set_isa((argext_isa)ARGEXT_ISA_COUNT) == ARGEXT_ERR_ISA, "set_isa(COUNT) accepted");
    CHECK(argext_set_isa((argext_isa)-1) == ARGEXT_ERR_ISA, "set_isa(-1) accepted");
    CHECK(argext_isa_supported(ARGEXT_ISA_BASELINE) == 1, "baseline unsupported");
    CHECK(argext_isa_supported((argext_isa)ARGEXT_ISA_COUNT) == 0, "ISA COUNT supported");
    CHECK(argext_isa_supported(argext_isa_best()), "best ISA unsupported");
    CHECK(strcmp(argext_isa_name((argext_isa)99), "unknown") == 0, "isa_name(99)");
    CHECK(strcmp(argext_version(), ARGEXT_VERSION_STRING) == 0, "version");
    CHECK(argext_dtype_size((argext_dtype)ARGEXT_DTYPE_COUNT) == 0, "dtype_size(COUNT)");
    CHECK(argext_dtype_size((argext_dtype)-5) == 0, "dtype_size(-5)");
    for (int dt = 0; dt < ARGEXT_DTYPE_COUNT; dt++)
        CHECK(argext_dtype_size((argext_dtype)dt) == SIZES[dt], "dtype_size(%d)", dt);
    for (int s = 0; s <= ARGEXT_ERR_ISA + 1; s++)
        CHECK(argext_status_string((argext_status)s) != NULL, "status_string(%d)", s);
}

#ifdef HAVE_FLUSH
/* With denormals flushed to zero (MXCSR.DAZ, FPCR.FZ: as some libraries leave
   them), a float compare would read denormals as 0: the kernels must still
   tell the smallest denormal from zero. Rows long enough for the blocked scans; the expected
   index is known by construction, since a reference reading floats would be
   flushed as well. */
static void test_denormals_under_daz(void)
{
    enum { N = 2000, AT = 1337 };
    static float f32[N];
    static double f64[N];
    const fp_state saved = fp_flush();
    for (int sign = 1; sign >= -1; sign -= 2) {
        for (int i = 0; i < N; i++) {
            f32[i] = 0.0f;
            f64[i] = 0.0;
        }
        const uint32_t d32 = sign > 0 ? 1u : 0x80000001u; /* +-smallest denormal */
        const uint64_t d64 = sign > 0 ? 1u : UINT64_C(0x8000000000000001);
        memcpy(&f32[AT], &d32, sizeof d32);
        memcpy(&f64[AT], &d64, sizeof d64);
        const int64_t shape[1] = {N};
        int64_t got;
        argext_tensor out = {&got, ARGEXT_INT64, 0, NULL, NULL};
        argext_tensor in32 = {f32, ARGEXT_FLOAT32, 1, shape, NULL};
        argext_tensor in64 = {f64, ARGEXT_FLOAT64, 1, shape, NULL};
        const argext_tensor *ins[2] = {&in32, &in64};
        for (int t = 0; t < 2; t++) {
            snprintf(where, sizeof where, "DAZ %s denormal, dtype %s, isa %s", sign > 0 ? "+" : "-",
                     t ? "float64" : "float32", argext_isa_name(argext_get_isa()));
            argext_status st = sign > 0 ? argext_argmax(ins[t], &out, 0, 0, 0)
                                        : argext_argmin(ins[t], &out, 0, 0, 0);
            CHECK(st == ARGEXT_OK && got == AT, "status %d, index %" PRId64 ", expected %d", st, got, AT);
        }
    }
    fp_restore(saved);
}
#endif

/* ------------------------------------------------------------ threads */

/* A host parallel-for that runs the parts on the calling thread, last first:
   no result may depend on the order the parts run in. */
static void reverse_for(void *host, int64_t n, argext_task task, void *context)
{
    (void)host;
    for (int64_t i = n; i-- > 0;)
        task(context, i);
}

typedef struct {
    argext_task task;
    void *context;
    int64_t i;
} host_part;

static void *run_host_part(void *arg)
{
    host_part *h = (host_part *)arg;
    h->task(h->context, h->i);
    return NULL;
}

static pthread_mutex_t host_lock = PTHREAD_MUTEX_INITIALIZER;

/* A host parallel-for that starts one thread per part and counts its calls. */
static void spawn_for(void *host, int64_t n, argext_task task, void *context)
{
    host_part *parts = malloc(sizeof(host_part) * (size_t)n);
    pthread_t *threads = malloc(sizeof(pthread_t) * (size_t)n);
    pthread_mutex_lock(&host_lock);
    ++*(long *)host;
    pthread_mutex_unlock(&host_lock);
    for (int64_t i = 0; i < n; i++) {
        parts[i] = (host_part){task, context, i};
        if (pthread_create(&threads[i], NULL, run_host_part, &parts[i]) != 0)
            abort();
    }
    for (int64_t i = 0; i < n; i++)
        pthread_join(threads[i], NULL);
    free(parts);
    free(threads);
}

enum { CALLERS = 4, CALLER_ROUNDS = 25, CALLER_N = 40000 };
static float caller_data[CALLER_N];
static int64_t caller_expected[2];

static void *caller(void *arg)
{
    long *wrong = (long *)arg;
    const int64_t shape[1] = {CALLER_N};
    argext_tensor in = {caller_data, ARGEXT_FLOAT32, 1, shape, NULL};
    for (int r = 0; r < CALLER_ROUNDS; r++) {
        int64_t got = -1;
        argext_tensor out = {&got, ARGEXT_INT64, 0, NULL, NULL};
        int last = r & 1;
        if (argext_argmax(&in, &out, 0, 0, last) != ARGEXT_OK || got != caller_expected[last])
            ++*wrong;
    }
    return NULL;
}

/* Several threads calling at once: one owns the pool, the others run their
   parts themselves; every answer is right. */
static void test_concurrent_callers(void)
{
    for (int i = 0; i < CALLER_N; i++)
        caller_data[i] = (float)(i % 1000);
    caller_data[CALLER_N / 3] = caller_data[CALLER_N - 5] = NAN;
    caller_expected[0] = CALLER_N / 3;
    caller_expected[1] = CALLER_N - 5;
    pthread_t threads[CALLERS];
    long wrong[CALLERS] = {0};
    for (int t = 0; t < CALLERS; t++)
        if (pthread_create(&threads[t], NULL, caller, &wrong[t]) != 0)
            abort();
    for (int t = 0; t < CALLERS; t++) {
        pthread_join(threads[t], NULL);
        snprintf(where, sizeof where, "concurrent caller %d, %d threads", t, argext_get_num_threads());
        CHECK(wrong[t] == 0, "%ld wrong answers", wrong[t]);
    }
}

static void test_threads(int cases_per_combo)
{
    static const int counts[] = {1, 2, 3, 7};
    snprintf(where, sizeof where, "thread count");
    expect_status("set_num_threads(-1)", argext_set_num_threads(-1), ARGEXT_ERR_ATTRIBUTE);
    expect_status("set_num_threads(MAX + 1)", argext_set_num_threads(ARGEXT_MAX_THREADS + 1),
                  ARGEXT_ERR_ATTRIBUTE);
    CHECK(argext_get_num_threads() >= 1, "default thread count %d", argext_get_num_threads());
    argext_set_min_part_bytes(16);
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        CHECK(argext_set_num_threads(counts[c]) == ARGEXT_OK &&
                  argext_get_num_threads() == counts[c],
              "set_num_threads(%d)", counts[c]);
        test_entry_points(cases_per_combo, 1);
        test_concurrent_callers();
    }
    argext_set_parallel_for(reverse_for, NULL);
    test_entry_points(cases_per_combo, 1);
    long host_calls = 0;
    argext_set_parallel_for(spawn_for, &host_calls);
    test_entry_points(cases_per_combo, 1);
    test_concurrent_callers();
    snprintf(where, sizeof where, "host parallel-for");
    CHECK(host_calls > 0, "the host's parallel-for was never called");
    argext_set_parallel_for(NULL, NULL);
    argext_set_min_part_bytes(ARGEXT_MIN_PART_BYTES);
    CHECK(argext_set_num_threads(0) == ARGEXT_OK, "set_num_threads(0)");
}

/* The entry points a thread pool will use: kept positions run as two
   ranges, and every row folded as two element ranges merged with
   argext_plan_better, each give the reference's indices. */
static void test_plan_parts(void)
{
    for (int t = 0; t < 200; t++) {
        int dt = (int)(rnd() % ARGEXT_DTYPE_COUNT), is_min = (int)(rnd() % 2), last = (int)(rnd() % 2);
        int swapped = SIZES[dt] > 1 && rnd() % 2;
        int64_t shape[2] = {rnd_in(1, 9), rnd_in(2, 300)}, out[9], out_strides[2] = {8, 0}, expected[9];
        unsigned char reduced[2] = {0, 1};
        layout in;
        make_layout(&in, SIZES[dt], 2, shape, 0);
        fill_random(&in, dt);
        reference(&in, dt, reduced, is_min, last, 0, expected);
        if (swapped) {
            int64_t z[2] = {0, 0};
            do {
                char *e = in.data + offset_of(2, in.strides, z);
                for (size_t b = 0; b < SIZES[dt] / 2; b++) {
                    char c = e[b];
                    e[b] = e[SIZES[dt] - 1 - b];
                    e[SIZES[dt] - 1 - b] = c;
                }
            } while (next_index(2, shape, z));
        }
        snprintf(where, sizeof where, "plan parts dtype=%s shape=[%" PRId64 ",%" PRId64 "] min=%d last=%d swapped=%d",
                 NAMES[dt], shape[0], shape[1], is_min, last, swapped);
        argext_reduction r = {in.data, dt | (swapped ? ARGEXT_BYTESWAPPED : 0), 2, shape, in.strides,
                              reduced, (char *)out, ARGEXT_INT64, out_strides,
                              is_min ? ARGEXT_OP_MIN : ARGEXT_OP_MAX, last};
        argext_arena *a = argext_arena_acquire();
        CHECK(a != NULL, "no scratch");
        if (!a) {
            free(in.alloc);
            return;
        }
        argext_plan_build(&a->plan, &r);
        int64_t k = rnd_in(0, a->plan.positions);
        memset(out, 0xff, sizeof out);
        argext_plan_run(&a->plan, 0, k, a);
        argext_plan_run(&a->plan, k, a->plan.positions, a);
        CHECK(memcmp(out, expected, sizeof(int64_t) * (size_t)shape[0]) == 0, "ranges [0, k), [k, n)");
        memset(out, 0xff, sizeof out);
        for (int64_t j = 0; j < a->plan.positions; j++) {
            int64_t m = rnd_in(1, shape[1] - 1), ka, kb;
            int64_t ia = argext_plan_row_part(&a->plan, j, 0, m, 1, &ka);
            int64_t ib = argext_plan_row_part(&a->plan, j, m, shape[1], 1, &kb);
            argext_plan_store(&a->plan, j, argext_plan_better(&a->plan, &kb, ib, &ka, ia) ? ib : ia);
        }
        CHECK(memcmp(out, expected, sizeof(int64_t) * (size_t)shape[0]) == 0, "row parts merged");
        argext_arena_release(a);
        free(in.alloc);
    }
}

int main(int argc, char **argv)
{
    long iterations = argc > 1 ? atol(argv[1]) : 20000;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 20261120;
    int threaded = argc > 3 ? atoi(argv[3]) : 1;
    rng_state = seed;
    int8_t probe = 0, probe_out = 0;
    const int64_t probe_shape[1] = {1};
    argext_tensor pin = {&probe, ARGEXT_INT8, 1, probe_shape, NULL};
    argext_tensor pout = {&probe_out, ARGEXT_INT8, 1, probe_shape, NULL};
    hardmax_float_only = argext_hardmax(&pin, &pout, 0, 13) == ARGEXT_ERR_DTYPE;
    printf("driver: argext_hardmax takes %s\n", hardmax_float_only ? "float dtypes only" : "every dtype");
    test_bad_descriptors();
    /* ARGEXT_ISA (read by the library on first use) names the one level to
       test; it must be the level in use. Without it, every supported level. */
    const char *only = getenv("ARGEXT_ISA");
    if (only) {
        snprintf(where, sizeof where, "ARGEXT_ISA=%s", only);
        CHECK(strcmp(argext_isa_name(argext_get_isa()), only) == 0, "level in use: %s",
              argext_isa_name(argext_get_isa()));
    }
    for (int isa = 0; isa < ARGEXT_ISA_COUNT; isa++) {
        if (!argext_isa_supported((argext_isa)isa) ||
            (only && strcmp(argext_isa_name((argext_isa)isa), only) != 0))
            continue;
        printf("driver: level %s\n", argext_isa_name((argext_isa)isa));
        snprintf(where, sizeof where, "set_isa(%d)", isa);
        CHECK(argext_set_isa((argext_isa)isa) == ARGEXT_OK && argext_get_isa() == (argext_isa)isa,
              "cannot select ISA %d", isa);
        test_entry_points(iterations >= 5000 ? 12 : 3, 0);
        test_plan_parts();
#ifdef HAVE_FLUSH
        test_denormals_under_daz();
#endif
        fuzz(iterations);
    }
    if (threaded)
        test_threads(1); /* at the best ISA: the split does not depend on it */
    printf("driver: %ld passed, %ld failed (seed %" PRIu64 ", %ld fuzz iterations per ISA)\n", n_pass,
           n_fail, seed, iterations);
    return n_fail != 0;
}
