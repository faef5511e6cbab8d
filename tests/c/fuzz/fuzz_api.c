/*
 * fuzz_api.c - coverage-guided fuzzing of argext's public C API (argext.h
 * only), for libFuzzer:
 *   clang -fsanitize=fuzzer,address,undefined -Icsrc ... csrc/... tests/c/fuzz/fuzz_api.c
 *
 * Each input is decoded into one call: the entry point, the input descriptor
 * (dtype, byte order, rank, shape, byte strides: C order, or any multiple of
 * the element size, zero and negative included, or not a multiple at all;
 * huge and negative sizes), the elements (raw bytes or ties, NaN, -0.0 and
 * infinities), the axes and attributes (in range or not), the output
 * descriptor (right, strided, or wrong in one way) and an ISA level. The
 * harness decides from argext.h alone what the call must do: the statuses
 * that its refusal may carry (several faults may apply; argext reports one),
 * or, for a valid call, the result, computed here by a scalar reference that
 * shares no code with argext. Then:
 *   - a refused call has one of those statuses, argext_last_error() says the
 *     same, and the output is untouched;
 *   - an accepted call's output equals the reference's;
 *   - the same call at the baseline level (argext_set_isa) gives the same
 *     status and output bytes.
 * Any difference aborts, which libFuzzer reports with the input.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argext.h"

#define MAX_RANK 6          /* the ranks drawn, besides rank 64 and 65 */
#define MAX_BYTES (1 << 20) /* the largest input or output buffer */

static void describe(void); /* the call being checked, on stderr */

#define CHECK(cond, ...)                                                                  \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            describe();                                                                   \
            fprintf(stderr, "fuzz_api: %s:%d: %s: ", __FILE__, __LINE__, #cond);          \
            fprintf(stderr, __VA_ARGS__);                                                 \
            fputc('\n', stderr);                                                          \
            abort();                                                                      \
        }                                                                                 \
    } while (0)

/* ---- the input, read a byte at a time (zeros once it runs out) ---------------------- */

typedef struct {
    const uint8_t *p;
    size_t n;
} source;

static unsigned byte_of(source *s)
{
    if (s->n == 0)
        return 0;
    s->n--;
    return *s->p++;
}

/* A value in [0, bound), bound <= 256. */
static int pick(source *s, int bound) { return (int)(byte_of(s) % (unsigned)bound); }

static int64_t pick_in(source *s, int64_t lo, int64_t hi) /* [lo, hi], hi - lo < 256 */
{
    return lo + pick(s, (int)(hi - lo + 1));
}

/* ---- element values, independent of argext ------------------------------------------ */

static const size_t itemsizes[ARGEXT_DTYPE_COUNT] = {2, 2, 4, 8, 1, 2, 4, 8, 1, 2, 4, 8};

static int is_float(int dt) { return dt <= ARGEXT_FLOAT64; }

/* An element as the reference ranks it: floats as double (NaN flagged),
   signed and unsigned integers exactly. */
typedef struct {
    int nan;
    double f;
    int64_t i;
    uint64_t u;
} value;

static uint64_t load_bits(const unsigned char *p, size_t size, int swapped)
{
    unsigned char b[8];
    for (size_t k = 0; k < size; k++)
        b[k] = p[swapped ? size - 1 - k : k];
    uint64_t bits = 0;
    for (size_t k = 0; k < size; k++) /* native order: the byte at the lowest address first */
        bits |= (uint64_t)b[k] << (8 * k);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    bits = 0;
    for (size_t k = 0; k < size; k++)
        bits = (bits << 8) | b[k];
#endif
    return bits;
}

static double half_to_double(uint64_t h)
{
    int sign = (int)(h >> 15) & 1, exp = (int)(h >> 10) & 31, man = (int)h & 1023;
    double v = exp == 0 ? ldexp(man, -24) : exp == 31 ? (man ? NAN : INFINITY)
                                                      : ldexp(man + 1024, exp - 25);
    return sign ? -v : v;
}

static value load_value(const unsigned char *p, int dt, int swapped)
{
    uint64_t bits = load_bits(p, itemsizes[dt], swapped);
    value v = {0, 0, 0, 0};
    switch (dt) {
    case ARGEXT_FLOAT16: v.f = half_to_double(bits); break;
    case ARGEXT_BFLOAT16: {
        uint32_t w = (uint32_t)bits << 16;
        float f;
        memcpy(&f, &w, sizeof f);
        v.f = f;
        break;
    }
    case ARGEXT_FLOAT32: {
        uint32_t w = (uint32_t)bits;
        float f;
        memcpy(&f, &w, sizeof f);
        v.f = f;
        break;
    }
    case ARGEXT_FLOAT64: memcpy(&v.f, &bits, sizeof v.f); break;
    case ARGEXT_INT8: v.i = (int8_t)bits; break;
    case ARGEXT_INT16: v.i = (int16_t)bits; break;
    case ARGEXT_INT32: v.i = (int32_t)bits; break;
    case ARGEXT_INT64: v.i = (int64_t)bits; break;
    default: v.u = bits; break;
    }
    v.nan = is_float(dt) && v.f != v.f;
    return v;
}

