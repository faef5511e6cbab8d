"""reduce_argmax / reduce_argmin (DML_ARGMAX / DML_ARGMIN_OPERATOR_DESC).

Checked against the descriptor's worked examples, hand-worked cases and the
independent NumPy reference (moveaxis + reshape + argmax) in reference.py.
Huge reductions use zero-stride np.broadcast_to views: their answers are
worked out by hand, and they need no memory.
"""

import tracemalloc

import numpy as np
import pytest

import argext
from reference import ALL_DTYPES, is_float, multi_axis_reference

OUTPUT_DTYPES = [np.dtype(t) for t in (np.int64, np.int32, np.uint64, np.uint32)]
OPS = {"max": argext.reduce_argmax, "min": argext.reduce_argmin}
DIRECTIONS = {False: "increasing", True: "decreasing"}
DML = np.array([[1, 2, 3], [3, 0, 4], [2, 5, 2]], dtype=np.float32)
SEED = 20261120


def expected(x, axes, last, op, output_dtype=np.int64):
    return multi_axis_reference(x, axes, last=last, op=op).astype(output_dtype)


def check(x, axes, last, op, output_dtype="int64"):
    got = OPS[op](x, axes, axis_direction=DIRECTIONS[last], output_dtype=output_dtype)
    want = expected(x, axes, last, op, np.dtype(output_dtype))
    assert got.dtype == np.dtype(output_dtype)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want, err_msg=f"{op} axes={axes} last={last}")


# --- the descriptor's examples, and their argmin / "decreasing" counterparts ----------


def test_descriptor_examples_argmax():
    assert argext.reduce_argmax(DML, [0], output_dtype=np.uint32).tolist() == [[1, 2, 1]]
    assert argext.reduce_argmax(DML, [1], output_dtype=np.uint32).tolist() == [[2], [2], [1]]
    r = argext.reduce_argmax(DML, [0, 1], output_dtype=np.uint32)
    assert r.dtype == np.uint32 and r.tolist() == [[7]]
    ramp = np.array([3, 2, 1, 2, 3], np.float32)
    assert argext.reduce_argmax(ramp, [0], axis_direction="increasing").tolist() == [0]
    assert argext.reduce_argmax(ramp, [0], axis_direction="decreasing").tolist() == [4]


def test_descriptor_examples_other_spellings():
    # axes in any order, negative axes, every output dtype: the same answers.
    for odt in ["int64", "int32", "uint64", "uint32", *OUTPUT_DTYPES, np.int32, np.uint64]:
        assert argext.reduce_argmax(DML, [1, 0], output_dtype=odt).tolist() == [[7]]
        assert argext.reduce_argmax(DML, [-1, -2], output_dtype=odt).tolist() == [[7]]
        assert argext.reduce_argmax(DML, [-2], output_dtype=odt).tolist() == [[1, 2, 1]]
        assert argext.reduce_argmax(DML, (-1,), output_dtype=odt).tolist() == [[2], [2], [1]]
    # no ties in the examples: "decreasing" gives the same indices
    assert argext.reduce_argmax(DML, [0], axis_direction="decreasing").tolist() == [[1, 2, 1]]
    assert argext.reduce_argmax(DML, [1], axis_direction="decreasing").tolist() == [[2], [2], [1]]
    assert argext.reduce_argmax(DML, [0, 1], axis_direction="decreasing").tolist() == [[7]]


