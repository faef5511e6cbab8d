"""Hardmax versions 1, 11 and 13 against independent references: the spec's
worked examples by hand, the ONNX backend node tests, ONNX Runtime, and the
NumPy reference in tests/reference.py.

The ONNX reference evaluator is not used: it applies the version-13 rule at
every opset, while versions 1 and 11 coerce the input to 2-D.
"""

import numpy as np
import pytest

import argext
from reference import BFLOAT16, FLOAT_DTYPES, INT_DTYPES, UINT_DTYPES, hardmax_reference

OPSETS = (1, 11, 13)
COERCED = {1: True, 11: True, 13: False}
NAN = np.nan


def allowed_dtypes(opset):
    return FLOAT_DTYPES + ([BFLOAT16] if opset >= 13 and BFLOAT16 is not None else [])


def axes(rank, opset):
    """Every axis the version accepts: [0, r-1] at version 1, [-r, r-1] later."""
    return range(0 if opset < 11 else -rank, rank)


def row_sums(y, axis, coerce_2d):
    """How many ones each row holds (a row being what the version one-hots)."""
    y = np.asarray(y, dtype=np.float64)
    axis %= y.ndim
    if coerce_2d:
        return y.reshape(int(np.prod(y.shape[:axis], dtype=np.int64)), -1).sum(axis=1)
    return y.sum(axis=axis)


def assert_same(actual, expected):
    assert actual.dtype == expected.dtype
    assert actual.shape == expected.shape
    np.testing.assert_array_equal(actual.astype(np.float64), expected.astype(np.float64))


# --- the spec's examples, by hand --------------------------------------------


def test_spec_example_default():
    x = np.array([[3, 0, 1, 2], [2, 5, 1, 0], [0, 1, 3, 2], [0, 1, 2, 3]], np.float32)
    y = argext.hardmax(x)
    assert y.dtype == np.float32
    assert y.tolist() == [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]


def test_spec_example_one_hot_first_of_ties():
    assert argext.hardmax(np.array([[3, 3, 3, 1]], np.float32)).tolist() == [[1, 0, 0, 0]]


# A (2, 2, 3) stand-in for the spec's random (3, 4, 5) axis example, worked by hand.
AXIS_X = np.array([[[1, 9, 2], [8, 0, 7]],
                   [[5, 3, 6], [4, 9, 9]]], np.float32)


@pytest.mark.parametrize("axis, expected", [
    (0, [[[0, 1, 0], [1, 0, 0]], [[1, 0, 1], [0, 1, 1]]]),
    (1, [[[0, 1, 0], [1, 0, 1]], [[1, 0, 0], [0, 1, 1]]]),
    (2, [[[0, 1, 0], [1, 0, 0]], [[0, 0, 1], [0, 1, 0]]]),
    (-1, [[[0, 1, 0], [1, 0, 0]], [[0, 0, 1], [0, 1, 0]]]),
    (None, [[[0, 1, 0], [1, 0, 0]], [[0, 0, 1], [0, 1, 0]]]),  # default -1
])
def test_spec_example_axis_version_13(axis, expected):
    assert argext.hardmax(AXIS_X, axis).tolist() == expected
    assert argext.hardmax(AXIS_X, axis, opset=13).tolist() == expected


# Versions 1 and 11: rows of the 2-D [prod(shape[:axis]), prod(shape[axis:])].
@pytest.mark.parametrize("opset", [1, 11])
@pytest.mark.parametrize("axis, expected", [
    (0, [[[0, 1, 0], [0, 0, 0]], [[0, 0, 0], [0, 0, 0]]]),  # one row of 12: first 9
    (1, [[[0, 1, 0], [0, 0, 0]], [[0, 0, 0], [0, 1, 0]]]),  # two rows of 6
    (None, [[[0, 1, 0], [0, 0, 0]], [[0, 0, 0], [0, 1, 0]]]),  # default 1
    (2, [[[0, 1, 0], [1, 0, 0]], [[0, 0, 1], [0, 1, 0]]]),  # four rows of 3
])
def test_spec_coerced_2d_by_hand(opset, axis, expected):
    assert argext.hardmax(AXIS_X, axis, opset=opset).tolist() == expected


