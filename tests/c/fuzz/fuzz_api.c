/*
 * fuzz_api.c - coverage-guided fuzzing of argext's public C API (argext.h
 * only), for libFuzzer: .ci/fuzz builds every .c file of csrc/ and of
 * tests/c/fuzz with clang -fsanitize=fuzzer,address,undefined.
 *
 * Each input is decoded into one call: the entry point, the input descriptor
 * (dtype, byte order, rank, shape, byte strides: C order, or any multiple of
 * the element size, zero and negative included, or not a multiple at all;
 * huge and negative sizes), the elements (raw bytes or ties, NaN, -0.0 and
 * infinities), the axes and attributes (in range or not), the output
 * descriptor (right, strided, or wrong in one way; TopK's two, topk.c) and an
 * ISA level. The
 * harness decides from argext.h alone what the call must do: the statuses
 * that its refusal may carry (several faults may apply; argext reports one),
 * or, for a valid call, the result, computed here by a scalar reference that
 * shares no code with argext. Then:
 *   - a refused call has one of those statuses, argext_last_error() says the
 *     same, and the output is untouched;
 *   - an accepted call's output equals the reference's;
 *   - the same call at the baseline level (argext_set_isa) gives the same
 *     status and output bytes.
 * Any difference aborts, which libFuzzer reports with the input. The inputs
 * of tests/c/fuzz/corpus/ are byte strings of these draws: keep their order.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_api.h"

/* ---- reporting: the call being checked, on stderr ------------------------------------ */

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

/* The input's elements as the reference reads them, for a small input. */
static void print_elements(const tensor *x)
{
    int dt = (int)x->t.dtype & 0xff, swapped = ((int)x->t.dtype & ARGEXT_BYTESWAPPED) != 0;
    if (!x->t.data || !x->buffer || dt >= ARGEXT_DTYPE_COUNT || x->count > 64)
        return;
    fprintf(stderr, "  elements (row-major):");
    for (int64_t e = 0; e < x->count; e++) {
        value v = load_value((const unsigned char *)x->t.data + offset_of(x, e, itemsizes[dt]), dt,
                             swapped);
        if (is_float(dt))
            fprintf(stderr, " %.9g", v.f);
        else if (dt <= ARGEXT_INT64)
            fprintf(stderr, " %lld", (long long)v.i);
        else
            fprintf(stderr, " %llu", (unsigned long long)v.u);
    }
    fprintf(stderr, "\n");
}

static void describe(const call *c)
{
    fprintf(stderr, "fuzz_api: op %d axis %lld (given: %d) axes", c->op, (long long)c->axis,
            c->has_axis);
    if (c->axes_null)
        fprintf(stderr, " NULL");
    for (int i = 0; !c->axes_null && i < c->naxes; i++)
        fprintf(stderr, " %lld", (long long)c->axes[i]);
    fprintf(stderr, " (naxes %d) keepdims %d select_last %d direction %d version %d\n", c->naxes,
            c->keepdims, c->select_last, c->direction, c->version);
    print_tensor("input", &c->in.t, c->in_null);
    print_tensor("output", &c->out.t, c->out_null);
    if (c->op == OP_TOPK) {
        fprintf(stderr, "  k %lld largest %d sorted %d shared %d\n", (long long)c->k, c->largest,
                c->sorted, c->shared);
        print_tensor("indices", &c->idx.t, c->idx_null);
    }
    print_elements(&c->in);
}

void check_failed(const char *file, int line, const char *cond, const char *format, ...)
{
    if (current)
        describe(current);
    fprintf(stderr, "fuzz_api: %s:%d: %s: ", file, line, cond);
    va_list args;
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    fputc('\n', stderr);
    abort();
}

/* ---- the settings: names, sizes, the ISA level and the thread count ---------------- */

