/*
 * argext.c - public entry points: validate descriptors, then run the engine.
 * Nothing is written before every check has passed.
 */
#include <stdlib.h>
#include <string.h>

#include "dtypes.h"
#include "kernels.h"
#include "reduce.h"
#include "threads.h"

#define SIZE_ENTRY(ENUM, NAME, ET, KT, KMAX) [ARGEXT_##ENUM] = sizeof(ET),
static const size_t dtype_sizes[ARGEXT_DTYPE_COUNT] = {ARGEXT_DTYPES(SIZE_ENTRY)};

const char *argext_version(void) { return ARGEXT_VERSION_STRING; }

size_t argext_dtype_size(argext_dtype dtype)
{
    return (unsigned)dtype < ARGEXT_DTYPE_COUNT ? dtype_sizes[dtype] : 0;
}

const char *argext_status_string(argext_status status)
{
    switch (status) {
    case ARGEXT_OK: return "success";
    case ARGEXT_ERR_NULL: return "a required pointer is NULL";
    case ARGEXT_ERR_DTYPE: return "unsupported dtype";
    case ARGEXT_ERR_RANK: return "rank out of range";
    case ARGEXT_ERR_SHAPE: return "invalid shape or strides (negative dimension or size overflow)";
    case ARGEXT_ERR_AXIS: return "axis out of range or repeated";
    case ARGEXT_ERR_EMPTY_AXIS: return "reduction over an empty axis";
    case ARGEXT_ERR_OUTPUT: return "output tensor has the wrong shape or dtype";
    case ARGEXT_ERR_ATTRIBUTE: return "attribute out of range";
    case ARGEXT_ERR_OVERFLOW: return "index does not fit the output dtype";
    case ARGEXT_ERR_NOMEM: return "out of memory";
    case ARGEXT_ERR_ISA: return "instruction set not supported";
    }
    return "unknown status";
}

/* A checked descriptor: byte strides resolved, element count known. */
typedef struct {
    int64_t strides[ARGEXT_MAX_RANK];
    int64_t count;
} checked;

static int mul_overflows(int64_t a, int64_t b) { return b != 0 && a > INT64_MAX / b; }

static argext_status check_tensor(const argext_tensor *t, checked *c)
{
    if (!t)
        return ARGEXT_ERR_NULL;
    if ((unsigned)t->dtype >= ARGEXT_DTYPE_COUNT)
        return ARGEXT_ERR_DTYPE;
    if (t->rank < 0 || t->rank > ARGEXT_MAX_RANK)
        return ARGEXT_ERR_RANK;
    if (t->rank > 0 && !t->shape)
        return ARGEXT_ERR_NULL;
    /* Sizes and byte extents must fit int64, ignoring empty dimensions. */
    int64_t nonzero = (int64_t)dtype_sizes[t->dtype], extent = 0;
    int empty = 0;
    for (int d = t->rank - 1; d >= 0; d--) {
        int64_t n = t->shape[d];
        if (n < 0)
            return ARGEXT_ERR_SHAPE;
        if (t->strides) {
            int64_t s = t->strides[d];
            if (s == INT64_MIN)
                return ARGEXT_ERR_SHAPE;
            if (n > 1) {
                int64_t step = s < 0 ? -s : s;
                if (mul_overflows(step, n - 1) || step * (n - 1) > INT64_MAX - extent)
                    return ARGEXT_ERR_SHAPE;
                extent += step * (n - 1);
            }
            c->strides[d] = s;
        } else {
            c->strides[d] = nonzero;
        }
        if (n == 0) {
            empty = 1;
        } else {
            if (mul_overflows(nonzero, n))
                return ARGEXT_ERR_SHAPE;
            nonzero *= n;
        }
    }
    c->count = empty ? 0 : nonzero / (int64_t)dtype_sizes[t->dtype];
    if (c->count > 0 && !t->data)
        return ARGEXT_ERR_NULL;
    return ARGEXT_OK;
}

/* The input of every entry point: a valid descriptor of rank >= 1. */
static argext_status check_input(const argext_tensor *t, checked *c)
{
    argext_status st = check_tensor(t, c);
    if (st == ARGEXT_OK && t->rank < 1)
        st = ARGEXT_ERR_RANK;
    return st;
}

