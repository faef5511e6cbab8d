/*
 * argext.c - public entry points: validate descriptors, then run the engine.
 * Nothing is written before every check has passed; a refusal records its
 * detail (argext_last_error). Output checks come last, so that a caller may
 * pass a NULL output to learn what is wrong with the rest of a request.
 */
#include <stdlib.h>
#include <string.h>

#include "kernels/dtypes.h"
#include "kernels/kernels.h"
#include "engine/reduce.h"
#include "runtime/threads.h"

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
    case ARGEXT_ERR_ALL_NAN: return "All-NaN slice encountered";
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
    argext_plan_run_all(&a->plan, a);
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

/* Whether the element at p (of a dtype maybe flagged ARGEXT_BYTESWAPPED) is a NaN. */
static int is_nan_at(const char *p, int dtype)
{
    unsigned char b[8];
    size_t n = argext_itemsize(dtype & ~ARGEXT_BYTESWAPPED);
    for (size_t i = 0; i < n; i++)
        b[i] = (unsigned char)p[dtype & ARGEXT_BYTESWAPPED ? n - 1 - i : i];
    switch (dtype & ~ARGEXT_BYTESWAPPED) {
#define NAN_CASE(ENUM, NAME, ET, KT, KMAX, ...)                                         \
    case ARGEXT_##ENUM: {                                                                  \
        ET v;                                                                              \
        memcpy(&v, b, sizeof v);                                                           \
        return argext_is_nan_##NAME(v);                                                    \
    }
    ARGEXT_DTYPES(NAN_CASE)
#undef NAN_CASE
    }
    return 0;
}

/* After a NaN-skipping reduction, whose keys count NaN as the worst infinity:
   a slice whose best element is a NaN holds only NaN and that infinity, and
   gets -1 when it holds no number at all. Returns the first such output
   position (row-major), or -1. */
static int64_t mark_all_nan(const argext_tensor *data, const unsigned char *reduced,
                            const argext_tensor *out, int keep_reduced, argext_arena *a)
{
    argext_dim kept[ARGEXT_MAX_RANK], red[ARGEXT_MAX_RANK];
    int nk = 0, nr = 0;
    for (int d = 0, o = 0; d < data->rank; d++) {
        if (reduced[d]) {
            red[nr++] = (argext_dim){data->shape[d], a->in.strides[d], 0};
            o += keep_reduced;
        } else {
            kept[nk++] = (argext_dim){data->shape[d], a->in.strides[d], a->out.strides[o++]};
        }
    }
    const char *in = (const char *)data->data;
    char *res = (char *)out->data;
    int64_t first = -1, pos = 0;
    argext_iter it, along;
    argext_iter_seek(&it, nk, kept, 0);
    do {
        int64_t f, off = 0;
        memcpy(&f, res + it.b, sizeof f);
        for (int j = nr - 1; j >= 0; j--) { /* row-major over the reduced axes */
            off += (f % red[j].n) * red[j].a;
            f /= red[j].n;
        }
        if (is_nan_at(in + it.a + off, data->dtype)) {
            int number = 0;
            argext_iter_seek(&along, nr, red, 0);
            do
                number = !is_nan_at(in + it.a + along.a, data->dtype);
            while (!number && argext_iter_next(&along));
            if (!number) {
                const int64_t none = -1;
                memcpy(res + it.b, &none, sizeof none);
                if (first < 0)
                    first = pos;
            }
        }
        pos++;
    } while (argext_iter_next(&it));
    return first;
}