@pytest.mark.parametrize("axis, expected", [(-3, 0), (-2, 1), (-1, 2)])
def test_version_11_negative_axis_counts_from_the_back(axis, expected):
    assert argext.hardmax(AXIS_X, axis, opset=11).tolist() == argext.hardmax(
        AXIS_X, expected, opset=11).tolist() == hardmax_reference(AXIS_X, expected, True).tolist()


def test_opsets_resolve_to_their_version():
    """Opsets between versions use the older one: 10 is version 1, 12 is 11."""
    x = AXIS_X
    assert argext.hardmax(x, 1, opset=10).tolist() == hardmax_reference(x, 1, True).tolist()
    assert argext.hardmax(x, 1, opset=12).tolist() == hardmax_reference(x, 1, True).tolist()
    assert argext.hardmax(x, 1, opset=28).tolist() == hardmax_reference(x, 1, False).tolist()
    assert argext.hardmax(x, 1).tolist() == hardmax_reference(x, 1, False).tolist()


# --- the ONNX backend node tests ----------------------------------------------


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # ONNX generating its other node tests
def test_onnx_backend_node_tests():
    pytest.importorskip("onnx")
    from onnx.backend.test.loader import load_model_tests

    cases = [t for t in load_model_tests(kind="node")
             if t.model is not None and [n.op_type for n in t.model.graph.node] == ["Hardmax"]]
    assert {t.name for t in cases} >= {
        "test_hardmax_example", "test_hardmax_one_hot", "test_hardmax_axis_0",
        "test_hardmax_axis_1", "test_hardmax_axis_2", "test_hardmax_negative_axis",
        "test_hardmax_default_axis"}
    for case in cases:
        node = case.model.graph.node[0]
        opset = next(o.version for o in case.model.opset_import if o.domain in ("", "ai.onnx"))
        kwargs = {a.name: a.i for a in node.attribute}
        for inputs, outputs in case.data_sets:
            y = argext.hardmax(inputs[0], kwargs.get("axis"), opset=opset)
            assert y.dtype == outputs[0].dtype, case.name
            np.testing.assert_array_equal(y, outputs[0], err_msg=case.name)


# --- ONNX Runtime, float32, opsets 1, 11, 13 ----------------------------------

ORT_SHAPES = [(7,), (3, 5), (2, 3, 4), (2, 3, 2, 3)]


def ort_hardmax(ort, x, axis, opset):
    from onnx import TensorProto, helper

    node = helper.make_node("Hardmax", ["x"], ["y"], axis=axis)
    graph = helper.make_graph(
        [node], "hardmax",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)
    options = ort.SessionOptions()
    options.log_severity_level = 3  # opset 1 is "legacy" to ORT: silence its warnings
    session = ort.InferenceSession(model.SerializeToString(), options,
                                   providers=["CPUExecutionProvider"])
    return session.run(None, {"x": x})[0]


@pytest.mark.parametrize("opset", OPSETS)
@pytest.mark.parametrize("shape", ORT_SHAPES, ids=str)
def test_onnx_runtime_float32(opset, shape):
    ort = pytest.importorskip("onnxruntime")
    rng = np.random.default_rng(sum(shape) * 100 + opset)
    x = rng.integers(-2, 3, size=shape).astype(np.float32)  # small range: many ties
    for axis in axes(len(shape), opset):
        expected = ort_hardmax(ort, x, axis, opset)
        y = argext.hardmax(x, axis, opset=opset)
        assert_same(y, expected)
        assert (row_sums(y, axis, COERCED[opset]) == 1).all()
        if COERCED[opset] and axis % len(shape) < len(shape) - 1:
            # the coerced rule really differs from the version-13 one here
            assert not np.array_equal(y, hardmax_reference(x, axis, False))


@pytest.mark.parametrize("opset", [1, 11])
def test_onnx_runtime_default_axis_coerces_at_1(opset):
    ort = pytest.importorskip("onnxruntime")
    x = np.random.default_rng(opset).standard_normal((3, 4, 5)).astype(np.float32)
    assert_same(argext.hardmax(x, opset=opset), ort_hardmax(ort, x, 1, opset))


# --- the NumPy reference: every dtype, every layout ---------------------------

SHAPES = [(9,), (4, 7), (3, 4, 5), (2, 3, 2, 4)]


