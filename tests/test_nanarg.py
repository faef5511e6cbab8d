"""argext.nanargmax / argext.nanargmin against NumPy's np.nanargmax /
np.nanargmin (and Bottleneck's, where it is installed): NaN counts as -inf
(+inf for nanargmin), as NumPy's NaN replacement makes it, an all-NaN slice
raises ValueError and leaves `out` untouched, integers behave as
argmax/argmin, -0.0 equals +0.0, ties give the first occurrence."""

import numpy as np
import pytest

import argext
from reference import ALL_DTYPES, BFLOAT16, FLOAT_DTYPES, comparable, is_float

FLOATS = FLOAT_DTYPES + ([BFLOAT16] if BFLOAT16 is not None else [])
OPS = {"max": (argext.nanargmax, np.nanargmax), "min": (argext.nanargmin, np.nanargmin)}


def ids(dtypes):
    return [d.name for d in dtypes]


def sample(rng, shape, dtype, nan_fraction=0.1, ties=False):
    """Random values of `dtype` with NaN, +-inf and +-0.0 sprinkled in (floats);
    ties=True draws from a handful of values so extremes repeat."""
    if ties:
        x = rng.integers(0, 4, size=shape).astype(np.float64)
    else:
        x = rng.standard_normal(shape) * 100
    if is_float(dtype):
        u = rng.random(shape)
        x[u < nan_fraction] = np.nan
        x[(u >= nan_fraction) & (u < nan_fraction + 0.01)] = np.inf
        x[(u >= nan_fraction + 0.01) & (u < nan_fraction + 0.02)] = -np.inf
        x[(u >= nan_fraction + 0.02) & (u < nan_fraction + 0.05)] = -0.0
        return x.astype(dtype)
    if dtype.kind == "u":
        x = np.abs(x)
    return np.clip(x, np.iinfo(dtype).min, np.iinfo(dtype).max).astype(dtype)


def expected(x, op, axis=None, keepdims=False):
    """NumPy's answer, or the exception class it raises."""
    try:
        return np.asarray(OPS[op][1](comparable(x), axis=axis, keepdims=keepdims))
    except ValueError as e:
        return e


def check(x, op, axis=None, keepdims=False):
    want = expected(x, op, axis, keepdims)
    if isinstance(want, Exception):
        with pytest.raises(ValueError, match="All-NaN slice encountered"):
            OPS[op][0](x, axis=axis, keepdims=keepdims)
        return
    got = OPS[op][0](x, axis=axis, keepdims=keepdims)
    assert np.shape(got) == want.shape, (np.shape(got), want.shape)
    np.testing.assert_array_equal(got, want, err_msg=f"nanarg{op} axis={axis} keepdims={keepdims} "
                                  f"dtype={x.dtype} shape={x.shape} strides={x.strides}")


@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids(ALL_DTYPES))
def test_shapes_and_axes(dtype, op, isa):
    rng = np.random.default_rng(7)
    for shape in [(1,), (5,), (37,), (1000,), (4, 9), (9, 300), (300, 9), (3, 4, 5), (2, 3, 70, 2),
                  (50, 8), (50, 16), (40, 32), (30, 64)]:  # dense short rows
        for ties in (False, True):
            # a low NaN fraction keeps most slices of short rows valid
            x = sample(rng, shape, dtype, nan_fraction=0.05, ties=ties)
            for axis in [None] + list(range(-x.ndim, x.ndim)):
                for keepdims in (False, True):
                    check(x, op, axis, keepdims)


