"""Differential fuzzing against the NumPy references in reference.py: every
dtype x shape (empty dims too) x strides (steps, negative steps, transposes,
zero-stride broadcasts, byte-swapped) x axis x flags x `out=`.

Reproducible in CI: derandomized, no example database.
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import argext
from reference import (ALL_DTYPES, BFLOAT16, arg_reference, hardmax_reference, is_float,
                       multi_axis_reference)

FUZZ = settings(max_examples=1000, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

FLOATS = [d for d in ALL_DTYPES if is_float(d)]


def value_pool(dtype):
    """Few distinct values (so ties are common) plus each type's specials."""
    if is_float(dtype):
        values = [-2.0, -1.0, -0.0, 0.0, 1.0, 2.0, 0.5, np.inf, -np.inf, np.nan, -np.nan]
        if dtype != np.float16 and dtype != BFLOAT16:
            values += [1e30, -1e-30]
        return np.array(values, np.float32).astype(dtype)
    info = np.iinfo(dtype)
    values = [info.min, info.min + 1, info.max, info.max - 1, 0, 1, 2, info.max // 2]
    if info.min < 0:
        values += [-1, -2]
    return np.array(values, dtype)


@st.composite
def layouts(draw, dtypes):
    """An array of one of `dtypes` seen through a random strided layout."""
    dtype = draw(st.sampled_from(dtypes))
    rank = draw(st.integers(1, 4))
    shape = draw(st.lists(st.integers(0, 6) | st.integers(7, 40), min_size=rank, max_size=rank)
                 .filter(lambda s: int(np.prod(s)) <= 3000))
    steps = draw(st.lists(st.sampled_from([1, 1, 2, 3, -1, -2]), min_size=rank, max_size=rank))
    base_shape = [(n - 1) * abs(s) + 1 if n > 0 else 0 for n, s in zip(shape, steps)]
    pool = value_pool(dtype)
    picks = draw(hnp.arrays(np.uint8, base_shape, elements=st.integers(0, len(pool) - 1)))
    base = pool[picks]
    if dtype != BFLOAT16 and draw(st.booleans()) and base.dtype.itemsize > 1:
        base = base.astype(base.dtype.newbyteorder())  # non-native byte order, same values
    x = base[tuple(slice(None, None, s) for s in steps)]
    if draw(st.booleans()):
        x = np.transpose(x, draw(st.permutations(range(rank))))
    if draw(st.integers(0, 4)) == 0:  # a zero-stride dimension in front
        x = np.broadcast_to(x, (draw(st.integers(1, 4)),) + x.shape)
    return x


def check(result, expected, out):
    if out is not None:
        assert result is out
    assert result.dtype == expected.dtype and result.shape == expected.shape
    np.testing.assert_array_equal(result, expected)


def maybe_out(draw, expected):
    """None, or an out array of the right dtype and shape: contiguous or a strided view."""
    kind = draw(st.sampled_from(["none", "none", "contiguous", "strided"]))
    if kind == "none":
        return None
    if kind == "contiguous":
        return np.full(expected.shape, 99, expected.dtype)
    big = np.full(tuple(2 * n for n in expected.shape), 99, expected.dtype)
    return big[tuple(slice(None, None, -2) for _ in expected.shape) + (Ellipsis,)]  # 0-d stays an array


@FUZZ
@given(st.data(), layouts(ALL_DTYPES), st.sampled_from(["max", "min"]))
def test_argmax_argmin(data, x, op):
    rank = x.ndim
    axis = data.draw(st.integers(-rank, rank - 1))
    keepdims = data.draw(st.integers(0, 1))
    last = data.draw(st.integers(0, 1))
    newest = [None, 13, 28]
    opsets = newest if x.dtype == BFLOAT16 else newest + ([12] if last else [1, 11, 12])
    opset = data.draw(st.sampled_from(opsets))
    fn = argext.argmax if op == "max" else argext.argmin
    if x.shape[axis] == 0:
        with pytest.raises(ValueError, match="size 0"):
            fn(x, axis=axis, keepdims=keepdims, select_last_index=last, opset=opset)
        return
    expected = arg_reference(x, axis=axis, keepdims=keepdims, select_last_index=last, op=op)
    out = maybe_out(data.draw, expected)
    result = fn(x, axis=axis, keepdims=keepdims, select_last_index=last, opset=opset, out=out)
    check(result, expected, out)


@FUZZ
@given(st.data(), layouts(FLOATS))
def test_hardmax(data, x):
    rank = x.ndim
    opset = data.draw(st.sampled_from([13, 28, None] if x.dtype == BFLOAT16 else [1, 11, 13, None]))
    low = 0 if opset == 1 else -rank
    axis = data.draw(st.none() | st.integers(low, rank - 1))
    coerce_2d = opset in (1, 11)
    effective = (1 if coerce_2d else -1) if axis is None else axis
    if effective >= rank or effective < -rank:  # the default axis 1 on a 1-D input
        with pytest.raises(argext.SpecError, match="axis"):
            argext.hardmax(x, axis=axis, opset=opset)
        return
    native = x.dtype.newbyteorder("=")
    if x.size == 0:  # the reference cannot reshape an empty array to rows
        expected = np.zeros(x.shape, native)
    else:
        expected = hardmax_reference(x, effective, coerce_2d).astype(native)
    out = maybe_out(data.draw, expected)
    result = argext.hardmax(x, axis=axis, opset=opset, out=out)
    check(result, expected, out)


@FUZZ
@given(st.data(), layouts(ALL_DTYPES), st.sampled_from(["max", "min"]))
def test_reduce_argmax_argmin(data, x, op):
    rank = x.ndim
    chosen = data.draw(st.lists(st.integers(0, rank - 1), min_size=1, max_size=rank, unique=True))
    axes = [a - rank if data.draw(st.booleans()) else a for a in chosen]
    last = data.draw(st.booleans())
    output_dtype = data.draw(st.sampled_from(["int64", "int32", "uint64", "uint32"]))
    fn = argext.reduce_argmax if op == "max" else argext.reduce_argmin
    direction = "decreasing" if last else "increasing"
    if any(x.shape[a] == 0 for a in axes):
        with pytest.raises(ValueError, match="no elements"):
            fn(x, axes, axis_direction=direction, output_dtype=output_dtype)
        return
    if x.size == 0:  # kept dimensions are empty: the reference cannot reshape them
        expected = np.zeros([1 if d in [a % rank for a in axes] else n for d, n in enumerate(x.shape)],
                            output_dtype)
    else:
        expected = multi_axis_reference(x, axes, last=last, op=op).astype(output_dtype)
    out = maybe_out(data.draw, expected)
    result = fn(x, axes, axis_direction=direction, output_dtype=output_dtype, out=out)
    check(result, expected, out)