def sample(shape, dtype, rng):
    """Values with ties, +-0.0, +-inf and a few NaNs."""
    x = rng.integers(-2, 3, size=shape).astype(np.float64)
    x[rng.random(shape) < 0.2] = -0.0
    x[rng.random(shape) < 0.05] = np.inf
    x[rng.random(shape) < 0.05] = -np.inf
    x[rng.random(shape) < 0.05] = np.nan
    return x.astype(dtype)


def every(step, ndim):
    return (slice(None, None, step),) * ndim


def layouts(x):
    """(name, view) pairs holding x's values in different memory layouts. The
    strided views sit in NaN-filled buffers: a stray read would win."""
    nd, doubled = x.ndim, tuple(2 * n for n in x.shape)
    strided = np.full(doubled, np.nan, x.dtype)[every(2, nd)]
    backward = np.full(doubled, np.nan, x.dtype)[every(-2, nd)]
    strided[...] = x
    backward[...] = x
    moved = np.moveaxis(np.ascontiguousarray(np.moveaxis(x, 0, -1)), -1, 0)
    out = [("contiguous", x), ("fortran", np.asfortranarray(x)),
           ("reversed", np.ascontiguousarray(x[every(-1, nd)])[every(-1, nd)]),
           ("strided", strided), ("negative_strided", backward), ("axis0_innermost", moved)]
    if x.dtype.kind == "f":  # ml_dtypes' bfloat16 has no byte-swapped form
        out.append(("byteswapped", x.astype(x.dtype.newbyteorder())))
    return out


def dtype_cases():
    return [(o, d) for o in OPSETS for d in allowed_dtypes(o)]


@pytest.mark.parametrize("opset, dtype", dtype_cases(), ids=str)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_numpy_reference_every_dtype_and_layout(opset, dtype, shape):
    rng = np.random.default_rng(len(shape) * 1000 + opset + dtype.itemsize)
    x = sample(shape, dtype, rng)
    for name, view in layouts(x):
        np.testing.assert_array_equal(view.astype(np.float64), x.astype(np.float64), err_msg=name)
        for axis in axes(len(shape), opset):
            y = argext.hardmax(view, axis, opset=opset)
            expected = hardmax_reference(x, axis, COERCED[opset])
            assert y.dtype == dtype, name
            np.testing.assert_array_equal(y.astype(np.float64), expected.astype(np.float64),
                                          err_msg=f"{name} axis={axis}")
            assert (row_sums(y, axis, COERCED[opset]) == 1).all(), name


@pytest.mark.parametrize("opset", OPSETS)
@pytest.mark.parametrize("shape", [(1,), (1, 5), (5, 1), (1, 1, 1), (3, 1, 4, 1), (2,) * 9,
                                   (5, 1500), (1500, 3)], ids=str)
def test_numpy_reference_size_one_dims_high_rank_long_rows(opset, shape):
    x = sample(shape, np.dtype(np.float32), np.random.default_rng(len(shape) + opset))
    for axis in axes(len(shape), opset):
        expected = hardmax_reference(x, axis, COERCED[opset])
        np.testing.assert_array_equal(argext.hardmax(x, axis, opset=opset), expected,
                                      err_msg=f"axis={axis}")


@pytest.mark.parametrize("opset", OPSETS)
def test_numpy_reference_broadcast_input(opset):
    """Zero strides: equal values along a broadcast axis, so the first wins."""
    rng = np.random.default_rng(opset)
    for base, shape in [(rng.standard_normal(5), (4, 5)), (rng.standard_normal((4, 1)), (4, 6)),
                        (rng.standard_normal((3, 1, 2)), (3, 4, 2)), (np.float64(2.0), (3, 3))]:
        x = np.broadcast_to(np.asarray(base, np.float64), shape)
        for axis in axes(len(shape), opset):
            np.testing.assert_array_equal(argext.hardmax(x, axis, opset=opset),
                                          hardmax_reference(x, axis, COERCED[opset]),
                                          err_msg=f"{shape} axis={axis}")