def test_descriptor_examples_argmin():
    # columns {1,3,2} {2,0,5} {3,4,2}; rows {1,2,3} {3,0,4} {2,5,2}; minimum 0 at flat 4
    assert argext.reduce_argmin(DML, [0]).tolist() == [[0, 1, 2]]
    assert argext.reduce_argmin(DML, [1]).tolist() == [[0], [1], [0]]
    assert argext.reduce_argmin(DML, [1], axis_direction="decreasing").tolist() == [[0], [1], [2]]
    assert argext.reduce_argmin(DML, [0, 1], output_dtype="uint32").tolist() == [[4]]
    ramp = np.array([3, 2, 1, 2, 3], np.float32)
    assert argext.reduce_argmin(ramp, [0]).tolist() == [2]
    assert argext.reduce_argmin(ramp, [0], axis_direction="decreasing").tolist() == [2]
    valley = np.array([1, 3, 1], np.int16)
    assert argext.reduce_argmin(valley, [0]).tolist() == [0]
    assert argext.reduce_argmin(valley, [0], axis_direction="decreasing").tolist() == [2]


def test_flattened_in_increasing_axis_order_whatever_the_listed_order():
    x = np.array([[[5, 1], [0, 9]], [[7, 2], [3, 4]]], np.int32)
    # x[:, 0, :] flattens (axis 0, then axis 2) to [5, 1, 7, 2]; x[:, 1, :] to [0, 9, 3, 4]
    for axes in ([0, 2], [2, 0], [-1, 0], [-3, -1]):
        assert argext.reduce_argmax(x, axes).tolist() == [[[2], [1]]]
        assert argext.reduce_argmin(x, axes).tolist() == [[[1], [0]]]


def test_nan_wins_for_both_operators():
    for dt in [d for d in ALL_DTYPES if is_float(d)]:
        x = np.array([[1, np.nan, -np.inf], [np.nan, np.inf, 0]], np.float32).astype(dt)
        for f in (argext.reduce_argmax, argext.reduce_argmin):
            assert f(x, [0, 1]).tolist() == [[1]], dt
            assert f(x, [1, 0], axis_direction="decreasing").tolist() == [[3]], dt
            assert f(x, [1]).tolist() == [[1], [0]], dt
        # columns {1, NaN} {NaN, inf} {-inf, 0}
        assert argext.reduce_argmax(x, [0]).tolist() == [[1, 0, 1]], dt
        assert argext.reduce_argmin(x, [0], axis_direction="decreasing").tolist() == [[1, 0, 0]]


def test_signed_zeros_tie_and_64_bit_integers_are_exact():
    z = np.array([[0.0, -0.0], [-0.0, 0.0]], np.float64)
    for f in (argext.reduce_argmax, argext.reduce_argmin):
        assert f(z, [0, 1]).tolist() == [[0]]
        assert f(z, [0, 1], axis_direction="decreasing").tolist() == [[3]]
    big = np.array([[2**63 - 2, 2**63 - 1], [2**63 - 1, 2**63 - 2]], np.int64)
    assert argext.reduce_argmax(big, [0, 1]).tolist() == [[1]]
    assert argext.reduce_argmax(big, [0, 1], axis_direction="decreasing").tolist() == [[2]]
    ubig = np.array([2**64 - 1, 2**64 - 2, 2**64 - 1, 2**64 - 2], np.uint64).reshape(2, 2)
    assert argext.reduce_argmin(ubig, [1, 0]).tolist() == [[1]]
    assert argext.reduce_argmin(ubig, [1, 0], axis_direction="decreasing").tolist() == [[3]]


# --- random cases against the NumPy reference ----------------------------------------


def _values(rng, dt, shape):
    """Few distinct values (many ties), the dtype's extremes, NaN for floats."""
    if is_float(dt):
        pool = np.array([-2, -1, -0.0, 0.0, 1, 2, np.inf, -np.inf], np.float32)
        x = rng.choice(pool, size=shape)
        if x.size and rng.random() < 0.6:
            x.flat[rng.choice(x.size, size=rng.integers(1, 4))] = np.nan
        return x.astype(dt)
    info = np.iinfo(dt)
    pool = np.array([info.min, info.min + 1, 0, 1, 2, info.max - 1, info.max], dt)
    return rng.choice(pool, size=shape)