/* -1, 0, 1: a below, equal to (-0.0 == +0.0), above b; neither is NaN. */
static int compare(value a, value b, int dt)
{
    if (is_float(dt))
        return (a.f > b.f) - (a.f < b.f);
    if (dt <= ARGEXT_INT64)
        return (a.i > b.i) - (a.i < b.i);
    return (a.u > b.u) - (a.u < b.u);
}

/* The special values drawn as elements, by dtype: ties, signed zeros, NaN, infinities. */
static void store_special(unsigned char *p, int dt, int swapped, int which)
{
    static const uint64_t f16[8] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x7e00, 0x7c00, 0xfc00, 0x3c00};
    static const uint64_t bf16[8] = {0x0000, 0x8000, 0x3f80, 0xbf80, 0x7fc0, 0x7f80, 0xff80, 0x3f80};
    static const uint64_t f32[8] = {0, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7fc00000u,
                                    0x7f800000u, 0xff800000u, 0x3f800000u};
    static const uint64_t f64[8] = {0, 0x8000000000000000u, 0x3ff0000000000000u,
                                    0xbff0000000000000u, 0x7ff8000000000000u,
                                    0x7ff0000000000000u, 0xfff0000000000000u,
                                    0x3ff0000000000000u};
    static const uint64_t ints[8] = {0, 1, 2, (uint64_t)-1, 0x7f, 0x80, 0x7fffffffffffffffu,
                                     0x8000000000000000u};
    uint64_t bits = dt == ARGEXT_FLOAT16    ? f16[which]
                    : dt == ARGEXT_BFLOAT16 ? bf16[which]
                    : dt == ARGEXT_FLOAT32  ? f32[which]
                    : dt == ARGEXT_FLOAT64  ? f64[which]
                                            : ints[which];
    size_t size = itemsizes[dt];
    for (size_t k = 0; k < size; k++) {
        unsigned char b = (unsigned char)(bits >> (8 * k)); /* little-endian byte k */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        p[swapped ? k : size - 1 - k] = b;
#else
        p[swapped ? size - 1 - k : k] = b;
#endif
    }
}

/* ---- descriptors ---------------------------------------------------------------------- */

typedef struct {
    argext_tensor t;
    int64_t shape[ARGEXT_MAX_RANK + 2];
    int64_t strides[ARGEXT_MAX_RANK + 2];
    unsigned char *buffer; /* the allocation; t.data points into it */
    size_t bytes;
    int64_t count;         /* elements, when the shape is valid */
} tensor;

/* Whether the shape and strides are valid per argext.h, and the element
   count; the byte offsets an element may take are [*lo, *hi). */
static int layout(const tensor *x, size_t size, int64_t *count, int64_t *lo, int64_t *hi)
{
    long double elements = 1, extent = 0, low = 0, high = 0; /* wide: overflow is measured */
    int empty = 0;
    for (int d = 0; d < x->t.rank; d++) {
        int64_t n = x->t.shape[d];
        if (n < 0)
            return 0;
        if (n == 0)
            empty = 1;
        else
            elements *= n;
        if (x->t.strides && n > 1) {
            long double s = (long double)x->t.strides[d];
            if (x->t.strides[d] == INT64_MIN)
                return 0;
            extent += fabsl(s) * (n - 1);
            if (s < 0)
                low += s * (n - 1);
            else
                high += s * (n - 1);
        }
        if (x->t.strides && x->t.strides[d] == INT64_MIN)
            return 0;
    }
    if (elements * size > (long double)INT64_MAX || extent > (long double)INT64_MAX)
        return 0;
    *count = empty ? 0 : (int64_t)elements;
    if (!x->t.strides) {
        low = 0;
        high = *count ? (long double)(*count - 1) * size : 0;
    }
    *lo = (int64_t)low;
    *hi = (int64_t)high + (int64_t)size;
    return 1;
}

/* The C-order stride of dimension d (saturated: a huge shape is refused anyway). */
static int64_t c_stride(const tensor *x, int d, size_t size)
{
    int64_t s = (int64_t)size;
    for (int e = x->t.rank - 1; e > d; e--)
        if (__builtin_mul_overflow(s, x->shape[e] > 0 ? x->shape[e] : 1, &s))
            return INT64_MAX;
    return s;
}

static int64_t stride_of(const tensor *x, int d, size_t size)
{
    return x->t.strides ? x->t.strides[d] : c_stride(x, d, size);
}

/* Allocates a buffer covering every element and points t.data at element 0. */
static int place(tensor *x, size_t size)
{
    int64_t count, lo, hi;
    if (!layout(x, size, &count, &lo, &hi))
        return 0;
    x->count = count;
    if (count == 0) {
        x->bytes = 1;
        x->buffer = malloc(1);
        x->t.data = x->buffer;
        return x->buffer != NULL;
    }
    if (hi - lo > MAX_BYTES)
        return 0;
    x->bytes = (size_t)(hi - lo) + 1; /* + 1: room for a misaligned start */
    x->buffer = malloc(x->bytes);
    if (!x->buffer)
        return 0;
    x->t.data = x->buffer - lo;
    return 1;
}

/* Byte offset of element `flat` (row-major over the shape) of x. */
static int64_t offset_of(const tensor *x, int64_t flat, size_t size)
{
    int64_t off = 0;
    for (int d = x->t.rank - 1; d >= 0; d--) {
        int64_t n = x->t.shape[d];
        off += (flat % n) * stride_of(x, d, size);
        flat /= n;
    }
    return off;
}