static argext_status nan_arg(int op, const argext_tensor *data, const argext_tensor *reduced_out,
                             const int64_t *axis, int keepdims)
{
    argext_status st;
    unsigned char reduced[ARGEXT_MAX_RANK] = {0};
    argext_arena *a = scratch(&st);
    if (!a)
        return st;
    if ((st = check_input(data, &a->in)) != ARGEXT_OK)
        goto done;
    if (axis) {
        int64_t ax = *axis;
        if (!normalize_axis(&ax, data->rank)) {
            st = fail(ARGEXT_ERR_AXIS, ARGEXT_ARG_AXIS, -1, *axis);
            goto done;
        }
        reduced[ax] = 1;
    } else {
        memset(reduced, 1, (size_t)data->rank);
    }
    if (keepdims != 0 && keepdims != 1) {
        st = fail(ARGEXT_ERR_ATTRIBUTE, ARGEXT_ARG_KEEPDIMS, -1, keepdims);
        goto done;
    }
    for (int d = 0; d < data->rank; d++) {
        if (reduced[d] && data->shape[d] == 0) {
            st = fail(ARGEXT_ERR_EMPTY_AXIS, ARGEXT_ARG_AXIS, -1, axis ? *axis : d);
            goto done;
        }
    }
    if ((st = check_tensor(reduced_out, ARGEXT_ARG_OUTPUT, &a->out)) != ARGEXT_OK)
        goto done;
    if (reduced_out->dtype != ARGEXT_INT64) {
        st = fail(ARGEXT_ERR_OUTPUT, ARGEXT_ARG_OUTPUT, -1, (int64_t)reduced_out->dtype);
        goto done;
    }
    if ((st = check_output_shape(data, reduced, reduced_out, keepdims)) != ARGEXT_OK)
        goto done;
    st = ok();
    if (a->out.count > 0) {
        run(data, reduced, reduced_out, keepdims, op, 0, a);
        int64_t first = mark_all_nan(data, reduced, reduced_out, keepdims, a);
        if (first >= 0)
            st = fail(ARGEXT_ERR_ALL_NAN, ARGEXT_ARG_DATA, -1, first);
    }
done:
    argext_arena_release(a);
    return st;
}

argext_status argext_nanargmax(const argext_tensor *data, const argext_tensor *reduced,
                               const int64_t *axis, int keepdims)
{
    return nan_arg(ARGEXT_OP_NANMAX, data, reduced, axis, keepdims);
}

argext_status argext_nanargmin(const argext_tensor *data, const argext_tensor *reduced,
                               const int64_t *axis, int keepdims)
{
    return nan_arg(ARGEXT_OP_NANMIN, data, reduced, axis, keepdims);
}

/* A non-empty strided tensor as runs: dimensions sorted by stride and
   merged, so that each contiguous run (the whole tensor, when it is
   contiguous in any order) takes one memset; zero strides only revisit the
   same elements and are dropped. dim[0..m) are the outer dimensions, *run
   the innermost. Returns the base pointer (negative strides folded in). */
static char *zero_runs(char *p, int rank, const int64_t *shape, const int64_t *strides,
                       size_t itemsize, argext_dim *dim, int *m_out, argext_dim *run)
{
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
    *run = m > 0 ? dim[--m] : (argext_dim){1, (int64_t)itemsize, 0};
    *m_out = m;
    return p;
}

/* Hardmax's output pass, split over threads: the zero fill by element
   ranges, then the ones by rows. */
typedef struct {
    char *base;           /* zero fill: the runs' base, dims and run */
    const argext_dim *zd;
    int zm;
    argext_dim run;
    int64_t elements, parts;
    char *out;            /* ones: row k's 1 at out + (kept offset) + (offset of idx[k]) */
    const int64_t *idx;
    int64_t rows;
    const argext_dim *rd, *kd; /* row dims innermost first; kept dims in C order */
    int nr, nk;
    unsigned char one[8];
    size_t itemsize;
} output_pass;

/* Sets elements [e0, e1) (in the runs' order) to +0.0, all bits zero in
   every float dtype. */
