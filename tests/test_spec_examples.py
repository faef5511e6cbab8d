"""The worked examples of the spec texts in ../shared/spec, by hand."""

import numpy as np

import argext

DATA = np.array([[2, 1], [3, 10]], dtype=np.float32)
TIES = np.array([[2, 2], [3, 10]], dtype=np.float32)
DML = np.array([[1, 2, 3], [3, 0, 4], [2, 5, 2]], dtype=np.float32)


def test_argmax_examples():
    assert argext.argmax(DATA, axis=1, keepdims=0).tolist() == [0, 1]
    assert argext.argmax(DATA, axis=1, keepdims=1).tolist() == [[0], [1]]
    assert argext.argmax(DATA, keepdims=1).tolist() == [[1, 1]]
    assert argext.argmax(DATA, axis=-1, keepdims=1).tolist() == [[0], [1]]


def test_argmax_select_last_index_examples():
    assert argext.argmax(TIES, axis=1, keepdims=0, select_last_index=1).tolist() == [1, 1]
    assert argext.argmax(TIES, axis=1, keepdims=1, select_last_index=1).tolist() == [[1], [1]]
    assert argext.argmax(TIES, keepdims=1, select_last_index=1).tolist() == [[1, 1]]
    assert argext.argmax(TIES, axis=-1, select_last_index=1).tolist() == [[1], [1]]


def test_argmin_examples():
    assert argext.argmin(DATA, axis=1, keepdims=0).tolist() == [1, 0]
    assert argext.argmin(DATA, keepdims=1).tolist() == [[0, 0]]
    assert argext.argmin(TIES, axis=1, keepdims=0, select_last_index=1).tolist() == [1, 0]


def test_hardmax_examples():
    x = np.array([[3, 0, 1, 2], [2, 5, 1, 0], [0, 1, 3, 2], [0, 1, 2, 3]], dtype=np.float32)
    assert argext.hardmax(x).tolist() == np.eye(4).tolist()
    assert argext.hardmax(np.array([[3, 3, 3, 1]], np.float32)).tolist() == [[1, 0, 0, 0]]


def test_directml_examples():
    assert argext.reduce_argmax(DML, [0], output_dtype="uint32").tolist() == [[1, 2, 1]]
    assert argext.reduce_argmax(DML, [1], output_dtype="uint32").tolist() == [[2], [2], [1]]
    assert argext.reduce_argmax(DML, [0, 1], output_dtype="uint32").tolist() == [[7]]
    ramp = np.array([3, 2, 1, 2, 3], np.float32)
    assert argext.reduce_argmax(ramp, [0]).tolist() == [0]
    assert argext.reduce_argmax(ramp, [0], axis_direction="decreasing").tolist() == [4]
