/*
 * bad_descriptors.c - a table of bad descriptors and attributes, each
 * refused with the right status, and a refused call writes nothing.
 */
#include <inttypes.h>
#include <string.h>

#include "driver.h"

/* A valid argmax request (3-D float32, axis 1) that each case spoils in one way. */
static float data[24];
static int64_t out[24], out_copy[24];
static int64_t shape[MAXR + 2] = {2, 3, 4}, ones[MAXR + 2];
static const int64_t out_shape[3] = {2, 1, 4}, out_drop[2] = {2, 4}, out_bad[3] = {2, 2, 4};
static const int64_t axes01[2] = {0, 1}, axes00[2] = {0, 0}, axes0m3[2] = {0, -3}, axes_big[1] = {3};
static argext_tensor in = {data, ARGEXT_FLOAT32, 3, shape, NULL};
static argext_tensor o = {out, ARGEXT_INT64, 3, out_shape, NULL};

static void reset_output(void)
{
    for (int i = 0; i < 24; i++)
        out[i] = out_copy[i] = 0x5a5a5a5a5a5a5a5a;
}

/* NULL pointers, unknown dtypes, ranks out of range. */
static void bad_pointers_dtypes_ranks(void)
{
    argext_tensor t;
    expect_status("valid argmax", argext_argmax(&in, &o, 1, 1, 0), ARGEXT_OK);
    reset_output();
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
}

/* Negative dimensions, sizes and byte extents that overflow int64. */
static void bad_shapes_strides(void)
{
    argext_tensor t;
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
}

/* ArgMax/ArgMin: axis, keepdims, select_last_index, the output. */
static void bad_onnx_attributes(void)
{
    argext_tensor t;
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
    reset_output();
    t = o, t.rank = 4, t.shape = ones;
    expect_status("output rank too high", argext_argmax(&in, &t, 1, 1, 0), ARGEXT_ERR_OUTPUT);
    int64_t empty_shape[3] = {2, 0, 4};
    t = in, t.shape = empty_shape;
    expect_status("empty axis", argext_argmax(&t, &o, 1, 1, 0), ARGEXT_ERR_EMPTY_AXIS);
}

/* The multi-axis reduction: axes, direction, index dtypes and their overflow. */
static void bad_reduce_requests(void)
{
    argext_tensor t;
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
    /* TopK over them: the first k, without a scan of 2**32 + 1 elements */
    const int64_t three[1] = {3};
    float values[3];
    argext_tensor tv = {values, ARGEXT_FLOAT32, 1, three, NULL}, ti = {out, ARGEXT_INT64, 1, three, NULL};
    data[0] = 1.5f;
    expect_status("topk of 2**32+1 zero-stride elements", argext_topk(&broad, &tv, &ti, 0, 3, 0, 1), ARGEXT_OK);
    CHECK(out[0] == 0 && out[1] == 1 && out[2] == 2 && values[0] == 1.5f && values[2] == 1.5f,
          "topk over a zero stride: %" PRId64 " %" PRId64 " %" PRId64, out[0], out[1], out[2]);
    data[0] = 0.0f;
}

/* Hardmax: version, axis, the output. */
static void bad_hardmax_requests(void)
{
    argext_tensor t;
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
}

/* TopK's refusal as argext_last_error() reports it. */
static void expect_refusal(const char *what, argext_status got, argext_status want, argext_arg arg,
                           int64_t value)
{
    expect_status(what, got, want);
    argext_error e = argext_last_error();
    CHECK(e.arg == arg && e.value == value, "last error arg %d value %" PRId64 ", expected %d %" PRId64,
          (int)e.arg, e.value, (int)arg, value);
}