def _layout(rng, x, kind):
    """x's values in another memory layout."""
    if kind == "C":
        return x
    if kind == "F":
        return np.asfortranarray(x)
    if kind == "transposed":
        perm = rng.permutation(x.ndim)
        return np.ascontiguousarray(x.transpose(perm)).transpose(np.argsort(perm))
    if kind == "strided":
        big = np.zeros(tuple(2 * n + 1 for n in x.shape), x.dtype)
        view = big[tuple(slice(1, None, 2) for _ in x.shape)]
        view[...] = x
        return view
    if kind == "negative":
        flipped = tuple(d for d in range(x.ndim) if rng.random() < 0.6) or (0,)
        return np.flip(np.ascontiguousarray(np.flip(x, flipped)), flipped)
    if kind == "byteswapped":
        return x.astype(x.dtype.newbyteorder())
    raise AssertionError(kind)


LAYOUTS = ["C", "F", "transposed", "strided", "negative", "byteswapped"]


@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_random_against_reference(dt, op):
    rng = np.random.default_rng([SEED, ALL_DTYPES.index(dt), int(op == "min")])
    for rank in range(1, 9):
        for kind in LAYOUTS:
            for _ in range(2):
                limit = 6 if rank <= 3 else 3
                shape = tuple(int(n) for n in rng.integers(1, limit + 1, size=rank))
                x = _layout(rng, _values(rng, dt, shape), kind)
                if kind == "byteswapped" and dt.itemsize > 1:
                    assert not x.dtype.isnative
                naxes = int(rng.integers(1, rank + 1))
                axes = [int(a) for a in rng.permutation(rank)[:naxes]]
                axes = [a - rank if rng.random() < 0.4 else a for a in axes]
                odt = OUTPUT_DTYPES[int(rng.integers(4))]
                odt = odt.name if rng.random() < 0.5 else odt
                for last in (False, True):
                    check(x, axes, last, op, odt)


# --- merged and in-place reduced axes, large sub-blocks -------------------------------


@pytest.mark.parametrize(
    "shape, axes",
    [
        ((2, 300, 3, 600), (1, 3)),  # separated: iterated in place, rows > 256
        ((2, 300, 3, 600), (3, 1, 0)),
        ((50, 7, 700), (0, 2)),
        ((4, 40, 700), (1, 2)),  # adjacent and contiguous: merged
        ((40, 30, 1500), (0, 1)),  # merged, reduced along columns, > 1024 columns
        ((40, 3, 30, 1100), (0, 2)),  # separated, along columns
        ((6, 5, 7, 9, 300), (0, 2, 4)),
        ((2000, 600), (0,)),
        ((2, 5000), (1,)),
    ],
)
@pytest.mark.parametrize("kind", ["C", "F", "transposed", "negative"])
def test_large_sub_blocks(shape, axes, kind):
    rng = np.random.default_rng([SEED, len(shape), sum(axes), LAYOUTS.index(kind)])
    # ties, but a sub-block's maximum is rare enough to be missing from some 256-element runs
    ints = _layout(rng, rng.integers(0, 50, size=shape, dtype=np.int8), kind)
    floats = rng.standard_normal(shape).astype(np.float32)
    floats.flat[rng.choice(floats.size, size=20)] = np.nan  # some sub-blocks hold a NaN
    floats = _layout(rng, floats, kind)
    for x in (ints, floats):
        for op in OPS:
            for last in (False, True):
                check(x, axes, last, op)


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_ties_inside_long_contiguous_rows(dt):
    # contiguous rows are scanned in 256-element runs: the ties sit inside runs, not the tail
    x = np.ones((2, 1537), np.float32)
    x[0, [300, 400]] = 7  # both in one run
    x[1, [1, 300, 700, 1200]] = 7  # in several runs
    x[1, 1300] = 0
    x = x.astype(dt)
    peaks = (8 - x.astype(np.float32)).astype(dt)  # 7 -> 1 (the minimum), 0 -> 8
    for f, y in ((argext.reduce_argmax, x), (argext.reduce_argmin, peaks)):
        assert f(y, [1]).tolist() == [[300], [1]]
        assert f(y, [1], axis_direction="decreasing").tolist() == [[400], [1200]]
        assert f(y, [0, 1]).tolist() == [[300]]
        assert f(y, [1, 0], axis_direction="decreasing").tolist() == [[1537 + 1200]]
    if is_float(dt):
        x[1, [500, 900]] = np.nan
        for f in OPS.values():
            assert f(x, [1]).tolist()[1] == [500]
            assert f(x, [1], axis_direction="decreasing").tolist()[1] == [900]
            assert f(x, [0, 1], axis_direction="decreasing").tolist() == [[1537 + 900]]


