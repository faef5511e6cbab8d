/*
 * argext.c - public entry points: validate descriptors, then run the engine.
 * Nothing is written before every check has passed; a refusal records its
 * detail (argext_last_error). Output checks come last, so that a caller may
 * pass a NULL output to learn what is wrong with the rest of a request.
 */
#include <stdlib.h>
#include <string.h>

#include "dtypes.h"
#include "kernels.h"
#include "reduce.h"

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__STDC_NO_THREADS__)
#define THREAD_LOCAL _Thread_local
#elif defined(_MSC_VER)
#define THREAD_LOCAL __declspec(thread)
#elif defined(__GNUC__) || defined(__clang__)
#define THREAD_LOCAL __thread
#else
#define THREAD_LOCAL /* no thread-local storage known: one detail for all threads */
#endif

static THREAD_LOCAL argext_error last_error;

argext_error argext_last_error(void) { return last_error; }

static argext_status fail(argext_status st, argext_arg arg, int index, int64_t value)
{
    last_error = (argext_error){st, arg, index, value};
    return st;
}

static argext_status ok(void) { return fail(ARGEXT_OK, ARGEXT_ARG_NONE, -1, 0); }

const char *argext_version(void) { return ARGEXT_VERSION_STRING; }

size_t argext_dtype_size(argext_dtype dtype) { return argext_itemsize(dtype); }

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

static int mul_overflows(int64_t a, int64_t b) { return b != 0 && a > INT64_MAX / b; }