static void zero_task(void *context, int64_t t)
{
    const output_pass *o = (const output_pass *)context;
    int64_t e0 = argext_part_start(o->elements, o->parts, t);
    int64_t e1 = argext_part_start(o->elements, o->parts, t + 1);
    const int64_t rn = o->run.n, rs = o->run.a;
    argext_iter it;
    argext_iter_seek(&it, o->zm, o->zd, e0 / rn);
    for (int64_t j0 = e0 % rn; e0 < e1; j0 = 0) {
        int64_t len = rn - j0 < e1 - e0 ? rn - j0 : e1 - e0;
        char *q = o->base + it.a + j0 * rs;
        if (rs == (int64_t)o->itemsize) {
            memset(q, 0, (size_t)len * o->itemsize);
        } else {
            for (int64_t j = 0; j < len; j++)
                memset(q + j * rs, 0, o->itemsize);
        }
        e0 += len;
        argext_iter_next(&it);
    }
}

static void ones_task(void *context, int64_t t)
{
    const output_pass *o = (const output_pass *)context;
    int64_t k0 = argext_part_start(o->rows, o->parts, t);
    int64_t k1 = argext_part_start(o->rows, o->parts, t + 1);
    argext_iter it;
    argext_iter_seek(&it, o->nk, o->kd, k0);
    for (int64_t k = k0; k < k1; k++) {
        int64_t f = o->idx[k], off = it.a;
        for (int j = 0; j < o->nr - 1; j++) {
            off += (f % o->rd[j].n) * o->rd[j].a;
            f /= o->rd[j].n;
        }
        if (o->nr > 0)
            off += f * o->rd[o->nr - 1].a;
        memcpy(o->out + off, o->one, o->itemsize);
        argext_iter_next(&it);
    }
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
    if ((st = check_tensor(input, ARGEXT_ARG_DATA, &a->in)) != ARGEXT_OK)
        goto done;
    if (version != 1 && version != 11 && version != 13) {
        st = fail(ARGEXT_ERR_ATTRIBUTE, ARGEXT_ARG_VERSION, -1, version);
        goto done;
    }
    int dtype = (int)input->dtype & ~ARGEXT_BYTESWAPPED;
    if (!hardmax_dtype(dtype, version)) { /* before the rank: a 0-d integer is a dtype fault */
        st = fail(ARGEXT_ERR_DTYPE, ARGEXT_ARG_DATA, -1, (int64_t)input->dtype);
        goto done;
    }
    if ((st = check_input(input, &a->in)) != ARGEXT_OK)
        goto done;
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

    output_pass o;
    o.itemsize = argext_itemsize(dtype);
    uint64_t bits = argext_one_bits(dtype);
    for (size_t i = 0; i < o.itemsize && i < sizeof o.one; i++) { /* in the output's byte order */
        int byte = (output->dtype & ARGEXT_BYTESWAPPED) ? (int)(o.itemsize - 1 - i) : (int)i;
        unsigned char b = (unsigned char)(bits >> (8 * byte));
        memcpy(o.one + i, &b, 1);
    }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    for (size_t i = 0; i < o.itemsize / 2; i++) { /* the loop above wrote little-endian */
        unsigned char t = o.one[i];
        o.one[i] = o.one[o.itemsize - 1 - i];
        o.one[o.itemsize - 1 - i] = t;
    }
#endif
    /* The output pass touches every output page (a fresh output's pages are
       faulted in by the ones): split by the output's size. */
    int parts = argext_parts_for(a->in.count * (int64_t)o.itemsize);
    o.parts = parts;
    if (!output_is_zero) {
        o.base = zero_runs((char *)output->data, output->rank, output->shape, out_strides,
                           o.itemsize, a->plan.along, &o.zm, &o.run);
        o.zd = a->plan.along;
        o.elements = a->in.count;
        argext_run_parallel(parts, zero_task, &o);
    }

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
    o.out = (char *)output->data;
    o.idx = idx;
    o.rows = rows;
    o.rd = rd;
    o.kd = kd;
    o.nr = nr;
    o.nk = nk;
    o.parts = parts < rows ? parts : rows;
    argext_run_parallel(o.parts, ones_task, &o);
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