/* The input: dtype, byte order, rank, shape, strides. Returns 0 to skip the
   input (a buffer too large, or a valid call that would run too long). */
static void draw_input(source *s, tensor *x, int *huge)
{
    int dt = pick(s, ARGEXT_DTYPE_COUNT);
    x->t.dtype = (argext_dtype)(dt | (pick(s, 4) == 0 ? ARGEXT_BYTESWAPPED : 0));
    if (pick(s, 64) == 0)
        x->t.dtype = (argext_dtype)pick_in(s, -2, 253); /* mostly an unknown code */
    int r = pick(s, 64);
    x->t.rank = r == 0 ? 65 : r == 1 ? 64 : r == 2 ? -1 : pick(s, MAX_RANK + 1);
    int rank = x->t.rank < 0 ? 0 : x->t.rank;
    *huge = 0;
    for (int d = 0; d < rank && d < ARGEXT_MAX_RANK + 1; d++) {
        int kind = pick(s, 32);
        if (kind == 0) {
            x->shape[d] = -pick_in(s, 1, 3);
        } else if (kind == 1) {
            static const int64_t big[4] = {(int64_t)1 << 31, ((int64_t)1 << 32) + 1,
                                           (int64_t)1 << 62, INT64_MAX};
            x->shape[d] = big[pick(s, 4)];
            *huge = 1;
        } else {
            x->shape[d] = rank > 8 ? 1 : pick(s, kind < 16 ? 4 : 9);
        }
    }
    x->t.shape = pick(s, 128) == 0 ? NULL : x->shape;
    x->t.strides = NULL;
    size_t size = itemsizes[dt];
    if (pick(s, 2) && rank <= ARGEXT_MAX_RANK) {
        for (int d = 0; d < rank; d++) {
            int k = pick(s, 16);
            x->strides[d] = k < 8 ? c_stride(x, d, size) : (k - 11) * (int64_t)size; /* -3..4 */
            if (*huge && x->shape[d] > 1000)
                x->strides[d] = 0;
            if (pick(s, 32) == 0 && x->strides[d] < INT64_MAX)
                x->strides[d] += 1; /* not a multiple of the element size */
            if (pick(s, 256) == 0)
                x->strides[d] = INT64_MIN + pick(s, 2) * (INT64_MAX / 2);
        }
        x->t.strides = x->strides;
    }
}

static void fill_input(source *s, tensor *x)
{
    int dt = (int)x->t.dtype & 0xff;
    int swapped = ((int)x->t.dtype & ARGEXT_BYTESWAPPED) != 0;
    size_t size = itemsizes[dt];
    int specials = pick(s, 3); /* 0: raw bytes; else a value from the special table */
    if (x->count > (int64_t)x->bytes) { /* elements repeat (zero strides): fill the bytes */
        for (size_t k = 0; k < x->bytes; k++)
            x->buffer[k] = (unsigned char)byte_of(s);
        return;
    }
    for (int64_t e = 0; e < x->count; e++) {
        unsigned char *p = (unsigned char *)x->t.data + offset_of(x, e, size);
        if (specials)
            store_special(p, dt, swapped, pick(s, specials == 1 ? 3 : 8));
        else
            for (size_t k = 0; k < size; k++)
                p[k] = (unsigned char)byte_of(s);
    }
}

/* ---- the calls ------------------------------------------------------------------------ */

enum { OP_ARGMAX, OP_ARGMIN, OP_REDUCE_ARGMAX, OP_REDUCE_ARGMIN, OP_NANARGMAX, OP_NANARGMIN,
       OP_HARDMAX, OP_HARDMAX_ONTO_ZEROS, OP_SETTINGS, OP_COUNT };

typedef struct {
    int op;
    tensor in, out;
    int64_t axis;          /* argmax/argmin/hardmax; nanarg when has_axis */
    int has_axis;
    int64_t axes[ARGEXT_MAX_RANK + 2];
    int naxes;
    int keepdims, select_last, direction, version;
    int in_null, out_null, axes_null;
} call;

#define BIT(st) (1u << (st))

static const call *current;

static void print_tensor(const char *name, const argext_tensor *t, int is_null)
{
    fprintf(stderr, "  %s: ", name);
    if (is_null) {
        fprintf(stderr, "NULL\n");
        return;
    }
    fprintf(stderr, "data %p dtype 0x%x rank %d shape", t->data, (unsigned)t->dtype, t->rank);
    if (!t->shape)
        fprintf(stderr, " NULL");
    for (int d = 0; t->shape && d < t->rank && d < 8; d++)
        fprintf(stderr, " %lld", (long long)t->shape[d]);
    fprintf(stderr, " strides");
    if (!t->strides)
        fprintf(stderr, " NULL");
    for (int d = 0; t->strides && d < t->rank && d < 8; d++)
        fprintf(stderr, " %lld", (long long)t->strides[d]);
    fprintf(stderr, "\n");
}