@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("dtype", FLOATS, ids=ids(FLOATS))
def test_nan_placements(dtype, op, isa):
    """NaN first, last, at block and vector edges, mostly NaN, all NaN but one."""
    rng = np.random.default_rng(3)
    for n in (1, 2, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257, 1000, 4099):
        base = sample(rng, (n,), dtype, nan_fraction=0.0)
        cases = [base.copy() for _ in range(5)]
        cases[0][0] = np.nan
        cases[1][-1] = np.nan
        cases[2][:] = np.nan
        cases[2][rng.integers(n)] = base[rng.integers(n)]  # one survivor
        cases[3][rng.random(n) < 0.9] = np.nan
        cases[4][:: max(1, n // 7)] = np.nan
        for x in cases:
            check(x, op)
            check(np.stack([x, x[::-1]]), op, axis=1)
            check(np.stack([x, x[::-1]], axis=1), op, axis=0)


@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("dtype", FLOATS, ids=ids(FLOATS))
def test_all_nan_raises_and_leaves_out_untouched(dtype, op):
    fn = OPS[op][0]
    x = np.full((3, 5), np.nan, dtype)
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        fn(x)
    x[0, 2] = 1
    out = np.full(5, -7, np.int64)
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        fn(x, axis=0, out=out)  # columns 0, 1, 3, 4 hold only NaN
    np.testing.assert_array_equal(out, -7)
    out = np.full(3, -7, np.int64)
    with pytest.raises(ValueError, match="All-NaN slice encountered"):
        fn(x, axis=1, out=out)  # rows 1 and 2
    np.testing.assert_array_equal(out, -7)
    x[:, 0] = 2
    want = OPS[op][1](comparable(x), axis=1)
    assert fn(x, axis=1, out=out) is out
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("dtype", FLOATS, ids=ids(FLOATS))
def test_signed_zero_infinity_and_ties(dtype, op):
    x = np.array([np.nan, -0.0, 0.0, np.nan, -0.0], dtype)
    check(x, op)
    x = np.array([np.nan, -np.inf, np.inf, np.nan, -np.inf, np.inf], dtype)
    check(x, op)
    x = np.array([np.nan, -np.inf], dtype)
    check(x, op)
    x = np.array([np.inf, np.nan], dtype)
    check(x, op)


@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids(ALL_DTYPES))
def test_layouts(dtype, op):
    """Strided, negative-stride, Fortran, broadcast and many-column inputs."""
    rng = np.random.default_rng(11)
    x = sample(rng, (40, 600), dtype, nan_fraction=0.02)
    views = [x[::2, ::3], x[::-1], x[:, ::-1], np.asfortranarray(x), x.T,
             np.broadcast_to(x[:1], (50, 600)), x[:, :1].repeat(3, axis=1)]
    for v in views:
        for axis in (None, 0, 1, -1):
            check(v, op, axis)
    wide = sample(rng, (3, 100_003), dtype, nan_fraction=0.02)
    for axis in (None, 0, 1):
        check(wide, op, axis)


@pytest.mark.parametrize("op", ["max", "min"])
def test_scalar_out_and_keepdims_shapes(op):
    fn, ref = OPS[op]
    x = np.array([[1.0, np.nan, 3.0], [np.nan, 0.5, 0.5]])
    r = fn(x)
    assert isinstance(r, np.integer) and r == ref(x)
    assert fn(x, keepdims=True).shape == ref(x, keepdims=True).shape == (1, 1)
    out = np.empty(3, np.int64)
    assert fn(x, axis=0, out=out) is out
    np.testing.assert_array_equal(out, ref(x, axis=0))
    assert fn(np.float64(2.5)) == 0
    with pytest.raises(ValueError):
        fn(np.array([], np.float32))
    with pytest.raises(np.exceptions.AxisError if hasattr(np, "exceptions") else np.AxisError):
        fn(x, axis=2)
    with pytest.raises(ValueError):
        fn(x, axis=0, out=np.empty(4, np.int64))
    small = np.empty(3, np.int32)  # NumPy casts into any out int64 casts to safely back
    assert fn(x, axis=0, out=small) is small
    np.testing.assert_array_equal(small, ref(x, axis=0))
    for dt in (np.uint64, np.float64):
        with pytest.raises(TypeError):
            fn(x, axis=0, out=np.empty(3, dt))


@pytest.mark.parametrize("op", ["max", "min"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64"])
def test_against_bottleneck(dtype, op):
    bn = pytest.importorskip("bottleneck")
    rng = np.random.default_rng(5)
    dt = np.dtype(dtype)
    bfn = bn.nanargmax if op == "max" else bn.nanargmin
    for shape in [(1000,), (30, 70), (70, 30), (5, 6, 7)]:
        x = sample(rng, shape, dt, nan_fraction=0.05)
        if dt.kind == "f":  # Bottleneck skips a NaN that NumPy ties with -inf (+inf): no infinities
            x[np.isinf(x)] = 0
        for axis in [None] + list(range(x.ndim)):
            try:
                want = np.asarray(bfn(x, axis=axis))
            except ValueError:
                with pytest.raises(ValueError):
                    OPS[op][0](x, axis=axis)
                continue
            np.testing.assert_array_equal(OPS[op][0](x, axis=axis), want)