def test_zero_stride_reduced_axes_among_real_ones():
    rng = np.random.default_rng(SEED)
    base = rng.integers(0, 3, size=(5, 1, 7, 1), dtype=np.uint16)
    x = np.broadcast_to(base, (5, 4, 7, 3))
    for axes in ([1], [1, 3], [0, 1], [1, 2], [0, 1, 2, 3], [3, 0]):
        for op in OPS:
            for last in (False, True):
                check(x, axes, last, op)


# --- 64-bit indices over > 2**32 elements (zero-stride views, no memory) ---------------


@pytest.mark.parametrize("rows", [2**22, 2**23])
def test_more_than_2_to_32_elements(rows):
    k = 2048  # rows * k = 2**33 or 2**34 elements
    ramp = np.broadcast_to(np.arange(k, dtype=np.int32)[None, :], (rows, k))
    assert argext.reduce_argmax(ramp, [0, 1]).tolist() == [[k - 1]]  # row 0, column k-1
    assert argext.reduce_argmax(ramp, [1, 0], axis_direction="decreasing").tolist() == [
        [rows * k - 1]  # last row, column k-1
    ]
    assert argext.reduce_argmin(ramp, [0, 1], axis_direction="decreasing").tolist() == [
        [(rows - 1) * k]  # last row, column 0
    ]
    r = argext.reduce_argmax(ramp, [0, 1], axis_direction="decreasing", output_dtype="uint64")
    assert r.dtype == np.uint64 and int(r[0, 0]) == rows * k - 1


def test_more_than_2_to_32_elements_max_deep_inside():
    rows, k, hot = 2**22, 2**12, 3_000_001
    column = np.zeros(rows, np.uint8)
    column[hot] = 9
    column[hot + 5] = 9
    x = np.broadcast_to(column[:, None], (rows, k))  # 2**34 elements, the kernel walks the rows
    assert argext.reduce_argmax(x, [0, 1]).tolist() == [[hot * k]]
    assert argext.reduce_argmax(x, [0, 1], axis_direction="decreasing").tolist() == [
        [(hot + 5) * k + k - 1]
    ]
    assert argext.reduce_argmin(x, [1, 0]).tolist() == [[0]]
    # real axes 0 and 2 apart, the broadcast one between them: flat weights 2**23 and 1
    cube = np.broadcast_to(column.reshape(2**11, 1, 2**11), (2**11, 2**12, 2**11))
    h0, h2 = divmod(hot, 2**11)
    assert argext.reduce_argmax(cube, [0, 1, 2]).tolist() == [[[h0 * 2**23 + h2]]]
    assert argext.reduce_argmax(cube, [2, 0, 1], axis_direction="decreasing").tolist() == [
        [[h0 * 2**23 + (2**12 - 1) * 2**11 + h2 + 5]]
    ]


# --- overflow of the output dtype -----------------------------------------------------


def _flat(n, dtype=np.int8):
    return np.broadcast_to(np.zeros(1, dtype), (n,))


