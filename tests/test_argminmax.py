"""argext.argmax / argext.argmin against the independent NumPy reference
(tests/reference.arg_reference), over dtypes, ranks, axes, flags, values that
stress the comparison keys, sizes beyond the kernels' block sizes, and every
input layout."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import argext
from reference import (ALL_DTYPES, BFLOAT16, FLOAT_DTYPES, INT_DTYPES, UINT_DTYPES, arg_reference, is_float,
                       multi_axis_reference)

OPS = {"max": argext.argmax, "min": argext.argmin}
FLOATS = FLOAT_DTYPES + ([BFLOAT16] if BFLOAT16 is not None else [])
needs_bfloat16 = pytest.mark.skipif(BFLOAT16 is None, reason="ml_dtypes is not installed")
INTEGERS = INT_DTYPES + UINT_DTYPES
SHAPE4 = (3, 4, 5, 2)  # distinct sizes, so a wrong axis gives a wrong shape


def ids(dtypes):
    return [d.name for d in dtypes]


def random_array(rng, shape, dtype, ties=False):
    """Random data of `dtype`; ties=True draws from five values so that every
    row has repeated extremes (first vs last occurrence matters)."""
    if ties:
        low = 0 if dtype.kind == "u" else -2
        return rng.integers(low, low + 5, size=shape).astype(dtype)
    if is_float(dtype):
        return (rng.standard_normal(shape) * 100).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)


def check(x, axis, keepdims, last, op, **kwargs):
    """argext's result equals the reference, with the reference's shape."""
    expected = arg_reference(x, axis, keepdims, last, op)
    got = OPS[op](x, axis=axis, keepdims=keepdims, select_last_index=last, **kwargs)
    assert got.dtype == np.int64
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got, expected, err_msg=f"op={op} axis={axis} keepdims={keepdims} "
                                  f"last={last} dtype={x.dtype} shape={x.shape} strides={x.strides}")



def check_orders(x, reversed_x, axis, keepdims, op):
    """check() on x, on a reversed view of it and on x byte-swapped (not bfloat16:
    ml_dtypes has no byte-swapped bfloat16), each for the first and the last occurrence."""
    views = [x, reversed_x]
    if x.dtype != BFLOAT16:
        views.append(x.astype(x.dtype.newbyteorder(">" if x.dtype.isnative else "<")))
    for view in views:
        for last in (0, 1):
            check(view, axis, keepdims, last, op)


SIXTEEN_BIT_FLOATS = [d for d in FLOATS if d.itemsize == 2]


@pytest.mark.parametrize("dtype", SIXTEEN_BIT_FLOATS, ids=ids(SIXTEEN_BIT_FLOATS))
def test_16_bit_float_rows_tested_by_their_bits(isa, dtype):
    """At every level: float16 and bfloat16 rows, whose blocks the row scan
    tests against the best on their bits, hold NaN of either sign, -0.0 and
    +0.0, infinities, the largest finite values and the least denormal at
    random places and at vector and block edges; bests of either sign, at
    zero and next to it; first and last occurrence, argmax and argmin;
    float16 byte-swapped too (read in place, each vector swapped as it is
    loaded; ml_dtypes has no byte-swapped bfloat16)."""
    rng = np.random.default_rng(39)
    inf_bits = 0x7C00 if dtype == np.float16 else 0x7F80
    specials = np.array([inf_bits + 1, 0xFFFF, inf_bits | 0x8001, 0x7FFF, 0x8000, 0, 1, 0x8001, inf_bits,
                         inf_bits | 0x8000, inf_bits - 1, (inf_bits - 1) | 0x8000], np.uint16).view(dtype)
    for n in (5000, 40000):
        edges = [e for e in (0, 255, 256, 511, 512, 4095, 4096, n - 1) if e < n]
        normal = rng.standard_normal((2, n)).astype(np.float32)
        tiny = (rng.integers(0, 4, (2, n)) | rng.integers(0, 2, (2, n)) << 15).astype(np.uint16).view(dtype)
        for base in (normal, np.abs(normal) + 0.5, -np.abs(normal) - 0.5, np.where(normal > 2, normal, -0.0),
                     tiny):
            for planted in range(0, len(specials) + 1, 3):
                x = base.astype(dtype)
                for j, value in enumerate(specials[planted:planted + 3]):
                    x[rng.integers(0, 2), rng.choice(n, 2)] = value
                    x[1, edges[(planted + j) % len(edges)]] = value
                swapped = x.astype(x.dtype.newbyteorder("S")) if dtype == np.float16 else None
                for op in ("max", "min"):
                    for last in (0, 1):
                        check(x, 1, 0, last, op)
                        if swapped is not None:
                            check(swapped, 1, 0, last, op)

RANK_AXES = [(r, a) for r in range(1, 5) for a in list(range(r)) + list(range(-r, 0))]


@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("rank,axis", RANK_AXES)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids(ALL_DTYPES))
def test_every_dtype_rank_axis_and_flag(dtype, rank, axis, op):
    rng = np.random.default_rng(rank * 10 + axis)
    for ties in (False, True):
        x = random_array(rng, SHAPE4[:rank], dtype, ties)
        for keepdims in (0, 1):
            for last in (0, 1):
                check(x, axis, keepdims, last, op)


def test_keepdims_accepts_bool():
    x = np.arange(6.0).reshape(2, 3)
    assert argext.argmax(x, axis=1, keepdims=True).shape == (2, 1)
    assert argext.argmin(x, axis=1, keepdims=False).shape == (2,)
    # NumPy's own booleans too, on NumPy 1.x and 2.x alike
    assert argext.argmax(x, axis=1, keepdims=np.bool_(False)).shape == (2,)
    assert argext.argmax(x, axis=1, select_last_index=np.bool_(True)).tolist() == [[2], [2]]


def test_default_attributes_are_axis0_keepdims1_first():
    x = np.array([[1, 5, 5], [5, 0, 5]], np.int32)
    assert argext.argmax(x).tolist() == [[1, 0, 0]]
    assert argext.argmin(x).tolist() == [[0, 1, 0]]


def test_accepts_anything_asarray_accepts():
    assert argext.argmax([[1, 7, 3], [9, 2, 9]], axis=1).tolist() == [[1], [0]]
    assert argext.argmin((4.0, -1.0, -1.0), select_last_index=1).tolist() == [2]


# --- NaN, signed zeros, infinities ------------------------------------------

NAN_ROWS = {  # where the NaNs are -> a row
    "first": [np.nan, 1, 5, -3, 5, -3],
    "middle": [1, 5, np.nan, -3, np.nan, 5],
    "last": [1, 5, -3, 5, -3, np.nan],
    "all": [np.nan] * 6,
    "with_infinities": [-np.inf, np.inf, np.nan, np.inf, -np.inf, np.nan],
}


@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("where", NAN_ROWS)
@pytest.mark.parametrize("dtype", FLOATS, ids=ids(FLOATS))
def test_nan_is_the_result(dtype, where, op):
    row = np.array(NAN_ROWS[where], dtype=dtype)
    nans = np.flatnonzero(np.isnan(row.astype(np.float32)))
    for last in (0, 1):
        got = OPS[op](row, axis=0, keepdims=0, select_last_index=last)
        assert int(got) == (nans[-1] if last else nans[0])
        check(row, 0, 0, last, op)
    # The same rows stacked along each axis of a 2-D array: row mode and column mode.
    rows = np.stack([row, np.roll(row, 2), np.arange(6, dtype=np.float32).astype(dtype)])
    for m in (rows, rows.T.copy(), np.asfortranarray(rows)):
        for axis in (0, 1, -1):
            for last in (0, 1):
                check(m, axis, 1, last, op)


@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("dtype", FLOATS, ids=ids(FLOATS))
def test_signed_zeros_tie(dtype, op):
    other = -1.0 if op == "max" else 1.0  # worse than zero for this op
    for zeros in ([-0.0, 0.0, -0.0, 0.0], [0.0, -0.0, 0.0, -0.0]):
        row = np.array(zeros + [other], dtype=dtype)
        assert int(OPS[op](row, keepdims=0)) == 0
        assert int(OPS[op](row, keepdims=0, select_last_index=1)) == 3
        pair = np.stack([row, row[::-1]])
        for axis in (0, 1):
            check(pair, axis, 1, 1, op)


# --- Extreme integers --------------------------------------------------------


def test_int64_above_2_53_compare_exactly():
    big = 2**53
    x = np.array([big, big + 1, big, big + 1, big - 1], np.int64)
    assert int(argext.argmax(x, keepdims=0)) == 1
    assert int(argext.argmax(x, keepdims=0, select_last_index=1)) == 3
    assert int(argext.argmin(x, keepdims=0)) == 4
    assert int(argext.argmin(x[:4], keepdims=0, select_last_index=1)) == 2
    top = np.array([2**63 - 2, 2**63 - 1, 2**63 - 2], np.int64)
    assert int(argext.argmax(top, keepdims=0)) == 1
    assert int(argext.argmin(top, keepdims=0, select_last_index=1)) == 2
    bottom = np.array([-(2**63) + 1, -(2**63), -(2**63) + 1], np.int64)
    assert int(argext.argmin(bottom, keepdims=0)) == 1
    assert int(argext.argmax(bottom, keepdims=0, select_last_index=1)) == 2


def test_uint64_near_top_compare_exactly():
    top = 2**64 - 1
    x = np.array([top - 1, top, top - 2, top, top - 2], np.uint64)
    assert int(argext.argmax(x, keepdims=0)) == 1
    assert int(argext.argmax(x, keepdims=0, select_last_index=1)) == 3
    assert int(argext.argmin(x, keepdims=0)) == 2
    assert int(argext.argmin(x, keepdims=0, select_last_index=1)) == 4
    assert int(argext.argmax(np.array([2**63, 2**63 - 1], np.uint64), keepdims=0)) == 0


@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("dtype", INTEGERS, ids=ids(INTEGERS))
def test_integer_type_limits(dtype, op):
    info = np.iinfo(dtype)
    x = np.array([info.max, info.min, 0 if info.min else 1, info.max, info.min], dtype=dtype)
    assert int(OPS[op](x, keepdims=0)) == (0 if op == "max" else 1)
    assert int(OPS[op](x, keepdims=0, select_last_index=1)) == (3 if op == "max" else 4)
    # A limit value cannot be beaten: later equal ones must still win with select_last_index,
    # in long rows (block path) and in column mode too.
    long = np.full(3000, 1, dtype)
    extreme = info.max if op == "max" else info.min
    long[[5, 700, 2999]] = extreme
    assert int(OPS[op](long, keepdims=0)) == 5
    assert int(OPS[op](long, keepdims=0, select_last_index=1)) == 2999
    cols = np.tile(long[:, None], (1, 3))
    for last in (0, 1):
        check(cols, 0, 0, last, op)


# --- Sizes beyond the kernels' blocks (rows of 256, columns of 1024) ---------

LONG_SIZES = [255, 256, 257, 1023, 1024, 1025, 3001]


@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids(ALL_DTYPES))
def test_long_rows(dtype, op):
    rng = np.random.default_rng(7)
    for n in LONG_SIZES:
        for ties in (False, True):
            x = random_array(rng, (3, n), dtype, ties)
            for last in (0, 1):
                check(x, 1, 0, last, op)
                check(x, -1, 1, last, op)
                check(x[:, ::-1], 1, 0, last, op)


@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("dtype", FLOATS, ids=ids(FLOATS))
def test_long_rows_nan_in_each_block(dtype, op):
    n = 3001
    for positions in ([0], [255], [256], [700, 1800], [1024, 3000], [3000]):
        x = np.linspace(-5, 5, n).astype(dtype)
        x[positions] = np.nan
        for last in (0, 1):
            assert int(OPS[op](x, keepdims=0, select_last_index=last)) == positions[-1 if last else 0]
        # column mode: the same data down the rows of a wide array
        check(np.tile(x[:, None], (1, 5)), 0, 1, 1, op)


@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids(ALL_DTYPES))
def test_wide_arrays_every_axis(dtype, op):
    rng = np.random.default_rng(11)
    for shape in [(4, 2500), (3, 5, 1100), (2, 1030, 3)]:
        for ties in (False, True):
            base = random_array(rng, shape, dtype, ties)
            # strided (column blocks of non-contiguous columns) and Fortran order too
            for x in (base, base[..., ::-2] if shape[-1] > 3 else base[:, ::-2], np.asfortranarray(base)):
                for axis in range(-len(shape), len(shape)):
                    for last in (0, 1):
                        check(x, axis, 0, last, op)


# Few rows (up to 1024) over a wide inner extent fold blocks of up to 65536 columns, 256
# KiB of each row (run.c): 70001 columns cross one block boundary for the narrow dtypes,
# two for the 8-byte ones, and leave a ragged last block.
FOLD_COLS = 70001


@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids(ALL_DTYPES))
def test_few_rows_folded_over_long_column_blocks(dtype, op):
    rng = np.random.default_rng(29)
    # up to 1024 rows take the long blocks; past 256 rows one at a time (int8 only, for size)
    for outer, rows in ((2, 3), (2, 21)) + (((1, 300),) if dtype.itemsize == 1 else ()):
        for ties in (False, True):
            base = random_array(rng, (outer, rows, FOLD_COLS), dtype, ties)
            if is_float(dtype) and not ties:
                # a NaN at both sides of each block boundary, in a middle row
                base[0, rows // 2, [32767, 32768, 65535, 65536, FOLD_COLS - 1]] = np.nan
            check_orders(base, base[:, :, ::-1], 1, 0, op)
    # two reduced axes: the fold goes on over the outer one's rows (into the same indices)
    x = random_array(rng, (3, 2, FOLD_COLS), dtype, True)
    reduce = {"max": argext.reduce_argmax, "min": argext.reduce_argmin}[op]
    for last, direction in ((False, "increasing"), (True, "decreasing")):
        for output_dtype in ("int64", "int32"):
            got = reduce(x, (0, 1), axis_direction=direction, output_dtype=output_dtype)
            want = multi_axis_reference(x, (0, 1), last=last, op=op)
            np.testing.assert_array_equal(got, want.astype(output_dtype))


NARROW_COLS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 15, 24, 31)


@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids(ALL_DTYPES))
def test_narrow_columns_folded_over_rows(dtype, op):
    """Axis 0 of (n, c) arrays with fewer columns than a vector: a vector holds
    several rows (c / gcd(c, lanes) vectors a unit), and the rows after the last
    whole unit follow. Ties, NaN and each column's extreme in the first row, the
    middle and the last row; the rows reversed and byte-swapped; and the same
    fold continued over an outer reduced axis (DirectML's several axes)."""
    rng = np.random.default_rng(31)
    reduce = {"max": argext.reduce_argmax, "min": argext.reduce_argmin}[op]
    for cols in NARROW_COLS:
        for rows in (7, 64, 333, 1000):
            for ties in (False, True):
                x = random_array(rng, (rows, cols), dtype, ties)
                if not ties:
                    extreme = x.max() if op == "max" else x.min()
                    x[0, 0] = x[rows // 2, cols // 2] = x[rows - 1, cols - 1] = extreme
                    if is_float(dtype):
                        x[rows // 3, cols - 1] = x[rows - 1, 0] = np.nan
                check_orders(x, x[::-1], 0, 1, op)
        x = random_array(rng, (3, 250, cols), dtype, True)
        for last, direction in ((False, "increasing"), (True, "decreasing")):
            got = reduce(x, (0, 1), axis_direction=direction)
            np.testing.assert_array_equal(got, multi_axis_reference(x, (0, 1), last=last, op=op))


# --- Layouts -----------------------------------------------------------------


def layouts(x):
    """Views of a 3-D array (or copies in another layout) that hold its data
    in different memory orders."""
    yield "sliced", x[:, ::2, 1:]
    yield "negative", x[::-1, :, ::-1]
    yield "negative_step3", x[:, ::-3, :]
    yield "fortran", np.asfortranarray(x)
    yield "transposed", x.transpose(2, 0, 1)
    yield "swapaxes_sliced", np.swapaxes(x, 0, 2)[::2, ::-1]
    if x.dtype != BFLOAT16:  # ml_dtypes has no byte-swapped bfloat16 ('>V2' is not bfloat16)
        yield "byteswapped", x.astype(x.dtype.newbyteorder(">" if x.dtype.isnative else "<"))
        yield "byteswapped_strided", x.astype(x.dtype.newbyteorder(">"))[::-1, 1::2]
    ro = x.copy()
    ro.setflags(write=False)
    yield "readonly", ro
    record = np.zeros(x.shape, [("pad", "u1"), ("value", x.dtype)])
    record["value"] = x
    yield "unaligned", record["value"]
    item = x.itemsize
    yield "overlapping", np.lib.stride_tricks.as_strided(x.copy(), x.shape, (3 * item, 2 * item, item))
    yield "broadcast_axis0", np.broadcast_to(x[:1], x.shape)
    yield "broadcast_axis1", np.broadcast_to(x[:, :1], x.shape)
    yield "broadcast_axis2", np.broadcast_to(x[:, :, :1], x.shape)
    yield "broadcast_scalar", np.broadcast_to(x[0, 0, 0], x.shape)
    yield "broadcast_new_dim", np.broadcast_to(x[0], (3,) + x.shape[1:])


@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids(ALL_DTYPES))
def test_layouts(dtype, op):
    rng = np.random.default_rng(3)
    for ties in (False, True):
        base = random_array(rng, (5, 6, 7), dtype, ties)
        for name, x in layouts(base):
            for axis in range(-3, 3):
                for keepdims in (0, 1):
                    for last in (0, 1):
                        check(x, axis, keepdims, last, op)


@pytest.mark.parametrize("dtype", FLOATS, ids=ids(FLOATS))
def test_layouts_with_nan(dtype):
    base = np.random.default_rng(5).standard_normal((5, 6, 7)).astype(dtype)
    base[1, 2, :] = np.nan
    base[:, 3, 4] = np.nan
    base[4, :, 6] = np.nan
    for name, x in layouts(base):
        for axis in range(3):
            for op in ("max", "min"):
                for last in (0, 1):
                    check(x, axis, 1, last, op)


SWAPPABLE = [d for d in ALL_DTYPES if d.itemsize > 1 and d != BFLOAT16]


@pytest.mark.parametrize("dtype", SWAPPABLE, ids=ids(SWAPPABLE))
def test_byteswapped_rows_either_side_of_the_in_place_length(dtype):
    """Byte-swapped rows shorter than 1 KiB are swapped into scratch a batch
    at a time for the many-rows kernel; longer ones are read in place by the
    row kernel. Rows either side of that length and of a line, ties and NaN
    at both ends, first and last occurrence, reversed too."""
    rng = np.random.default_rng(int(dtype.num) + 90)
    for row_bytes in (64, 1016, 1024, 1032, 4000):
        n = row_bytes // dtype.itemsize
        x = random_array(rng, (37, n), dtype, ties=True)
        if is_float(dtype):
            x[3, [0, n - 1]] = np.nan
            x[5, n - 1] = np.nan
        swapped = x.astype(dtype.newbyteorder("S"))
        for view in (swapped, swapped[:, ::-1], swapped[1:, 1:]):
            for op in ("max", "min"):
                for last in (0, 1):
                    check(view, 1, 0, last, op)


def test_byteswapped_input_is_not_modified():
    x = np.arange(12, dtype=">i4").reshape(3, 4)[:, ::-1]
    before = x.copy()
    check(x, 1, 1, 0, "max")
    np.testing.assert_array_equal(x, before)
    assert x.dtype.byteorder == ">"


def test_wide_broadcast_column():
    # A zero-stride kept dimension wider than a column block.
    x = np.broadcast_to(np.arange(7.0)[:, None], (7, 2000))
    for op in ("max", "min"):
        for last in (0, 1):
            check(x, 0, 0, last, op)
            check(x, 1, 0, last, op)


@pytest.mark.parametrize("shape,axis", [((0, 3), 1), ((3, 0, 4), 0), ((3, 0, 4), 2), ((2, 3, 0), -2), ((0,) * 3 + (2,), 3)])
def test_empty_kept_dimensions(shape, axis):
    x = np.zeros(shape, np.float32)
    for keepdims in (0, 1):
        for op in ("max", "min"):
            got = OPS[op](x, axis=axis, keepdims=keepdims)
            assert got.dtype == np.int64
            assert got.shape == arg_reference(x, axis, keepdims, 0, op).shape
            assert got.size == 0


# --- out= ----------------------------------------------------------------------


@pytest.mark.parametrize("op", ["max", "min"])
def test_out_is_returned_and_filled(op):
    x = random_array(np.random.default_rng(1), (4, 5, 6), np.dtype(np.float32), ties=True)
    for axis in range(-3, 3):
        for keepdims in (0, 1):
            expected = arg_reference(x, axis, keepdims, 1, op)
            out = np.full(expected.shape, -1, np.int64)
            got = OPS[op](x, axis=axis, keepdims=keepdims, select_last_index=1, out=out)
            assert got is out
            np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("op", ["max", "min"])
def test_out_non_contiguous_view(op):
    x = random_array(np.random.default_rng(2), (4, 5, 6), np.dtype(np.int16), ties=True)
    expected = arg_reference(x, 1, 0, 0, op)  # shape (4, 6)
    views = [
        lambda b: b[::2, ::3],
        lambda b: b[::-2, 1::3],
        lambda b: b.T[2:8, 3:7].T,
    ]
    for view in views:
        big = np.full((8, 18), -7, np.int64)
        out = view(big)
        assert not out.flags.c_contiguous
        got = OPS[op](x, axis=1, keepdims=0, out=out)
        assert got is out
        np.testing.assert_array_equal(out, expected)
        # Nothing outside the view was written.
        expected_big = np.full(big.shape, -7, np.int64)
        view(expected_big)[...] = expected
        np.testing.assert_array_equal(big, expected_big)


def test_out_overlapping_the_input():
    # The result is computed from the input as it was before any write.
    x = np.array([[8, 9, 10, 11], [4, 50, 6, 7], [0, 1, 20, 3]], np.int64)
    expected = arg_reference(x, 0, 0, 0, "max")
    out = x[1]
    assert argext.argmax(x, axis=0, keepdims=0, out=out) is out
    np.testing.assert_array_equal(out, expected)
    y = np.arange(24, dtype=np.int64).reshape(4, 6)[:, ::-1].copy()
    expected = arg_reference(y, 1, 1, 1, "min")
    out = y[:, :1]
    argext.argmin(y, axis=1, select_last_index=1, out=out)
    np.testing.assert_array_equal(out, expected)


def test_concurrent_calls_from_threads():
    # The kernels run without the GIL: concurrent calls must not share state.
    from concurrent.futures import ThreadPoolExecutor

    rng = np.random.default_rng(9)
    arrays = [random_array(rng, (64, 3000), d, ties=True) for d in ALL_DTYPES]

    def run(i):
        x = arrays[i % len(arrays)]
        op, last, axis = ("max", "min")[i % 2], (i // 2) % 2, (i // 4) % 2
        return op, last, axis, x, OPS[op](x, axis=axis, select_last_index=last)

    with ThreadPoolExecutor(4) as pool:
        for op, last, axis, x, got in pool.map(run, range(48)):
            np.testing.assert_array_equal(got, arg_reference(x, axis, 1, last, op))


# --- Opset handling --------------------------------------------------------------


@pytest.mark.parametrize("opset", range(1, 29))
@pytest.mark.parametrize("op", ["max", "min"])
def test_each_opset(opset, op):
    x = np.array([[2, 7, 7], [1, 1, 0]], np.float32)
    check(x, 1, 1, 0, op, opset=opset)
    if opset >= 12:
        check(x, 1, 1, 1, op, opset=opset)
    else:
        with pytest.raises(argext.SpecError):
            OPS[op](x, axis=1, select_last_index=1, opset=opset)
    check(x, -1, 0, 0, op, opset=opset)
    if BFLOAT16 is None:
        return
    b = x.astype(BFLOAT16)
    if opset >= 13:
        check(b, 1, 1, 1, op, opset=opset)
    else:
        with pytest.raises(TypeError, match="bfloat16"):
            OPS[op](b, axis=1, opset=opset)


@needs_bfloat16
@pytest.mark.parametrize("op", ["max", "min"])
def test_bfloat16_only_from_opset_13(op):
    x = np.array([[1, 3, 3], [2, 0, 2]], BFLOAT16)
    for opset in (1, 11, 12):
        with pytest.raises(TypeError):
            OPS[op](x, axis=1, opset=opset)
    for opset in (13, 20, 28, None):
        check(x, 1, 1, 0, op, opset=opset)
        check(x, 1, 0, 1, op, opset=opset)


@pytest.mark.parametrize("opset", [0, -1, 29, 100])
def test_unknown_opset(opset):
    with pytest.raises(argext.SpecError):
        argext.argmax(np.zeros(3, np.float32), opset=opset)


# --- Hypothesis: any dtype, shape, slicing, axis, flags ----------------------------

HYPOTHESIS_DTYPES = [d for d in ALL_DTYPES if d != BFLOAT16]


@st.composite
def inputs(draw):
    bfloat = draw(st.booleans()) and BFLOAT16 is not None
    dtype = np.dtype(np.float32) if bfloat else draw(st.sampled_from(HYPOTHESIS_DTYPES))
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=7))
    elements = None
    if dtype.kind == "f":
        elements = hnp.from_dtype(dtype, allow_nan=True, allow_infinity=True)
    base = draw(hnp.arrays(dtype, shape, elements=elements))
    if bfloat:
        base = base.astype(BFLOAT16)
    # A view by slicing: any start, any step (negative too).
    index = tuple(slice(draw(st.integers(0, n - 1)), None, draw(st.sampled_from([1, 2, -1, -2, 3])))
                  if draw(st.booleans()) else slice(None) for n in shape)
    x = base[index]
    if draw(st.booleans()) and x.dtype != BFLOAT16:
        x = x.astype(x.dtype.newbyteorder(">"))
    if x.ndim < 4 and draw(st.booleans()):  # a zero-stride (broadcast) dimension
        x = np.broadcast_to(x, (draw(st.integers(1, 3)),) + x.shape)
    if draw(st.booleans()):
        x = np.moveaxis(x, 0, -1)
    axis = draw(st.integers(-x.ndim, x.ndim - 1))
    return x, axis


@settings(max_examples=250, deadline=None)
@given(inputs(), st.sampled_from(["max", "min"]), st.booleans(), st.booleans())
def test_property_matches_numpy(x_axis, op, keepdims, last):
    x, axis = x_axis
    check(x, axis, int(keepdims), int(last), op)


# --- Reversed axes (negative strides) -----------------------------------------
# The engine scans a reversed axis forward from its far end and maps the index back;
# first and last occurrence swap under that flip, so ties and NaN are where it can go
# wrong: rows short (the many-rows kernel) and long, rows of several reduced axes (a
# reversed run folded into a running best) and one long row cut into pieces by threads.


def reversed_data(rng, shape, dtype, kind):
    if kind == "nan":
        x = random_array(rng, shape, dtype, ties=True)
        x.reshape(-1)[rng.choice(x.size, max(2, x.size // 50), replace=False)] = np.nan
        return x
    return random_array(rng, shape, dtype, ties=kind == "ties")


def reversed_kinds(dtype):
    return ["random", "ties"] + (["nan"] if is_float(dtype) else [])


@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids(ALL_DTYPES))
def test_reversed_rows_and_columns(dtype, op):
    """Reversed views along either axis; columns reduced over a reversed axis
    fold from its far end in address order, asking for the other occurrence,
    so ties and NaN must still give the first or last index (600 rows of 260
    columns: the fold's row pairs past row 256, on a vector of bytes)."""
    rng = np.random.default_rng(29)
    for kind in reversed_kinds(dtype):
        for shape in [(300, 2), (200, 16), (64, 67), (5, 3001), (2100, 40), (600, 260)]:
            x = reversed_data(rng, shape, dtype, kind)
            views = [x[:, ::-1], x[::-1], x[::-1, ::-1], x[:, ::-3], x[::-2]]
            if x.dtype != BFLOAT16:
                swapped = x.astype(x.dtype.newbyteorder(">" if x.dtype.isnative else "<"))
                views += [swapped[:, ::-1], swapped[::-1]]
            for v in views:
                for axis in (0, 1):
                    for last in (0, 1):
                        check(v, axis, 0, last, op)
        y = reversed_data(rng, (4097,), dtype, kind)
        for last in (0, 1):
            check(y[::-1], 0, 0, last, op)


@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids(ALL_DTYPES))
def test_reversed_axis_in_a_multi_axis_reduction(dtype, op):
    from reference import multi_axis_reference

    rng = np.random.default_rng(31)
    fn = argext.reduce_argmax if op == "max" else argext.reduce_argmin
    for kind in reversed_kinds(dtype):
        x = reversed_data(rng, (3, 6, 70), dtype, kind)
        for v in (x[:, :, ::-1], x[:, ::-1, ::-1], x[::-1]):
            for axes in ([1, 2], [0, 1, 2], [0, 2]):
                for last in (0, 1):
                    got = fn(v, axes, axis_direction="decreasing" if last else "increasing")
                    np.testing.assert_array_equal(got, multi_axis_reference(v, axes, last, op),
                                                  err_msg=f"{kind} axes={axes} last={last}")


@pytest.mark.parametrize("dtype", FLOATS + INTEGERS, ids=ids(FLOATS + INTEGERS))
def test_reversed_long_row_over_threads(dtype):
    """A 1-D reversed input of 4 MiB is cut into pieces over two threads."""
    rng = np.random.default_rng(37)
    n = 4 * 1024 * 1024 // dtype.itemsize
    x = random_array(rng, (n,), dtype, ties=True)
    if is_float(dtype):
        x[[5, n // 2, n - 7]] = np.nan
    previous = argext.get_num_threads()
    argext.set_num_threads(2)
    try:
        for last in (0, 1):
            for op in ("max", "min"):
                check(x[::-1], 0, 0, last, op)
                check(x[::-2], 0, 0, last, op)
    finally:
        argext.set_num_threads(previous)


@pytest.mark.parametrize("dtype", FLOATS, ids=ids(FLOATS))
def test_reversed_nanargmax(dtype):
    rng = np.random.default_rng(41)
    x = reversed_data(rng, (40, 1000), dtype, "nan")  # 2% NaN: no row is all NaN
    for v in (x[:, ::-1], x[::-1, ::-1]):
        for fn, ref in ((argext.nanargmax, np.nanargmax), (argext.nanargmin, np.nanargmin)):
            np.testing.assert_array_equal(fn(v, axis=1), ref(v.astype(np.float32) if dtype == BFLOAT16 else v, axis=1))