static int normalize_axis(int64_t *axis, int rank)
{
    if (*axis < -rank || *axis >= rank)
        return 0;
    if (*axis < 0)
        *axis += rank;
    return 1;
}

/* Runs a validated reduction of `data` (checked as c) into `out` (checked
   as oc), whose dimensions map onto the input's kept ones in order; with
   keep_reduced the output also has the reduced dimensions, as size 1. */
static void run(const argext_tensor *data, const checked *c, const unsigned char *reduced,
                const argext_tensor *out, const checked *oc, int keep_reduced, int op, int last)
{
    int64_t out_strides[ARGEXT_MAX_RANK];
    for (int d = 0, o = 0; d < data->rank; d++) {
        if (reduced[d] && !keep_reduced) {
            out_strides[d] = 0;
            continue;
        }
        out_strides[d] = oc->strides[o++];
    }
    argext_reduction r = {
        .data = (const char *)data->data, .dtype = data->dtype, .rank = data->rank,
        .shape = data->shape, .strides = c->strides, .reduced = reduced,
        .out = (char *)out->data, .out_dtype = out->dtype, .out_strides = out_strides,
        .op = op, .last = last,
    };
    argext_reduce(&r);
}

/* The output must have the input's shape with reduced dimensions as 1 or,
   without keep_reduced, removed. */
static int output_shape_matches(const argext_tensor *data, const unsigned char *reduced,
                                const argext_tensor *out, int keep_reduced)
{
    int o = 0;
    for (int d = 0; d < data->rank; d++) {
        if (reduced[d] && !keep_reduced)
            continue;
        if (o >= out->rank || out->shape[o] != (reduced[d] ? 1 : data->shape[d]))
            return 0;
        o++;
    }
    return o == out->rank;
}

static argext_status onnx_arg(int op, const argext_tensor *data, const argext_tensor *reduced_out,
                              int64_t axis, int keepdims, int select_last_index)
{
    checked c, oc;
    unsigned char reduced[ARGEXT_MAX_RANK] = {0};
    argext_status st = check_input(data, &c);
    if (st != ARGEXT_OK)
        return st;
    if (!normalize_axis(&axis, data->rank))
        return ARGEXT_ERR_AXIS;
    if ((keepdims != 0 && keepdims != 1) || (select_last_index != 0 && select_last_index != 1))
        return ARGEXT_ERR_ATTRIBUTE;
    if ((st = check_tensor(reduced_out, &oc)) != ARGEXT_OK)
        return st;
    reduced[axis] = 1;
    if (reduced_out->dtype != ARGEXT_INT64 ||
        !output_shape_matches(data, reduced, reduced_out, keepdims))
        return ARGEXT_ERR_OUTPUT;
    if (data->shape[axis] == 0)
        return ARGEXT_ERR_EMPTY_AXIS;
    if (oc.count > 0)
        run(data, &c, reduced, reduced_out, &oc, keepdims, op, select_last_index);
    return ARGEXT_OK;
}

argext_status argext_argmax(const argext_tensor *data, const argext_tensor *reduced,
                            int64_t axis, int keepdims, int select_last_index)
{
    return onnx_arg(ARGEXT_OP_MAX, data, reduced, axis, keepdims, select_last_index);
}

argext_status argext_argmin(const argext_tensor *data, const argext_tensor *reduced,
                            int64_t axis, int keepdims, int select_last_index)
{
    return onnx_arg(ARGEXT_OP_MIN, data, reduced, axis, keepdims, select_last_index);
}

static int64_t index_limit(argext_dtype dt)
{
    switch (dt) {
    case ARGEXT_INT64: return INT64_MAX;
    case ARGEXT_UINT64: return INT64_MAX; /* the engine counts in int64 */
    case ARGEXT_INT32: return INT32_MAX;
    case ARGEXT_UINT32: return UINT32_MAX;
    default: return -1;
    }
}