@pytest.mark.parametrize("odt, limit", [("int32", 2**31), ("uint32", 2**32)])
def test_overflow_raises_before_computing(odt, limit):
    # exactly `limit` elements: the last index, limit - 1, still fits
    r = argext.reduce_argmax(_flat(limit), [0], axis_direction="decreasing", output_dtype=odt)
    assert r.dtype == np.dtype(odt) and int(r[0]) == limit - 1
    out = np.full(1, 7, np.dtype(odt))
    for f in OPS.values():
        with pytest.raises(OverflowError, match=rf"{f.__name__}.*{limit + 1}.*{odt}"):
            f(_flat(limit + 1), [0], output_dtype=odt, out=out)
    assert out.tolist() == [7]
    grid = np.broadcast_to(np.zeros((1, 1), np.float32), (2**16, 2**16 + 1))  # > 2**32
    with pytest.raises(OverflowError, match=odt):
        argext.reduce_argmin(grid, [0, 1], output_dtype=odt)
    assert argext.reduce_argmin(grid, [0, 1], output_dtype="int64").tolist() == [[0]]


# --- out= -----------------------------------------------------------------------------


@pytest.mark.parametrize("odt", OUTPUT_DTYPES, ids=str)
def test_out(odt):
    rng = np.random.default_rng(SEED)
    x = rng.integers(0, 5, size=(4, 6, 5)).astype(np.float64)
    want = expected(x, [2, 0], True, "min", odt)
    out = np.empty((1, 6, 1), odt)
    assert argext.reduce_argmin(x, [2, 0], axis_direction="decreasing",
                                output_dtype=odt, out=out) is out
    np.testing.assert_array_equal(out, want)
    # a non-contiguous, reversed view: only its elements change
    big = np.full((3, 12, 2), 99, odt)
    view = big[1:2, ::-2, 1:]
    r = argext.reduce_argmin(x, (0, 2), axis_direction="decreasing", output_dtype=odt, out=view)
    assert r is view
    np.testing.assert_array_equal(view, want)
    untouched = np.ones(big.shape, bool)
    untouched[1:2, ::-2, 1:] = False
    assert (big[untouched] == 99).all()


def test_out_overlapping_the_input():
    x = np.random.default_rng(SEED).integers(0, 9, size=(5, 8)).astype(np.int64)
    want = expected(x, [1], False, "max")
    out = x[:, 2:3]  # shares memory with x
    assert argext.reduce_argmax(x, [1], out=out) is out
    np.testing.assert_array_equal(out, want)


def test_out_errors_write_nothing():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    out = np.full((1, 3, 1), -5, np.int64)

    def unchanged():
        return out.tolist() == [[[-5], [-5], [-5]]]

    for kwargs, exc in [
        (dict(out=np.full((1, 3, 1), -5, np.int32)), TypeError),  # dtype != output_dtype
        (dict(out=out, output_dtype="int32"), TypeError),
        (dict(out=out.astype(">i8")), TypeError),
        (dict(out=[[[0], [0], [0]]]), TypeError),
        (dict(out=np.full((3, 1), -5, np.int64)), ValueError),  # shape
        (dict(out=np.full((1, 3, 4), -5, np.int64)), ValueError),
    ]:
        with pytest.raises(exc, match="reduce_argmax.*out"):
            argext.reduce_argmax(x, [0, 2], **kwargs)
    readonly = out.copy()
    readonly.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        argext.reduce_argmax(x, [0, 2], out=readonly)
    # every other error is found before out is written
    for args, kwargs in [
        (([0, 0],), {}),
        (([0, 5],), {}),
        (([0, 2],), dict(axis_direction="sideways")),
        (([0, 2],), dict(output_dtype="int16")),
    ]:
        with pytest.raises(ValueError):
            argext.reduce_argmax(x, *args, out=out, **kwargs)
        assert unchanged()
    with pytest.raises(ValueError, match="no elements"):
        argext.reduce_argmax(np.zeros((2, 3, 0), np.float32), [0, 2], out=out)
    assert unchanged()


# --- errors ---------------------------------------------------------------------------