def out_buffers(shape, dtype, sentinel):
    """(name, buffer, index): buffer[index] is a writable view of the output's
    shape, not C-contiguous; the buffer is filled with sentinel."""
    doubled = tuple(2 * n for n in shape)
    return [("every_other", np.full(doubled, sentinel, dtype), every(2, len(shape))),
            ("backwards", np.full(doubled, sentinel, dtype), every(-2, len(shape))),
            ("fortran", np.full(shape, sentinel, dtype, order="F"), ...)]


@pytest.mark.parametrize("opset, dtype", dtype_cases(), ids=str)
@pytest.mark.parametrize("shape", [(5,), (3, 4), (2, 3, 4)], ids=str)
def test_out_views_every_dtype(opset, dtype, shape):
    rng = np.random.default_rng(7 + opset)
    x = sample(shape, dtype, rng)
    for axis in axes(len(shape), opset):
        expected = hardmax_reference(x, axis, COERCED[opset])
        for name, buffer, index in out_buffers(shape, dtype, 7):
            out = buffer[index]
            assert argext.hardmax(x, axis, opset=opset, out=out) is out
            np.testing.assert_array_equal(out.astype(np.float64), expected.astype(np.float64),
                                          err_msg=f"{name} axis={axis}")
            outside = np.ones(buffer.shape, bool)
            outside[index] = False
            assert (buffer[outside].astype(np.float64) == 7).all(), name


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("opset", OPSETS)
def test_out_of_the_other_byte_order(opset, dtype):
    # The one-hot is written in out's own byte order, as NumPy writes into such an out.
    x = sample((4, 5), dtype, np.random.default_rng(opset))
    other = np.dtype(dtype).newbyteorder("S")
    for data in (x, x.astype(other)):
        out = np.full((4, 5), 7, other)
        assert argext.hardmax(data, 1, opset=opset, out=out) is out
        np.testing.assert_array_equal(out.astype(np.float64),
                                      hardmax_reference(x, 1, COERCED[opset]).astype(np.float64))


def test_out_overlapping_the_input():
    x = np.array([[1, 5, 5], [7, 2, 0]], np.float32)
    assert argext.hardmax(x, out=x) is x
    assert x.tolist() == [[0, 1, 0], [1, 0, 0]]
    y = np.array([4, 1, 9, 9, 2, 3], np.float64)
    rev = y[::-1]
    assert argext.hardmax(y, out=rev) is rev
    assert rev.tolist() == [0, 0, 1, 0, 0, 0]


# --- NaN, ties, all-equal rows ------------------------------------------------


@pytest.mark.parametrize("opset, dtype", dtype_cases(), ids=str)
def test_nan_rows_exactly_one_one_at_first_nan(opset, dtype):
    x = np.array([[NAN, 0, 0, 0],       # ONNX Runtime gives an all-zero row here
                  [0, NAN, 5, NAN],
                  [np.inf, 1, 2, NAN],
                  [NAN, NAN, NAN, NAN],
                  [-np.inf, -np.inf, NAN, 3]], np.float64).astype(dtype)
    expected = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1], [1, 0, 0, 0], [0, 0, 1, 0]]
    axis = 1 if opset < 13 else -1  # rows of 4 under both rules
    assert argext.hardmax(x, axis, opset=opset).tolist() == expected
    # along axis 0 (version 13) each column has one 1: at its first NaN, else its max
    if opset >= 13:
        assert argext.hardmax(x, 0, opset=opset).tolist() == [
            [1, 0, 0, 0], [0, 1, 0, 1], [0, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0]]


def test_nan_in_a_coerced_row():
    x = np.zeros((2, 2, 3), np.float32)
    x[0, 1, 2] = NAN
    x[1, 0, 0] = NAN
    x[1, 1, 1] = NAN
    y = argext.hardmax(x, 1, opset=11)
    assert np.argwhere(y).tolist() == [[0, 1, 2], [1, 0, 0]]


@pytest.mark.parametrize("opset, dtype", dtype_cases(), ids=str)
def test_ties_and_signed_zeros_pick_the_first(opset, dtype):
    x = np.array([[0.0, -0.0, 0.0], [-0.0, 0.0, -0.0], [-1, -0.0, 0.0],
                  [2, 2, 2], [-np.inf, -np.inf, -np.inf], [np.inf, 1, np.inf]]).astype(dtype)
    expected = [[1, 0, 0], [1, 0, 0], [0, 1, 0], [1, 0, 0], [1, 0, 0], [1, 0, 0]]
    assert argext.hardmax(x, 1, opset=opset).tolist() == expected