static argext_status multi_axis_arg(int op, const argext_tensor *data, const argext_tensor *output,
                                    const int64_t *axes, int naxes, argext_direction direction)
{
    checked c, oc;
    unsigned char reduced[ARGEXT_MAX_RANK] = {0};
    argext_status st = check_input(data, &c);
    if (st != ARGEXT_OK)
        return st;
    if (!axes)
        return ARGEXT_ERR_NULL;
    if (naxes < 1 || naxes > data->rank)
        return ARGEXT_ERR_AXIS;
    int64_t count = 1;
    for (int i = 0; i < naxes; i++) {
        int64_t a = axes[i];
        if (!normalize_axis(&a, data->rank) || reduced[a])
            return ARGEXT_ERR_AXIS;
        reduced[a] = 1;
        count *= data->shape[a]; /* cannot overflow: check_tensor bounded the product */
    }
    if (direction != ARGEXT_FIRST && direction != ARGEXT_LAST)
        return ARGEXT_ERR_ATTRIBUTE;
    if ((st = check_tensor(output, &oc)) != ARGEXT_OK)
        return st;
    if (index_limit(output->dtype) < 0 || !output_shape_matches(data, reduced, output, 1))
        return ARGEXT_ERR_OUTPUT;
    if (count == 0)
        return ARGEXT_ERR_EMPTY_AXIS;
    if (count - 1 > index_limit(output->dtype)) /* the largest index is count - 1 */
        return ARGEXT_ERR_OVERFLOW;
    if (oc.count > 0)
        run(data, &c, reduced, output, &oc, 1, op, direction == ARGEXT_LAST);
    return ARGEXT_OK;
}

argext_status argext_reduce_argmax(const argext_tensor *data, const argext_tensor *output,
                                   const int64_t *axes, int naxes, argext_direction direction)
{
    return multi_axis_arg(ARGEXT_OP_MAX, data, output, axes, naxes, direction);
}

argext_status argext_reduce_argmin(const argext_tensor *data, const argext_tensor *output,
                                   const int64_t *axes, int naxes, argext_direction direction)
{
    return multi_axis_arg(ARGEXT_OP_MIN, data, output, axes, naxes, direction);
}

/* A strided tensor's elements as runs: dimensions sorted by stride and
   merged, so that each contiguous run (the whole tensor, when it is
   contiguous in any order) is one memset; zero strides only revisit the same
   elements and are dropped. The last dimension is the run. */
typedef struct {
    char *p;
    int m;
    int64_t n[ARGEXT_MAX_RANK], s[ARGEXT_MAX_RANK];
    size_t itemsize;
    int64_t count; /* elements, runs included */
} runs;

static void make_runs(runs *z, char *p, int rank, const int64_t *shape, const int64_t *strides,
                      size_t itemsize)
{
    int64_t n[ARGEXT_MAX_RANK], s[ARGEXT_MAX_RANK];
    int nd = 0;
    for (int d = 0; d < rank; d++) {
        int64_t sd = strides[d];
        if (shape[d] == 1 || sd == 0)
            continue;
        if (sd < 0) {
            p += (shape[d] - 1) * sd;
            sd = -sd;
        }
        int j = nd++;
        for (; j > 0 && s[j - 1] < sd; j--) { /* largest stride first */
            n[j] = n[j - 1];
            s[j] = s[j - 1];
        }
        n[j] = shape[d];
        s[j] = sd;
    }
    int m = 0;
    for (int j = 0; j < nd; j++) {
        if (m > 0 && z->s[m - 1] == s[j] * n[j]) { /* contiguous with the one outside it */
            z->n[m - 1] *= n[j];
            z->s[m - 1] = s[j];
        } else {
            z->n[m] = n[j];
            z->s[m++] = s[j];
        }
    }
    if (m == 0) { /* one element */
        z->n[0] = 1;
        z->s[m++] = (int64_t)itemsize;
    }
    z->p = p;
    z->m = m;
    z->itemsize = itemsize;
    z->count = 1;
    for (int j = 0; j < m; j++)
        z->count *= z->n[j];
}

/* Sets elements [e0, e1) (in the runs' order) to +0.0, all bits zero in
   every float dtype. */