static void describe(void)
{
    const call *c = current;
    if (!c)
        return;
    fprintf(stderr, "fuzz_api: op %d axis %lld (given: %d) axes", c->op, (long long)c->axis, c->has_axis);
    if (c->axes_null)
        fprintf(stderr, " NULL");
    for (int i = 0; !c->axes_null && i < c->naxes; i++)
        fprintf(stderr, " %lld", (long long)c->axes[i]);
    fprintf(stderr, " (naxes %d) keepdims %d select_last %d direction %d version %d\n", c->naxes,
            c->keepdims, c->select_last, c->direction, c->version);
    print_tensor("input", &c->in.t, c->in_null);
    print_tensor("output", &c->out.t, c->out_null);
    int dt = (int)c->in.t.dtype & 0xff, swapped = ((int)c->in.t.dtype & ARGEXT_BYTESWAPPED) != 0;
    if (c->in.t.data && c->in.buffer && dt < ARGEXT_DTYPE_COUNT && c->in.count <= 64) {
        fprintf(stderr, "  elements (row-major):");
        for (int64_t e = 0; e < c->in.count; e++) {
            value v = load_value((const unsigned char *)c->in.t.data + offset_of(&c->in, e, itemsizes[dt]),
                                 dt, swapped);
            if (is_float(dt))
                fprintf(stderr, " %.9g", v.f);
            else if (dt <= ARGEXT_INT64)
                fprintf(stderr, " %lld", (long long)v.i);
            else
                fprintf(stderr, " %llu", (unsigned long long)v.u);
        }
        fprintf(stderr, "\n");
    }
}

static int in_range(int64_t a, int rank) { return a >= -rank && a < rank; }
static int norm(int64_t a, int rank) { return (int)(a < 0 ? a + rank : a); }

/* A ranked descriptor's faults: its shape and strides, or a NULL data pointer
   where it has elements. */
static unsigned layout_faults(const tensor *x, size_t size)
{
    int64_t count, lo, hi;
    if (!layout(x, size, &count, &lo, &hi))
        return BIT(ARGEXT_ERR_SHAPE);
    return count > 0 && !x->t.data ? BIT(ARGEXT_ERR_NULL) : 0;
}

/* The statuses a refusal of c may carry (0: the call is valid), and the
   reduced axes of a valid one. */
