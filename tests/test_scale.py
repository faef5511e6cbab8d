"""Indices past 2**31, 2**32 and 2**33: a real 4 GiB int8 array (slow, run when
memory allows) and zero-stride broadcast views over more than 2**33 elements."""

import os

import numpy as np
import pytest

import argext


def available_memory():
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # not reported on this platform
        return 0


GIB = 2**30
N = 2**32 + 17


@pytest.fixture(scope="module")
def big_int8():
    """int8 zeros of 2**32 + 17 elements with 1 at 2**32 + 5 and 2**32 + 9 (the
    maximum, twice) and -1 at 2**31 + 3 (the minimum)."""
    if available_memory() < 12 * GIB:
        pytest.skip(f"needs 12 GiB of available memory, os.sysconf reports {available_memory() / GIB:.1f} GiB")
    x = np.zeros(N, np.int8)
    x[2**32 + 5] = 1
    x[2**32 + 9] = 1
    x[2**31 + 3] = -1
    yield x
    del x


@pytest.mark.slow
def test_real_array_past_2_32(big_int8):
    x = big_int8
    assert argext.argmax(x).tolist() == [2**32 + 5]
    assert argext.argmax(x, keepdims=0, select_last_index=1).tolist() == 2**32 + 9
    assert argext.argmin(x[::-1]).tolist() == [N - 1 - (2**31 + 3)]
    assert argext.reduce_argmax(x, [0], axis_direction="decreasing", output_dtype="uint64").tolist() == [2**32 + 9]
    with pytest.raises(OverflowError, match="uint32"):
        argext.reduce_argmax(x, [0], output_dtype="uint32")


@pytest.mark.slow
def test_real_array_past_2_32_in_two_dimensions(big_int8):
    half = (N - 1) // 2  # 2**31 + 8 columns
    x2 = big_int8[: 2 * half].reshape(2, half)
    row1 = argext.argmax(x2, axis=1, keepdims=0).tolist()
    assert row1 == [0, 2**32 + 5 - half]
    assert argext.argmin(x2, axis=1, keepdims=0).tolist() == [2**31 + 3, 0]
    assert argext.reduce_argmax(x2, [0, 1]).tolist() == [[2**32 + 5]]
    assert argext.reduce_argmin(x2, [1, 0], output_dtype="uint64").tolist() == [[2**31 + 3]]


# Zero strides: equal elements in no memory, each step of which is an index.

BIG = 2**33 + 5


@pytest.mark.parametrize("dtype", ["float32", "int64", "uint8"])
def test_one_dimensional_broadcast_past_2_33(dtype):
    x = np.broadcast_to(np.array(3, dtype), (BIG,))
    assert x.strides == (0,)
    assert argext.argmax(x).tolist() == [0]
    assert argext.argmax(x, select_last_index=1).tolist() == [BIG - 1]
    assert argext.argmin(x, keepdims=0, select_last_index=1).tolist() == BIG - 1
    assert argext.reduce_argmax(x, [0], axis_direction="decreasing").tolist() == [BIG - 1]
    assert argext.reduce_argmin(x, [0], output_dtype="uint64").tolist() == [0]


def test_two_dimensional_broadcast_with_a_varying_inner_pattern():
    pattern = np.array([2, 7, -1, 7, 0, -1, 3], np.float32)  # max at 1 and 3, min at 2 and 5
    rows = BIG // pattern.size + 1
    x = np.broadcast_to(pattern, (rows, pattern.size))
    assert x.strides == (0, 4) and x.size > 2**33
    last_row = (rows - 1) * pattern.size
    assert argext.reduce_argmax(x, [0, 1]).tolist() == [[1]]
    assert argext.reduce_argmax(x, [0, 1], axis_direction="decreasing").tolist() == [[last_row + 3]]
    assert argext.reduce_argmin(x, [1, 0]).tolist() == [[2]]
    assert argext.reduce_argmin(x, [0, 1], axis_direction="decreasing", output_dtype="uint64").tolist() == \
        [[last_row + 5]]
    assert argext.argmax(x, axis=0, keepdims=0, select_last_index=1).tolist() == [rows - 1] * pattern.size
    assert argext.argmax(x[-2:], axis=1, keepdims=0, select_last_index=1).tolist() == [3, 3]
    with pytest.raises(OverflowError):
        argext.reduce_argmax(x, [0, 1], output_dtype="uint32")


def test_three_dimensional_broadcast_past_2_33():
    pattern = np.array([[1, 9, 9], [0, 9, 4]], np.int16)  # max 9 at flat 1, 2, 4
    a, b = 2**16 + 3, 2**16 + 1
    x = np.broadcast_to(pattern, (a, b) + pattern.shape)
    assert x.size > 2**33
    block = b * pattern.size
    assert argext.reduce_argmax(x, [0, 1, 2, 3]).tolist() == [[[[1]]]]
    assert argext.reduce_argmax(x, [3, 2, 1, 0], axis_direction="decreasing").tolist() == \
        [[[[(a - 1) * block + (b - 1) * pattern.size + 4]]]]
    per_a = argext.reduce_argmin(x, [1, 2, 3], axis_direction="decreasing")
    assert per_a.shape == (a, 1, 1, 1) and set(per_a.ravel().tolist()) == {(b - 1) * pattern.size + 3}


@pytest.mark.parametrize("output_dtype,count,fits", [
    ("int32", 2**31, True), ("int32", 2**31 + 1, False),
    ("uint32", 2**32, True), ("uint32", 2**32 + 1, False),
])
def test_index_dtype_boundaries(output_dtype, count, fits):
    x = np.broadcast_to(np.float64(-0.0), (count,))
    if fits:
        r = argext.reduce_argmax(x, [0], axis_direction="decreasing", output_dtype=output_dtype)
        assert r.dtype == np.dtype(output_dtype) and r.tolist() == [count - 1]
    else:
        with pytest.raises(OverflowError, match=str(count)):
            argext.reduce_argmax(x, [0], output_dtype=output_dtype)