/* A valid descriptor (its dtype maybe flagged ARGEXT_BYTESWAPPED), resolved into c. */
static argext_status check_tensor(const argext_tensor *t, argext_arg arg, argext_checked *c)
{
    if (!t)
        return fail(ARGEXT_ERR_NULL, arg, -1, 0);
    size_t itemsize = argext_itemsize((int)t->dtype & ~ARGEXT_BYTESWAPPED);
    if (itemsize == 0 || ((int)t->dtype & ~(ARGEXT_BYTESWAPPED | 0xff)))
        return fail(ARGEXT_ERR_DTYPE, arg, -1, (int64_t)t->dtype);
    if (t->rank < 0 || t->rank > ARGEXT_MAX_RANK)
        return fail(ARGEXT_ERR_RANK, arg, -1, t->rank);
    if (t->rank > 0 && !t->shape)
        return fail(ARGEXT_ERR_NULL, arg, -1, 0);
    /* Sizes and byte extents must fit int64, ignoring empty dimensions. */
    int64_t nonzero = (int64_t)itemsize, extent = 0;
    int empty = 0;
    for (int d = t->rank - 1; d >= 0; d--) {
        int64_t n = t->shape[d];
        if (n < 0)
            return fail(ARGEXT_ERR_SHAPE, arg, d, n);
        if (t->strides) {
            int64_t s = t->strides[d];
            if (s == INT64_MIN)
                return fail(ARGEXT_ERR_SHAPE, arg, d, s);
            if (n > 1) {
                int64_t step = s < 0 ? -s : s;
                if (mul_overflows(step, n - 1) || step * (n - 1) > INT64_MAX - extent)
                    return fail(ARGEXT_ERR_SHAPE, arg, d, s);
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
                return fail(ARGEXT_ERR_SHAPE, arg, d, n);
            nonzero *= n;
        }
    }
    c->count = empty ? 0 : nonzero / (int64_t)itemsize;
    if (c->count > 0 && !t->data)
        return fail(ARGEXT_ERR_NULL, arg, -1, 0);
    return ARGEXT_OK;
}

/* The input of every entry point: a valid descriptor of rank >= 1. */
static argext_status check_input(const argext_tensor *t, argext_checked *c)
{
    argext_status st = check_tensor(t, ARGEXT_ARG_DATA, c);
    if (st == ARGEXT_OK && t->rank < 1)
        st = fail(ARGEXT_ERR_RANK, ARGEXT_ARG_DATA, -1, t->rank);
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

/* The output must have the input's shape with reduced dimensions as 1 or,
   without keep_reduced, removed. */
static argext_status check_output_shape(const argext_tensor *data, const unsigned char *reduced,
                                        const argext_tensor *out, int keep_reduced)
{
    int o = 0;
    for (int d = 0; d < data->rank; d++) {
        if (reduced[d] && !keep_reduced)
            continue;
        int64_t want = reduced[d] ? 1 : data->shape[d];
        if (o >= out->rank || out->shape[o] != want)
            return o >= out->rank ? fail(ARGEXT_ERR_OUTPUT, ARGEXT_ARG_OUTPUT, -1, o + 1)
                                  : fail(ARGEXT_ERR_OUTPUT, ARGEXT_ARG_OUTPUT, o, want);
        o++;
    }
    return o == out->rank ? ARGEXT_OK : fail(ARGEXT_ERR_OUTPUT, ARGEXT_ARG_OUTPUT, -1, o);
}

/* Runs a validated reduction of `data` into `out` (checked as a->in and
   a->out), whose dimensions map onto the input's kept ones in order; with
   keep_reduced the output also has the reduced dimensions, as size 1. */
static void run(const argext_tensor *data, const unsigned char *reduced, const argext_tensor *out,
                int keep_reduced, int op, int last, argext_arena *a)
{
    int64_t *out_strides = a->dims[0];
    for (int d = 0, o = 0; d < data->rank; d++) {
        if (reduced[d] && !keep_reduced) {
            out_strides[d] = 0;
            continue;
        }
        out_strides[d] = a->out.strides[o++];
    }
    argext_reduction r = {
        .data = (const char *)data->data, .dtype = (int)data->dtype, .rank = data->rank,
        .shape = data->shape, .strides = a->in.strides, .reduced = reduced,
        .out = (char *)out->data, .out_dtype = out->dtype, .out_strides = out_strides,
        .op = op, .last = last,
    };
    argext_plan_build(&a->plan, &r);
    argext_plan_run(&a->plan, 0, a->plan.positions, a);
}

/* The scratch of a call that passed its checks, or a recorded NOMEM. */
static argext_arena *scratch(argext_status *st)
{
    argext_arena *a = argext_arena_acquire();
    *st = a ? ARGEXT_OK : fail(ARGEXT_ERR_NOMEM, ARGEXT_ARG_NONE, -1, 0);
    return a;
}

static argext_status onnx_arg(int op, const argext_tensor *data, const argext_tensor *reduced_out,
                              int64_t axis, int keepdims, int select_last_index)
{
    argext_status st;
    unsigned char reduced[ARGEXT_MAX_RANK] = {0};
    argext_arena *a = scratch(&st);
    if (!a)
        return st;
    int64_t given = axis;
    if ((st = check_input(data, &a->in)) != ARGEXT_OK)
        goto done;
    if (!normalize_axis(&axis, data->rank)) {
        st = fail(ARGEXT_ERR_AXIS, ARGEXT_ARG_AXIS, -1, given);
        goto done;
    }
    if (keepdims != 0 && keepdims != 1) {
        st = fail(ARGEXT_ERR_ATTRIBUTE, ARGEXT_ARG_KEEPDIMS, -1, keepdims);
        goto done;
    }
    if (select_last_index != 0 && select_last_index != 1) {
        st = fail(ARGEXT_ERR_ATTRIBUTE, ARGEXT_ARG_SELECT_LAST_INDEX, -1, select_last_index);
        goto done;
    }
    if (data->shape[axis] == 0) {
        st = fail(ARGEXT_ERR_EMPTY_AXIS, ARGEXT_ARG_AXIS, -1, given);
        goto done;
    }
    if ((st = check_tensor(reduced_out, ARGEXT_ARG_OUTPUT, &a->out)) != ARGEXT_OK)
        goto done;
    reduced[axis] = 1;
    if (reduced_out->dtype != ARGEXT_INT64) {
        st = fail(ARGEXT_ERR_OUTPUT, ARGEXT_ARG_OUTPUT, -1, (int64_t)reduced_out->dtype);
        goto done;
    }
    if ((st = check_output_shape(data, reduced, reduced_out, keepdims)) != ARGEXT_OK)
        goto done;
    if (a->out.count > 0)
        run(data, reduced, reduced_out, keepdims, op, select_last_index, a);
    st = ok();
done:
    argext_arena_release(a);
    return st;
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
    argext_status st;
    unsigned char reduced[ARGEXT_MAX_RANK] = {0};
    argext_arena *a = scratch(&st);
    if (!a)
        return st;
    if ((st = check_input(data, &a->in)) != ARGEXT_OK)
        goto done;
    if (!axes) {
        st = fail(ARGEXT_ERR_NULL, ARGEXT_ARG_AXES, -1, 0);
        goto done;
    }
    if (naxes < 1 || naxes > data->rank) {
        st = fail(ARGEXT_ERR_AXIS, ARGEXT_ARG_AXES, -1, naxes);
        goto done;
    }
    int64_t count = 1;
    for (int i = 0; i < naxes; i++) {
        int64_t ax = axes[i];
        if (!normalize_axis(&ax, data->rank) || reduced[ax]) {
            st = fail(ARGEXT_ERR_AXIS, ARGEXT_ARG_AXES, i, axes[i]);
            goto done;
        }
        reduced[ax] = 1;
        count *= data->shape[ax]; /* cannot overflow: check_tensor bounded the product */
    }
    if (direction != ARGEXT_FIRST && direction != ARGEXT_LAST) {
        st = fail(ARGEXT_ERR_ATTRIBUTE, ARGEXT_ARG_DIRECTION, -1, (int64_t)direction);
        goto done;
    }
    if (count == 0) {
        for (int i = 0; i < naxes; i++) {
            int64_t ax = axes[i];
            normalize_axis(&ax, data->rank);
            if (data->shape[ax] == 0) {
                st = fail(ARGEXT_ERR_EMPTY_AXIS, ARGEXT_ARG_AXES, i, axes[i]);
                goto done;
            }
        }
    }
    if ((st = check_tensor(output, ARGEXT_ARG_OUTPUT, &a->out)) != ARGEXT_OK)
        goto done;
    if (index_limit(output->dtype) < 0) {
        st = fail(ARGEXT_ERR_OUTPUT, ARGEXT_ARG_OUTPUT, -1, (int64_t)output->dtype);
        goto done;
    }
    if (count - 1 > index_limit(output->dtype)) { /* the largest index is count - 1 */
        st = fail(ARGEXT_ERR_OVERFLOW, ARGEXT_ARG_OUTPUT, -1, count);
        goto done;
    }
    if ((st = check_output_shape(data, reduced, output, 1)) != ARGEXT_OK)
        goto done;
    if (a->out.count > 0)
        run(data, reduced, output, 1, op, direction == ARGEXT_LAST, a);
    st = ok();
done:
    argext_arena_release(a);
    return st;
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

/* Sets every element of a non-empty strided tensor to +0.0, all bits zero in
   every float dtype. Dimensions are sorted by stride and merged, so that each
   contiguous run (the whole tensor, when it is contiguous in any order) takes
   one memset. */
static void zero_fill(char *p, int rank, const int64_t *shape, const int64_t *strides,
                      size_t itemsize, argext_dim *dim)
{
    int nd = 0;
    for (int d = 0; d < rank; d++) {
        int64_t sd = strides[d];
        if (shape[d] == 1 || sd == 0) /* a zero stride only revisits the same elements */
            continue;
        if (sd < 0) {
            p += (shape[d] - 1) * sd;
            sd = -sd;
        }
        int j = nd++;
        for (; j > 0 && dim[j - 1].a < sd; j--) /* largest stride first */
            dim[j] = dim[j - 1];
        dim[j] = (argext_dim){shape[d], sd, 0};
    }
    int m = 0;
    for (int j = 0; j < nd; j++) {
        if (m > 0 && dim[m - 1].a == dim[j].a * dim[j].n) { /* contiguous with the one outside it */
            dim[m - 1].n *= dim[j].n;
            dim[m - 1].a = dim[j].a;
        } else {
            dim[m++] = dim[j];
        }
    }
    argext_dim run = m > 0 ? dim[--m] : (argext_dim){1, (int64_t)itemsize, 0};
    argext_iter it;
    argext_iter_seek(&it, m, dim, 0);
    do {
        if (run.a == (int64_t)itemsize) {
            memset(p + it.a, 0, (size_t)run.n * itemsize);
        } else {
            for (int64_t j = 0; j < run.n; j++)
                memset(p + it.a + j * run.a, 0, itemsize);
        }
    } while (argext_iter_next(&it));
}

/* Hardmax's type constraint: float16, float32, float64; bfloat16 from 13. */
static int hardmax_dtype(int dt, int version)
{
    return dt == ARGEXT_FLOAT16 || dt == ARGEXT_FLOAT32 || dt == ARGEXT_FLOAT64 ||
           (dt == ARGEXT_BFLOAT16 && version >= 13);
}

static argext_status hardmax(const argext_tensor *input, const argext_tensor *output,
                             int64_t axis, int version, int output_is_zero)
{
    argext_status st;
    unsigned char reduced[ARGEXT_MAX_RANK] = {0};
    argext_arena *a = scratch(&st);
    if (!a)
        return st;
    int64_t given = axis;
    if ((st = check_input(input, &a->in)) != ARGEXT_OK)
        goto done;
    if (version != 1 && version != 11 && version != 13) {
        st = fail(ARGEXT_ERR_ATTRIBUTE, ARGEXT_ARG_VERSION, -1, version);
        goto done;
    }
    int dtype = (int)input->dtype & ~ARGEXT_BYTESWAPPED;
    if (!hardmax_dtype(dtype, version)) {
        st = fail(ARGEXT_ERR_DTYPE, ARGEXT_ARG_DATA, -1, (int64_t)input->dtype);
        goto done;
    }
    if ((version == 1 && axis < 0) || !normalize_axis(&axis, input->rank)) {
        st = fail(ARGEXT_ERR_AXIS, ARGEXT_ARG_AXIS, -1, given);
        goto done;
    }
    if ((st = check_tensor(output, ARGEXT_ARG_OUTPUT, &a->out)) != ARGEXT_OK)
        goto done;
    if (((int)output->dtype & ~ARGEXT_BYTESWAPPED) != dtype) {
        st = fail(ARGEXT_ERR_OUTPUT, ARGEXT_ARG_OUTPUT, -1, (int64_t)output->dtype);
        goto done;
    }
    if (output->rank != input->rank) {
        st = fail(ARGEXT_ERR_OUTPUT, ARGEXT_ARG_OUTPUT, -1, input->rank);
        goto done;
    }
    for (int d = 0; d < input->rank; d++)
        if (output->shape[d] != input->shape[d]) {
            st = fail(ARGEXT_ERR_OUTPUT, ARGEXT_ARG_OUTPUT, d, input->shape[d]);
            goto done;
        }
    st = ok();
    if (a->in.count == 0)
        goto done;
    for (int d = (int)axis; d < (version == 13 ? (int)axis + 1 : input->rank); d++)
        reduced[d] = 1;

    /* One int64 index per kept position, C-contiguous over kept dims. */
    int64_t rows = 1, *idx_strides = a->dims[1], *idx_shape = a->dims[2];
    for (int d = input->rank - 1; d >= 0; d--) {
        idx_shape[d] = reduced[d] ? 1 : input->shape[d];
        idx_strides[d] = rows * (int64_t)sizeof(int64_t);
        rows *= idx_shape[d];
    }
    int64_t *idx = (int64_t *)malloc((size_t)rows * sizeof(int64_t));
    if (!idx) {
        st = fail(ARGEXT_ERR_NOMEM, ARGEXT_ARG_NONE, -1, 0);
        goto done;
    }
    argext_tensor idx_t = {idx, ARGEXT_INT64, input->rank, idx_shape, idx_strides};
    int64_t out_strides[ARGEXT_MAX_RANK]; /* the output's: a->out is reused for idx */
    memcpy(out_strides, a->out.strides, sizeof(int64_t) * (size_t)input->rank);
    memcpy(a->out.strides, idx_strides, sizeof(int64_t) * (size_t)input->rank);
    a->out.count = rows;
    run(input, reduced, &idx_t, 1, ARGEXT_OP_MAX, 0, a);

    size_t itemsize = argext_itemsize(dtype);
    unsigned char one[8];
    uint64_t bits = argext_one_bits(dtype);
    for (size_t i = 0; i < itemsize && i < sizeof one; i++) { /* in the output's byte order */
        int byte = (output->dtype & ARGEXT_BYTESWAPPED) ? (int)(itemsize - 1 - i) : (int)i;
        unsigned char b = (unsigned char)(bits >> (8 * byte));
        memcpy(one + i, &b, 1);
    }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    for (size_t i = 0; i < itemsize / 2; i++) { /* the loop above wrote little-endian */
        unsigned char t = one[i];
        one[i] = one[itemsize - 1 - i];
        one[itemsize - 1 - i] = t;
    }
#endif
    if (!output_is_zero)
        zero_fill((char *)output->data, output->rank, output->shape, out_strides, itemsize,
                  a->plan.along);

    /* A row's output dimensions, innermost first, merged where one flat index
       step is one stride step: version 13 and contiguous coerced rows map an
       index to its offset with a single multiply. */
    argext_dim *rd = a->plan.along, *kd = a->plan.kept;
    int nr = 0, nk = 0;
    for (int d = input->rank - 1; d >= 0; d--) {
        if (!reduced[d] || input->shape[d] == 1)
            continue;
        if (nr > 0 && out_strides[d] == rd[nr - 1].a * rd[nr - 1].n)
            rd[nr - 1].n *= input->shape[d];
        else
            rd[nr++] = (argext_dim){input->shape[d], out_strides[d], 0};
    }
    /* Kept output dimensions in C order, the order of idx. */
    for (int d = 0; d < input->rank; d++)
        if (!reduced[d] && input->shape[d] != 1)
            kd[nk++] = (argext_dim){input->shape[d], out_strides[d], 0};
    char *out = (char *)output->data;
    argext_iter it;
    argext_iter_seek(&it, nk, kd, 0);
    for (int64_t k = 0; k < rows; k++) {
        int64_t f = idx[k], off = it.a;
        for (int j = 0; j < nr - 1; j++) {
            off += (f % rd[j].n) * rd[j].a;
            f /= rd[j].n;
        }
        if (nr > 0)
            off += f * rd[nr - 1].a;
        memcpy(out + off, one, itemsize);
        argext_iter_next(&it);
    }
    free(idx);
done:
    argext_arena_release(a);
    return st;
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