static unsigned faults(const call *c, unsigned char *reduced, int *keep)
{
    unsigned f = 0;
    const argext_tensor *in = &c->in.t, *out = &c->out.t;
    memset(reduced, 0, ARGEXT_MAX_RANK + 2);
    *keep = 1;
    if (c->in_null)
        return BIT(ARGEXT_ERR_NULL);
    int code = (int)in->dtype;
    int dt = code & 0xff;
    int known = code >= 0 && (code & ~(0xff | ARGEXT_BYTESWAPPED)) == 0 && dt < ARGEXT_DTYPE_COUNT;
    if (!known)
        f |= BIT(ARGEXT_ERR_DTYPE);
    int hard = c->op == OP_HARDMAX || c->op == OP_HARDMAX_ONTO_ZEROS;
    if (hard && known && !(dt == ARGEXT_FLOAT16 || dt == ARGEXT_FLOAT32 || dt == ARGEXT_FLOAT64 ||
                           (dt == ARGEXT_BFLOAT16 && c->version >= 13)))
        f |= BIT(ARGEXT_ERR_DTYPE);
    if (hard && c->version != 1 && c->version != 11 && c->version != 13)
        f |= BIT(ARGEXT_ERR_ATTRIBUTE);
    if (in->rank == 0 && !in->data) /* a 0-d tensor has one element */
        f |= BIT(ARGEXT_ERR_NULL);
    if (in->rank < 1 || in->rank > ARGEXT_MAX_RANK)
        return f | BIT(ARGEXT_ERR_RANK);
    if (!in->shape)
        return f | BIT(ARGEXT_ERR_NULL);
    f |= layout_faults(&c->in, known ? itemsizes[dt] : 1);
    int rank = in->rank;
    /* the reduced axes */
    switch (c->op) {
    case OP_ARGMAX:
    case OP_ARGMIN:
    case OP_HARDMAX:
    case OP_HARDMAX_ONTO_ZEROS:
        if (!in_range(c->axis, rank) || (hard && c->version == 1 && c->axis < 0)) {
            f |= BIT(ARGEXT_ERR_AXIS);
            break;
        }
        for (int d = norm(c->axis, rank); d < (hard && c->version < 13 ? rank : norm(c->axis, rank) + 1); d++)
            reduced[d] = 1;
        break;
    case OP_NANARGMAX:
    case OP_NANARGMIN:
        if (c->has_axis && !in_range(c->axis, rank)) {
            f |= BIT(ARGEXT_ERR_AXIS);
            break;
        }
        for (int d = 0; d < rank; d++)
            reduced[d] = !c->has_axis || d == norm(c->axis, rank);
        break;
    default:
        if (c->axes_null)
            return f | BIT(ARGEXT_ERR_NULL);
        if (c->naxes < 1 || c->naxes > rank) {
            f |= BIT(ARGEXT_ERR_AXIS);
            break;
        }
        for (int i = 0; i < c->naxes; i++) {
            if (!in_range(c->axes[i], rank) || reduced[norm(c->axes[i], rank)]) {
                f |= BIT(ARGEXT_ERR_AXIS);
                break;
            }
            reduced[norm(c->axes[i], rank)] = 1;
        }
    }
    int has_reduced = 0;
    for (int d = 0; d < rank; d++)
        has_reduced |= reduced[d];
    /* attributes */
    if (c->op <= OP_ARGMIN && (c->select_last < 0 || c->select_last > 1))
        f |= BIT(ARGEXT_ERR_ATTRIBUTE);
    if ((c->op <= OP_ARGMIN || c->op == OP_NANARGMAX || c->op == OP_NANARGMIN) &&
        (c->keepdims < 0 || c->keepdims > 1))
        f |= BIT(ARGEXT_ERR_ATTRIBUTE);
    if ((c->op == OP_REDUCE_ARGMAX || c->op == OP_REDUCE_ARGMIN) && (c->direction < 0 || c->direction > 1))
        f |= BIT(ARGEXT_ERR_ATTRIBUTE);
    *keep = c->op <= OP_ARGMIN || c->op == OP_NANARGMAX || c->op == OP_NANARGMIN ? c->keepdims == 1 : 1;
    /* empty reduction (not for Hardmax, whose empty input is valid) */
    if (!hard && has_reduced)
        for (int d = 0; d < rank; d++)
            if (reduced[d] && in->shape[d] == 0)
                f |= BIT(ARGEXT_ERR_EMPTY_AXIS);
    /* the output */
    if (c->out_null)
        return f | BIT(ARGEXT_ERR_NULL);
    int ocode = (int)out->dtype, odt = ocode & 0xff;
    int oknown = ocode >= 0 && (ocode & ~(0xff | ARGEXT_BYTESWAPPED)) == 0 && odt < ARGEXT_DTYPE_COUNT;
    if (!oknown)
        f |= BIT(ARGEXT_ERR_DTYPE) | BIT(ARGEXT_ERR_OUTPUT);
    if (out->rank < 0 || out->rank > ARGEXT_MAX_RANK)
        return f | BIT(ARGEXT_ERR_RANK) | BIT(ARGEXT_ERR_OUTPUT);
    if (out->rank > 0 && !out->shape)
        return f | BIT(ARGEXT_ERR_NULL);
    f |= layout_faults(&c->out, oknown ? itemsizes[odt] : 1);
    if (hard) {
        if (!oknown || odt != dt)
            f |= BIT(ARGEXT_ERR_OUTPUT);
    } else if (c->op == OP_REDUCE_ARGMAX || c->op == OP_REDUCE_ARGMIN) {
        if (ocode != ARGEXT_INT64 && ocode != ARGEXT_INT32 && ocode != ARGEXT_UINT64 && ocode != ARGEXT_UINT32)
            f |= BIT(ARGEXT_ERR_OUTPUT);
        long double n = 1;
        for (int d = 0; d < rank; d++)
            if (reduced[d])
                n *= (long double)in->shape[d];
        if ((ocode == ARGEXT_INT32 && n - 1 > INT32_MAX) || (ocode == ARGEXT_UINT32 && n - 1 > UINT32_MAX))
            f |= BIT(ARGEXT_ERR_OVERFLOW);
    } else if (ocode != ARGEXT_INT64) {
        f |= BIT(ARGEXT_ERR_OUTPUT);
    }
    /* the output's shape: the input's, reduced dimensions 1 or (without keep) removed */
    int o = 0, shape_ok = 1;
    for (int d = 0; d < rank; d++) {
        if (hard ? 0 : reduced[d] && !*keep)
            continue;
        int64_t want = (!hard && reduced[d]) ? 1 : in->shape[d];
        if (o >= out->rank || out->shape[o] != want)
            shape_ok = 0;
        o++;
    }
    if (!shape_ok || o != out->rank)
        f |= BIT(ARGEXT_ERR_OUTPUT);
    return f;
}

/* ---- the reference -------------------------------------------------------------------- */

/* Each output position's answer, row-major over the kept dimensions: the
   flat index (row-major over the reduced dimensions) of the extreme; -1 for
   an all-NaN slice of nanargmax/nanargmin. */