@pytest.mark.parametrize("opset, dtype", dtype_cases(), ids=str)
def test_all_equal_rows(opset, dtype):
    x = np.full((3, 4, 5), 2.5, dtype)
    for axis in axes(3, opset):
        y = argext.hardmax(x, axis, opset=opset)
        np.testing.assert_array_equal(y.astype(np.float64),
                                      hardmax_reference(x, axis, COERCED[opset]).astype(np.float64))
        first = [slice(None)] * 3
        for d in range(axis % 3, 3 if COERCED[opset] else axis % 3 + 1):
            first[d] = 0
        assert (y[tuple(first)] == 1).all() and y.astype(np.float64).sum() == y[tuple(first)].size


# --- size 0 -------------------------------------------------------------------


@pytest.mark.parametrize("opset, dtype", dtype_cases(), ids=str)
@pytest.mark.parametrize("shape", [(0,), (3, 0), (0, 3), (2, 0, 3), (2, 3, 0)], ids=str)
def test_size_zero(opset, dtype, shape):
    x = np.empty(shape, dtype)
    for axis in axes(len(shape), opset):
        y = argext.hardmax(x, axis, opset=opset)
        assert y.shape == shape and y.dtype == dtype
        out = np.empty(shape, dtype)
        assert argext.hardmax(x, axis, opset=opset, out=out) is out


# --- errors, raised before any write ------------------------------------------


def failing(exc, match, *args, **kwargs):
    """hardmax(*args, out=...) raises exc and leaves out as it was."""
    out = kwargs.pop("out")
    before = out.tobytes()
    with pytest.raises(exc, match=match):
        argext.hardmax(*args, out=out, **kwargs)
    assert out.tobytes() == before


DISALLOWED = INT_DTYPES + UINT_DTYPES + [np.dtype(bool), np.dtype(np.complex64)]


@pytest.mark.parametrize("dtype", DISALLOWED, ids=str)
@pytest.mark.parametrize("opset", OPSETS)
def test_disallowed_dtype(dtype, opset):
    x = np.ones((2, 3), dtype)
    with pytest.raises(argext.SpecTypeError, match=f"Hardmax-{opset}.*{dtype}"):
        argext.hardmax(x, 1, opset=opset)
    with pytest.raises(TypeError):
        argext.hardmax(x, 1, opset=opset)
    failing(TypeError, f"Hardmax-{opset}", x, 1, opset=opset, out=np.full((2, 3), 7, np.float32))


@pytest.mark.skipif(BFLOAT16 is None, reason="ml_dtypes is not installed")
@pytest.mark.parametrize("opset, version", [(1, 1), (10, 1), (11, 11), (12, 11)])
def test_bfloat16_before_version_13(opset, version):
    x = np.ones((2, 3), BFLOAT16)
    with pytest.raises(argext.SpecTypeError, match=f"Hardmax-{version}.*bfloat16"):
        argext.hardmax(x, 1, opset=opset)
    failing(TypeError, f"Hardmax-{version}", x, 1, opset=opset, out=np.full((2, 3), 7, BFLOAT16))


@pytest.mark.parametrize("opset", OPSETS)
def test_rank_zero(opset):
    with pytest.raises(argext.SpecError, match=f"Hardmax-{opset}"):
        argext.hardmax(np.float32(3), opset=opset)
    failing(argext.SpecError, f"Hardmax-{opset}", np.array(3, np.float32), 0, opset=opset,
            out=np.full((), 7, np.float32))


@pytest.mark.parametrize("opset, axis", [(1, 2), (1, -1), (1, -3), (11, 2), (11, -3), (13, 2),
                                         (13, -3), (13, 10**20)])
def test_axis_out_of_range(opset, axis):
    x = np.ones((2, 3), np.float32)
    with pytest.raises(argext.SpecError, match=f"Hardmax-{opset}.*axis={axis}"):
        argext.hardmax(x, axis, opset=opset)
    failing(argext.SpecError, f"Hardmax-{opset}", x, axis, opset=opset,
            out=np.full((2, 3), 7, np.float32))