/* TopK: axis, k, largest, sorted, both outputs; nothing written when refused. */
static void bad_topk_requests(void)
{
    static float vals[24], vals_copy[24];
    static const int64_t k2[3] = {2, 2, 4}, k4[3] = {2, 4, 4}, k2_last[3] = {2, 2, 3};
    argext_tensor v = {vals, ARGEXT_FLOAT32, 3, k2, NULL}, ix = {out, ARGEXT_INT64, 3, k2, NULL}, t;
    expect_status("topk valid", argext_topk(&in, &v, &ix, 1, 2, 1, 1), ARGEXT_OK);
    memset(vals, 0x5a, sizeof vals);
    memcpy(vals_copy, vals, sizeof vals);
    reset_output();
    expect_refusal("topk axis 3", argext_topk(&in, &v, &ix, 3, 2, 1, 1), ARGEXT_ERR_AXIS, ARGEXT_ARG_AXIS, 3);
    expect_refusal("topk axis -4", argext_topk(&in, &v, &ix, -4, 2, 1, 1), ARGEXT_ERR_AXIS, ARGEXT_ARG_AXIS, -4);
    expect_refusal("topk k -1", argext_topk(&in, &v, &ix, 1, -1, 1, 1), ARGEXT_ERR_ATTRIBUTE, ARGEXT_ARG_K, -1);
    expect_refusal("topk k 4 > 3", argext_topk(&in, &v, &ix, 1, 4, 1, 1), ARGEXT_ERR_ATTRIBUTE, ARGEXT_ARG_K, 4);
    expect_refusal("topk largest 2", argext_topk(&in, &v, &ix, 1, 2, 2, 1), ARGEXT_ERR_ATTRIBUTE,
                   ARGEXT_ARG_LARGEST, 2);
    expect_refusal("topk sorted -1", argext_topk(&in, &v, &ix, 1, 2, 1, -1), ARGEXT_ERR_ATTRIBUTE,
                   ARGEXT_ARG_SORTED, -1);
    expect_refusal("topk NULL values", argext_topk(&in, NULL, &ix, 1, 2, 1, 1), ARGEXT_ERR_NULL,
                   ARGEXT_ARG_OUTPUT, 0);
    expect_refusal("topk NULL indices", argext_topk(&in, &v, NULL, 1, 2, 1, 1), ARGEXT_ERR_NULL,
                   ARGEXT_ARG_INDICES, 0);
    t = v, t.dtype = ARGEXT_FLOAT64;
    expect_refusal("topk values float64", argext_topk(&in, &t, &ix, 1, 2, 1, 1), ARGEXT_ERR_OUTPUT,
                   ARGEXT_ARG_OUTPUT, ARGEXT_FLOAT64);
    t = v, t.dtype = (argext_dtype)(ARGEXT_FLOAT32 | ARGEXT_BYTESWAPPED);
    expect_refusal("topk values byte-swapped", argext_topk(&in, &t, &ix, 1, 2, 1, 1), ARGEXT_ERR_OUTPUT,
                   ARGEXT_ARG_OUTPUT, ARGEXT_FLOAT32 | ARGEXT_BYTESWAPPED);
    t = ix, t.dtype = ARGEXT_INT32;
    expect_refusal("topk indices int32", argext_topk(&in, &v, &t, 1, 2, 1, 1), ARGEXT_ERR_OUTPUT,
                   ARGEXT_ARG_INDICES, ARGEXT_INT32);
    t = v, t.shape = k4;
    expect_refusal("topk values shape", argext_topk(&in, &t, &ix, 1, 2, 1, 1), ARGEXT_ERR_OUTPUT,
                   ARGEXT_ARG_OUTPUT, 2);
    t = ix, t.shape = k2_last;
    expect_refusal("topk indices shape", argext_topk(&in, &v, &t, 1, 2, 1, 1), ARGEXT_ERR_OUTPUT,
                   ARGEXT_ARG_INDICES, 4);
    t = ix, t.rank = 2;
    expect_refusal("topk indices rank", argext_topk(&in, &v, &t, 1, 2, 1, 1), ARGEXT_ERR_OUTPUT,
                   ARGEXT_ARG_INDICES, 3);
    t = in, t.rank = 0;
    expect_refusal("topk rank 0", argext_topk(&t, &v, &ix, 0, 0, 1, 1), ARGEXT_ERR_RANK, ARGEXT_ARG_DATA, 0);
    CHECK(memcmp(out, out_copy, sizeof out) == 0 && memcmp(vals, vals_copy, sizeof vals) == 0,
          "a refused topk wrote to an output");
    expect_status("topk k 0, NULL output data", argext_topk(&in, &(argext_tensor){NULL, ARGEXT_FLOAT32, 3,
                  (const int64_t[3]){2, 0, 4}, NULL}, &(argext_tensor){NULL, ARGEXT_INT64, 3,
                  (const int64_t[3]){2, 0, 4}, NULL}, 1, 0, 0, 0), ARGEXT_OK);
}

/* Empty tensors need no data pointer; outputs are checked last. */
static void empty_tensors(void)
{
    int64_t zero_rows[2] = {0, 3}, zero_out[2] = {0, 1};
    argext_tensor ein = {NULL, ARGEXT_INT8, 2, zero_rows, NULL};
    argext_tensor eout = {NULL, ARGEXT_INT64, 2, zero_out, NULL};
    expect_status("empty input, kept dim 0", argext_argmax(&ein, &eout, 1, 1, 0), ARGEXT_OK);
    /* The output (0, 1) is wrong too, but outputs are checked last (api/request.h). */
    expect_status("empty input, reduced dim 0", argext_argmax(&ein, &eout, 0, 1, 0), ARGEXT_ERR_EMPTY_AXIS);
}

/* ISA and string queries. */
static void library_queries(void)
{
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
        CHECK(argext_dtype_size((argext_dtype)dt) == dtype_size(dt), "dtype_size(%d)", dt);
    for (int s = 0; s <= ARGEXT_ERR_ISA + 1; s++)
        CHECK(argext_status_string((argext_status)s) != NULL, "status_string(%d)", s);
}

void test_bad_descriptors(void)
{
    for (int d = 0; d < MAXR + 2; d++)
        ones[d] = 1;
    reset_output();
    bad_pointers_dtypes_ranks();
    bad_shapes_strides();
    bad_onnx_attributes();
    bad_reduce_requests();
    bad_hardmax_requests();
    bad_topk_requests();
    empty_tensors();
    library_queries();
}