@pytest.mark.parametrize("op", ["max", "min"])
def test_bad_axes(op):
    f, name = OPS[op], f"reduce_arg{op}"
    x = np.zeros((2, 3, 4), np.float32)
    cases = [
        ([], argext.SpecError, r"at least one axis.*\[\]"),
        ((), argext.SpecError, r"at least one axis"),
        ([1, 1], argext.SpecError, r"repeat axis 1"),
        ([1, -2], argext.SpecError, r"repeat axis -2"),  # -r+1 names axis 1
        ([0, 1, 2, 0], argext.SpecError, r"\[0, 1, 2, 0\]"),
        ([3], argext.SpecError, r"3 is out of range \[-3, 2\]"),
        ([0, -4], argext.SpecError, r"-4 is out of range"),
        ([[0, 1]], argext.SpecTypeError, r"\[0, 1\]"),
        ([0.0], argext.SpecTypeError, r"0\.0"),
        (["0"], argext.SpecTypeError, r"'0'"),
        ([True], argext.SpecTypeError, r"True"),
        (None, argext.SpecTypeError, r"None"),
        (1.5, argext.SpecTypeError, r"1\.5"),
    ]
    for axes, exc, message in cases:
        with pytest.raises(exc, match=rf"{name}: .*{message}"):
            f(x, axes)
        assert issubclass(exc, ValueError)
    with pytest.raises(argext.SpecError, match=name):
        f(np.float32(3), [0])  # rank 0 has no axis


def test_single_integer_axes_is_one_axis():
    x = np.random.default_rng(SEED).integers(0, 9, size=(3, 4))
    np.testing.assert_array_equal(argext.reduce_argmax(x, 1), argext.reduce_argmax(x, [1]))
    np.testing.assert_array_equal(argext.reduce_argmin(x, np.int64(-2)), expected(x, [0], 0, "min"))


@pytest.mark.parametrize("op", ["max", "min"])
def test_bad_direction_output_dtype_and_data(op):
    f, name = OPS[op], f"reduce_arg{op}"
    x = np.zeros((2, 3), np.int32)
    for direction, exc in [("up", argext.SpecError), ("INCREASING", argext.SpecError),
                           ("", argext.SpecError), (1, argext.SpecTypeError),
                           (None, argext.SpecTypeError)]:
        with pytest.raises(exc, match=rf"{name}: axis_direction .*{direction!r}"):
            f(x, [0], axis_direction=direction)
    for odt in [np.float32, "int16", "foo", "int8", "float64", None, bool, ">i8", ("i4", -1)]:
        with pytest.raises(argext.SpecTypeError, match=rf"{name}: output_dtype .*got"):
            f(x, [0], output_dtype=odt)
    for data in [np.zeros(3, bool), np.zeros(3, np.complex64), np.array(["a"])]:
        with pytest.raises(argext.SpecTypeError, match=rf"{name}: data has dtype"):
            f(data, [0])
    with pytest.raises(TypeError, match=name):
        f([[1, 2], [3]], [0])  # ragged
    with pytest.raises(ValueError, match=rf"{name}: .*\(2, 0, 3\)"):
        f(np.zeros((2, 0, 3)), [1, 2])


def test_array_likes_and_all_dtypes_of_axes():
    assert argext.reduce_argmax([[1, 9], [9, 1]], np.array([0, 1])).tolist() == [[1]]
    assert argext.reduce_argmax([[1, 9], [9, 1]], (np.int8(1), np.uint64(0)),
                                axis_direction="decreasing").tolist() == [[2]]


# --- no transposing copy --------------------------------------------------------------


def test_no_copy_of_the_input():
    # separated reduced axes in a layout where they are not even in memory order
    x = np.asfortranarray(np.random.default_rng(SEED).random((64, 256, 64)))
    want = expected(x, [2, 0], False, "max")
    tracemalloc.start()
    try:
        got = argext.reduce_argmax(x, [2, 0])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    np.testing.assert_array_equal(got, want)
    assert peak < x.nbytes // 100, peak  # the output (2 KiB) and bookkeeping, not 8 MiB