static int64_t *reference(const call *c, const unsigned char *reduced, int64_t *nslices, int *all_nan)
{
    const tensor *x = &c->in;
    int dt = (int)x->t.dtype & 0xff, swapped = ((int)x->t.dtype & ARGEXT_BYTESWAPPED) != 0;
    size_t size = itemsizes[dt];
    int rank = x->t.rank;
    int64_t kept_n = 1, red_n = 1;
    for (int d = 0; d < rank; d++) {
        if (reduced[d])
            red_n *= x->t.shape[d];
        else
            kept_n *= x->t.shape[d];
    }
    int64_t *res = malloc((size_t)(kept_n ? kept_n : 1) * sizeof *res);
    CHECK(res != NULL, "out of memory");
    int is_min = c->op == OP_ARGMIN || c->op == OP_REDUCE_ARGMIN || c->op == OP_NANARGMIN;
    int skip_nan = c->op == OP_NANARGMAX || c->op == OP_NANARGMIN;
    int last = (c->op <= OP_ARGMIN && c->select_last) ||
               ((c->op == OP_REDUCE_ARGMAX || c->op == OP_REDUCE_ARGMIN) && c->direction);
    *all_nan = -1;
    for (int64_t k = 0; k < kept_n; k++) {
        int64_t best = -1, first_nan = -1, last_nan = -1, nans = 0;
        value bv = {0, 0, 0, 0};
        for (int64_t r = 0; r < red_n; r++) {
            /* the element at kept position k, reduced position r */
            int64_t off = 0, kk = k, rr = r;
            for (int d = rank - 1; d >= 0; d--) {
                int64_t n = x->t.shape[d], i;
                if (reduced[d]) {
                    i = rr % n;
                    rr /= n;
                } else {
                    i = kk % n;
                    kk /= n;
                }
                off += i * stride_of(x, d, size);
            }
            value v = load_value((const unsigned char *)x->t.data + off, dt, swapped);
            if (v.nan && skip_nan) {
                /* NumPy's nanargmax/nanargmin: NaN ranked as the losing infinity (so
                   [nan, inf] gives 0 for nanargmin), an all-NaN slice gives -1 */
                v.nan = 0;
                v.f = is_min ? INFINITY : -INFINITY;
                nans++;
            } else if (v.nan) {
                if (first_nan < 0)
                    first_nan = r;
                last_nan = r;
                continue;
            }
            int cmp = best < 0 ? 1 : compare(v, bv, dt) * (is_min ? -1 : 1);
            if (cmp > 0 || (cmp == 0 && last)) {
                best = r;
                bv = v;
            }
        }
        if (skip_nan) {
            if (nans == red_n && *all_nan < 0)
                *all_nan = (int)k;
            res[k] = nans == red_n ? -1 : best;
        } else {
            res[k] = first_nan >= 0 ? (last ? last_nan : first_nan) : best;
        }
    }
    *nslices = kept_n;
    return res;
}

/* The output element of kept position k (row-major over kept dims). */
static int64_t out_offset(const call *c, const unsigned char *reduced, int keep, int64_t k, size_t size)
{
    const tensor *x = &c->in, *y = &c->out;
    int64_t off = 0;
    int o = y->t.rank - 1;
    for (int d = x->t.rank - 1; d >= 0; d--) {
        if (reduced[d]) {
            o -= keep;
            continue;
        }
        int64_t n = x->t.shape[d];
        off += (k % n) * stride_of(y, o, size);
        k /= n;
        o--;
    }
    return off;
}

static int64_t read_index(const unsigned char *p, int dt)
{
    switch (dt) {
    case ARGEXT_INT32: { int32_t v; memcpy(&v, p, 4); return v; }
    case ARGEXT_UINT32: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { int64_t v; memcpy(&v, p, 8); return v; }
    }
}

/* Hardmax's answer: 1.0 at the reduced position res[k] of each kept row k,
   0.0 elsewhere, in the output's dtype and byte order. */