@pytest.mark.parametrize("opset", [1, 11])
def test_default_axis_1_needs_rank_2(opset):
    """Like ONNX Runtime, a rank-1 input has no axis 1."""
    with pytest.raises(argext.SpecError, match=f"Hardmax-{opset}.*axis=1"):
        argext.hardmax(np.ones(4, np.float32), opset=opset)


@pytest.mark.parametrize("axis", [1.0, "1", True])
def test_axis_not_an_integer(axis):
    with pytest.raises(argext.SpecTypeError, match="Hardmax-13.*axis"):
        argext.hardmax(np.ones((2, 3), np.float32), axis)


@pytest.mark.parametrize("opset", [0, -1, 29, 10**20])
def test_opset_out_of_range(opset):
    x = np.ones((2, 3), np.float32)
    with pytest.raises(argext.SpecError, match=f"Hardmax.*opset {opset}"):
        argext.hardmax(x, 1, opset=opset)
    failing(argext.SpecError, "Hardmax", x, 1, opset=opset, out=np.full((2, 3), 7, np.float32))


@pytest.mark.parametrize("opset", [13.0, "13", True])
def test_opset_not_an_integer(opset):
    with pytest.raises(argext.SpecTypeError, match="Hardmax.*opset"):
        argext.hardmax(np.ones((2, 3), np.float32), opset=opset)


@pytest.mark.parametrize("opset", OPSETS)
def test_bad_out_is_untouched(opset):
    x = np.ones((2, 3), np.float32)
    name = f"Hardmax-{opset}"
    failing(TypeError, name, x, 1, opset=opset, out=np.full((2, 3), 7, np.float64))
    failing(ValueError, name, x, 1, opset=opset, out=np.full((3, 2), 7, np.float32))
    failing(ValueError, name, x, 1, opset=opset, out=np.full((2, 3, 1), 7, np.float32))
    read_only = np.full((2, 3), 7, np.float32)
    read_only.flags.writeable = False
    failing(ValueError, name, x, 1, opset=opset, out=read_only)
    with pytest.raises(TypeError, match=name):
        argext.hardmax(x, 1, opset=opset, out=[[0, 0, 0], [0, 0, 0]])


def test_non_array_input():
    with pytest.raises(TypeError, match="Hardmax-13"):
        argext.hardmax([[1.0, 2.0], [3.0]])
    assert argext.hardmax([[1.0, 2.0], [3.0, 0.0]]).tolist() == [[0, 1], [1, 0]]


# --- schema -------------------------------------------------------------------


@pytest.mark.parametrize("opset", range(1, 29))
def test_schema_matches_onnx(opset):
    s = argext.schema("Hardmax", opset)
    since = 1 if opset < 11 else 11 if opset < 13 else 13
    assert s.since_version == since
    assert str(s) == f"Hardmax-{since}"
    assert s.attributes["axis"].default == (-1 if since == 13 else 1)
    floats = {"float16", "float32", "float64"}
    assert set(s.dtypes) == (floats | {"bfloat16"} if since == 13 else floats)
    onnx_defs = pytest.importorskip("onnx.defs")
    ref = onnx_defs.get_schema("Hardmax", opset, "")
    assert ref.since_version == since
    assert s.attributes["axis"].default == ref.attributes["axis"].default_value.i
    assert set(s.type_constraints["T"]) == set(ref.type_constraints[0].allowed_type_strs)


ONNX_NAMES = {"tensor(float16)": "float16", "tensor(bfloat16)": "bfloat16",
              "tensor(float)": "float32", "tensor(double)": "float64"}


@pytest.mark.parametrize("since", [1, 11, 13])
def test_support_matrix_row_matches_onnx(since):
    """The Hardmax rows of `python -m argext`'s support matrix say yes exactly
    for the dtypes of ONNX's type constraint."""
    onnx_defs = pytest.importorskip("onnx.defs")
    from argext.__main__ import support_matrix

    allowed = {ONNX_NAMES[t] for t in
               onnx_defs.get_schema("Hardmax", since, "").type_constraints[0].allowed_type_strs}
    header, *rows = support_matrix().splitlines()
    row = next(r.split() for r in rows if r.split()[0] == f"Hardmax-{since}")
    assert dict(zip(header.split()[1:], row[1:])) == {
        d: "yes" if d in allowed else "-" for d in header.split()[1:]}