static void zero_range(const runs *z, int64_t e0, int64_t e1)
{
    const int m = z->m;
    const int64_t run_n = z->n[m - 1], run_s = z->s[m - 1];
    int64_t idx[ARGEXT_MAX_RANK], off = 0, r = e0 / run_n;
    for (int d = m - 2; d >= 0; d--) {
        idx[d] = r % z->n[d];
        r /= z->n[d];
        off += idx[d] * z->s[d];
    }
    for (int64_t e = e0; e < e1;) {
        int64_t j0 = e % run_n, len = run_n - j0 < e1 - e ? run_n - j0 : e1 - e;
        char *q = z->p + off + j0 * run_s;
        if (run_s == (int64_t)z->itemsize) {
            memset(q, 0, (size_t)len * z->itemsize);
        } else {
            for (int64_t j = 0; j < len; j++)
                memset(q + j * run_s, 0, z->itemsize);
        }
        e += len;
        for (int d = m - 2; d >= 0; d--) {
            if (++idx[d] < z->n[d]) {
                off += z->s[d];
                break;
            }
            idx[d] = 0;
            off -= (z->n[d] - 1) * z->s[d];
        }
    }
}

/* Part t of `parts` equal parts of [0, n). */
static int64_t part_start(int64_t n, int64_t parts, int64_t t)
{
    return n / parts * t + (t < n % parts ? t : n % parts);
}

typedef struct {
    const runs *z;
    int64_t parts;
} zero_split;

static void zero_task(void *context, int64_t t)
{
    const zero_split *zs = (const zero_split *)context;
    zero_range(zs->z, part_start(zs->z->count, zs->parts, t),
               part_start(zs->z->count, zs->parts, t + 1));
}

/* Hardmax's ones: row k's 1 goes at out + base(k) + offset of idx[k], where
   base walks the kept output dimensions in C order (the order of idx) and
   the offset decomposes the row's flat index over its dimensions. */
typedef struct {
    char *out;
    const int64_t *idx;
    int64_t rows, parts;
    int nr, nk;
    int64_t rn[ARGEXT_MAX_RANK], rs[ARGEXT_MAX_RANK]; /* row dims, innermost first */
    int64_t kn[ARGEXT_MAX_RANK], ks[ARGEXT_MAX_RANK]; /* kept dims, C order */
    unsigned char one[8];
    size_t itemsize;
} ones_split;

static void ones_task(void *context, int64_t t)
{
    const ones_split *o = (const ones_split *)context;
    int64_t k0 = part_start(o->rows, o->parts, t), k1 = part_start(o->rows, o->parts, t + 1);
    int64_t pos[ARGEXT_MAX_RANK], base = 0, r = k0;
    for (int j = o->nk - 1; j >= 0; j--) {
        pos[j] = r % o->kn[j];
        r /= o->kn[j];
        base += pos[j] * o->ks[j];
    }
    for (int64_t k = k0; k < k1; k++) {
        int64_t f = o->idx[k], off = base;
        for (int j = 0; j < o->nr - 1; j++) {
            off += (f % o->rn[j]) * o->rs[j];
            f /= o->rn[j];
        }
        if (o->nr > 0)
            off += f * o->rs[o->nr - 1];
        memcpy(o->out + off, o->one, o->itemsize);
        for (int j = o->nk - 1; j >= 0; j--) {
            if (++pos[j] < o->kn[j]) {
                base += o->ks[j];
                break;
            }
            pos[j] = 0;
            base -= (o->kn[j] - 1) * o->ks[j];
        }
    }
}

/* The bits of 1.0 in a float dtype. */
static void one_of(argext_dtype dt, unsigned char value[8])
{
    static const uint16_t f16 = 0x3c00, bf16 = 0x3f80;
    static const float f32 = 1.0f;
    static const double f64 = 1.0;
    switch (dt) {
    case ARGEXT_FLOAT16: memcpy(value, &f16, 2); break;
    case ARGEXT_BFLOAT16: memcpy(value, &bf16, 2); break;
    case ARGEXT_FLOAT32: memcpy(value, &f32, 4); break;
    default: memcpy(value, &f64, 8); break;
    }
}

/* Hardmax's type constraint: float16, float32, float64; bfloat16 from 13. */
static int hardmax_dtype(argext_dtype dt, int version)
{
    return dt == ARGEXT_FLOAT16 || dt == ARGEXT_FLOAT32 || dt == ARGEXT_FLOAT64 ||
           (dt == ARGEXT_BFLOAT16 && version >= 13);
}

