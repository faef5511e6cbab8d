"""argext.numpy against NumPy's own functions: results, shapes, scalars,
keepdims, out, bool, subclasses and the exceptions NumPy raises; and the
ONNX-shaped functions' axis=None pointing at it."""

import numpy as np
import pytest

import argext
import argext.numpy as anp
from reference import ALL_DTYPES, BFLOAT16, comparable

PAIRS = [(anp.argmax, np.argmax), (anp.argmin, np.argmin),
         (anp.nanargmax, np.nanargmax), (anp.nanargmin, np.nanargmin)]
IDS = ["argmax", "argmin", "nanargmax", "nanargmin"]
AxisError = np.exceptions.AxisError if hasattr(np, "exceptions") else np.AxisError  # NumPy < 1.25


def outcome(fn, *args, **kwargs):
    """fn's result, or the type and text of what it raised."""
    try:
        return fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - compared against NumPy's
        return type(e), str(e)


def same(got, want):
    if isinstance(want, tuple) and isinstance(want[0], type):
        assert isinstance(got, tuple) and issubclass(got[0], want[0]), (got, want)
        return
    assert type(got) is type(want), (type(got), type(want))
    assert np.shape(got) == np.shape(want) and np.array_equal(got, want), (got, want)


@pytest.mark.parametrize("ours, numpys", PAIRS, ids=IDS)
@pytest.mark.parametrize("dtype", ALL_DTYPES + [np.dtype(bool)], ids=str)
def test_as_numpy(isa, ours, numpys, dtype):
    rng = np.random.default_rng(11)
    x = rng.integers(0, 5, (4, 3, 6)).astype(dtype)
    if dtype.kind == "f":
        x[1, 2, [0, 3]] = np.nan
        x[0, 0, :] = np.nan  # an all-NaN slice along axis 2
    ref = comparable(x)
    for axis in (None, 0, 1, 2, -1, -3):
        for keepdims in (False, True):
            same(outcome(ours, x, axis, keepdims=keepdims),
                 outcome(numpys, ref, axis, keepdims=keepdims))
    same(outcome(ours, x[:, ::-2].T, 1), outcome(numpys, ref[:, ::-2].T, 1))
    same(outcome(ours, x[0, 0, 1]), outcome(numpys, ref[0, 0, 1]))  # a scalar: 0-d


@pytest.mark.parametrize("ours, numpys", PAIRS, ids=IDS)
def test_errors_as_numpy(ours, numpys):
    x = np.arange(6.0).reshape(2, 3)
    for args in [(x, 2), (x, -3), (np.zeros((0, 3)), 0), (np.zeros((0, 3)), None),
                 (x, 1.0), (np.float64(1.0), 0)]:
        same(outcome(ours, *args), outcome(numpys, *args))
    assert issubclass(outcome(ours, x, 5)[0], AxisError)
    assert ours(np.zeros((0, 3)), 1).shape == (0,)


@pytest.mark.parametrize("ours, numpys", PAIRS, ids=IDS)
def test_out_as_numpy(ours, numpys):
    x = np.array([[1.0, 7.0, 3.0], [9.0, 2.0, 8.0]])
    for out in [np.empty(3, np.intp), np.empty(3, np.int32), np.empty(3, np.uint8),
                np.empty(3, np.uint64), np.empty(3, np.float64), np.empty(2, np.intp),
                np.empty((1, 3), np.intp)]:
        a, b = out.copy(), out.copy()
        got, want = outcome(ours, x, 0, a), outcome(numpys, x, 0, b)
        same(got, want)
        if not isinstance(want, tuple):
            assert got is a and want is b
    out = np.empty((), np.intp)
    assert ours(x, out=out) is out and out == numpys(x)


def test_subclasses_as_numpy():
    class Mine(np.ndarray):
        pass

    m = np.arange(12.0).reshape(3, 4).view(Mine)
    for ours, numpys in PAIRS:
        got, want = ours(m, axis=0), numpys(m, axis=0)
        assert type(got) is type(want) is Mine and np.array_equal(got, want)
        assert type(ours(m)) is type(numpys(m))
    assert type(argext.nanargmax(m, 1)) is Mine  # the top-level NumPy functions too


def test_numpy_dtypes_argext_lacks_go_to_numpy():
    for x in (np.array([1 + 2j, 3 + 0j, np.nan + 0j]), np.array(["b", "c", "a"]),
              np.array([3, 1], "datetime64[s]"), np.array([1.0, 5.0], np.longdouble)):
        for ours, numpys in PAIRS[:2]:
            assert ours(x) == numpys(x)


def test_bfloat16_as_float32():
    if BFLOAT16 is None:
        pytest.skip("ml_dtypes is not installed")
    x = np.array([[1.0, np.nan, 3.0], [2.0, -1.0, 2.0]]).astype(BFLOAT16)
    for ours, numpys in PAIRS:
        same(ours(x, axis=1), numpys(x.astype(np.float32), axis=1))


def test_onnx_axis_none_points_to_numpy():
    for fn in (argext.argmax, argext.argmin):
        with pytest.raises(argext.SpecTypeError, match=r"reduce_argmax.*argext\.numpy"):
            fn(np.ones((2, 2)), None)