static void check_settings(source *s)
{
    int v = (int)pick_in(s, -3, 20);
    CHECK(argext_status_string((argext_status)v) != NULL, "status_string(%d)", v);
    CHECK(argext_isa_name((argext_isa)v) != NULL, "isa_name(%d)", v);
    size_t size = argext_dtype_size((argext_dtype)v);
    CHECK(size == (v >= 0 && v < ARGEXT_DTYPE_COUNT ? itemsizes[v] : 0), "dtype_size(%d) = %zu", v,
          size);
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

/* ---- one call --------------------------------------------------------------------------- */

/* The ISA level of the call: any this CPU runs. */
static argext_isa draw_level(source *s)
{
    argext_isa levels[ARGEXT_ISA_COUNT];
    int nlevels = 0;
    for (int i = 0; i < ARGEXT_ISA_COUNT; i++)
        if (argext_isa_supported((argext_isa)i))
            levels[nlevels++] = (argext_isa)i;
    return levels[pick(s, nlevels)];
}

/* The axis or axes, the attributes (mostly 0 or 1), the Hardmax version and,
   rarely, a NULL input, output or axes pointer. */
static void draw_attributes(source *s, call *c)
{
    int rank = c->in.t.rank < 0 ? 0 : c->in.t.rank;
    c->axis = pick_in(s, -rank - 1, rank);
    if (pick(s, 64) == 0)
        c->axis = pick(s, 2) ? INT64_MIN : INT64_MAX;
    c->has_axis = pick(s, 3) != 0;
    c->naxes = (int)pick_in(s, 0, (rank > 0 && rank < 8 ? rank : 1) + 1);
    for (int i = 0; i < c->naxes && i < ARGEXT_MAX_RANK + 2; i++)
        c->axes[i] = pick_in(s, -rank - 1, rank);
    if (c->naxes > ARGEXT_MAX_RANK + 2)
        c->naxes = ARGEXT_MAX_RANK + 2;
    c->keepdims = pick(s, 16) == 0 ? (int)pick_in(s, -1, 2) : pick(s, 2);
    c->select_last = pick(s, 16) == 0 ? (int)pick_in(s, -1, 2) : pick(s, 2);
    c->direction = pick(s, 16) == 0 ? (int)pick_in(s, -1, 2) : pick(s, 2);
    static const int versions[8] = {13, 13, 11, 1, 13, 0, 12, 2};
    c->version = versions[pick(s, 8)];
    int nulls = pick(s, 64);
    c->in_null = nulls == 0;
    c->out_null = nulls == 1;
    c->axes_null = nulls == 2;
}

/* An output's buffer (when its rank lets one be formed); 0 if it cannot be placed. */
static int place_output(tensor *y)
{
    int dt = (int)y->t.dtype & 0xff;
    if (y->t.rank < 0 || y->t.rank > ARGEXT_MAX_RANK)
        return 1;
    return place(y, dt < ARGEXT_DTYPE_COUNT ? itemsizes[dt] : 1);
}

/* Buffers for the descriptors, the elements, and rarely a misaligned start or
   a NULL data pointer. 0: a valid call too large to hold here (an invalid
   call's unplaceable descriptor is refused for its shape: no data needed). */
static int place_data(source *s, call *c, int valid)
{
    int in_dt = (int)c->in.t.dtype & 0xff, topk = c->op == OP_TOPK;
    int placed_in = 1, placed_out = place_output(&c->out);
    if (c->in.t.rank >= 1 && c->in.t.rank <= ARGEXT_MAX_RANK && c->in.t.shape)
        placed_in = place(&c->in, in_dt < ARGEXT_DTYPE_COUNT ? itemsizes[in_dt] : 1);
    if (topk && !place_output(&c->idx))
        placed_out = 0;
    if ((!placed_in || !placed_out) && valid)
        return 0;
    if (topk)
        share_topk_outputs(c);
    if (c->in.buffer && pick(s, 32) == 0 && c->in.count > 0) {
        memmove(c->in.buffer + 1, c->in.buffer, c->in.bytes - 1);
        c->in.t.data = (unsigned char *)c->in.t.data + 1;
    }
    if (c->in.buffer && c->in.count > 0 && in_dt < ARGEXT_DTYPE_COUNT)
        (topk ? fill_topk_input : fill_input)(s, &c->in);
    if (pick(s, 64) == 0 && c->in.count > 0)
        c->in.t.data = NULL;
    if (pick(s, 64) == 0 && c->out.count > 0)
        c->out.t.data = NULL;
    if (topk && pick(s, 64) == 0 && c->idx.count > 0)
        c->idx.t.data = NULL;
    return 1;
}

static argext_status invoke(const call *c)
{
    const argext_tensor *in = c->in_null ? NULL : &c->in.t, *out = c->out_null ? NULL : &c->out.t;
    const int64_t *axes = c->axes_null ? NULL : c->axes;
    argext_direction direction = (argext_direction)c->direction;
    switch (c->op) {
    case OP_ARGMAX: return argext_argmax(in, out, c->axis, c->keepdims, c->select_last);
    case OP_ARGMIN: return argext_argmin(in, out, c->axis, c->keepdims, c->select_last);
    case OP_REDUCE_ARGMAX: return argext_reduce_argmax(in, out, axes, c->naxes, direction);
    case OP_REDUCE_ARGMIN: return argext_reduce_argmin(in, out, axes, c->naxes, direction);
    case OP_NANARGMAX: return argext_nanargmax(in, out, c->has_axis ? &c->axis : NULL, c->keepdims);
    case OP_NANARGMIN: return argext_nanargmin(in, out, c->has_axis ? &c->axis : NULL, c->keepdims);
    case OP_HARDMAX: return argext_hardmax(in, out, c->axis, c->version);
    case OP_TOPK:
        return argext_topk(in, out, c->idx_null ? NULL : &c->idx.t, c->axis, c->k, c->largest,
                           c->sorted);
    default: return argext_hardmax_onto_zeros(in, out, c->axis, c->version);
    }
}

/* What a refused call must leave in every output byte: the canary written
   before the call, or the zeros Hardmax onto zeros is given. */
static unsigned char untouched_byte(const call *c)
{
    return c->op == OP_HARDMAX_ONTO_ZEROS ? 0 : 0xa5;
}

static void check_refused(const call *c, unsigned allowed, argext_status st)
{
    CHECK(st != ARGEXT_OK && st < 32 && (allowed & BIT(st)),
          "op %d: status %d (%s), allowed mask 0x%x", c->op, st, argext_status_string(st), allowed);
    for (size_t i = 0; c->out.buffer && i < c->out.bytes; i++)
        CHECK(c->out.buffer[i] == untouched_byte(c),
              "a refused call (status %d) wrote output byte %zu", st, i);
    for (size_t i = 0; c->idx.buffer && i < c->idx.bytes; i++)
        CHECK(c->idx.buffer[i] == untouched_byte(c),
              "a refused call (status %d) wrote indices byte %zu", st, i);
}

/* An output's bytes (an empty copy when it has no buffer of its own), then
   its canary again. */
static unsigned char *take_output(const call *c, const tensor *y)
{
    unsigned char *copy = malloc(y->bytes + 1);
    CHECK(copy != NULL, "out of memory");
    if (y->buffer) {
        memcpy(copy, y->buffer, y->bytes);
        memset(y->buffer, untouched_byte(c), y->bytes);
    }
    return copy;
}

/* The scalar twin: the same call at the baseline level, bit for bit. */
static void check_baseline_twin(const call *c, argext_status st, argext_isa level)
{
    unsigned char *expected_out = take_output(c, &c->out), *expected_idx = take_output(c, &c->idx);
    CHECK(argext_set_isa(ARGEXT_ISA_BASELINE) == ARGEXT_OK, "set_isa(baseline)");
    argext_status twin = invoke(c);
    CHECK(twin == st, "%s returned %d, baseline %d", argext_isa_name(level), st, twin);
    CHECK(!c->out.buffer || memcmp(expected_out, c->out.buffer, c->out.bytes) == 0,
          "%s and baseline wrote different outputs", argext_isa_name(level));
    CHECK(!c->idx.buffer || memcmp(expected_idx, c->idx.buffer, c->idx.bytes) == 0,
          "%s and baseline wrote different indices", argext_isa_name(level));
    free(expected_out);
    free(expected_idx);
}

/* Runs the call at `level` and checks it: refused with an allowed status and
   the output untouched, or accepted with the reference's answer; then its
   baseline twin. */
static void run_and_check(const call *c, const reduction *red, unsigned allowed, argext_isa level)
{
    if (c->out.buffer)
        memset(c->out.buffer, untouched_byte(c), c->out.bytes);
    if (c->idx.buffer)
        memset(c->idx.buffer, untouched_byte(c), c->idx.bytes);
    if (getenv("FUZZ_API_VERBOSE")) /* triage: what each input calls */
        describe(c);
    CHECK(argext_set_isa(level) == ARGEXT_OK, "set_isa(%d)", level);
    argext_status st = invoke(c);
    argext_error err = argext_last_error();
    CHECK(err.status == st, "argext_last_error().status %d, the call returned %d", err.status, st);
    if (allowed)
        check_refused(c, allowed, st);
    else if (c->op == OP_TOPK)
        check_topk(c, st, level);
    else
        check_accepted(c, red, st, err, level);
    /* overlapping TopK outputs: the levels write values and indices in their own orders (the
       register kernels by vector, the baseline by row), so which element wins may differ */
    if ((c->out.buffer || c->idx.buffer) && level != ARGEXT_ISA_BASELINE &&
        !(c->op == OP_TOPK && !allowed && topk_outputs_overlap(c)))
        check_baseline_twin(c, st, level);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    source s = {data, size};
    call c;
    memset(&c, 0, sizeof c);
    c.op = pick(&s, OP_COUNT);
    if (c.op == OP_SETTINGS) {
        check_settings(&s);
        return 0;
    }
    current = &c;
    argext_isa level = draw_level(&s);
    int huge;
    draw_input(&s, &c.in, &huge);
    draw_attributes(&s, &c);
    reduction red;
    faults(&c, &red); /* the reduction, for the output's shape */
    if (c.op == OP_TOPK)
        draw_topk(&s, &c, huge);
    else
        draw_output(&s, &c, &red);
    if (place_data(&s, &c, faults(&c, &red) == 0)) {
        /* judged again: place_data may have made a data pointer NULL. huge: a
           valid call over 2**31 elements or more is too long to run here */
        unsigned allowed = faults(&c, &red);
        if (allowed || !huge)
            run_and_check(&c, &red, allowed, level);
    }
    free(c.in.buffer);
    free(c.out.buffer);
    free(c.idx.buffer);
    current = NULL;
    return 0;
}