static argext_status hardmax(const argext_tensor *input, const argext_tensor *output,
                             int64_t axis, int version, int output_is_zero)
{
    checked c, oc;
    unsigned char reduced[ARGEXT_MAX_RANK] = {0};
    argext_status st = check_input(input, &c);
    if (st != ARGEXT_OK)
        return st;
    if (version != 1 && version != 11 && version != 13)
        return ARGEXT_ERR_ATTRIBUTE;
    if (!hardmax_dtype(input->dtype, version))
        return ARGEXT_ERR_DTYPE;
    if ((version == 1 && axis < 0) || !normalize_axis(&axis, input->rank))
        return ARGEXT_ERR_AXIS;
    if ((st = check_tensor(output, &oc)) != ARGEXT_OK)
        return st;
    for (int d = (int)axis; d < (version == 13 ? (int)axis + 1 : input->rank); d++)
        reduced[d] = 1;
    if (output->dtype != input->dtype || output->rank != input->rank)
        return ARGEXT_ERR_OUTPUT;
    for (int d = 0; d < input->rank; d++)
        if (output->shape[d] != input->shape[d])
            return ARGEXT_ERR_OUTPUT;
    if (c.count == 0)
        return ARGEXT_OK;

    /* One int64 index per kept position, C-contiguous over kept dims. */
    int64_t rows = 1, idx_strides[ARGEXT_MAX_RANK], idx_shape[ARGEXT_MAX_RANK];
    for (int d = input->rank - 1; d >= 0; d--) {
        idx_shape[d] = reduced[d] ? 1 : input->shape[d];
        idx_strides[d] = rows * (int64_t)sizeof(int64_t);
        rows *= idx_shape[d];
    }
    int64_t *idx = (int64_t *)malloc((size_t)rows * sizeof(int64_t));
    if (!idx)
        return ARGEXT_ERR_NOMEM;
    argext_tensor idx_t = {idx, ARGEXT_INT64, input->rank, idx_shape, idx_strides};
    checked ic;
    memcpy(ic.strides, idx_strides, sizeof(int64_t) * (size_t)input->rank);
    ic.count = rows;
    run(input, &c, reduced, &idx_t, &ic, 1, ARGEXT_OP_MAX, 0);

    /* Zero fill (unless the output is zero already), then the ones; each
       split over threads when the output is large. */
    size_t itemsize = dtype_sizes[input->dtype];
    int parts = argext_parts_for(c.count * (int64_t)itemsize);
    if (!output_is_zero) {
        runs z;
        make_runs(&z, (char *)output->data, output->rank, output->shape, oc.strides, itemsize);
        zero_split zs = {&z, parts};
        argext_run_parallel(parts, zero_task, &zs);
    }

    /* A row's output dimensions, innermost first, merged where one flat index
       step is one stride step: version 13 and contiguous coerced rows map an
       index to its offset with a single multiply. */
    ones_split o;
    o.out = (char *)output->data;
    o.idx = idx;
    o.rows = rows;
    o.parts = parts < rows ? parts : rows;
    o.itemsize = itemsize;
    one_of(input->dtype, o.one);
    o.nr = 0;
    for (int d = input->rank - 1; d >= 0; d--) {
        if (!reduced[d] || input->shape[d] == 1)
            continue;
        if (o.nr > 0 && oc.strides[d] == o.rs[o.nr - 1] * o.rn[o.nr - 1]) {
            o.rn[o.nr - 1] *= input->shape[d];
        } else {
            o.rn[o.nr] = input->shape[d];
            o.rs[o.nr++] = oc.strides[d];
        }
    }
    /* Kept output dimensions in C order, the order of idx. */
    o.nk = 0;
    for (int d = 0; d < input->rank; d++) {
        if (reduced[d] || input->shape[d] == 1)
            continue;
        o.kn[o.nk] = input->shape[d];
        o.ks[o.nk++] = oc.strides[d];
    }
    argext_run_parallel(o.parts, ones_task, &o);
    free(idx);
    return ARGEXT_OK;
}

argext_status argext_hardmax(const argext_tensor *input, const argext_tensor *output,
                             int64_t axis, int version)
{
    return hardmax(input, output, axis, version, 0);
}

argext_status argext_hardmax_onto_zeros(const argext_tensor *input, const argext_tensor *output,
                                        int64_t axis, int version)
{
    return hardmax(input, output, axis, version, 1);
}