static void check_hardmax(const call *c, const unsigned char *reduced, const int64_t *res)
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
            if (reduced[d]) {
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

/* ---- one call --------------------------------------------------------------------------- */

static argext_status invoke(const call *c)
{
    const argext_tensor *in = c->in_null ? NULL : &c->in.t, *out = c->out_null ? NULL : &c->out.t;
    switch (c->op) {
    case OP_ARGMAX: return argext_argmax(in, out, c->axis, c->keepdims, c->select_last);
    case OP_ARGMIN: return argext_argmin(in, out, c->axis, c->keepdims, c->select_last);
    case OP_REDUCE_ARGMAX:
        return argext_reduce_argmax(in, out, c->axes_null ? NULL : c->axes, c->naxes, (argext_direction)c->direction);
    case OP_REDUCE_ARGMIN:
        return argext_reduce_argmin(in, out, c->axes_null ? NULL : c->axes, c->naxes, (argext_direction)c->direction);
    case OP_NANARGMAX: return argext_nanargmax(in, out, c->has_axis ? &c->axis : NULL, c->keepdims);
    case OP_NANARGMIN: return argext_nanargmin(in, out, c->has_axis ? &c->axis : NULL, c->keepdims);
    case OP_HARDMAX: return argext_hardmax(in, out, c->axis, c->version);
    default: return argext_hardmax_onto_zeros(in, out, c->axis, c->version);
    }
}

/* The output descriptor: right for the call (C order or strided, negative
   strides included) or wrong in one way. */
static void draw_output(source *s, call *c, const unsigned char *reduced, int keep)
{
    tensor *y = &c->out;
    const argext_tensor *in = &c->in.t;
    int hard = c->op == OP_HARDMAX || c->op == OP_HARDMAX_ONTO_ZEROS;
    int dt = hard ? ((int)in->dtype & 0xff) : ARGEXT_INT64;
    if (c->op == OP_REDUCE_ARGMAX || c->op == OP_REDUCE_ARGMIN) {
        static const int index_dtypes[4] = {ARGEXT_INT64, ARGEXT_INT32, ARGEXT_UINT64, ARGEXT_UINT32};
        dt = index_dtypes[pick(s, 4)];
    }
    if (hard && pick(s, 2))
        dt |= ARGEXT_BYTESWAPPED;
    int rank = 0;
    for (int d = 0; d < in->rank && d <= ARGEXT_MAX_RANK && in->shape; d++) {
        if (!hard && reduced[d] && !keep)
            continue;
        y->shape[rank++] = !hard && reduced[d] ? 1 : in->shape[d];
    }
    y->t.rank = rank;
    y->t.shape = y->shape;
    y->t.strides = NULL;
    y->t.dtype = (argext_dtype)dt;
    int wrong = pick(s, 16);
    if (wrong == 0 && rank > 0) {
        int d = pick(s, rank);
        y->shape[d] = y->shape[d] < INT64_MAX && pick(s, 2) ? y->shape[d] + 1 : y->shape[d] - 1;
    }
    else if (wrong == 1)
        y->t.rank += pick(s, 2) ? 1 : -1;
    else if (wrong == 2)
        y->t.dtype = (argext_dtype)pick_in(s, -1, 14);
    else if (wrong == 3)
        y->t.dtype = (argext_dtype)((int)y->t.dtype ^ ARGEXT_BYTESWAPPED);
    if (y->t.rank > rank)
        y->shape[rank] = 1;
    if (y->t.rank >= 0 && y->t.rank <= ARGEXT_MAX_RANK && pick(s, 2)) {
        /* strided: every dimension padded and maybe reversed, in C order */
        int odt = (int)y->t.dtype & 0xff;
        int64_t step = odt < ARGEXT_DTYPE_COUNT ? (int64_t)itemsizes[odt] : 8;
        for (int d = y->t.rank - 1; d >= 0; d--) {
            int64_t n = y->shape[d] > 0 ? y->shape[d] : 1;
            y->strides[d] = pick(s, 3) == 0 ? -step : step;
            if (__builtin_mul_overflow(step, n < INT64_MAX ? n + pick(s, 2) : n, &step))
                step = INT64_MAX / 2;
        }
        y->t.strides = y->strides;
    }
}

static void settings(source *s)
{
    int v = pick_in(s, -3, 20);
    CHECK(argext_status_string((argext_status)v) != NULL, "status_string(%d)", v);
    CHECK(argext_isa_name((argext_isa)v) != NULL, "isa_name(%d)", v);
    size_t size = argext_dtype_size((argext_dtype)v);
    CHECK(size == (v >= 0 && v < ARGEXT_DTYPE_COUNT ? itemsizes[v] : 0), "dtype_size(%d) = %zu", v, size);
    argext_isa before = argext_get_isa();
    if (!argext_isa_supported((argext_isa)v)) {
        CHECK(argext_set_isa((argext_isa)v) == ARGEXT_ERR_ISA, "set_isa(%d)", v);
        CHECK(argext_get_isa() == before, "a refused set_isa changed the level");
    }
    int n = (int)pick_in(s, -2, 5) * (pick(s, 2) ? 1 : 300);
    argext_status st = argext_set_num_threads(n);
    CHECK(st == (n >= 0 && n <= ARGEXT_MAX_THREADS ? ARGEXT_OK : ARGEXT_ERR_ATTRIBUTE),
          "set_num_threads(%d) = %d", n, st);
    argext_set_num_threads(0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    source s = {data, size};
    call c;
    memset(&c, 0, sizeof c);
    current = &c;
    c.op = pick(&s, OP_COUNT);
    if (c.op == OP_SETTINGS) {
        current = NULL;
        settings(&s);
        return 0;
    }
    /* the ISA level of this call: any this CPU runs */
    argext_isa levels[ARGEXT_ISA_COUNT];
    int nlevels = 0;
    for (int i = 0; i < ARGEXT_ISA_COUNT; i++)
        if (argext_isa_supported((argext_isa)i))
            levels[nlevels++] = (argext_isa)i;
    argext_isa level = levels[pick(&s, nlevels)];

    int huge;
    draw_input(&s, &c.in, &huge);
    int rank = c.in.t.rank < 0 ? 0 : c.in.t.rank;
    c.axis = pick_in(&s, -rank - 1, rank);
    if (pick(&s, 64) == 0)
        c.axis = pick(&s, 2) ? INT64_MIN : INT64_MAX;
    c.has_axis = pick(&s, 3) != 0;
    c.naxes = (int)pick_in(&s, 0, (rank > 0 && rank < 8 ? rank : 1) + 1);
    for (int i = 0; i < c.naxes && i < ARGEXT_MAX_RANK + 2; i++)
        c.axes[i] = pick_in(&s, -rank - 1, rank);
    if (c.naxes > ARGEXT_MAX_RANK + 2)
        c.naxes = ARGEXT_MAX_RANK + 2;
    c.keepdims = pick(&s, 16) == 0 ? (int)pick_in(&s, -1, 2) : pick(&s, 2);
    c.select_last = pick(&s, 16) == 0 ? (int)pick_in(&s, -1, 2) : pick(&s, 2);
    c.direction = pick(&s, 16) == 0 ? (int)pick_in(&s, -1, 2) : pick(&s, 2);
    static const int versions[8] = {13, 13, 11, 1, 13, 0, 12, 2};
    c.version = versions[pick(&s, 8)];
    int nulls = pick(&s, 64);
    c.in_null = nulls == 0;
    c.out_null = nulls == 1;
    c.axes_null = nulls == 2;

    unsigned char reduced[ARGEXT_MAX_RANK + 2];
    int keep;
    faults(&c, reduced, &keep); /* for the output's shape */
    draw_output(&s, &c, reduced, keep);
    unsigned allowed = faults(&c, reduced, &keep);
    int valid = allowed == 0;

    int in_dt = (int)c.in.t.dtype & 0xff;
    int out_dt = (int)c.out.t.dtype & 0xff;
    size_t in_size = in_dt < ARGEXT_DTYPE_COUNT ? itemsizes[in_dt] : 1;
    size_t out_size = out_dt < ARGEXT_DTYPE_COUNT ? itemsizes[out_dt] : 1;
    int placed_in = 1, placed_out = 1;
    if (c.in.t.rank >= 1 && c.in.t.rank <= ARGEXT_MAX_RANK && c.in.t.shape)
        placed_in = place(&c.in, in_size);
    if (c.out.t.rank >= 0 && c.out.t.rank <= ARGEXT_MAX_RANK)
        placed_out = place(&c.out, out_size);
    if (!placed_in || !placed_out) {
        if (valid) /* too large to hold here */
            goto done;
        /* an unplaceable descriptor (refused for its shape): no data needed */
    }
    if (c.in.buffer && pick(&s, 32) == 0 && c.in.count > 0) { /* a misaligned start */
        memmove(c.in.buffer + 1, c.in.buffer, c.in.bytes - 1);
        c.in.t.data = (unsigned char *)c.in.t.data + 1;
    }
    if (c.in.buffer && c.in.count > 0 && in_dt < ARGEXT_DTYPE_COUNT)
        fill_input(&s, &c.in);
    if (pick(&s, 64) == 0 && c.in.count > 0)
        c.in.t.data = NULL;
    if (pick(&s, 64) == 0 && c.out.count > 0)
        c.out.t.data = NULL;
    allowed = faults(&c, reduced, &keep);
    valid = allowed == 0;
    if (valid && huge)
        goto done; /* a valid call over 2**31 elements or more: too long to run here */

    const unsigned char canary = 0xa5;
    unsigned char *expected_out = NULL;
    if (c.out.buffer) {
        int zeros = c.op == OP_HARDMAX_ONTO_ZEROS;
        memset(c.out.buffer, zeros ? 0 : canary, c.out.bytes);
    }
    if (getenv("FUZZ_API_VERBOSE")) /* triage: what each input calls */
        describe();
    CHECK(argext_set_isa(level) == ARGEXT_OK, "set_isa(%d)", level);
    argext_status st = invoke(&c);
    argext_error err = argext_last_error();
    CHECK(err.status == st, "argext_last_error().status %d, the call returned %d", err.status, st);

    if (!valid) {
        CHECK(st != ARGEXT_OK && st < 32 && (allowed & BIT(st)),
              "op %d: status %d (%s), allowed mask 0x%x", c.op, st, argext_status_string(st), allowed);
        if (c.out.buffer)
            for (size_t i = 0; i < c.out.bytes; i++)
                CHECK(c.out.buffer[i] == (c.op == OP_HARDMAX_ONTO_ZEROS ? 0 : canary),
                      "a refused call (status %d) wrote output byte %zu", st, i);
    } else {
        int64_t nslices;
        int all_nan;
        int64_t *res = reference(&c, reduced, &nslices, &all_nan);
        int hard = c.op == OP_HARDMAX || c.op == OP_HARDMAX_ONTO_ZEROS;
        if (all_nan >= 0) {
            CHECK(st == ARGEXT_ERR_ALL_NAN && err.value == all_nan,
                  "all-NaN slice %d: status %d, value %lld", all_nan, st, (long long)err.value);
        } else {
            CHECK(st == ARGEXT_OK, "op %d: a valid call returned %d (%s), arg %d index %d value %lld",
                  c.op, st, argext_status_string(st), err.arg, err.index, (long long)err.value);
        }
        if (hard) {
            check_hardmax(&c, reduced, res);
        } else {
            for (int64_t k = 0; k < nslices; k++) {
                const unsigned char *p = (const unsigned char *)c.out.t.data +
                                         out_offset(&c, reduced, keep, k, out_size);
                int64_t got = read_index(p, out_dt);
                CHECK(got == res[k], "op %d, dtype %d, ISA %s: slice %lld: got %lld, want %lld",
                      c.op, (int)c.in.t.dtype, argext_isa_name(level), (long long)k, (long long)got,
                      (long long)res[k]);
            }
        }
        free(res);
    }

    /* the scalar twin: the same call at the baseline level, bit for bit */
    if (c.out.buffer && level != ARGEXT_ISA_BASELINE) {
        expected_out = malloc(c.out.bytes);
        CHECK(expected_out != NULL, "out of memory");
        memcpy(expected_out, c.out.buffer, c.out.bytes);
        memset(c.out.buffer, c.op == OP_HARDMAX_ONTO_ZEROS ? 0 : canary, c.out.bytes);
        CHECK(argext_set_isa(ARGEXT_ISA_BASELINE) == ARGEXT_OK, "set_isa(baseline)");
        argext_status twin = invoke(&c);
        CHECK(twin == st, "%s returned %d, baseline %d", argext_isa_name(level), st, twin);
        CHECK(memcmp(expected_out, c.out.buffer, c.out.bytes) == 0,
              "%s and baseline wrote different outputs", argext_isa_name(level));
        free(expected_out);
    }
done:
    free(c.in.buffer);
    free(c.out.buffer);
    current = NULL;
    return 0;
}
